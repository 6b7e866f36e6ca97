"""A reader may take apart the values it parsed itself (``Context.owned``), and lets each
message's source go once read: never a value a caller passed in, and never with another
result than reading the caller's value gives."""

from __future__ import annotations

import copy
import warnings

import orjson
import pytest

from bench.generate import generate
from msgviewer.formats import FORMATS, Conversation, base, dumps, loads
from msgviewer.formats.base import Context

WRITABLE = sorted(
    name
    for name, (reads, writes, _) in FORMATS.items()
    if reads and writes and name not in ("claude-code", "codex")  # (JSONL: records, below)
)


@pytest.fixture(scope="module")
def history() -> Conversation:
    return Conversation(tuple(generate(60, 7)))


@pytest.mark.parametrize("name", WRITABLE)
def test_a_callers_value_is_left_as_it_was(
    name: str, history: Conversation, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each item let go as soon as the next is read: a reader looking back would see a gap
    monkeypatch.setattr(base, "_LET_GO_STEP", 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = dumps([history], format=name)
        value = orjson.loads(data)
        before = copy.deepcopy(value)
        from_value = loads(value, format=name)
        from_bytes = loads(data, format=name)
    assert value == before
    assert from_value == from_bytes and from_bytes[0].messages


def test_each_lets_items_go_only_when_owned(monkeypatch: pytest.MonkeyPatch) -> None:
    items = [{"a": 1}, {"b": 2}, {"c": 3}]
    seen = [item for _, item in Context().each(items)]
    assert seen == items == [{"a": 1}, {"b": 2}, {"c": 3}]
    monkeypatch.setattr(base, "_LET_GO_STEP", 2)  # (let go two at a time)
    walk = Context(owned=True).each(items)
    assert next(walk) == (0, {"a": 1}) and next(walk) == (1, {"b": 2})
    assert items == [{"a": 1}, {"b": 2}, {"c": 3}]  # (those being read are kept)
    assert next(walk) == (2, {"c": 3}) and items == [None, None, {"c": 3}]
    assert list(walk) == [] and items == [None, None, None]
