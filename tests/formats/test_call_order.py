"""A message whose calls are [parsed, unparsable, parsed] is written in that order again.

``Message`` keeps unparsable calls apart (``invalid_tool_calls``); a format that writes every
call in one list must put each back where it was, whether it writes the file it read or
converts it.
"""

from __future__ import annotations

import json
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from msgviewer import (
    Conversation,
    InvalidToolCall,
    LossyConversionWarning,
    Message,
    ToolCall,
    ToolCallChunkBlock,
    dumps,
    loads,
)
from msgviewer.core.call_order import CALL_INDEX, calls_in_order, split_calls, with_calls
from msgviewer.core.chunks import merge_chunks
from msgviewer.core.edits import Part, delete_parts
from msgviewer.core.fixes import repair_arguments
from msgviewer.core.message_fixes import merge_message, merge_run
from msgviewer.core.ops import merge_runs
from msgviewer.formats import FORMATS

from .openai_checks import client_pairs

NAMES = ("alpha_tool", "beta_tool", "gamma_tool", "delta_tool")


def _chat(arguments: list[str]) -> str:
    calls = [
        {"id": f"call_{k}", "type": "function", "function": {"name": NAMES[k], "arguments": a}}
        for k, a in enumerate(arguments)
    ]
    results = [
        {"role": "tool", "tool_call_id": f"call_{k}", "content": f"result {k}"}
        for k in range(len(arguments))
    ]
    history = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": None, "tool_calls": calls},
        *results,
    ]
    return json.dumps(history)


MIXED = _chat(['{"a": 1}', '{"a": ', '{"b": 2}'])  # the middle call does not parse
TWO_BAD = _chat(['{"a": ', '{"a": 1}', "[1]", '{"b": 2}'])


def _order(text: bytes | str) -> list[str]:
    """The call names in the order the written file first names them (each call comes before
    its result in every format)."""
    text = text.decode() if isinstance(text, bytes) else text
    found = [(text.find(name), name) for name in NAMES if name in text]
    return [name for _, name in sorted(found)]


def _quiet(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def test_the_reader_notes_the_place_of_an_unparsable_call_a_parsed_one_follows() -> None:
    (conv,) = loads(MIXED, format="openai-chat")
    message = conv.messages[1]
    assert [c.id for c in message.tool_calls] == ["call_0", "call_2"]
    [bad] = message.invalid_tool_calls
    assert bad.id == "call_1" and bad.extra[CALL_INDEX] == 1


def test_an_unparsable_call_at_the_end_needs_no_note() -> None:
    (conv,) = loads(_chat(['{"a": 1}', '{"a": ']), format="openai-chat")
    [bad] = conv.messages[1].invalid_tool_calls
    assert CALL_INDEX not in bad.extra


@pytest.mark.parametrize("source", [MIXED, TWO_BAD], ids=["one-bad", "two-bad"])
@pytest.mark.parametrize(
    "fmt",
    ["openai-chat", "openai-responses", "sharegpt", "pydantic-ai", "inspect", "markdown"],
)
def test_writing_keeps_the_calls_order(source: str, fmt: str) -> None:
    (conv,) = loads(source, format="openai-chat")
    expected = _order(source)
    written = _quiet(dumps, conv, format=fmt)
    assert _order(written) == expected
    assert CALL_INDEX not in (written.decode() if isinstance(written, bytes) else written)


@pytest.mark.parametrize(
    "fmt", ["openai-chat", "openai-responses", "sharegpt", "pydantic-ai", "inspect"]
)
def test_each_format_reads_the_order_it_wrote(fmt: str) -> None:
    """Read back from the format's own file (its own reader notes the places), an edit to
    the message rewrites it in the same order."""
    (conv,) = loads(MIXED, format="openai-chat")
    (back,) = _quiet(loads, _quiet(dumps, conv, format=fmt), format=fmt)
    assistant = next(m for m in back.messages if m.tool_calls or m.invalid_tool_calls)
    assert [c.name for c in calls_in_order(assistant)] == list(NAMES[:3])
    assert _order(_quiet(dumps, back, format=fmt)) == list(NAMES[:3])


@pytest.mark.parametrize("fmt", ["anthropic", "gemini", "gemini-cli"])
def test_formats_that_cannot_hold_unparsable_arguments_keep_the_order(fmt: str) -> None:
    (conv,) = loads(MIXED, format="openai-chat")
    with pytest.warns(LossyConversionWarning, match=r"unparsable tool call arguments"):
        written = dumps(conv, format=fmt)
    assert _order(written) == list(NAMES[:3])
    # the call is kept (with no arguments), so its result stays with it
    (back,) = _quiet(loads, written, format=fmt)
    assistant = next(m for m in back.messages if m.tool_calls)
    assert [(c.name, c.args) for c in assistant.tool_calls] == [
        ("alpha_tool", {"a": 1}),
        ("beta_tool", {}),
        ("gamma_tool", {"b": 2}),
    ]
    assert client_pairs(back.messages) == [(NAMES[k], f"result {k}") for k in range(3)]


def _repaired() -> Message:
    (conv,) = loads(MIXED, format="openai-chat")
    return repair_arguments(list(conv.messages), {"call_1"})[1]


def _split_in_two() -> tuple[Message, Message]:
    """[alpha] and [beta (unparsable), gamma]: MIXED's calls in two assistant messages."""
    (conv,) = loads(MIXED, format="openai-chat")
    calls = calls_in_order(conv.messages[1])
    empty = Message("assistant", "")
    return with_calls(empty, calls[:1]), with_calls(empty, calls[1:])


def _merged() -> Message:
    return merge_message(*_split_in_two())


@pytest.mark.parametrize(
    "fmt", sorted(n for n, (_r, w, _d) in FORMATS.items() if w and n != "msgviewer")
)
@pytest.mark.parametrize("case", ["read", "repaired", "merged"])
def test_the_note_is_never_written_nor_reported_as_a_lost_field(fmt: str, case: str) -> None:
    (conv,) = loads(MIXED, format="openai-chat")
    message = {"read": conv.messages[1], "repaired": _repaired(), "merged": _merged()}[case]
    conv = Conversation((conv.messages[0], message, *conv.messages[2:]), conv.format)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LossyConversionWarning)
        written = dumps(conv, format=fmt)
    text = written.decode() if isinstance(written, bytes) else written
    assert CALL_INDEX not in text
    assert not [w for w in caught if CALL_INDEX in str(w.message)]


