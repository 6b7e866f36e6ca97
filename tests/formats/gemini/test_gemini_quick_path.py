"""The quick reading of common Gemini contents reads exactly as the careful reader does."""

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
from msgviewer.formats.gemini import quick
from tests.formats.quick_checks import (
    as_bytes,
    assert_same_reading,
    corpus_files,
    generated,
    mutate,
    patched,
)

NAME = "gemini"
read_module = importlib.import_module("msgviewer.formats.gemini.read")


def _careful_contents(contents: list[Any], reader: Any, path: str) -> list[Any]:
    """The reading before the quick one: every content by the careful reader."""
    return [m for i, c in enumerate(contents) for m in reader.content(c, i, f"{path}[{i}]")]


@contextmanager
def careful_only() -> Iterator[None]:
    yield from patched(read_module, "read_contents", _careful_contents)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_generated_files_read_the_same(seed: int) -> None:
    assert_same_reading(generated(NAME, 1500, seed), NAME, careful_only)


def test_corpus_files_read_the_same() -> None:
    for path in corpus_files(NAME):
        assert_same_reading(path.read_bytes(), NAME, careful_only)


def test_a_bare_list_of_contents_reads_the_same() -> None:
    doc = orjson.loads(generated(NAME, 200, 3))
    assert_same_reading(as_bytes(doc["contents"]), NAME, careful_only)


_BASE = orjson.loads(generated(NAME, 40, 7))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_off_shape_contents_read_the_same(data: st.DataObject) -> None:
    doc = mutate(data, _BASE, "contents")
    assert_same_reading(as_bytes(doc), NAME, careful_only)


def _call(call_id: str, name: str) -> dict[str, Any]:
    return {"functionCall": {"id": call_id, "name": name, "args": {}}}


def _answer(name: str, call_id: str | None = None) -> dict[str, Any]:
    fr: dict[str, Any] = {"name": name, "response": {"output": "ok"}}
    if call_id is not None:
        fr["id"] = call_id
    return {"functionResponse": fr}


def test_results_without_ids_answer_the_calls_a_quick_turn_left_waiting() -> None:
    contents = [
        {"role": "model", "parts": [_call("a", "run"), _call("b", "run"), _call("c", "ls")]},
        {"role": "user", "parts": [_answer("run", "a")]},  # quick: "a" answered
        {"role": "user", "parts": [_answer("run"), _answer("ls")]},  # careful: pairs b, c
        {"role": "model", "parts": [_call("d", "run")]},
        {"role": "user", "parts": [_answer("run")]},
    ]
    [conv] = loads({"contents": contents}, format=NAME)
    assert [m.tool_call_id for m in conv.messages if m.role == "tool"] == ["a", "b", "c", "d"]
    assert_same_reading(as_bytes({"contents": contents}), NAME, careful_only)


_TEXT = {"text": "hi"}
_OFF_SHAPE = [
    [_call("a", "run"), _TEXT],  # text after a call: the call's place is noted
    [{"text": "hm", "thought": False}],
    [{"text": "hm", "thought": True, "thoughtSignature": "c2ln"}],
    [{"functionCall": {"name": "run", "args": {}}}],  # no id: one is made up
    [{"functionCall": {"id": "a", "name": "run", "args": {}, "willContinue": True}}],
    [{"function_call": {"id": "a", "name": "run", "args": {}}}],
    [{"inlineData": {"mimeType": "image/png", "data": "iVBO"}}],
    [{"text": None, "functionCall": {"id": "a", "name": "run", "args": {}}}],
    [{"videoMetadata": {}}],
    ["text"],
]
_OFF_SHAPE_RESULTS = [
    [{"functionResponse": {"id": "a", "name": "run", "response": {"output": '{"a": 1}'}}}],
    [{"functionResponse": {"id": "a", "name": "run", "response": {"output": "{not json"}}}],
    [{"functionResponse": {"id": "a", "name": "run", "response": {"error": "boom"}}}],
    [{"functionResponse": {"id": "a", "name": "run", "response": {"output": 3}}}],
    [{"functionResponse": {"id": "a", "name": "run", "response": {"result": "ok"}}}],
    [{"functionResponse": {"id": "a", "name": 3, "response": {"output": "ok"}}}],
    [{"functionResponse": {"id": "a", "name": "run", "response": {}}, "thought": True}],
    [_TEXT, {"functionResponse": {"id": "a", "name": "run", "response": {"output": "ok"}}}],
    [],
]


@pytest.mark.parametrize("parts", _OFF_SHAPE)
def test_off_shape_model_turns_read_the_same(parts: list[Any]) -> None:
    contents = [{"role": "user", "parts": [_TEXT]}, {"role": "model", "parts": parts}]
    assert_same_reading(as_bytes({"contents": contents}), NAME, careful_only)


@pytest.mark.parametrize("parts", _OFF_SHAPE + _OFF_SHAPE_RESULTS)
def test_off_shape_user_turns_read_the_same(parts: list[Any]) -> None:
    contents = [{"role": "model", "parts": [_call("a", "run")]}, {"role": "user", "parts": parts}]
    assert_same_reading(as_bytes({"contents": contents}), NAME, careful_only)


def test_common_shapes_take_the_quick_way() -> None:
    doc = orjson.loads(generated(NAME, 300, 0))
    taken = [c for c in doc["contents"] if _quick_takes(c)]
    assert len(taken) > 0.9 * len(doc["contents"])


def _quick_takes(content: dict[str, Any]) -> bool:
    if content["role"] == "model":
        return quick._model(content["parts"]) is not None
    return quick._user(content["parts"], []) is not None
