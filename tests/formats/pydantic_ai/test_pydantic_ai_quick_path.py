"""The quick path through common pydantic-ai requests and responses agrees with the careful
reader: the same conversations (metadata key order included), warnings and errors, and the
same bytes written back."""

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
from msgviewer.formats.pydantic_ai import quick
from msgviewer.formats.pydantic_ai.read import read
from tests.formats.quick_checks import dicts_in

ROOT = Path(__file__).resolve().parents[3]
ROLES = {role: role for role in ROLE_NAMES}
CORPUS = ROOT.parent / "shared" / "corpus" / "pydantic-ai"
TS = "2025-11-21T10:00:00Z"


def _outcome(value: Any, *, quick_path: bool) -> tuple[Any, ...]:
    """What reading ``value`` gives: the conversations or the error, and the warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result: Any = read(copy.deepcopy(value), Context(file="h.json"), quick_path=quick_path)
        except Exception as exc:  # the careful reader's errors, and any the quick path adds
            result = (type(exc).__name__, str(exc), getattr(exc, "path", None))
    return result, [str(w.message) for w in caught]


def _key_orders(conversations: Any) -> list[Any]:
    """Every message's metadata and response metadata keys, in order (== ignores order)."""
    return [
        (list(m.metadata), list(m.response_metadata), [list(b.extra) for b in m.blocks])
        for c in conversations
        for m in c.messages
    ]


def assert_same_reading(value: Any) -> None:
    got, got_warnings = _outcome(value, quick_path=True)
    want, want_warnings = _outcome(value, quick_path=False)
    assert got == want
    assert got_warnings == want_warnings
    if isinstance(got, list):  # a role is the one string for it (not one per message)
        assert all(m.role is ROLES[m.role] for c in got for m in c.messages)
    if isinstance(got, list):
        assert _key_orders(got) == _key_orders(want)
        for mine, theirs in zip(got, want, strict=True):
            assert dumps(mine, format="pydantic-ai") == dumps(theirs, format="pydantic-ai")


# -- generated histories and the corpus ---------------------------------------------------


def _generated(n: int, seed: int) -> Any:
    sys.path.insert(0, str(ROOT))
    from bench.generate import generate

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (message ids pydantic-ai has no place for)
        return orjson.loads(dumps(generate(n, seed), format="pydantic-ai"))


@pytest.mark.parametrize("seed", [0, 1, 2, 7])
def test_generated_histories_read_the_same(seed: int) -> None:
    value = _generated(1500, seed)
    assert_same_reading(value)
    handled = [
        quick.request(i, i["parts"]) if i["kind"] == "request" else quick.response(i, i["parts"])
        for i in value
    ]
    # the test proves something only if the quick path takes nearly every item
    assert sum(h is not None for h in handled) > 0.95 * len(value)


def test_corpus_files_read_the_same() -> None:
    if not CORPUS.is_dir():
        pytest.skip(
            f"no pydantic-ai files at {CORPUS}: the corpus found no standalone history to copy"
        )
    for path in sorted(CORPUS.iterdir()):
        assert_same_reading(orjson.loads(path.read_bytes()))


# -- off-shape variants ---------------------------------------------------------------------