def test_the_native_format_keeps_the_order() -> None:
    (conv,) = loads(MIXED, format="openai-chat")
    (back,) = loads(dumps(conv, format="msgviewer"), format="msgviewer")
    assert [c.name for c in calls_in_order(back.messages[1])] == list(NAMES[:3])
    assert _order(dumps(back, format="openai-chat")) == list(NAMES[:3])


def test_a_repaired_call_stays_where_it_was() -> None:
    repaired = _repaired()
    assert [c.id for c in repaired.tool_calls] == ["call_0", "call_1", "call_2"]
    assert not repaired.invalid_tool_calls
    assert all(CALL_INDEX not in c.extra for c in repaired.tool_calls)


def test_merged_messages_keep_their_calls_order() -> None:
    a, b = _split_in_two()
    assert CALL_INDEX in b.invalid_tool_calls[0].extra  # (its place among b's calls: 0)
    for merged in (merge_message(a, b), merge_runs([a, b])[0], merge_run([a, b])):
        assert [c.id for c in calls_in_order(merged)] == ["call_0", "call_1", "call_2"]


@pytest.mark.parametrize(
    ("gone", "left"),
    [
        (Part("call", 1, 0), ["call_0", "call_2", "call_3"]),  # the first parsed call
        (Part("invalid", 1, 0), ["call_1", "call_2", "call_3"]),  # the first unparsable one
        (Part("call", 1, 1), ["call_0", "call_1", "call_2"]),  # the last call
    ],
)
def test_a_deleted_call_leaves_the_others_in_their_order(gone: Part, left: list[str]) -> None:
    (conv,) = loads(TWO_BAD, format="openai-chat")  # [bad, ok, bad, ok]
    [message] = [m for m in delete_parts([gone])(list(conv.messages)) if m.role == "assistant"]
    assert [c.id for c in calls_in_order(message)] == left


def test_streamed_calls_keep_their_order() -> None:
    chunks = [
        Message("assistant", (ToolCallChunkBlock("a", "alpha_tool", '{"x": 1}', 0),)),
        Message("assistant", (ToolCallChunkBlock("b", "beta_tool", '{"x": ', 1),)),
        Message("assistant", (ToolCallChunkBlock("c", "gamma_tool", "{}", 2),)),
    ]
    assert [c.id for c in calls_in_order(merge_chunks(chunks))] == ["a", "b", "c"]


def test_sharegpt_results_answer_their_calls_in_order() -> None:
    calls = [
        {"name": "alpha_tool", "arguments": {}},
        {"name": "beta_tool", "arguments": "{bad"},
        {"name": "gamma_tool", "arguments": {}},
    ]
    record = {
        "conversations": [
            {"from": "human", "value": "go"},
            {"from": "function_call", "value": json.dumps(calls)},
            {"from": "observation", "value": "r-alpha"},
            {"from": "observation", "value": "r-beta"},
            {"from": "observation", "value": "r-gamma"},
        ]
    }
    (conv,) = _quiet(loads, json.dumps(record), format="sharegpt")
    assert [(m.name, m.content) for m in conv.messages if m.role == "tool"] == [
        ("alpha_tool", "r-alpha"),
        ("beta_tool", "r-beta"),
        ("gamma_tool", "r-gamma"),
    ]


_CALLS = st.lists(st.booleans(), max_size=8).map(
    lambda kinds: [
        ToolCall(f"c{k}", "f", {}) if ok else InvalidToolCall(f"c{k}", "f", "{", "bad")
        for k, ok in enumerate(kinds)
    ]
)


@given(_CALLS)
def test_split_then_put_back_gives_the_order_read(calls: list) -> None:
    valid, invalid = split_calls(calls)
    message = Message("assistant", "", tool_calls=valid, invalid_tool_calls=invalid)
    assert [c.id for c in calls_in_order(message)] == [c.id for c in calls]
    # Notes only where they are needed: an unparsable call with a parsed one after it.
    noted = {c.id for c in invalid if CALL_INDEX in c.extra}
    needed = {
        c.id
        for k, c in enumerate(calls)
        if type(c) is InvalidToolCall and any(type(d) is ToolCall for d in calls[k + 1 :])
    }
    assert (not noted) == (not needed) and needed <= noted
