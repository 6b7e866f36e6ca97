"""merge_chunks: streamed assistant chunks joined into one message."""

from __future__ import annotations

import itertools
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from msgviewer.core import (
    ImageBlock,
    InvalidToolCall,
    Message,
    ReasoningBlock,
    ServerToolCallBlock,
    TextBlock,
    ToolCall,
    ToolCallChunkBlock,
    Usage,
)
from msgviewer.core.call_order import calls_in_order
from msgviewer.core.chunks import merge_chunks, merge_dicts
from tests.strategies import args_dicts, base64_data, models, texts, tool_names


def chunk(*content: Any, **kw: Any) -> Message:
    """An assistant chunk: one string delta, or blocks."""
    if len(content) == 1 and isinstance(content[0], str):
        return Message("assistant", content[0], **kw)
    return Message("assistant", content, **kw)


def frag(args: str | None = None, *, index: int | None = 0, id: str | None = None, name=None):
    return ToolCallChunkBlock(id, name, args, index)


# -- text, ids, usage, metadata ---------------------------------------------------------


def test_text_deltas_join_into_a_string() -> None:
    merged = merge_chunks(
        [
            chunk("", id="chatcmpl-1", response_metadata={"model_name": "gpt-4o"}),
            chunk("The weather", id="chatcmpl-1"),
            chunk(" in Paris is ", id="chatcmpl-1"),
            chunk("18 C.", response_metadata={"finish_reason": "stop", "model_name": "gpt-4o"}),
            chunk("", usage=Usage(input_tokens=12, output_tokens=7)),
        ]
    )
    assert merged == Message(
        "assistant",
        "The weather in Paris is 18 C.",
        id="chatcmpl-1",
        usage=Usage(12, 7),
        response_metadata={"model_name": "gpt-4o", "finish_reason": "stop"},
    )


def test_text_blocks_and_string_deltas_mix() -> None:
    merged = merge_chunks([chunk("Hel"), chunk(TextBlock("lo")), chunk(TextBlock(""), "!")])
    assert merged.content == "Hello!"


def test_usage_is_summed_and_none_without_any() -> None:
    merged = merge_chunks(
        [
            chunk("a", usage=Usage(input_tokens=100, cache_read_tokens=80)),
            chunk("b"),
            chunk("c", usage=Usage(output_tokens=25, reasoning_tokens=5)),
        ]
    )
    assert merged.usage == Usage(100, 25, 125, 80, 0, 5)
    assert merge_chunks([chunk("a"), chunk("b")]).usage is None


def test_first_provider_id_is_kept() -> None:
    assert merge_chunks([chunk("a"), chunk("b", id="msg_1"), chunk("c", id="msg_2")]).id == "msg_1"
    # LangChain's generated run ids give way to the provider's own.
    ids = ["lc_run--1234", "msg_01XYZ", "msg_other"]
    assert merge_chunks([chunk("x", id=i) for i in ids]).id == "msg_01XYZ"
    assert merge_chunks([chunk("x", id="lc_run--1")]).id == "lc_run--1"
    assert merge_chunks([chunk("x")]).id is None


def test_response_metadata_merges_without_piling_up() -> None:
    merged = merge_chunks(
        [
            chunk("a", response_metadata={"model": "claude-sonnet-4-5", "stop_reason": None}),
            chunk("b", response_metadata={"model": "claude-sonnet-4-5", "logprobs": [1]}),
            chunk("c", response_metadata={"stop_reason": "end_turn", "logprobs": [2]}),
        ]
    )
    assert merged.response_metadata == {
        "model": "claude-sonnet-4-5",
        "stop_reason": "end_turn",
        "logprobs": [1, 2],
    }
    assert merged.model == "claude-sonnet-4-5"


def test_merge_dicts() -> None:
    left = {"a": {"x": 1, "y": [1]}, "b": "keep", "c": 1}
    right = {"a": {"y": [2], "z": None}, "b": None, "c": 2, "d": "new"}
    assert merge_dicts(left, right) == {"a": {"x": 1, "y": [1, 2]}, "b": "keep", "c": 2, "d": "new"}
    assert left == {"a": {"x": 1, "y": [1]}, "b": "keep", "c": 1}  # inputs untouched


