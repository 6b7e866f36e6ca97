"""The quick path through common Inspect messages agrees with the careful reader: the same
conversations (metadata key order and the attachments referred to included), warnings and
errors, and the same bytes written back."""

from __future__ import annotations

import copy
import sys
import warnings
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from msgviewer.core.message import ROLES as ROLE_NAMES
from msgviewer.formats import dumps
from msgviewer.formats.base import Context
from msgviewer.formats.inspect_log import quick
from msgviewer.formats.inspect_log.log import read, read_eval
from msgviewer.formats.inspect_log.read_messages import Reader
from tests.formats.quick_checks import dicts_in

ROOT = Path(__file__).resolve().parents[3]
ROLES = {role: role for role in ROLE_NAMES}
CORPUS = ROOT.parent / "shared" / "corpus" / "inspect"


def _outcome(value: Any, *, quick_path: bool) -> tuple[Any, ...]:
    """What reading ``value`` (a parsed log, or the bytes of an ``.eval``) gives: the
    conversations or the error, and the warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ctx = Context(file="log.json")
        try:
            if isinstance(value, bytes):
                result: Any = read_eval(value, ctx, quick_path=quick_path)
            else:
                result = read(copy.deepcopy(value), ctx, quick_path=quick_path)
        except Exception as exc:  # the careful reader's errors, and any the quick path adds
            result = (type(exc).__name__, str(exc), getattr(exc, "path", None))
    return result, [str(w.message) for w in caught]


def _key_orders(conversations: Any) -> list[Any]:
    """Metadata keys in order (== ignores order), and the attachments referred to, in order."""
    return [
        (
            c.metadata["inspect"]["references"],
            [(list(m.metadata), [list(b.extra) for b in m.blocks]) for m in c.messages],
        )
        for c in conversations
    ]


def assert_same_reading(value: Any) -> None:
    got, got_warnings = _outcome(value, quick_path=True)
    want, want_warnings = _outcome(value, quick_path=False)
    assert got == want
    assert got_warnings == want_warnings
    if isinstance(got, list):  # a role is the one string for it (not one per message)
        assert all(m.role is ROLES[m.role] for c in got for m in c.messages)
    if isinstance(got, list) and got:
        assert _key_orders(got) == _key_orders(want)
        assert dumps(got, format="inspect") == dumps(want, format="inspect")


# -- generated logs and the corpus ---------------------------------------------------------


def _generated(n: int, seed: int) -> Any:
    sys.path.insert(0, str(ROOT))
    from bench.generate import generate

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (per-message usage, kept as totals)
        return orjson.loads(dumps(generate(n, seed), format="inspect"))


@pytest.mark.parametrize("seed", [0, 1, 2, 7])
def test_generated_logs_read_the_same(seed: int) -> None:
    value = _generated(1500, seed)
    assert_same_reading(value)
    reader = Reader(Context(), None, {})
    raw = value["samples"][0]["messages"]
    # the test proves something only if the quick path takes nearly every message
    assert sum(quick.message(m, reader) is not None for m in raw) > 0.95 * len(raw)


def _corpus() -> list[Any]:
    if not CORPUS.is_dir():
        absent = pytest.mark.skip(reason=f"no corpus at {CORPUS} (it sits beside the project)")
        return [pytest.param(None, id="corpus", marks=absent)]
    return [pytest.param(p, id=p.name) for p in sorted(CORPUS.iterdir())]


@pytest.mark.parametrize("path", _corpus())
def test_corpus_files_read_the_same(path: Path) -> None:
    data = path.read_bytes()
    assert_same_reading(data if path.suffix == ".eval" else orjson.loads(data))


# -- off-shape variants ---------------------------------------------------------------------


def _log() -> dict[str, Any]:
    """A log whose sample holds a message of every shape the quick path takes, attachments
    and a model event's usage."""
    messages = [
        {"content": "be brief", "role": "system"},
        {"id": "u1", "content": "attachment://a1", "source": "input", "role": "user"},
        {"id": "u2", "content": [{"type": "text", "text": "look", "refusal": None}],
         "role": "user"},
        {"id": "m1", "content": [
            {"type": "reasoning", "reasoning": "attachment://a2", "signature": "sig"},
            {"type": "reasoning", "reasoning": "hmm", "signature": None, "redacted": False},
            {"type": "text", "text": "attachment://a1", "citations": None}],
         "source": "generate", "metadata": {"k": 1}, "role": "assistant",
         "tool_calls": [{"id": "c1", "function": "ls", "arguments": {"p": "."},
                         "parse_error": None, "type": "function"},
                        {"id": None, "function": "cat", "arguments": {}}],
         "model": "gpt-5"},
        {"id": "t1", "content": "a.py", "role": "tool", "tool_call_id": "c1", "function": "ls"},
        {"content": "oops", "role": "tool", "tool_call_id": "c2", "function": "cat",
         "error": {"type": "unknown", "message": "no file"}},
        {"id": "m2", "content": "done", "role": "assistant"},
    ]  # fmt: skip
    event = {
        "event": "model",
        "output": {
            "choices": [{"message": {"id": "m1", "role": "assistant", "content": "x"}}],
            "usage": {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15},
        },
    }
    sample = {
        "id": 1,
        "epoch": 1,
        "input": "look",
        "target": "",
        "messages": messages,
        "events": [event],
        "attachments": {"a1": "a long text", "a2": "long thoughts"},
    }
    return {"version": 2, "eval": {"task": "t", "model": "gpt-5"}, "samples": [sample]}


