"""The quick reader of common ShareGPT turns gives what the careful reader gives: the same
conversations, warnings and errors, on generated files, the corpus and off-shape turns."""

from __future__ import annotations

import copy
import importlib
import json
import warnings
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.generate import generate
from msgviewer.core.errors import FormatError
from msgviewer.formats import Conversation, LossyConversionWarning, dumps, loads
from msgviewer.formats.base import Context
from msgviewer.formats.io import parse
from msgviewer.formats.sharegpt import fast
from msgviewer.formats.sharegpt.calls import split_parallel
from msgviewer.formats.sharegpt.read import read
from tests.corpus import CORPUS as ALL_CORPUS

CORPUS = ALL_CORPUS / "sharegpt"
READ_MODULE = importlib.import_module("msgviewer.formats.sharegpt.read")  # (the package's
# ``read`` attribute is the function)


def _outcome(value: Any, *, quick: bool) -> tuple[Any, list[str]]:
    """What reading ``value`` gives: conversations (or the error's what and where), and the
    texts of the warnings on the way."""
    value = copy.deepcopy(value)  # (a reader that changed its input would show here)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result: Any = read(value, Context(file="f.json", line=7), quick=quick)
        except FormatError as exc:
            result = ("error", exc.what, exc.file, exc.line, exc.path)
        except RecursionError:
            result = ("RecursionError",)  # (arguments nested near a thousand deep)
    return result, [str(w.message) for w in caught]


def _assert_same_as_careful(value: Any) -> list[Conversation]:
    quick = _outcome(value, quick=True)
    careful = _outcome(value, quick=False)
    assert quick == careful
    conversations = quick[0]
    if isinstance(conversations, list):
        # equal values, and so the same written text; the metadata's key order too
        for q, c in zip(conversations, careful[0], strict=True):
            assert list(q.metadata) == list(c.metadata)
            for qm, cm in zip(q.messages, c.messages, strict=True):
                assert list(qm.metadata) == list(cm.metadata)
        assert _written(conversations) == _written(careful[0])
    return conversations


def _written(conversations: list[Conversation]) -> bytes | str:
    """The ShareGPT text of ``conversations``, or why it cannot be written (a lone surrogate)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LossyConversionWarning)
        try:
            return dumps(conversations, format="sharegpt")
        except FormatError as exc:
            return str(exc)


def _turns_read_carefully(value: Any, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The turns of ``value`` the quick reader hands to the careful one."""
    handed: list[int] = []
    quick = fast.read_turns

    def counting(turns: list[Any], pending: Any, out: list[Any], careful: Any, each: Any) -> None:
        def counted(t: int, *args: Any) -> None:
            handed.append(t)
            careful(t, *args)

        quick(turns, pending, out, counted, each)

    monkeypatch.setattr(READ_MODULE, "read_turns", counting)
    read(copy.deepcopy(value), Context())
    return handed


# -- whole files ---------------------------------------------------------------------------


