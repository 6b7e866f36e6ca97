"""Hypothesis strategies for realistic histories of ``msgviewer.core`` messages.

Every block type, every optional message field and all four roles come up. Values are limited
to what JSON (and orjson) can carry: string keys, integers within 64 bits, finite floats and
strings without lone surrogates, so anything drawn here survives ``to_dict`` -> JSON -> back.

Import ``messages()`` for single messages of any role and ``histories()`` for lists shaped like
real runs (system prompt, user turns, assistant turns whose tool calls are answered).
"""

from __future__ import annotations

import base64
import dataclasses
import functools
import string
from typing import Any

from hypothesis import strategies as st

from msgviewer.core import (
    AudioBlock,
    CitationBlock,
    ErrorBlock,
    FileBlock,
    ImageBlock,
    InvalidToolCall,
    Message,
    ReasoningBlock,
    ServerToolCallBlock,
    ServerToolResultBlock,
    TextBlock,
    ToolCall,
    ToolCallBlock,
    ToolCallChunkBlock,
    ToolResultBlock,
    UnknownBlock,
    Usage,
    VideoBlock,
)

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

# -- JSON values ------------------------------------------------------------------------

# Lone surrogates are not valid UTF-8: orjson refuses them, and no real file holds them.
_chars = st.characters(exclude_categories=("Cs",))

_PHRASES = (
    "What is the weather in Paris?",
    "Let me check that for you.",
    "The file has 3 lines.",
    "I'll run the tests now.",
    "Sure! Here's a summary:\n\n- one\n- two",
    "Error: permission denied",
    "日本語のテキスト",
    "emoji 🎉 and accents: café",
    "",
    "   ",
    'quote " and backslash \\ and tab\t',
)


@functools.cache
def texts(max_size: int = 60) -> st.SearchStrategy[str]:
    """Strings: mostly realistic phrases, sometimes arbitrary unicode (never lone surrogates)."""
    return st.one_of(st.sampled_from(_PHRASES), st.text(_chars, max_size=max_size))


@functools.cache
def _ints() -> st.SearchStrategy[int]:
    return st.one_of(
        st.integers(min_value=-1000, max_value=100_000),
        st.integers(min_value=INT64_MIN, max_value=INT64_MAX),
    )


@functools.cache
def json_scalars() -> st.SearchStrategy[Any]:
    """null, booleans, 64-bit integers, finite floats and strings."""
    return st.one_of(
        st.none(),
        st.booleans(),
        _ints(),
        st.floats(allow_nan=False, allow_infinity=False),
        texts(20),
    )


@functools.cache
def json_keys() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(
            ("type", "cache_control", "id", "index", "thoughtSignature", "source", "status")
        ),
        st.text(_chars, max_size=10),
    )


@functools.cache
def json_values(max_leaves: int = 8) -> st.SearchStrategy[Any]:
    """Any JSON value (arrays as lists, objects as dicts with string keys)."""
    return st.recursive(
        json_scalars(),
        lambda children: st.one_of(
            st.lists(children, max_size=4),
            st.dictionaries(json_keys(), children, max_size=4),
        ),
        max_leaves=max_leaves,
    )


@functools.cache
def json_objects(max_size: int = 4) -> st.SearchStrategy[dict[str, Any]]:
    """A JSON object."""
    return st.dictionaries(json_keys(), json_values(4), max_size=max_size)


@functools.cache
def extras() -> st.SearchStrategy[dict[str, Any]]:
    """A block's or call's ``extra``: usually empty, sometimes provider fields."""
    realistic = st.sampled_from(
        (
            {"cache_control": {"type": "ephemeral"}},
            {"thoughtSignature": "CiQBcsjafQ=="},
            {"index": 0},
            {"detail": "high"},
        )
    )
    return st.one_of(st.just({}), st.just({}), realistic, json_objects(3))


# -- small fields -----------------------------------------------------------------------


@functools.cache
def ids(prefix: str | None = None) -> st.SearchStrategy[str]:
    """Provider-style ids (``call_...``, ``toolu_...``, ``msg_...``)."""
    prefixes = st.just(prefix) if prefix else st.sampled_from(("call_", "toolu_", "msg_", "rs_"))
    return st.builds(
        lambda p, s: p + s,
        prefixes,
        st.text(string.ascii_letters + string.digits, min_size=1, max_size=12),
    )


