"""The quick reading of common Anthropic messages reads exactly as the careful reader does."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from msgviewer import loads
from tests.formats.quick_checks import (
    as_bytes,
    assert_same_reading,
    corpus_files,
    generated,
    mutate,
    patched,
)

NAME = "anthropic"
read_module = importlib.import_module("msgviewer.formats.anthropic.read")


def _careful_messages(items: list[Any], reader: Any, path: str, careful: Any) -> list[Any]:
    """The reading before the quick one: every message by ``read_message``."""
    return [careful(m, reader, f"{path}[{i}]") for i, m in enumerate(items)]


@contextmanager
def careful_only() -> Iterator[None]:
    yield from patched(read_module, "read_messages", _careful_messages)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_generated_files_read_the_same(seed: int) -> None:
    assert_same_reading(generated(NAME, 1500, seed), NAME, careful_only)


def test_corpus_files_read_the_same() -> None:
    for path in corpus_files(NAME):
        assert_same_reading(path.read_bytes(), NAME, careful_only)


def test_a_bare_list_of_messages_reads_the_same() -> None:
    doc = orjson.loads(generated(NAME, 200, 3))
    assert_same_reading(as_bytes(doc["messages"]), NAME, careful_only)


_BASE = orjson.loads(generated(NAME, 40, 7))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_off_shape_messages_read_the_same(data: st.DataObject) -> None:
    doc = mutate(data, _BASE, "messages")
    assert_same_reading(as_bytes(doc), NAME, careful_only)


_USE = {"type": "tool_use", "id": "t1", "name": "run", "input": {}}
_TEXT = {"type": "text", "text": "hi"}
_OFF_SHAPE = [
    [_USE, _TEXT],  # a call before text: its place is noted
    [_TEXT, _USE, _TEXT, _USE],
    [{**_USE, "cache_control": {"type": "ephemeral"}}],
    [{**_USE, "input": []}],
    [{**_USE, "id": 3}],
    [{**_TEXT, "citations": None}],
    [{**_TEXT, "text": None}],
    [{"type": "thinking", "thinking": "hm", "signature": None}],
    [{"type": "thinking", "thinking": "hm"}],
    [{"type": "redacted_thinking", "data": "xx"}],
    [{"type": "tool_result", "tool_use_id": "t1", "content": "ok", "is_error": False}],
    [{"type": "tool_result", "tool_use_id": "t1", "content": "ok", "is_error": True}],
    [{"type": "tool_result", "tool_use_id": "t1", "content": "ok", "is_error": None}],
    [{"type": "tool_result", "tool_use_id": "t1", "content": [_TEXT]}],
    [{"type": "tool_result", "tool_use_id": "t1", "content": "ok", "cache_control": {}}],
    [{"type": "tool_result", "tool_use_id": "t1"}],
    [{"type": "mystery", "x": 1}],
    [{"type": "search_result", "x": 1}],
    [{"text": "no type"}],
    ["text"],
    [],
]


@pytest.mark.parametrize("role", ["user", "assistant"])
@pytest.mark.parametrize("content", _OFF_SHAPE)
def test_off_shape_content_reads_the_same(role: str, content: list[Any]) -> None:
    messages = [{"role": "assistant", "content": [_USE]}, {"role": role, "content": content}]
    assert_same_reading(as_bytes({"system": "s", "messages": messages}), NAME, careful_only)


@pytest.mark.parametrize(
    "message",
    [
        {"role": "user", "content": None},
        {"role": "user", "content": 3},
        {"role": "user", "content": "hi", "id": "m1"},
        {"role": "system", "content": "hi"},
        {"role": "user", "text": "hi"},
        {"content": "hi", "role": "assistant"},
        "hi",
    ],
)
def test_off_shape_messages_read_the_same_one_by_one(message: Any) -> None:
    assert_same_reading(as_bytes({"system": "s", "messages": [message]}), NAME, careful_only)


def test_a_result_shares_the_string_of_its_call_id() -> None:
    result = {"type": "tool_result", "tool_use_id": "t1", "content": "ok"}
    messages = [{"role": "assistant", "content": [_USE]}, {"role": "user", "content": [result]}]
    [conv] = loads(as_bytes({"system": "s", "messages": messages}), format=NAME)  # two strings
    assert conv.messages[2].content[0].tool_call_id is conv.messages[1].tool_calls[0].id
