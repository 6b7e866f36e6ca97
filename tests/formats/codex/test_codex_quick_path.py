"""The quick way through a rollout's common lines gives what the careful way gives: the same
conversation (key orders included), the same warnings, the same errors, the same bytes written
back; on generated histories, on real rollouts, and on lines a little off the common shapes."""

from __future__ import annotations

import copy
import warnings
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.generate import generate
from msgviewer.core.errors import MsgviewerError
from msgviewer.formats import FormatError, dumps, load
from msgviewer.formats.base import Context
from msgviewer.formats.codex.read import Rollout, read, read_carefully
from msgviewer.formats.io import parse
from tests.corpus import CORPUS as ALL_CORPUS

from ..format_checks import SAMPLES

CORPUS = ALL_CORPUS / "codex"
SAMPLE = SAMPLES / "codex-rollout.jsonl"
_FILE = "rollout.jsonl"


def _outcome(reader: Any, data: bytes, owned: bool = False) -> Any:
    """What ``reader`` makes of a rollout's bytes: its conversation shown with every key order
    (``repr``), the bytes it writes back, and the warnings said; or the error it says."""
    parsed = parse(data, _FILE)
    records, lines = parsed.records, parsed.lines
    if records is None:  # one line: one record (as ``load`` reads it)
        records, lines = [parsed.value], [1]
    before = orjson.dumps(records)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        try:
            ctx = Context(file=_FILE, lines=lines, owned=owned)
            convs = reader(copy.deepcopy(records) if owned else records, ctx)
            written = [dumps(c, format="codex") for c in convs]
        except MsgviewerError as exc:
            return ("error", str(exc), getattr(exc, "line", None), getattr(exc, "path", None))
    assert orjson.dumps(records) == before  # the lines are left as they were parsed
    texts = [f"{w.category.__name__}: {w.message}" for w in said]
    return convs, repr(convs), written, texts


def _same(data: bytes) -> None:
    careful = _outcome(read_carefully, data)
    assert _outcome(read, data) == careful
    # lines of this read alone, let go as they are read
    assert _outcome(read, data, owned=True) == careful


def _jsonl(lines: list[Any]) -> bytes:
    return b"".join(orjson.dumps(line) + b"\n" for line in lines)


def _generated(n: int, seed: int) -> bytes:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return dumps(generate(n, seed), format="codex")


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_generated_histories_read_the_same(seed: int) -> None:
    _same(_generated(400, seed))


def test_the_sample_reads_the_same() -> None:
    _same(SAMPLE.read_bytes())


@pytest.mark.skipif(not CORPUS.is_dir(), reason="no corpus of real rollouts on this machine")
@pytest.mark.parametrize(
    "name", sorted(p.name for p in CORPUS.glob("*.jsonl")) if CORPUS.is_dir() else []
)
def test_real_rollouts_read_the_same(name: str) -> None:
    _same((CORPUS / name).read_bytes())


def test_common_lines_take_the_quick_way(monkeypatch: pytest.MonkeyPatch) -> None:
    careful: list[Any] = []
    line = Rollout.line

    def counted(self: Rollout, r: int, rec: Any) -> None:
        careful.append(rec)
        line(self, r, rec)

    monkeypatch.setattr(Rollout, "line", counted)
    data = _generated(400, 0)
    parsed = parse(data, _FILE)
    read(parsed.records, Context(file=_FILE, lines=parsed.lines))
    # only the header lines and the user messages with an image go the careful way
    odd = [
        rec
        for rec in careful
        if rec["type"] == "response_item" and "input_image" not in orjson.dumps(rec).decode()
    ]
    assert odd == [] and len(careful) < len(parsed.records) / 20


# -- lines a little off the common shapes -------------------------------------------------

_TS = "2025-01-01T00:00:00.000Z"


def _line(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": _TS, "type": kind, "payload": payload}


def _usage(n: int) -> dict[str, int]:
    return {
        "input_tokens": n,
        "cached_input_tokens": 1,
        "output_tokens": 2,
        "reasoning_output_tokens": 1,
        "total_tokens": n + 2,
    }


_SHAPES = [
    _line("session_meta", {"id": "s", "cwd": "/"}),
    _line("turn_context", {"model": "gpt-5"}),
    _line("response_item", {"type": "message", "role": "user", "content": "hi"}),
    _line(
        "response_item",
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go"}]},
    ),
    _line("event_msg", {"type": "user_message", "message": "go", "images": []}),
    _line("response_item", {"type": "reasoning", "summary": [], "encrypted_content": "e"}),
    _line(
        "response_item",
        {"type": "function_call", "name": "shell", "arguments": '{"a": 1}', "call_id": "c1"},
    ),
    _line("event_msg", {"type": "token_count", "info": {"last_token_usage": _usage(5)}}),
    _line("response_item", {"type": "function_call_output", "call_id": "c1", "output": "ok"}),
    _line(
        "response_item",
        {
            "type": "function_call_output",
            "call_id": "c1",
            "output": '{"output":"ok","metadata":{"exit_code":1}}',
        },
    ),
    _line(
        "response_item",
        {"type": "custom_tool_call_output", "call_id": "c2", "output": "done"},
    ),
    _line(
        "response_item",
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "done"}],
            "phase": "final",
        },
    ),
    _line("response_item", {"role": "assistant", "content": "plain"}),
    _line("event_msg", {"type": "agent_message", "message": "done"}),
    _line(
        "event_msg",
        {
            "type": "token_count",
            "info": {"total_token_usage": _usage(9), "last_token_usage": _usage(4)},
        },
    ),
    _line("event_msg", {"type": "task_complete"}),
]