@functools.cache
def opt(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(st.none(), strategy)


_TOOL_NAMES = ("get_weather", "read_file", "bash", "search", "str_replace_editor", "ls")
tool_names = st.one_of(st.sampled_from(_TOOL_NAMES), st.text(_chars, min_size=1, max_size=12))
models = st.sampled_from(
    ("gpt-4o-2024-08-06", "claude-sonnet-4-5", "gemini-2.5-pro", "o3-mini", "llama-3.1-70b")
)
_MIMES = {
    ImageBlock: ("image/png", "image/jpeg", "image/webp"),
    AudioBlock: ("audio/wav", "audio/mpeg"),
    VideoBlock: ("video/mp4",),
    FileBlock: ("application/pdf", "text/plain", "text/csv"),
}
_EXTS = {ImageBlock: "png", AudioBlock: "wav", VideoBlock: "mp4", FileBlock: "pdf"}
base64_data = st.binary(max_size=48).map(lambda b: base64.b64encode(b).decode("ascii"))


# -- blocks -----------------------------------------------------------------------------


@functools.cache
def citation_blocks() -> st.SearchStrategy[CitationBlock]:
    return st.builds(
        CitationBlock,
        url=opt(st.sampled_from(("https://example.com/a", "https://en.wikipedia.org/wiki/X"))),
        title=opt(texts(20)),
        cited_text=opt(texts(40)),
        start=opt(st.integers(0, 10_000)),
        end=opt(st.integers(0, 10_000)),
        extra=extras(),
    )


@functools.cache
def text_blocks(with_citations: bool = True) -> st.SearchStrategy[TextBlock]:
    citations = (
        st.lists(citation_blocks(), max_size=2).map(tuple) if with_citations else st.just(())
    )
    return st.builds(TextBlock, texts(), citations, extra=extras())


@functools.cache
@st.composite
def media_blocks(draw: st.DrawFn, kinds: tuple[type, ...] | None = None) -> Any:
    """Image, audio, video or file by url, inline data (or a data URI), or file id."""
    cls = draw(st.sampled_from(kinds or (ImageBlock, AudioBlock, VideoBlock, FileBlock)))
    mime = draw(opt(st.sampled_from(_MIMES[cls])))
    filename = draw(opt(st.just(f"attachment.{_EXTS[cls]}")))
    how = draw(st.sampled_from(("url", "data", "data_uri", "file_id")))
    kw: dict[str, Any] = {"mime_type": mime, "filename": filename, "extra": draw(extras())}
    if how == "url":
        kw["url"] = draw(st.sampled_from(("https://example.com/x", "gs://bucket/obj", "s3://b/k")))
    elif how == "data":
        kw["data"] = draw(base64_data)
    elif how == "data_uri":
        # A data URI given as the url: the block parses it into mime_type + data.
        kw["url"] = f"data:{mime or 'image/png'};base64,{draw(base64_data)}"
    else:
        kw["file_id"] = draw(ids("file-"))
    return cls(**kw)


@functools.cache
@st.composite
def reasoning_blocks(draw: st.DrawFn) -> ReasoningBlock:
    """Readable, signed (Anthropic), redacted, or encrypted (OpenAI) reasoning."""
    kind = draw(st.sampled_from(("plain", "signed", "redacted", "encrypted")))
    extra = draw(extras())
    if kind == "plain":
        return ReasoningBlock(draw(texts()), extra=extra)
    if kind == "signed":
        return ReasoningBlock(draw(texts()), signature=draw(base64_data), extra=extra)
    if kind == "redacted":
        return ReasoningBlock(redacted=True, data=draw(base64_data), extra=extra)
    return ReasoningBlock(draw(texts()), data=draw(base64_data), extra=extra)


@functools.cache
def args_dicts() -> st.SearchStrategy[dict[str, Any]]:
    realistic = st.sampled_from(
        (
            {},
            {"location": "Paris", "unit": "celsius"},
            {"path": "/tmp/a.txt"},
            {"command": "ls -la", "timeout": 30},
            {"query": "hypothesis", "filters": {"lang": ["en", "fr"]}, "limit": 5},
        )
    )
    return st.one_of(realistic, json_objects())


@functools.cache
def tool_call_blocks() -> st.SearchStrategy[ToolCallBlock]:
    return st.builds(ToolCallBlock, opt(ids("toolu_")), tool_names, args_dicts(), extra=extras())


@functools.cache
def tool_call_chunk_blocks() -> st.SearchStrategy[ToolCallChunkBlock]:
    return st.builds(
        ToolCallChunkBlock,
        opt(ids("call_")),
        opt(tool_names),
        opt(st.sampled_from(('{"loc', 'ation": "Pa', "ris", '"}', ""))),
        opt(st.integers(0, 8)),
        extra=extras(),
    )


@functools.cache
def server_tool_call_blocks() -> st.SearchStrategy[ServerToolCallBlock]:
    return st.builds(
        ServerToolCallBlock,
        opt(ids("srvtoolu_")),
        st.sampled_from(("web_search", "code_execution", "file_search")),
        args_dicts(),
        extra=extras(),
    )


@functools.cache
def server_tool_result_blocks() -> st.SearchStrategy[ServerToolResultBlock]:
    return st.builds(
        ServerToolResultBlock,
        opt(ids("srvtoolu_")),
        json_values(),
        opt(st.sampled_from(("completed", "failed", "in_progress"))),
        extra=extras(),
    )


@functools.cache
def _leaf_blocks() -> st.SearchStrategy[Any]:
    return st.one_of(text_blocks(), media_blocks(), unknown_blocks(), error_blocks())


@functools.cache
def tool_result_blocks() -> st.SearchStrategy[ToolResultBlock]:
    content = st.one_of(texts(), st.lists(_leaf_blocks(), max_size=3).map(tuple))
    return st.builds(ToolResultBlock, opt(ids("toolu_")), content, st.booleans(), extra=extras())


@functools.cache
def error_blocks() -> st.SearchStrategy[ErrorBlock]:
    return st.builds(
        ErrorBlock,
        texts(),
        opt(st.sampled_from(("overloaded_error", "rate_limit", "500"))),
        extra=extras(),
    )


@functools.cache
def unknown_blocks() -> st.SearchStrategy[UnknownBlock]:
    return st.builds(
        UnknownBlock,
        st.sampled_from(("executableCode", "mcp_call", "container_upload", "x-custom")),
        json_values(),
        extra=extras(),
    )


_ALL_BLOCKS = {
    "text": text_blocks,
    "media": media_blocks,
    "reasoning": reasoning_blocks,
    "citation": citation_blocks,
    "tool_call": tool_call_blocks,
    "tool_call_chunk": tool_call_chunk_blocks,
    "server_tool_call": server_tool_call_blocks,
    "server_tool_result": server_tool_result_blocks,
    "tool_result": tool_result_blocks,
    "error": error_blocks,
    "unknown": unknown_blocks,
}


@functools.cache
def blocks() -> st.SearchStrategy[Any]:
    """A block of any type."""
    return st.one_of(*(make() for make in _ALL_BLOCKS.values()))


# -- message parts ----------------------------------------------------------------------


@functools.cache
def tool_calls(id_prefix: str = "call_") -> st.SearchStrategy[ToolCall]:
    return st.builds(ToolCall, opt(ids(id_prefix)), tool_names, args_dicts(), extra=extras())


@functools.cache
def invalid_tool_calls() -> st.SearchStrategy[InvalidToolCall]:
    return st.builds(
        InvalidToolCall,
        opt(ids("call_")),
        opt(tool_names),
        opt(st.sampled_from(('{"location": "Par', "not json", "[1, 2]", ""))),
        opt(st.sampled_from(("unexpected end of data", "expected an object"))),
        extra=extras(),
    )


@functools.cache
@st.composite
def usages(draw: st.DrawFn) -> Usage:
    """Usage with consistent counts, sometimes with the provider's raw numbers in ``extra``."""
    small = st.integers(0, 50_000)
    cache_read = draw(small)
    cache_write = draw(small)
    inp = cache_read + cache_write + draw(small)
    reasoning = draw(small)
    out = reasoning + draw(small)
    total = draw(st.sampled_from((0, inp + out, inp + out + draw(st.integers(0, 100)))))
    extra = draw(
        st.one_of(
            st.just({}),
            st.just(
                {
                    "input_tokens": inp - cache_read - cache_write,
                    "cache_read_input_tokens": cache_read,
                    "cache_creation_input_tokens": cache_write,
                    "output_tokens": out,
                }
            ),
            json_objects(3),
        )
    )
    return Usage(inp, out, total, cache_read, cache_write, reasoning, extra)


@functools.cache
def response_metadata() -> st.SearchStrategy[dict[str, Any]]:
    realistic = st.fixed_dictionaries(
        {"model": models},
        optional={
            "stop_reason": st.sampled_from(("end_turn", "tool_use", "max_tokens")),
            "finish_reason": st.sampled_from(("stop", "tool_calls", "length")),
            "id": ids("chatcmpl-"),
            "created": st.integers(1_600_000_000, 1_800_000_000),
        },
    )
    return st.one_of(st.just({}), realistic, json_objects(3))


@functools.cache
def metadata() -> st.SearchStrategy[dict[str, Any]]:
    realistic = st.sampled_from(
        (
            {"role": "developer"},
            {"timestamp": "2025-01-01T12:00:00Z", "uuid": "5f0c7e1e"},
            {"isMeta": True},
            {"weight": 0},
        )
    )
    return st.one_of(st.just({}), st.just({}), realistic, json_objects(3))


@functools.cache
def _content(block_strategy: st.SearchStrategy[Any], max_blocks: int = 4) -> Any:
    return st.one_of(texts(), st.lists(block_strategy, max_size=max_blocks).map(tuple))


_USER_BLOCKS = st.one_of(text_blocks(), media_blocks(), tool_result_blocks())
_ASSISTANT_BLOCKS = st.one_of(
    text_blocks(),
    reasoning_blocks(),
    tool_call_blocks(),
    server_tool_call_blocks(),
    server_tool_result_blocks(),
    error_blocks(),
    unknown_blocks(),
)


@functools.cache
def _any_or(role_blocks: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    # Mostly what the role really holds, sometimes any block at all (hand-built histories).
    return st.one_of(role_blocks, role_blocks, role_blocks, blocks())


@functools.cache
@st.composite
def _message(draw: st.DrawFn, role: str) -> Message:
    kw: dict[str, Any] = {
        "id": draw(opt(ids("msg_"))),
        "metadata": draw(metadata()),
    }
    if role == "system":
        content = draw(_content(_any_or(text_blocks(with_citations=False)), 2))
    elif role == "user":
        content = draw(_content(_any_or(_USER_BLOCKS)))
        kw["name"] = draw(opt(st.sampled_from(("alice", "bob"))))
    elif role == "assistant":
        content = draw(_content(_any_or(_ASSISTANT_BLOCKS)))
        kw["name"] = draw(opt(st.just("planner")))
        kw["tool_calls"] = draw(st.lists(tool_calls(), max_size=3))
        kw["invalid_tool_calls"] = draw(st.lists(invalid_tool_calls(), max_size=1))
        kw["usage"] = draw(opt(usages()))
        kw["response_metadata"] = draw(response_metadata())
    else:
        content = draw(_content(_any_or(_leaf_blocks()), 3))
        kw["tool_call_id"] = draw(opt(ids("call_")))
        kw["name"] = draw(opt(tool_names))
        kw["is_error"] = draw(st.booleans())
        kw["artifacts"] = draw(st.lists(json_values(4), max_size=2))
    return Message(role, content, **kw)


@functools.cache
def messages(role: str | None = None) -> st.SearchStrategy[Message]:
    """A message of ``role`` (any of the four when None), with any of its optional fields."""
    if role is not None:
        return _message(role)
    return st.sampled_from(("system", "user", "assistant", "tool")).flatmap(_message)


@functools.cache
@st.composite
def _turn(draw: st.DrawFn) -> list[Message]:
    """A user message, then assistant calls answered by tool messages, then a reply."""
    out = [draw(messages("user"))]
    for _ in range(draw(st.integers(0, 2))):
        call = draw(messages("assistant"))
        out.append(call)
        for tc in call.tool_calls:
            answer = draw(messages("tool"))
            out.append(dataclasses.replace(answer, tool_call_id=tc.id))
    out.append(draw(messages("assistant")))
    return out


@functools.cache
@st.composite
def histories(draw: st.DrawFn, max_turns: int = 3) -> list[Message]:
    """A list of messages shaped like a real run (sometimes with a stray message anywhere)."""
    out: list[Message] = []
    if draw(st.booleans()):
        out.append(draw(messages("system")))
    for _ in range(draw(st.integers(0, max_turns))):
        out.extend(draw(_turn()))
    if out and draw(st.integers(0, 4)) == 0:
        out.insert(draw(st.integers(0, len(out))), draw(messages()))
    return out
