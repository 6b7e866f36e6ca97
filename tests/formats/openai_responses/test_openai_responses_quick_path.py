"""The quick reader of common Responses items (``quick``) gives exactly what the careful one
(``ItemReader`` alone) gives: conversations (key order of every dict included), warnings,
errors and what they write back, on generated files, on the corpus and on off-shape items."""

from __future__ import annotations

import copy
import importlib
import warnings
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.generate import generate
from msgviewer.formats import FormatError, dumps, loads
from msgviewer.formats.base import Context
from msgviewer.formats.openai_responses.read_items import ItemReader
from tests.corpus import CORPUS as ALL_CORPUS

NAME = "openai-responses"
CORPUS = ALL_CORPUS / NAME
read_module = importlib.import_module("msgviewer.formats.openai_responses.read")


def careful_items(items: list[Any], ctx: Context, path: str) -> list[Any]:
    """Every item through the careful reader, as the format read them before ``quick``."""
    reader = ItemReader(ctx)
    for i, item in enumerate(items):
        reader.add(item, f"{path}[{i}]")
    return reader.messages()


def outcome(data: Any) -> tuple[Any, ...]:
    """What reading ``data`` gives, in a form where equal means the same to the last key."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            conversations = loads(copy.deepcopy(data), format=NAME)
        except FormatError as exc:
            return ("error", str(exc), exc.what, exc.file, exc.line, exc.path)
        back = written(conversations)
    said = [(w.category, str(w.message)) for w in caught]
    # repr shows every dict in its own key order, which == does not compare
    return conversations, repr(conversations), said, back


def written(conversations: Any) -> bytes | str:
    try:
        return dumps(conversations[0], format=NAME)
    except Exception as exc:  # the same failure either way is the same result
        return f"{type(exc).__name__}: {exc}"


def both(data: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    quick = outcome(data)
    with monkeypatch.context() as patched:
        patched.setattr(read_module, "read_items", careful_items)
        careful = outcome(data)
    return quick, careful


def assert_same(data: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    quick, careful = both(data, monkeypatch)
    assert quick[1:] == careful[1:]
    assert quick[0] == careful[0]


def generated(n: int, seed: int) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (what the format cannot carry)
        return orjson.loads(dumps(generate(n, seed), format=NAME))


# -- generated files ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2, 7])
def test_generated_files_read_the_same(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    assert_same(generated(400, seed), monkeypatch)


def test_generated_items_as_a_bare_list_read_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    assert_same(generated(200, 3)["input"], monkeypatch)


def test_generated_files_go_the_quick_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """Otherwise the comparisons above would compare the careful reader with itself."""
    handed: list[Any] = []
    monkeypatch.setattr(ItemReader, "add", lambda self, item, path, stamp=None: handed.append(path))
    loads(generated(400, 0), format=NAME)
    assert handed == []


# -- the corpus -----------------------------------------------------------------------------


def _corpus_files() -> list[Path]:
    return sorted(CORPUS.glob("*.json")) if CORPUS.is_dir() else []


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no corpus of real files at {CORPUS}")
@pytest.mark.parametrize("path", _corpus_files(), ids=lambda p: p.name)
def test_corpus_files_read_the_same(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert_same(orjson.loads(path.read_bytes()), monkeypatch)


# -- off-shape items ------------------------------------------------------------------------


def _function_call(call_id: str, arguments: str) -> dict[str, Any]:
    return {"type": "function_call", "call_id": call_id, "name": "f", "arguments": arguments}


_ITEMS: list[dict[str, Any]] = [
    {"role": "system", "content": "be brief"},
    {"role": "developer", "content": "be kind"},
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]},
    {"role": "user", "content": "plain", "id": "msg_u"},
    {
        "type": "message",
        "role": "user",
        "content": [
            {"type": "input_text", "text": "look"},
            {"type": "input_image", "image_url": "data:image/png;base64,iVBO", "detail": "auto"},
            {"type": "input_image", "file_id": "file_1"},
        ],
    },
    {"role": "user", "content": [{"type": "input_image", "image_url": "https://a.b/c.png"}]},
    {"role": "assistant", "content": "sure"},
    {"role": "assistant", "content": ""},
    {
        "type": "message",
        "id": "msg_1",
        "status": "completed",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "done", "annotations": [], "logprobs": []}],
    },
    {
        "type": "message",
        "role": "assistant",
        "content": [
            {
                "type": "output_text",
                "text": "cited",
                "annotations": [{"type": "url_citation", "url": "https://a.b", "title": "t"}],
            }
        ],
    },
    {"type": "function_call", "call_id": "c1", "name": "run", "arguments": '{"path": "a.py"}'},
    {"type": "function_call", "call_id": "c2", "name": "run", "arguments": "{}"},
    {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "c3",
        "name": "search",
        "arguments": '{"q": "x", "n": 2, "deep": {"k": [1, 2.5]}}',
        "status": "completed",
    },
    # numbers past 64 bits, and digits that only look like one, flat and nested
    _function_call("c4", '{"n": 12345678901234567890123}'),
    _function_call("c5", '{"n": -9999999999999999999}'),
    _function_call("c6", '{"n": 1234567890123456789, "s": "1234567890123456789012"}'),
    _function_call("c7", '{"x": 0.1000000000000000000055}'),
    _function_call("c8", '{"a": ["12345678901234567890"], "b": {"n": 18446744073709551616}}'),
    {"type": "function_call_output", "call_id": "c1", "output": "ok"},
    {"type": "function_call_output", "call_id": "c2", "output": "fine", "status": "completed"},
    {
        "type": "function_call_output",
        "call_id": "c3",
        "output": [{"type": "input_text", "text": "parts"}],
    },
    {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "hmm"}]},
    {"type": "reasoning", "summary": [], "encrypted_content": "gAAA"},
    {"type": "custom_tool_call", "call_id": "c9", "name": "patch", "input": "diff"},
    {"type": "web_search_call", "id": "ws_1", "status": "completed"},
    {"type": "item_reference", "id": "msg_0"},
]  # fmt: skip

# Values that are wrong, or unusual, in one place or another.
_ODD_VALUES = [
    None, 0, 1.5, True, "", "x", "assistant", "user", "developer", "tool", [], {}, {"a": 1},
    [{"type": "input_text", "text": "t"}], [{"type": "output_text", "text": "t"}], [1],
    "message", "function_call", "function_call_output", "output_text", "input_image", "[1]",
    '{"a": 1}', "{",
]  # fmt: skip
_KEYS = [
    "type", "role", "content", "id", "call_id", "name", "arguments", "output", "status",
    "weight", "text", "annotations", "image_url", "file_id", "detail",
]  # fmt: skip


def _mutate(item: dict[str, Any], where: str, key: str, value: Any, delete: bool) -> Any:
    """``item`` with one key of it (``where="item"``) or of its first part changed or
    deleted; or the whole item replaced by ``value`` (``where="whole"``)."""
    item = copy.deepcopy(item)
    if where == "whole":
        return value
    target = item
    if where == "part":
        content = item.get("content") or item.get("output")
        if not isinstance(content, list) or not content or not isinstance(content[0], dict):
            return item
        target = content[0]
    if delete:
        target.pop(key, None)
    else:
        target[key] = value
    return item


_odd_item = st.builds(
    _mutate,
    st.sampled_from(_ITEMS),
    st.sampled_from(["item", "part", "whole"]),
    st.sampled_from(_KEYS),
    st.sampled_from(_ODD_VALUES),
    st.booleans(),
)
_item = st.one_of(st.sampled_from(_ITEMS), _odd_item)


def _document(items: list[Any], shape: str) -> Any:
    if shape == "list":
        return items
    if shape == "request":
        return {"model": "gpt-5", "instructions": "be brief", "input": items, "store": False}
    return {"object": "response", "id": "resp_1", "output": items, "usage": {"input_tokens": 3}}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    items=st.lists(_item, min_size=1, max_size=8),
    shape=st.sampled_from(["list", "request", "response"]),
)
def test_off_shape_items_read_the_same(items: list[Any], shape: str) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert_same(_document(items, shape), monkeypatch)


@settings(max_examples=100, deadline=None)
@given(
    index=st.integers(0, 59),
    where=st.sampled_from(["item", "part", "whole"]),
    key=st.sampled_from(_KEYS),
    value=st.sampled_from(_ODD_VALUES),
    delete=st.booleans(),
)
def test_one_odd_item_in_a_generated_file_reads_the_same(
    index: int, where: str, key: str, value: Any, delete: bool
) -> None:
    data = generated(40, 5)
    items = data["input"]
    items[index % len(items)] = _mutate(items[index % len(items)], where, key, value, delete)
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert_same(data, monkeypatch)


def _every_single_change() -> list[Any]:
    """Each known item with each one key (of it, or of its first part) changed to each odd
    value or deleted, once each."""
    seen: set[bytes] = set()
    changed = []
    for item in _ITEMS:
        for where in ("item", "part"):
            for key in _KEYS:
                for value, delete in [(v, False) for v in _ODD_VALUES] + [(None, True)]:
                    new = _mutate(item, where, key, value, delete)
                    text = orjson.dumps(new)
                    if text not in seen:
                        seen.add(text)
                        changed.append(new)
    return changed


_REASONING = {"type": "reasoning", "summary": [{"type": "summary_text", "text": "so"}]}
# Where grouping matters most: between an assistant's calls and their output, and between
# reasoning and what follows it.
_PLACES = [
    (
        [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "sure"},
            _function_call("c1", '{"path": "a.py"}'),
        ],
        [
            {"type": "function_call_output", "call_id": "c1", "output": "ok"},
            {"role": "assistant", "content": "done"},
        ],
    ),
    (
        [{"role": "user", "content": "hi"}, _REASONING],
        [
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "a"}],
            },
            _REASONING,
            _function_call("c1", '{"path": "a.py"}'),
        ],
    ),
]


@pytest.mark.parametrize("place", range(len(_PLACES)))
def test_every_single_change_reads_the_same(place: int, monkeypatch: pytest.MonkeyPatch) -> None:
    before, after = _PLACES[place]
    for new in _every_single_change():
        data = {"model": "gpt-5", "input": [*before, new, *after]}
        quick, careful = both(data, monkeypatch)
        assert quick[1:] == careful[1:], new
        assert quick[0] == careful[0], new


def test_a_calls_own_note_of_its_place_reads_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    # a file's own "msgviewer_call_index" on a valid call: the note is taken off it either way
    noted = {**_function_call("c2", "{}"), "msgviewer_call_index": 0}
    data = {"model": "gpt-5", "input": [_function_call("c1", "{}"), noted]}
    quick, careful = both(data, monkeypatch)
    assert quick[1:] == careful[1:]
    assert quick[0] == careful[0]
    assert [c.extra for c in quick[0][0].messages[0].tool_calls] == [{}, {}]
