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

from msgviewer import InvalidToolCall, LossyConversionWarning, Message, ToolCall, dumps, loads
from msgviewer.formats.shared.call_order import CALL_INDEX, calls_in_order, split_calls

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


@pytest.mark.parametrize("fmt", ["anthropic", "gemini"])
def test_formats_that_cannot_hold_unparsable_arguments_keep_the_order(fmt: str) -> None:
    (conv,) = loads(MIXED, format="openai-chat")
    assert _order(_quiet(dumps, conv, format=fmt)) == list(NAMES[:3])


def test_the_note_is_not_written_nor_reported_as_a_lost_field() -> None:
    (conv,) = loads(MIXED, format="openai-chat")
    for fmt in ("langchain", "openai-chat", "gemini", "pydantic-ai", "inspect", "sharegpt"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", LossyConversionWarning)
            written = dumps(conv, format=fmt)
        text = written.decode() if isinstance(written, bytes) else written
        assert CALL_INDEX not in text, fmt
        assert not [w for w in caught if CALL_INDEX in str(w.message)], fmt


def test_a_call_removed_by_an_edit_loses_no_other() -> None:
    (conv,) = loads(TWO_BAD, format="openai-chat")
    message = conv.messages[1]
    # The first parsed call is gone: a place noted before may now be past the end; every
    # other call is still written, the unparsable ones in their order.
    edited = Message(
        "assistant",
        "",
        tool_calls=message.tool_calls[1:],
        invalid_tool_calls=message.invalid_tool_calls,
    )
    ids = [c.id for c in calls_in_order(edited)]
    assert sorted(ids) == ["call_0", "call_2", "call_3"]
    assert ids.index("call_0") < ids.index("call_2")


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
