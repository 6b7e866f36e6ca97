"""``PendingCalls`` answers exactly as the list of waiting calls it replaces: ids dropped, the
first call of a name or the first call at all taken, whatever the order of operations."""

from __future__ import annotations

import random

import pytest

from msgviewer.core.pending import PendingCalls


class _ListModel:
    """The plain list the readers and writers used: scanned and rebuilt per result."""

    def __init__(self) -> None:
        self.items: list[tuple[str | None, str | None]] = []

    def add(self, call_id: str | None, name: str | None) -> None:
        self.items.append((call_id, name))

    def drop_id(self, call_id: str | None) -> None:
        self.items = [p for p in self.items if p[0] != call_id]

    def take_named(self, name: str | None) -> tuple[str | None, str | None] | None:
        for k, p in enumerate(self.items):
            if p[1] == name:
                return self.items.pop(k)
        return None

    def take_first(self) -> tuple[str | None, str | None] | None:
        return self.items.pop(0) if self.items else None


@pytest.mark.parametrize("seed", range(8))
def test_pending_calls_answer_as_the_list_did(seed: int) -> None:
    rng = random.Random(seed)
    ids = [None, "a", "b", "c", "d"]
    names = [None, "read", "write", "run"]
    fast, model = PendingCalls(), _ListModel()
    for _ in range(3000):
        op = rng.random()
        if op < 0.45:
            call = (rng.choice(ids), rng.choice(names))
            fast.add(*call)
            model.add(*call)
        elif op < 0.6:
            call_id = rng.choice(ids)
            fast.drop_id(call_id)
            model.drop_id(call_id)
        elif op < 0.8:
            name = rng.choice(names)
            assert fast.take_named(name) == model.take_named(name)
        else:
            assert fast.take_first() == model.take_first()
        assert len(fast) == len(model.items)
        assert bool(fast) == bool(model.items)


def test_a_dropped_id_is_never_taken_and_names_keep_call_order() -> None:
    pending = PendingCalls()
    for k in range(6):
        pending.add(f"c{k}", "read" if k % 2 else "write")
    pending.drop_id("c1")
    assert pending.take_named("read") == ("c3", "read")
    assert pending.take_first() == ("c0", "write")
    assert pending.take_named("missing") is None
    assert [pending.take_first() for _ in range(4)] == [
        ("c2", "write"),
        ("c4", "write"),
        ("c5", "read"),
        None,
    ]