def test_no_chunks_and_mixed_roles_are_errors() -> None:
    with pytest.raises(ValueError, match="at least one chunk"):
        merge_chunks([])
    with pytest.raises(ValueError, match="chunk 1 is a user message"):
        merge_chunks([chunk("a"), Message("user", "b")])


def test_other_fields_carry_over() -> None:
    merged = merge_chunks(
        [
            chunk("a", name="planner", metadata={"t": 1}, artifacts=[{"n": 1}]),
            chunk("b", metadata={"u": 2}, artifacts=[{"n": 2}]),
        ]
    )
    assert merged.name == "planner"
    assert merged.metadata == {"t": 1, "u": 2}
    assert merged.artifacts == ({"n": 1}, {"n": 2})


# -- tool calls -------------------------------------------------------------------------


def test_openai_style_parallel_tool_calls() -> None:
    merged = merge_chunks(
        [
            chunk(frag("", index=0, id="call_a", name="get_weather")),
            chunk(frag('{"loc', index=0)),
            chunk(frag("", index=1, id="call_b", name="get_time")),
            chunk(frag('ation": "Paris"}', index=0), frag('{"tz": "CET"}', index=1)),
            chunk("", response_metadata={"finish_reason": "tool_calls"}),
        ]
    )
    assert merged.content == ""
    assert merged.tool_calls == (
        ToolCall("call_a", "get_weather", {"location": "Paris"}),
        ToolCall("call_b", "get_time", {"tz": "CET"}),
    )
    assert merged.invalid_tool_calls == ()


def test_arguments_that_do_not_parse_become_invalid_calls() -> None:
    merged = merge_chunks(
        [
            chunk(frag('{"location": "Pa', id="call_a", name="get_weather")),
            chunk(frag("ris", index=0)),  # the stream stopped here
            chunk(frag('{"q": 1}', index=1, id="call_b", name="search")),
        ]
    )
    assert merged.tool_calls == (ToolCall("call_b", "search", {"q": 1}),)
    (bad,) = merged.invalid_tool_calls
    assert (bad.id, bad.name, bad.args) == ("call_a", "get_weather", '{"location": "Paris')
    assert bad.error is not None and "not valid JSON" in bad.error


@pytest.mark.parametrize(("args", "kind"), [("[1, 2]", "an array"), ('"x"', "a string"), ("3", "")])
def test_arguments_that_are_not_an_object_are_invalid(args: str, kind: str) -> None:
    merged = merge_chunks([chunk(frag(args, id="c", name="f"))])
    assert merged.tool_calls == ()
    (bad,) = merged.invalid_tool_calls
    assert bad.args == args
    assert "must be a JSON object" in (bad.error or "") and kind in (bad.error or "")


@pytest.mark.parametrize("args", [None, "", "  "])
def test_empty_arguments_are_an_empty_object(args: str | None) -> None:
    merged = merge_chunks([chunk(frag(args, id="c", name="list_files"))])
    assert merged.tool_calls == (ToolCall("c", "list_files", {}),)


def test_fragments_without_index_join_by_id() -> None:
    merged = merge_chunks(
        [
            chunk(frag('{"a"', index=None, id="t1", name="one")),
            chunk(frag('{"b"', index=None, id="t2", name="two")),
            chunk(frag(": 1}", index=None, id="t1"), frag(": 2}", index=None, id="t2")),
        ]
    )
    assert merged.tool_calls == (ToolCall("t1", "one", {"a": 1}), ToolCall("t2", "two", {"b": 2}))


def test_fragment_without_index_or_id_continues_the_latest_call() -> None:
    merged = merge_chunks(
        [
            chunk(frag('{"path":', index=None, id="t1", name="read_file")),
            chunk(frag(' "/tmp/a"}', index=None)),
        ]
    )
    assert merged.tool_calls == (ToolCall("t1", "read_file", {"path": "/tmp/a"}),)