def _history() -> list[dict[str, Any]]:
    """One item of every shape the quick path takes, with the fields pydantic-ai writes."""
    usage = {
        "input_tokens": 120,
        "cache_write_tokens": 0,
        "cache_read_tokens": 100,
        "output_tokens": 30,
        "input_audio_tokens": 0,
        "cache_audio_read_tokens": 0,
        "output_audio_tokens": 0,
        "details": {"reasoning_tokens": 10},
    }
    return [
        {
            "parts": [
                {"content": "be brief", "timestamp": TS, "dynamic_ref": None,
                 "part_kind": "system-prompt"},
                {"content": "list files", "timestamp": TS, "part_kind": "user-prompt"},
            ],
            "instructions": "use tools",
            "run_id": None,
            "kind": "request",
        },
        {
            "parts": [
                {"content": "let me look", "signature": "sig", "id": None,
                 "provider_name": "anthropic", "part_kind": "thinking"},
                {"content": "looking", "id": None, "part_kind": "text"},
                {"tool_name": "ls", "args": {"path": "."}, "tool_call_id": "c1",
                 "id": None, "part_kind": "tool-call"},
                {"tool_name": "cat", "args": None, "tool_call_id": None, "part_kind": "tool-call"},
            ],
            "usage": usage,
            "model_name": "claude-sonnet-4-5",
            "timestamp": TS,
            "provider_name": "anthropic",
            "provider_details": None,
            "finish_reason": "tool_call",
            "kind": "response",
        },
        {
            "parts": [
                {"tool_name": "ls", "content": "a.py", "tool_call_id": "c1", "metadata": None,
                 "timestamp": TS, "outcome": "success", "part_kind": "tool-return"},
                {"tool_name": "cat", "content": "no such file", "tool_call_id": "c2",
                 "metadata": {"exit": 1}, "outcome": "failed", "part_kind": "tool-return"},
                {"content": "bad args", "tool_name": "cat", "tool_call_id": "c3",
                 "timestamp": TS, "part_kind": "retry-prompt"},
            ],
            "kind": "request",
        },
        {"parts": [{"content": "done", "part_kind": "text"}], "usage": None, "kind": "response"},
    ]  # fmt: skip


_KEYS = st.sampled_from(
    ["kind", "parts", "part_kind", "content", "tool_name", "tool_call_id", "args", "metadata",
     "signature", "id", "outcome", "usage", "details", "input_tokens", "output_tokens",
     "cache_read_tokens", "reasoning_tokens", "timestamp", "x_unknown"]
)  # fmt: skip
_VALUES = st.sampled_from(
    [None, True, False, 0, 7, -1, 2.5, "", "x", "{}", '{"a": 1}', "[1]", "success", "failed",
     "redacted_thinking", "text", "thinking", "tool-call", "tool-return", "user-prompt",
     "retry-prompt", "builtin-tool-call", "file", "request", "response", [], ["x"],
     [{"kind": "binary", "data": "AA==", "media_type": "image/png"}], {}, {"a": 1},
     {"reasoning_tokens": "many"}]
)  # fmt: skip


@settings(max_examples=800, deadline=None)
@given(st.data())
def test_one_changed_field_reads_the_same(data: st.DataObject) -> None:
    history = _history()
    for _ in range(data.draw(st.integers(1, 3))):
        target = data.draw(st.sampled_from(dicts_in(history)))
        own = st.sampled_from(sorted(target)) if target else _KEYS
        key = data.draw(st.one_of(own, own, _KEYS))  # (mostly a field the dict has)
        if data.draw(st.booleans()):
            target.pop(key, None)
        else:
            target[key] = copy.deepcopy(data.draw(_VALUES))
    assert_same_reading(history)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_an_item_or_part_of_another_type_reads_the_same(data: st.DataObject) -> None:
    history: Any = _history()
    odd = data.draw(st.sampled_from([None, "x", 3, [], [{"kind": "request", "parts": []}]]))
    at = data.draw(st.integers(0, len(history) - 1))
    if data.draw(st.booleans()):
        history[at] = odd
    else:
        parts = history[at]["parts"]
        parts[data.draw(st.integers(0, len(parts) - 1))] = odd
    assert_same_reading(history)


def test_common_shapes_take_the_quick_path() -> None:
    history = _history()
    assert [quick.request(i, i["parts"]) is not None for i in history[::2]] == [True, True]
    assert [quick.response(i, i["parts"]) is not None for i in history[1::2]] == [True, True]
    assert_same_reading(history)
    assert_same_reading([history, history[:2]])  # (a list of histories)