def _generated(n: int, seed: int) -> bytes:
    """A generated history written as ShareGPT (what it cannot carry dropped, as it says)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LossyConversionWarning)
        return dumps(generate(n, seed), format="sharegpt")


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_generated_files_read_the_same(seed: int) -> None:
    text = _generated(1500, seed)
    [conversation] = _assert_same_as_careful(orjson.loads(text))
    assert dumps(conversation, format="sharegpt") == text
    assert loads(text, format="sharegpt") == [conversation]


def test_generated_files_take_the_quick_way(monkeypatch: pytest.MonkeyPatch) -> None:
    value = orjson.loads(_generated(1500, 5))
    assert _turns_read_carefully(value, monkeypatch) == []


def test_several_records_and_role_style_read_the_same() -> None:
    record = orjson.loads(_generated(300, 7))
    role_style = copy.deepcopy(record)
    tags = {"human": "user", "gpt": "assistant"}
    role_style["conversations"] = [
        {"role": tags.get(t["from"], t["from"]), "content": t["value"]}
        for t in role_style["conversations"]
    ]
    _assert_same_as_careful([record, role_style, {"messages": record["conversations"]}])


def _corpus_files() -> list[Path]:
    return sorted(CORPUS.glob("*")) if CORPUS.is_dir() else []


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no corpus of real files at {CORPUS}")
@pytest.mark.parametrize("path", _corpus_files(), ids=lambda p: p.name)
def test_corpus_files_read_the_same(path: Path) -> None:
    parsed = parse(path.read_bytes(), str(path))
    for value in parsed.records if parsed.is_jsonl else [parsed.value]:
        _assert_same_as_careful(value)


# -- single turns off their shape ------------------------------------------------------------


def _nested_call(depth: int) -> str:
    """A call whose arguments nest ``depth`` objects deep."""
    return '{"name": "run", "arguments": ' + '{"a": ' * depth + "1" + "}" * depth + "}"


_CALL = {"name": "run", "arguments": {"path": "a.py", "limit": 3}}
_CALL_VALUES = [
    json.dumps(_CALL),
    json.dumps([_CALL, {"name": "search", "arguments": {}}]),
    json.dumps([_CALL]),
    json.dumps({"name": "run", "arguments": {"q": "é ✓ \n \u2028 \x7f"}}, ensure_ascii=False),
    json.dumps({"name": "run", "arguments": {"q": "é"}}),  # \u00e9: not the writer's text
    json.dumps(_CALL, indent=1),
    json.dumps(_CALL, separators=(",", ":")),
    json.dumps({"arguments": {}, "name": "run"}),
    json.dumps({"name": "run", "arguments": json.dumps({"x": 1})}),
    json.dumps({"id": "c1", "name": "run", "arguments": {}}),
    json.dumps({"name": "run", "arguments": {}, "kind": "x"}),
    json.dumps({"name": "run", "arguments": [1]}),
    json.dumps({"name": 3, "arguments": {}}),
    json.dumps({"name": "run"}),
    json.dumps({"name": "run", "arguments": {"n": 1.5, "big": 2**70, "e": 1e300, "z": -0.0}}),
    json.dumps({"name": "run", "arguments": {"n": 2**63, "m": -(2**63)}}),
    '{"name": "run", "arguments": {"n": NaN}}',
    '{"name": "run", "arguments": {"n": 1E400}}',
    '{"name": "run", "arguments": {"a": 1, "a": 2}}',
    '{"name": "run", "arguments": {"s": "\\ud800"}}',
    ' {"name": "run", "arguments": {}}',
    json.dumps([]),
    json.dumps([1]),
    "null",
    "not json",
    "",
    _nested_call(100),
    _nested_call(300),
]
_RESULT_VALUES = [
    "done",
    json.dumps(["a", "b"]),
    json.dumps(["a", "b", "c"]),
    json.dumps(["a", 1]),
    json.dumps(["\ud800", "b"]),
    '["a", "b"] ',
    '["a" , "b"]',
    '["a", NaN]',
    "[",
]
_TAGS = ["human", "gpt", "system", "function_call", "observation", "user", "assistant", "tool"]
_TAGS += ["Human", "GPT", "model", "tool_call", "function", "nobody"]


def _turn(tag: str, value: Any, style: str) -> dict[str, Any]:
    return {"from": tag, "value": value} if style == "from" else {"role": tag, "content": value}


@st.composite
def _common_turn(draw: st.DrawFn, style: str) -> dict[str, Any]:
    tags = {"from": ["human", "gpt", "system"], "role": ["user", "assistant", "system"]}[style]
    kind = draw(st.sampled_from(["text", "call", "result"]))
    if kind == "call":
        return _turn("function_call", draw(st.sampled_from(_CALL_VALUES[:4])), style)
    if kind == "result":
        return _turn("observation", draw(st.sampled_from(_RESULT_VALUES[:3])), style)
    return _turn(draw(st.sampled_from(tags)), draw(st.text(max_size=4)), style)


_odd_values = st.one_of(
    st.sampled_from([None, 3, 1.5, True, [], {}, ["a", "b"], {"name": "run", "arguments": {}}]),
    st.sampled_from(_CALL_VALUES),
    st.sampled_from(_RESULT_VALUES),
    st.text(max_size=4),
)


@st.composite
def _off_shape(draw: st.DrawFn, turn: dict[str, Any]) -> Any:
    """``turn`` with one thing changed, as real files have them."""
    turn = dict(turn)
    tag_key, value_key = list(turn)
    change = draw(
        st.sampled_from(["key", "tag", "value", "drop", "swap", "other style", "not a dict"])
    )
    if change == "key":
        turn[draw(st.sampled_from(["weight", "loss", "from", "role", "value", "content"]))] = 1
    elif change == "tag":
        turn[tag_key] = draw(st.one_of(st.sampled_from(_TAGS), st.just(None), st.just(["gpt"])))
    elif change == "value":
        turn[value_key] = draw(_odd_values)
    elif change == "drop":
        del turn[draw(st.sampled_from([tag_key, value_key]))]
    elif change == "swap":
        turn = {value_key: turn[value_key], tag_key: turn[tag_key]}
    elif change == "other style":
        other = {"from": "role", "value": "content", "role": "from", "content": "value"}
        turn = {other[tag_key]: turn[tag_key], value_key: turn[value_key]}
    else:
        return draw(st.sampled_from([None, "turn", [turn]]))
    return turn


@st.composite
def _record(draw: st.DrawFn) -> dict[str, Any]:
    style = draw(st.sampled_from(["from", "role"]))
    turns = draw(st.lists(_common_turn(style), max_size=8))
    if turns:
        for k in draw(st.sets(st.integers(0, len(turns) - 1), max_size=2)):
            turns[k] = draw(_off_shape(turns[k]))
    record: dict[str, Any] = {"conversations": turns}
    if draw(st.booleans()):
        record["system"] = "be brief"
    return record


@settings(max_examples=800, deadline=None)
@given(_record())
def test_off_shape_turns_read_the_same(record: dict[str, Any]) -> None:
    _assert_same_as_careful(record)


@pytest.mark.parametrize("value", _CALL_VALUES)
def test_each_function_call_value_reads_the_same(value: str) -> None:
    for style in ("from", "role"):
        turns = [_turn("function_call", value, style), _turn("observation", "done", style)]
        _assert_same_as_careful({"conversations": turns})


@pytest.mark.parametrize("value", _RESULT_VALUES)
@pytest.mark.parametrize("then", [None, "observation", "gpt"])
def test_each_observation_reads_the_same(value: str, then: str | None) -> None:
    turns = [_turn("function_call", _CALL_VALUES[1], "from"), _turn("observation", value, "from")]
    if then is not None:
        turns.append(_turn(then, "more", "from"))
    _assert_same_as_careful({"conversations": turns})


@pytest.mark.parametrize("value", _RESULT_VALUES)
def test_parallel_results_are_read_as_the_standard_library_reads_them(value: str) -> None:
    # (shared by both readers, so the comparisons above cannot see a change here)
    try:
        parsed = json.loads(value)
    except ValueError:
        parsed = None
    ok = isinstance(parsed, list) and len(parsed) == 2 and all(isinstance(p, str) for p in parsed)
    assert split_parallel(value, 2, None) == (parsed if ok else None)


@pytest.mark.parametrize("depth", [1000, 1100])
def test_an_observation_nested_deeper_than_the_standard_library_reads_is_one_result(
    depth: int,
) -> None:
    # Only a list of strings splits a parallel call's observation: a deeper text is no list
    # of strings (orjson reads 1,024 levels and says so; past them it refuses the text), so
    # it is one result holding the text as written, not an error for the whole file.
    deep = "[" * depth + "]" * depth
    with pytest.raises(RecursionError):
        json.loads(deep)
    assert split_parallel(deep, 2, None) is None
    for style in ("from", "role"):
        turns = [_turn("function_call", _CALL_VALUES[1], style), _turn("observation", deep, style)]
        record = {"conversations": turns}
        (conv,) = loads(json.dumps([record]).encode(), format="sharegpt")
        results = [m for m in conv.messages if m.role == "tool"]
        assert [m.content for m in results] == [deep]


def test_arguments_nested_too_deep_for_the_careful_reader_read_the_same() -> None:
    # The depth at which the standard library's parser gives up depends on the stack below
    # the reader: found here, and the quick reader must give up with it
    def record(depth: int) -> dict[str, Any]:
        return {"conversations": [_turn("function_call", _nested_call(depth), "from")]}

    depths = range(200, 1100, 10)
    deepest = next(d for d in depths if _outcome(record(d), quick=False)[0] == ("RecursionError",))
    for depth in (deepest - 10, deepest):
        _assert_same_as_careful(record(depth))