def test_same_index_with_a_new_id_is_a_new_call() -> None:
    merged = merge_chunks(
        [
            chunk(frag('{"x": 1}', index=0, id="call_1", name="f")),
            chunk(frag('{"x": 2}', index=0, id="call_2", name="f")),
        ]
    )
    assert merged.tool_calls == (
        ToolCall("call_1", "f", {"x": 1}),
        ToolCall("call_2", "f", {"x": 2}),
    )


def test_name_split_across_fragments_or_repeated() -> None:
    merged = merge_chunks(
        [
            chunk(frag("{}", index=0, id="a", name="get_")),
            chunk(frag(None, index=0, name="weather")),
            chunk(frag("{}", index=1, id="b", name="ls")),
            chunk(frag(None, index=1, name="ls")),
        ]
    )
    assert [c.name for c in merged.tool_calls] == ["get_weather", "ls"]


def test_fragment_extra_lands_on_the_call() -> None:
    merged = merge_chunks(
        [
            chunk(ToolCallChunkBlock("c", "f", "{", 0, extra={"type": "function"})),
            chunk(ToolCallChunkBlock(None, None, "}", 0, extra={"thoughtSignature": "sig"})),
        ]
    )
    assert merged.tool_calls == (
        ToolCall("c", "f", {}, extra={"type": "function", "thoughtSignature": "sig"}),
    )


def test_complete_tool_calls_in_chunks_are_kept() -> None:
    done = ToolCall("call_0", "ls", {"path": "."})
    earlier = InvalidToolCall("call_x", "ls", "{", "cut off")
    merged = merge_chunks(
        [
            chunk("", tool_calls=[done], invalid_tool_calls=[earlier]),
            chunk(frag('{"n": 1}', index=0, id="call_1", name="f")),
        ]
    )
    assert merged.tool_calls == (done, ToolCall("call_1", "f", {"n": 1}))
    [bad] = merged.invalid_tool_calls
    assert (bad.id, bad.args, bad.error) == ("call_x", "{", "cut off")
    # the unparsable call keeps its place: after the first chunk's call, before the streamed one
    assert [c.id for c in calls_in_order(merged)] == ["call_0", "call_x", "call_1"]


def test_a_missing_name_follows_langchain() -> None:
    merged = merge_chunks([chunk(frag('{"a": 1}', id="c"))])
    assert merged.tool_calls == (ToolCall("c", "", {"a": 1}),)


# -- blocks -----------------------------------------------------------------------------


def test_anthropic_style_thinking_then_text_then_tool_use() -> None:
    merged = merge_chunks(
        [
            chunk(ReasoningBlock("Let me ")),
            chunk(ReasoningBlock("check.")),
            chunk(ReasoningBlock(signature="EqQBCkYIBxgC")),
            chunk(TextBlock("I'll look")),
            chunk(TextBlock(" it up.")),
            chunk(frag("", index=2, id="toolu_1", name="get_weather")),
            chunk(frag('{"location": "Paris"}', index=2)),
        ]
    )
    assert merged.content == (
        ReasoningBlock("Let me check.", signature="EqQBCkYIBxgC"),
        TextBlock("I'll look it up."),
    )
    assert merged.tool_calls == (ToolCall("toolu_1", "get_weather", {"location": "Paris"}),)
    assert merged.text == "I'll look it up."


def test_a_signed_reasoning_block_is_not_extended() -> None:
    merged = merge_chunks(
        [
            chunk(ReasoningBlock("one", signature="s1")),
            chunk(ReasoningBlock("two")),
            chunk(ReasoningBlock(redacted=True, data="AAA")),
            chunk(ReasoningBlock(redacted=True, data="BBB")),
        ]
    )
    assert merged.content == (
        ReasoningBlock("one", signature="s1"),
        ReasoningBlock("two"),
        ReasoningBlock(redacted=True, data="AAA"),
        ReasoningBlock(redacted=True, data="BBB"),
    )