_ODD_VALUES = st.sampled_from(
    [None, 0, 3, True, 1.5, "", "x", "assistant", "developer", "user", "message",
     "function_call", "function_call_output", "token_count", "agent_message", "input_text",
     "output_text", "text", "{}", '{"n": 12345678901234567890}', "[1]", '{"output":"o"}', [],
     {}, [{"type": "input_text", "text": "t"}], [{"type": "output_text", "text": "t", "x": 1}],
     {"last_token_usage": {}}, _usage(1), 12345678901234567890]
)  # fmt: skip
_PATHS = st.sampled_from(
    [("timestamp",), ("type",), ("payload",), ("extra",), ("payload", "type"),
     ("payload", "role"), ("payload", "content"), ("payload", "content", 0),
     ("payload", "content", 0, "type"), ("payload", "content", 0, "text"),
     ("payload", "content", 0, "annotations"), ("payload", "id"), ("payload", "name"),
     ("payload", "arguments"), ("payload", "call_id"), ("payload", "output"),
     ("payload", "status"), ("payload", "message"), ("payload", "info"),
     ("payload", "info", "last_token_usage"), ("payload", "info", "total_token_usage"),
     ("payload", "info", "last_token_usage", "input_tokens"),
     ("payload", "info", "last_token_usage", "total_tokens"), ("payload", "x")]
)  # fmt: skip


def _changed(line: Any, path: tuple[Any, ...], new: Any, delete: bool) -> Any:
    """``line`` with the value at ``path`` set to ``new`` (or deleted), where the path leads."""
    line = copy.deepcopy(line)
    target = line
    for key in path[:-1]:
        found = (isinstance(target, dict) and key in target) or (
            isinstance(target, list) and isinstance(key, int) and len(target) > key
        )
        if not found:
            return line
        target = target[key]
    last = path[-1]
    if isinstance(target, dict):
        if delete:
            target.pop(last, None)
        else:
            target[last] = new
    elif isinstance(target, list) and isinstance(last, int) and len(target) > last:
        if delete:
            del target[last]
        else:
            target[last] = new
    return line


_SMALL = _generated(60, 5).splitlines()
_change = st.tuples(st.integers(0, 10**6), _PATHS, _ODD_VALUES, st.booleans())


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(range(len(_SHAPES))), min_size=1, max_size=12),
    st.lists(_change, max_size=3),
    st.booleans(),
)
def test_lines_off_the_common_shapes_read_the_same(
    picks: list[int], changes: list[tuple[int, tuple[Any, ...], Any, bool]], events_only: bool
) -> None:
    lines = [_SHAPES[i] for i in picks]
    if events_only:  # a rollout whose messages are events: its message items left out
        lines = [x for x in lines if x["payload"].get("role") not in ("user", "assistant")]
    if not lines:
        return
    for where, path, new, delete in changes:
        i = where % len(lines)
        lines[i] = _changed(lines[i], path, new, delete)
    _same(_jsonl(lines))


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10**6), _PATHS, _ODD_VALUES, st.booleans())
def test_a_generated_line_off_its_shape_reads_the_same(
    where: int, path: tuple[Any, ...], new: Any, delete: bool
) -> None:
    lines = [orjson.loads(x) for x in _SMALL]
    i = where % len(lines)
    lines[i] = _changed(lines[i], path, new, delete)
    _same(_jsonl(lines))


def test_a_line_nested_too_deeply_is_named_after_lines_let_go(tmp_path: Path) -> None:
    common = _jsonl(_SHAPES * 3)  # (read from a file: the lines read are let go)
    deep = '{"timestamp":"x","type":' + "[" * 1000 + "0" + "]" * 1000 + ',"payload":{}}'
    path = tmp_path / "rollout.jsonl"
    path.write_bytes(common + deep.encode() + b"\n")
    with pytest.raises(FormatError) as caught, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        load(path, format="codex")
    assert caught.value.line == 3 * len(_SHAPES) + 1
    assert "nested too deeply to read (1001 levels)" in str(caught.value)
    assert caught.value.path.startswith("$.type[0][0]")


class _Text(str):
    """A string of another type, as a caller's own values may hold."""


@pytest.mark.parametrize(
    "payload",
    [
        {"type": "function_call", "name": "f", "arguments": '{"a": "\ud800"}', "call_id": "c"},
        {"type": "function_call", "name": _Text("f"), "arguments": "{}", "call_id": "c"},
        {"type": "function_call_output", "call_id": "c", "output": _Text("ok")},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "\ud800"}]},
        {"type": "message", "role": _Text("user"), "content": "hi"},
    ],
)
def test_values_given_as_is_read_the_same(payload: dict[str, Any]) -> None:
    """Values a caller passes (not parsed from JSON) may be what no parse gives."""
    lines = [_SHAPES[1], _line("response_item", payload), _SHAPES[7]]

    def outcome(reader: Any) -> Any:
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            try:
                convs = reader(copy.deepcopy(lines), Context(lines=[1, 2, 3]))
            except MsgviewerError as exc:
                return ("error", str(exc))
        return convs, repr(convs), [str(w.message) for w in said]

    assert outcome(read) == outcome(read_carefully)


@pytest.mark.parametrize(
    "arguments",
    [
        '{"n": 123456789012345678901234567890}',  # read exactly by the careful reader
        '{"n": -9223372036854775809, "x": 1}',
        '{"deep": {"n": 123456789012345678901234567890}}',
        '{"id": "1234567890123456789012345"}',  # digits in a string: the same value
        '{"n": 1.5, "id": "1234567890123456789012345"}',
        '{"n": 12345678901234567890.5}',
        "[1, 2]",
        "",
    ],
)
def test_call_arguments_with_long_numbers_read_the_same(arguments: str) -> None:
    call = {"type": "function_call", "name": "f", "arguments": arguments, "call_id": "c"}
    _same(_jsonl([_line("response_item", call)]))
