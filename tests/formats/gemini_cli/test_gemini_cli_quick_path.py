"""The quick reading of common Gemini CLI records reads exactly as the careful reader does."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from msgviewer.formats.gemini_cli.quick import read_record
from tests.formats.quick_checks import (
    as_bytes,
    assert_same_reading,
    corpus_files,
    generated,
    mutate,
    patched,
)

NAME = "gemini-cli"
read_module = importlib.import_module("msgviewer.formats.gemini_cli.read")


@contextmanager
def careful_only() -> Iterator[None]:
    yield from patched(read_module, "read_record", lambda record, result_text: None)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_generated_files_read_the_same(seed: int) -> None:
    assert_same_reading(generated(NAME, 1500, seed), NAME, careful_only)


def test_corpus_files_read_the_same() -> None:
    for path in corpus_files(NAME):
        assert_same_reading(path.read_bytes(), NAME, careful_only)


_BASE = orjson.loads(generated(NAME, 40, 7))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_off_shape_records_read_the_same(data: st.DataObject) -> None:
    doc = mutate(data, _BASE, "messages")
    assert_same_reading(as_bytes(doc), NAME, careful_only)


def _turn(**fields: Any) -> dict[str, Any]:
    call = {"id": "c1", "name": "run", "args": {}, "result": "done", "status": "success"}
    record = {
        "id": "m1",
        "type": "gemini",
        "content": "ok",
        "thoughts": [{"subject": "s", "description": "d"}],
        "tokens": {"input": 5, "output": 2, "thoughts": 1, "total": 8},
        "model": "gemini-2.5-pro",
        "toolCalls": [call],
    }
    record.update(fields)
    return {k: v for k, v in record.items() if v != "absent"}


_OFF_SHAPE = [
    _turn(),
    _turn(thoughts=[]),
    _turn(thoughts=None),
    _turn(toolCalls=[]),
    _turn(toolCalls=None),
    _turn(tokens=None),
    _turn(tokens={"input": 5, "output": 2}),  # no total: input + output
    _turn(thoughts=None, toolCalls=None, tokens=None, model=None),
    _turn(thoughts="absent", toolCalls="absent", tokens="absent", model="absent"),
    _turn(thoughts=[{"subject": "s"}]),
    _turn(thoughts=[{"description": 3}]),
    _turn(thoughts=["d"]),
    _turn(tokens={"input": False, "output": 0.0, "total": None}),
    _turn(tokens={"input": 1.5}),
    _turn(tokens={"input": True}),
    _turn(tokens={}),
    _turn(tokens=[]),
    _turn(content=""),
    _turn(content=[{"text": "a"}]),
    _turn(content="absent"),
    _turn(id=None),
    _turn(id="absent"),
    _turn(extra=1),
    _turn(type="info"),
    _turn(toolCalls=[{"id": None, "name": "run", "args": {}}]),
    _turn(toolCalls=[{"id": "c1", "name": "run"}]),
    _turn(toolCalls=[{"id": "c1", "name": "run", "args": []}]),
    _turn(toolCalls=[{"id": "c1", "name": 3, "args": {}}]),
    _turn(toolCalls=[{"id": "c1", "name": "run", "args": {}, "result": None, "status": "error"}]),
    _turn(toolCalls=[{"id": "c1", "name": "run", "args": {}, "result": [{"x": 1}]}]),
    _turn(toolCalls=["c1"]),
    {"id": "u1", "type": "user", "content": "hi"},
    {"id": "u1", "type": "user", "content": "hi", "displayContent": "hi"},
    {"id": "u1", "type": "user", "content": [{"text": "hi"}, "there"]},
    {"id": "u1", "type": "user"},
    {"type": "user", "content": "hi"},
    {"id": "u1", "type": "warning", "content": "careful"},
    {"id": "u1", "type": "other", "content": "hi"},
    "hi",
]


@pytest.mark.parametrize("record", _OFF_SHAPE)
def test_off_shape_records_read_the_same_one_by_one(record: Any) -> None:
    session = {"sessionId": "s", "projectHash": "p", "messages": [record]}
    assert_same_reading(as_bytes(session), NAME, careful_only)


def _result(call_id: str, name: str, response: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"functionResponse": {"id": call_id, "name": name, "response": response}}]


@pytest.mark.parametrize(
    "result",
    [
        _result("c1", "run", {"output": "done"}),
        _result("c1", "run", {"error": "failed"}),
        _result("c1", "run", {"output": 3}),
        _result("c2", "run", {"output": "done"}),
        _result("c1", "ls", {"output": "done"}),
        _result("c1", "run", {"output": "done", "more": 1}),
        [{"functionResponse": {"id": "c1", "name": "run", "response": {"output": "a"}, "x": 1}}],
        [{"functionResponse": {"id": "c1", "name": "run", "response": {"output": "a"}}}, "b"],
        {"functionResponse": {"id": "c1", "name": "run", "response": {"output": "a"}}},
        "plain text",
        {"anything": [1, 2]},
    ],
)
def test_call_results_read_the_same(result: Any) -> None:
    call = {"id": "c1", "name": "run", "args": {}, "result": result, "status": "success"}
    session = {"sessionId": "s", "projectHash": "p", "messages": [_turn(toolCalls=[call])]}
    assert_same_reading(as_bytes(session), NAME, careful_only)


def test_common_shapes_take_the_quick_way() -> None:
    records = orjson.loads(generated(NAME, 300, 0))["messages"]
    turns = [r for r in records if r["type"] in ("user", "gemini")]
    assert len(turns) == len(records) - 1  # the system prompt is an info note
    assert all(read_record(r, read_module.result_text) is not None for r in turns)