def test_encrypted_reasoning_arriving_last_joins_its_summary() -> None:
    merged = merge_chunks(
        [
            chunk(ReasoningBlock("Sum")),
            chunk(ReasoningBlock("mary")),
            chunk(ReasoningBlock(data="enc")),
        ]
    )
    assert merged.content == (ReasoningBlock("Summary", data="enc"),)


def test_blocks_with_different_indexes_stay_apart() -> None:
    merged = merge_chunks(
        [
            chunk(TextBlock("a", extra={"index": 0})),
            chunk(TextBlock("b", extra={"index": 0})),
            chunk(TextBlock("c", extra={"index": 1})),
        ]
    )
    assert merged.content == (
        TextBlock("ab", extra={"index": 0}),
        TextBlock("c", extra={"index": 1}),
    )


def test_text_around_tool_fragments_still_joins() -> None:
    merged = merge_chunks(
        [chunk(TextBlock("Checking"), frag("{}", id="c", name="ls"), TextBlock(" now."))]
    )
    assert merged.content == "Checking now."
    assert merged.tool_calls == (ToolCall("c", "ls", {}),)


def test_citations_and_other_blocks_keep_their_place() -> None:
    from msgviewer.core import CitationBlock

    cite = CitationBlock(url="https://example.com", cited_text="Paris")
    image = ImageBlock(url="https://example.com/chart.png")
    search = ServerToolCallBlock("srv_1", "web_search", {"query": "paris"})
    merged = merge_chunks(
        [
            chunk(TextBlock("Look:")),
            chunk(image),
            chunk(search),
            chunk(TextBlock("Paris", (cite,))),
            chunk(TextBlock(" is the capital.")),
        ]
    )
    assert merged.content == (
        TextBlock("Look:"),
        image,
        search,
        TextBlock("Paris is the capital.", (cite,)),
    )


# -- LangChain parity -------------------------------------------------------------------


def test_same_result_as_langchain_chunk_addition() -> None:
    lc = pytest.importorskip("langchain_core.messages")
    stream = [
        ("The ", []),
        ("answer", [{"name": "calc", "args": '{"expr"', "id": "call_1", "index": 0}]),
        ("", [{"name": None, "args": ': "2+2"}', "id": None, "index": 0}]),
        (" is", [{"name": "bad", "args": '{"x": [1,', "id": "call_2", "index": 1}]),
    ]
    total = None
    ours = []
    for text, frags in stream:
        piece = lc.AIMessageChunk(content=text, tool_call_chunks=frags)
        total = piece if total is None else total + piece
        blocks = [TextBlock(text)] + [
            ToolCallChunkBlock(f["id"], f["name"], f["args"], f["index"]) for f in frags
        ]
        ours.append(Message("assistant", blocks))
    merged = merge_chunks(ours)
    assert merged.text == total.content
    assert [(c.id, c.name, c.args) for c in merged.tool_calls] == [
        (c["id"], c["name"], c["args"]) for c in total.tool_calls[:1]
    ]
    # LangChain completes the truncated '{"x": [1,' leniently into {"x": [1]}; msgviewer keeps
    # the text as it came, as an invalid call, so a cut-off stream shows as one.
    assert total.tool_calls[1]["id"] == "call_2"
    assert [(c.id, c.args) for c in merged.invalid_tool_calls] == [("call_2", '{"x": [1,')]


# -- property: a message split into random chunks comes back ----------------------------