_KEYS = st.sampled_from(
    ["role", "content", "id", "source", "metadata", "tool_calls", "model", "tool_call_id",
     "function", "error", "type", "text", "reasoning", "signature", "redacted", "summary",
     "citations", "arguments", "parse_error", "x_unknown"]
)  # fmt: skip
_VALUES = st.sampled_from(
    [None, True, False, 0, 3, "", "x", "attachment://a1", "attachment://nope", "{}",
     '{"a": 1}', "[1]", "system", "user", "assistant", "tool", "human", "text", "reasoning",
     "image", "tool_use", "data", "m1", [], ["x"], [{"type": "text", "text": "t"}],
     [{"url": "u", "title": "t"}], {}, {"a": 1}]
)  # fmt: skip


@settings(max_examples=800, deadline=None)
@given(st.data())
def test_one_changed_field_reads_the_same(data: st.DataObject) -> None:
    log = _log()
    for _ in range(data.draw(st.integers(1, 3))):
        target = data.draw(st.sampled_from(dicts_in(log["samples"][0]["messages"])))
        own = st.sampled_from(sorted(target)) if target else _KEYS
        key = data.draw(st.one_of(own, own, _KEYS))  # (mostly a field the dict has)
        if data.draw(st.booleans()):
            target.pop(key, None)
        else:
            target[key] = copy.deepcopy(data.draw(_VALUES))
    assert_same_reading(log)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_a_message_or_item_of_another_type_reads_the_same(data: st.DataObject) -> None:
    log = _log()
    messages = log["samples"][0]["messages"]
    odd = data.draw(st.sampled_from([None, "x", 3, [], [{"type": "text", "text": "t"}]]))
    if data.draw(st.booleans()):
        messages[data.draw(st.integers(0, len(messages) - 1))] = odd
    else:
        messages[3]["content"][data.draw(st.integers(0, 2))] = odd
    assert_same_reading(log)


def test_common_shapes_take_the_quick_path() -> None:
    log = _log()
    sample = log["samples"][0]
    reader = Reader(Context(), sample["attachments"], {})
    assert all(quick.message(m, reader) is not None for m in sample["messages"])
    assert list(reader.referenced) == ["a1", "a2"]
    assert_same_reading(log)
