"""``PendingCalls``: the tool calls of a turn still waiting for their result, in call order.

Readers and writers pair a result with a call by id, or (a result without an id) with the
first waiting call of its name, or the first waiting call at all. A list scanned and rebuilt
per result made that quadratic in parallel calls (a turn of 40,000 calls took 20 s); here
every operation is amortised O(1): entries are dropped lazily from per-name and global queues.
"""

from __future__ import annotations

from collections import deque
from typing import Any


class PendingCalls:
    """Calls waiting for a result, in the order they were added. Ids and names may repeat."""

    __slots__ = ("_by_id", "_by_name", "_live", "_next", "_order")

    def __init__(self) -> None:
        self._live: dict[int, tuple[Any, Any]] = {}  # sequence number -> (id, name)
        self._order: deque[int] = deque()
        self._by_name: dict[Any, deque[int]] = {}
        self._by_id: dict[Any, list[int]] = {}
        self._next = 0

    def add(self, call_id: Any, name: Any) -> None:
        """A call now waiting (``call_id`` and ``name`` hashable, either may be None)."""
        seq = self._next
        self._next = seq + 1
        self._live[seq] = (call_id, name)
        self._order.append(seq)
        queue = self._by_name.get(name)
        if queue is None:
            queue = self._by_name[name] = deque()
        queue.append(seq)
        self._by_id.setdefault(call_id, []).append(seq)

    def drop_id(self, call_id: Any) -> None:
        """Every waiting call with ``call_id`` is answered."""
        for seq in self._by_id.pop(call_id, ()):
            self._live.pop(seq, None)

    def take_named(self, name: Any) -> tuple[Any, Any] | None:
        """``(id, name)`` of the first waiting call named ``name`` (None is a name here too),
        now answered; None if no call waiting has that name."""
        return self._take(_first_live(self._by_name.get(name), self._live))

    def take_first(self) -> tuple[Any, Any] | None:
        """``(id, name)`` of the first waiting call, now answered; None if none is waiting."""
        return self._take(_first_live(self._order, self._live))

    def _take(self, seq: int | None) -> tuple[Any, Any] | None:
        # The other queues and the id list keep the number: it is skipped there once dead.
        return None if seq is None else self._live.pop(seq)

    def __len__(self) -> int:
        return len(self._live)

    def __bool__(self) -> bool:
        return bool(self._live)


def _first_live(queue: deque[int] | None, live: dict[int, Any]) -> int | None:
    """The first sequence number of ``queue`` still live; the dead ones before it dropped."""
    if queue is None:
        return None
    while queue:
        seq = queue[0]
        if seq in live:
            return seq
        queue.popleft()
    return None