@st.composite
def streamed_messages(draw: st.DrawFn) -> tuple[Message, list[Message]]:
    """An assistant message and a random stream of chunks that should merge back into it."""
    has_reasoning = draw(st.booleans())
    text = draw(texts(80).filter(bool) if has_reasoning else texts(80))
    reasoning = draw(texts(60)) if has_reasoning else ""
    signature = draw(base64_data.filter(bool)) if has_reasoning else None
    calls = [
        ToolCall(f"call_{i}", draw(tool_names), draw(args_dicts()))
        for i in range(draw(st.integers(0, 3)))
    ]
    usage = draw(st.none() | st.builds(Usage, st.integers(0, 5000), st.integers(0, 5000)))
    model = draw(models)
    msg_id = draw(st.none() | st.just("msg_01"))

    def pieces(s: str) -> list[str]:
        cuts = sorted(draw(st.lists(st.integers(0, len(s)), max_size=6)))
        bounds = [0, *cuts, len(s)]
        return [s[a:b] for a, b in itertools.pairwise(bounds)]

    # One ordered stream of events per source; sources then interleave at random, each keeping
    # its own order. Reasoning comes before text, as it does in a real stream.
    streams: dict[str, list[Any]] = {"content": []}
    if has_reasoning:
        streams["content"] += [ReasoningBlock(p) for p in pieces(reasoning)]
        streams["content"].append(ReasoningBlock(signature=signature))
    streams["content"] += [("text", p) for p in pieces(text)]
    for i, call in enumerate(calls):
        args = orjson.dumps(call.args).decode()
        if call.args == {} and draw(st.booleans()):
            args = ""  # no arguments streamed at all
        parts = pieces(args)
        events = [ToolCallChunkBlock(call.id, call.name, parts[0], i)]
        events += [ToolCallChunkBlock(None, None, p, i) for p in parts[1:]]
        streams[f"call{i}"] = events
    order = draw(st.permutations([k for k, v in streams.items() for _ in v]))
    events = [streams[k].pop(0) for k in order]
    # Calls come out in the order their first fragment arrived (LangChain's order too).
    started = list(dict.fromkeys(k for k in order if k.startswith("call")))
    calls = [calls[int(k[4:])] for k in started]

    # Cut the event list into chunks.
    cuts = sorted(set(draw(st.lists(st.integers(1, max(len(events), 1)), max_size=8))))
    bounds = [0, *[c for c in cuts if c < len(events)], len(events)]
    chunks = []
    for a, b in itertools.pairwise(bounds):
        content: list[Any] = []
        for ev in events[a:b]:
            if isinstance(ev, tuple):
                content.append(TextBlock(ev[1]) if draw(st.booleans()) else ev[1])
            else:
                content.append(ev)
        if len(content) == 1 and isinstance(content[0], str):
            body: Any = content[0]
        else:
            body = [TextBlock(c) if isinstance(c, str) else c for c in content]
        chunks.append(Message("assistant", body, id=msg_id if draw(st.booleans()) else None))
    if not chunks or all(c.id is None for c in chunks):
        chunks.append(Message("assistant", "", id=msg_id))
    # Usage split between the first and the last chunk (input first, output last).
    if usage is not None:
        first, last = (
            Usage(input_tokens=usage.input_tokens),
            Usage(output_tokens=usage.output_tokens),
        )
        chunks[0] = Message("assistant", chunks[0].content, id=chunks[0].id, usage=first)
        chunks.append(Message("assistant", "", usage=last))
    chunks.append(Message("assistant", "", response_metadata={"model": model}))

    content_out: Any = text
    if has_reasoning:
        content_out = (ReasoningBlock(reasoning, signature=signature), TextBlock(text))
    expected = Message(
        "assistant",
        content_out,
        id=msg_id,
        tool_calls=calls,
        usage=usage,
        response_metadata={"model": model},
    )
    return expected, chunks


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(streamed_messages())
def test_merging_a_split_message_gives_it_back(case: tuple[Message, list[Message]]) -> None:
    expected, chunks = case
    assert merge_chunks(chunks) == expected


def test_streamed_arguments_keep_an_integer_past_64_bits() -> None:
    merged = merge_chunks(
        [
            chunk(ToolCallChunkBlock("c", "lookup", '{"id": 1234567890', 0)),
            chunk(ToolCallChunkBlock(None, None, "12345678901234}", 0)),
        ]
    )
    [call] = merged.tool_calls
    assert call.args == {"id": 123456789012345678901234}
    assert type(call.args["id"]) is int
