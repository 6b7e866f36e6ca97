"""Differential tests: msgviewer's history operations against langchain-core's namesakes.

Hypothesis builds histories (system, user, assistant with tool calls, tool results; string
content with several lines, names, ids); each is converted to LangChain messages and both
libraries run the same operation with the same token counter. The same messages must come
out, with the same content.
"""

from __future__ import annotations

import functools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from msgviewer.core import (
    ImageBlock,
    Message,
    TextBlock,
    ToolCall,
    ToolCallBlock,
    count_tokens_approximately,
    filter_messages,
    merge_runs,
    trim,
)

lc_messages = pytest.importorskip("langchain_core.messages")
lc_utils = pytest.importorskip("langchain_core.messages.utils")

AIMessage = lc_messages.AIMessage
HumanMessage = lc_messages.HumanMessage
SystemMessage = lc_messages.SystemMessage
ToolMessage = lc_messages.ToolMessage

ROLE_OF_TYPE = {"system": "system", "human": "user", "ai": "assistant", "tool": "tool"}
TYPE_OF_ROLE = {role: kind for kind, role in ROLE_OF_TYPE.items()}

# -- the generator ----------------------------------------------------------------------

_words = st.sampled_from(
    ["Paris", "weather", "is", "sunny", "18 C", "déjà vu", "naïve", "日本", "ok", "", "  "]
)


@st.composite
def texts(draw: st.DrawFn) -> str:
    """A few lines of words: line splitting matters to allow_partial."""
    lines = draw(st.lists(st.lists(_words, max_size=6).map(" ".join), max_size=4))
    return "\n".join(lines)


_names = st.sampled_from([None, None, "ann", "bob", "get_weather"])


@st.composite
def histories(draw: st.DrawFn) -> list[Message]:
    """A plausible chat: optional system first, then turns; runs of one role happen."""
    counter = iter(range(10_000))

    def new_id(prefix: str) -> str:
        return f"{prefix}{next(counter)}"

    out: list[Message] = []
    if draw(st.booleans()):
        out.append(Message.system(draw(texts()), id=new_id("s"), name=draw(_names)))
    for _ in range(draw(st.integers(0, 7))):
        kind = draw(st.sampled_from(["user", "user", "assistant", "tools", "system"]))
        if kind == "user":
            out.append(Message.user(draw(texts()), id=new_id("u"), name=draw(_names)))
        elif kind == "system":
            out.append(Message.system(draw(texts()), id=new_id("s")))
        elif kind == "assistant":
            out.append(Message.assistant(draw(texts()), id=new_id("a"), name=draw(_names)))
        else:
            calls = [
                ToolCall(
                    new_id("call_"),
                    draw(st.sampled_from(["get_weather", "search"])),
                    {"q": draw(_words), "n": draw(st.integers(0, 99))},
                )
                for _ in range(draw(st.integers(1, 3)))
            ]
            out.append(Message.assistant(draw(texts()), id=new_id("a"), tool_calls=calls))
            for call in calls:
                if draw(st.integers(0, 9)):  # now and then a call goes unanswered
                    out.append(
                        Message.tool(
                            draw(texts()), tool_call_id=call.id, name=call.name, id=new_id("t")
                        )
                    )
    return out


def to_langchain(message: Message):
    """The LangChain message with the same fields."""
    common = {"content": message.content, "id": message.id, "name": message.name}
    if message.role == "system":
        return SystemMessage(**common)
    if message.role == "user":
        return HumanMessage(**common)
    if message.role == "tool":
        return ToolMessage(tool_call_id=message.tool_call_id, **common)
    calls = [{"name": c.name, "args": c.args, "id": c.id} for c in message.tool_calls]
    return AIMessage(tool_calls=calls, **common)


def ours_key(messages: list[Message]) -> list[tuple]:
    return [(m.role, m.id, m.content, [c.id for c in m.tool_calls]) for m in messages]


def theirs_key(messages: list) -> list[tuple]:
    return [
        (ROLE_OF_TYPE[m.type], m.id, m.content, [c["id"] for c in getattr(m, "tool_calls", [])])
        for m in messages
    ]


# -- token counters both libraries can be given -----------------------------------------


