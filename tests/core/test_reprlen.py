"""The repr length shortcuts of the token estimate equal ``len(repr(...))`` exactly."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from msgviewer import Message, ReasoningBlock, ToolCall, ToolCallBlock, count_tokens_approximately
from msgviewer.core._reprlen import dict_repr_len, str_repr_len
from msgviewer.core.serialize import block_to_dict
from msgviewer.core.tokens import walked_repr_len

# Long strings mixing what repr treats specially: quotes, backslashes, tab/newline/CR, other
# control characters, DEL, and now and then a non-ASCII character (the repr path).
_tricky = st.sampled_from(["'", '"', "\\", "\n", "\t", "\r", "\x00", "\x1b", "\x7f", "é", "\u2028"])
_text = st.lists(st.one_of(st.text(max_size=40), _tricky), max_size=40).map("".join)
_ascii = st.lists(
    st.one_of(st.text(st.characters(max_codepoint=127), min_size=30, max_size=90), _tricky),
    max_size=30,
).map(lambda parts: "".join(p for p in parts if p.isascii()))


@settings(max_examples=400, deadline=None)
@given(st.one_of(_text, _ascii))
def test_str_repr_len_is_the_repr_length(s: str) -> None:
    assert str_repr_len(s) == len(repr(s))


def test_long_strings_with_each_special_character() -> None:
    base = "the agent reads a file " * 5
    for special in ["'", '"', "'\"", "\\", "\n", "\t", "\r", "\x01", "\x7f", "\x1f"]:
        s = base + special + base
        assert str_repr_len(s) == len(repr(s)), special


_values = st.one_of(
    _text, _ascii, st.integers(), st.floats(), st.booleans(), st.none(), st.lists(_text, max_size=3)
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.one_of(_text, st.integers()), _values, max_size=6))
def test_dict_repr_len_is_the_repr_length(d: dict[object, object]) -> None:
    assert dict_repr_len(d) == len(repr(d))


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(_text, _ascii),
    st.one_of(st.none(), _text, st.integers()),
    st.booleans(),
    st.one_of(st.none(), _ascii),
    st.one_of(st.just({}), st.just({"field": "reasoning_content"})),
)
def test_reasoning_block_counts_as_the_repr_of_its_dict(
    text: str, signature: Any, redacted: bool, data: str | None, extra: dict[str, Any]
) -> None:
    block = ReasoningBlock(text, signature, redacted, data, extra=extra)
    message = Message.assistant((block,))
    chars = count_tokens_approximately([message], chars_per_token=1, extra_tokens_per_message=0)
    assert chars == len(repr(block_to_dict(block))) + len("assistant")


_json = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), _text),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_text, inner, max_size=3)),
    max_leaves=6,
)
_calls = st.lists(
    st.builds(
        ToolCall,
        st.one_of(st.none(), _text, st.sampled_from(["call_1", "toolu_01A"])),
        _text,
        st.dictionaries(_text, _json, max_size=4),
    ),
    min_size=1,
    max_size=4,
)


def _langchain_calls(calls: list[ToolCall]) -> list[dict[str, Any]]:
    return [{"name": c.name, "args": c.args, "id": c.id, "type": "tool_call"} for c in calls]


def _chars(message: Message) -> int:
    return count_tokens_approximately([message], chars_per_token=1, extra_tokens_per_message=0)


@settings(max_examples=150, deadline=None)
@given(_calls, st.data())
def test_tool_calls_count_as_the_repr_of_langchain_calls(calls: list[ToolCall], data) -> None:
    # Some calls also appear as blocks of the content: those count once, as blocks.
    mirrored = data.draw(st.lists(st.sampled_from(calls), max_size=len(calls)), label="mirrored")
    blocks = tuple(ToolCallBlock(c.id, c.name, c.args) for c in mirrored)
    message = Message.assistant(blocks, tool_calls=calls)
    in_content = {c.id for c in mirrored}
    rest = [c for c in calls if c.id not in in_content]
    expected = sum(len(repr(block_to_dict(b))) for b in blocks) + len("assistant")
    if rest:
        expected += len(repr(_langchain_calls(rest)))
    assert _chars(message) == expected


def test_tool_call_arguments_too_deep_for_repr_are_measured() -> None:
    deep: Any = "bottom"
    for level in range(5000):
        deep = {"level": level, "next": deep} if level % 2 else [deep, level]
    calls = [ToolCall("call_1", "walk", {"tree": deep}), ToolCall("call_2", "walk", {})]
    expected = walked_repr_len(_langchain_calls(calls)) + len("assistant")
    assert _chars(Message.assistant("", tool_calls=calls)) == expected
    shallow = [ToolCall("call_1", "walk", {"tree": [[["x"], 1], 2]})]
    assert walked_repr_len(_langchain_calls(shallow)) == len(repr(_langchain_calls(shallow)))