def chars_counter(messages) -> int:
    """A counter that reads only ``.content`` (a string here), so it works on both kinds."""
    return sum(len(m.content) // 3 + 2 for m in messages)


COUNTERS = {
    "default": (count_tokens_approximately, lc_utils.count_tokens_approximately),
    "floats": (
        functools.partial(
            count_tokens_approximately, chars_per_token=3.3, extra_tokens_per_message=0.7
        ),
        functools.partial(
            lc_utils.count_tokens_approximately, chars_per_token=3.3, extra_tokens_per_message=0.7
        ),
    ),
    "chars": (chars_counter, chars_counter),
}

_role_specs = st.sampled_from([None, "human", "ai", "tool", "system", ["human", "tool"]])
_settings = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def ours_roles(spec):
    """Our spelling of a LangChain type spec (aliases would do too: both are exercised)."""
    if spec is None or (isinstance(spec, str) and spec in ("tool", "system")):
        return spec
    if isinstance(spec, str):
        return ROLE_OF_TYPE[spec]
    return [ROLE_OF_TYPE[s] for s in spec]


# -- the tests --------------------------------------------------------------------------


@_settings
@given(
    history=histories(),
    chars_per_token=st.sampled_from([4.0, 3.3, 1.0]),
    extra=st.sampled_from([3.0, 0.7, 0.0]),
    count_name=st.booleans(),
)
def test_count_tokens_approximately(history, chars_per_token, extra, count_name) -> None:
    options = {
        "chars_per_token": chars_per_token,
        "extra_tokens_per_message": extra,
        "count_name": count_name,
    }
    theirs = lc_utils.count_tokens_approximately([to_langchain(m) for m in history], **options)
    assert count_tokens_approximately(history, **options) == theirs


@settings(_settings, max_examples=300)
@given(
    history=histories(),
    data=st.data(),
    counter=st.sampled_from(sorted(COUNTERS)),
    strategy=st.sampled_from(["first", "last"]),
    allow_partial=st.booleans(),
    end_on=_role_specs,
)
def test_trim(history, data, counter, strategy, allow_partial, end_on) -> None:
    ours_counter, their_counter = COUNTERS[counter]
    total = ours_counter(history)
    budget = data.draw(st.integers(0, total + 5), label="max_tokens")
    options = {"strategy": strategy, "allow_partial": allow_partial}
    extra = {}
    if strategy == "last":
        extra["include_system"] = data.draw(st.booleans(), label="include_system")
        extra["start_on"] = data.draw(_role_specs, label="start_on")
    theirs = lc_utils.trim_messages(
        [to_langchain(m) for m in history],
        max_tokens=budget,
        token_counter=their_counter,
        end_on=end_on,
        **options,
        **extra,
    )
    if data.draw(st.booleans(), label="our role names"):
        # otherwise LangChain's type names go to both: they are our aliases
        end_on = ours_roles(end_on)
        if "start_on" in extra:
            extra["start_on"] = ours_roles(extra["start_on"])
    ours = trim(
        history, max_tokens=budget, token_counter=ours_counter, end_on=end_on, **options, **extra
    )
    assert ours_key(ours) == theirs_key(theirs)


@_settings
@given(history=histories(), data=st.data())
def test_filter_messages(history, data) -> None:
    ids = [m.id for m in history] + ["nope"]
    call_ids = [c.id for m in history for c in m.tool_calls] + ["call_nope"]
    subset = st.none() | st.lists(st.sampled_from(ids), max_size=3)
    names = st.none() | st.lists(st.sampled_from(["ann", "bob", "get_weather"]), max_size=2)
    types = st.none() | st.lists(st.sampled_from(sorted(ROLE_OF_TYPE)), min_size=1, max_size=2)
    include_types = data.draw(types, label="include_types")
    exclude_types = data.draw(types, label="exclude_types")
    kwargs = {
        "include_names": data.draw(names, label="include_names"),
        "exclude_names": data.draw(names, label="exclude_names"),
        "include_ids": data.draw(subset, label="include_ids"),
        "exclude_ids": data.draw(subset, label="exclude_ids"),
        "exclude_tool_calls": data.draw(
            st.none() | st.just(True) | st.lists(st.sampled_from(call_ids), max_size=3),
            label="exclude_tool_calls",
        ),
    }
    theirs = lc_utils.filter_messages(
        [to_langchain(m) for m in history],
        include_types=include_types,
        exclude_types=exclude_types,
        **kwargs,
    )
    ours = filter_messages(
        history,
        include_roles=include_types and [ROLE_OF_TYPE[t] for t in include_types],
        exclude_roles=exclude_types,  # LangChain's type names are role aliases here
        **kwargs,
    )
    assert ours_key(ours) == theirs_key(theirs)


@_settings
@given(history=histories(), separator=st.sampled_from(["\n", " ", "", "\n---\n"]))
def test_merge_runs(history, separator) -> None:
    theirs = lc_utils.merge_message_runs(
        [to_langchain(m) for m in history], chunk_separator=separator
    )
    ours = merge_runs(history, separator=separator)
    assert ours_key(ours) == theirs_key(theirs)
    for mine, lc in zip(ours, theirs, strict=True):
        if mine.role == "assistant":
            assert [(c.name, c.args) for c in mine.tool_calls] == [
                (c["name"], c["args"]) for c in lc.tool_calls
            ]


def test_count_block_content_where_block_shapes_agree() -> None:
    """Text, image and standard tool_call blocks count exactly as LangChain counts them."""
    ours = [
        Message.user((TextBlock("What is in this chart?"), ImageBlock(url="https://x/c.png"))),
        Message.assistant(
            (TextBlock("Checking."), ToolCallBlock("call_1", "get_weather", {"city": "Paris"})),
            tool_calls=[ToolCall("call_1", "get_weather", {"city": "Paris"})],
        ),
    ]
    theirs = [
        HumanMessage(
            [
                {"type": "text", "text": "What is in this chart?"},
                {"type": "image", "url": "https://x/c.png"},
            ]
        ),
        AIMessage(
            [
                {"type": "text", "text": "Checking."},
                {
                    "type": "tool_call",
                    "id": "call_1",
                    "name": "get_weather",
                    "args": {"city": "Paris"},
                },
            ],
            tool_calls=[{"name": "get_weather", "args": {"city": "Paris"}, "id": "call_1"}],
        ),
    ]
    for ours_msg, their_msg in zip(ours, theirs, strict=True):
        expected = lc_utils.count_tokens_approximately([their_msg])
        assert count_tokens_approximately([ours_msg]) == expected
