"""Reading Chat Completions messages, request bodies and completions: the careful reader,
which ``fast`` and ``typed`` hand every message they do not take.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from typing import Any

from ...core.blocks import (
    AudioBlock,
    Block,
    FileBlock,
    ImageBlock,
    ReasoningBlock,
    TextBlock,
    UnknownBlock,
    parse_data_uri,
)
from ...core.call_order import split_calls
from ...core.message import InvalidToolCall, Message, ToolCall
from ..base import Context, Conversation
from ..shared.openai import (
    OPT_STR,
    audio_mime,
    chat_usage_in,
    expect,
    parse_call,
)
from .detect import ARRAY_KEY, DATASET_KEY, NAME, ROLES
from .fast import read_all
from .write import REASONING_FIELDS

# The keys each role's fields are read from: any other key is kept in the message metadata
# (a call list on a tool message, say, is no field of ours, but it is the file's data).
MESSAGE_KEYS = frozenset({"role", "content", "name"})
READ_KEYS = {
    "assistant": MESSAGE_KEYS | {"tool_calls", "function_call", "refusal"},
    "tool": MESSAGE_KEYS | {"tool_call_id"},
    "function": MESSAGE_KEYS | {"tool_call_id"},
}


class Links:
    """Ids for calls and results that have none (legacy functions, some HF templates)."""

    def __init__(self, messages: Callable[[], list[Any]] = list) -> None:
        self.unanswered: dict[str, str | None] = {}
        """Call id -> name of the calls still waiting for a result, oldest first."""
        self.count = 0
        self.messages = messages
        """The message dicts read: counted only if an id has to be made up or given."""
        self._counts: tuple[Counter[Any], Counter[Any]] | None = None
        self.taken: set[Any] | None = None
        self.answered_by_id: set[Any] | None = None

    def _ids(self) -> tuple[Counter[Any], Counter[Any]]:
        """How many calls, and how many results, give each id (counted once)."""
        if self._counts is None:
            self._counts = _id_counts(self.messages())
        return self._counts

    def new_id(self) -> str:
        """An id no call or result of the messages has (a made-up one must not answer for a
        real one, nor a real result link to a made-up call)."""
        if self.taken is None:
            calls, results = self._ids()
            self.taken = calls.keys() | results.keys()
        self.count += 1
        while f"call_{self.count}" in self.taken:
            self.count += 1
        return f"call_{self.count}"

    def answered(self, call_id: str) -> None:
        self.unanswered.pop(call_id, None)

    def answer(self, name: str | None) -> str | None:
        """The id of the oldest unanswered call named ``name`` (or of any, without a name),
        but for calls whose results name them (as many results as calls of that id): a
        result without an id answers none of those."""
        if self.answered_by_id is None:
            calls, results = self._ids()
            self.answered_by_id = {i for i, n in calls.items() if results.get(i, 0) >= n}
        for call_id, call_name in self.unanswered.items():
            if (name is None or call_name == name) and call_id not in self.answered_by_id:
                del self.unanswered[call_id]
                return call_id
        return None


def _id_counts(items: Any) -> tuple[Counter[Any], Counter[Any]]:
    """How many calls, and how many results, give each id, in chat message dicts."""
    calls: Counter[Any] = Counter()
    results: Counter[Any] = Counter()
    for d in items if isinstance(items, list) else ():
        if not isinstance(d, dict):
            continue
        if isinstance(d.get("tool_call_id"), str):
            results[d["tool_call_id"]] += 1
        raw = d.get("tool_calls")
        for tc in raw if isinstance(raw, list) else ():
            if isinstance(tc, dict) and isinstance(tc.get("id"), str):
                calls[tc["id"]] += 1
    return calls, results


def read(value: Any, ctx: Context) -> list[Conversation]:
    """One JSON value (a whole file or one JSONL record) -> its conversation."""
    if isinstance(value, list):
        first = value[0] if value else None
        if isinstance(first, dict) and "messages" in first and "role" not in first:
            return [_read_record(d, ctx, f"$[{i}]") for i, d in enumerate(value)]
        return [Conversation(read_messages(value, ctx, "$"), NAME, {ARRAY_KEY: True})]
    expect(ctx, value, dict, "an OpenAI chat file", "$")
    if "choices" in value:
        return [_read_completion(value, ctx)]
    if "messages" not in value:
        raise ctx.error(
            'not an OpenAI chat file: expected a list of messages, {"messages": [...]} '
            'or a completion with "choices"'
        )
    messages = read_messages(value["messages"], ctx, "$.messages")
    meta = {k: v for k, v in value.items() if k != "messages"}
    return [Conversation(messages, NAME, meta)]


def _read_record(value: Any, ctx: Context, path: str) -> Conversation:
    """One record of a dataset array: its messages, its other fields (media lists) kept."""
    expect(ctx, value, dict, "a dataset record", path)
    if "messages" not in value:
        raise ctx.error('a dataset record needs "messages"', path)
    messages = read_messages(value["messages"], ctx, f"{path}.messages")
    meta = {k: v for k, v in value.items() if k != "messages"}
    return Conversation(messages, NAME, {**meta, DATASET_KEY: True})


def read_messages(items: Any, ctx: Context, path: str) -> tuple[Message, ...]:
    """Chat message dicts -> messages."""
    expect(ctx, items, list, "messages", path)
    links = Links(lambda: items)
    # The common shapes without the checks' overhead; the careful reader takes the rest.
    return tuple(
        read_all(items, links.unanswered, lambda i, d: read_message(d, ctx, f"{path}[{i}]", links))
    )


def _read_completion(value: dict[str, Any], ctx: Context) -> Conversation:
    choices = expect(ctx, value["choices"], list, "choices", "$.choices")
    usage = None
    if value.get("usage") is not None:
        usage = chat_usage_in(value["usage"], ctx, "$.usage")
    meta = {k: v for k, v in value.items() if k != "choices" and not (k == "usage" and usage)}
    response = {
        k: value[k]
        for k in ("id", "model", "created", "system_fingerprint", "service_tier")
        if k in value
    }
    links = Links(lambda: [c.get("message") for c in choices if isinstance(c, dict)])
    messages = []
    for i, choice in enumerate(choices):
        path = f"$.choices[{i}]"
        expect(ctx, choice, dict, "a choice", path)
        m = read_message(choice.get("message"), ctx, f"{path}.message", links)
        rm = {**response, **{k: v for k, v in choice.items() if k != "message"}}
        messages.append(
            dataclasses.replace(m, response_metadata=rm, usage=usage if i == 0 else None)
        )
    return Conversation(tuple(messages), NAME, meta)


def read_message(d: Any, ctx: Context, path: str, links: Links) -> Message:
    # The hot loop of big files: checks are inlined for the common shapes.
    if type(d) is not dict:
        expect(ctx, d, dict, "a message", path)
    role = d.get("role")
    if type(role) is not str or role not in ROLES:
        what = f"unknown role {role!r}" if isinstance(role, str) else 'a message needs a "role"'
        raise ctx.error(f"{what} (expected one of {', '.join(sorted(ROLES))})", f"{path}.role")
    name = d.get("name")
    if name is not None and type(name) is not str:
        expect(ctx, name, OPT_STR, "name", f"{path}.name")
    read = READ_KEYS.get(role, MESSAGE_KEYS)
    meta = {k: v for k, v in d.items() if k not in read} if len(d) > 2 else {}
    content = d.get("content")
    if type(content) is not str:
        content = _read_content(content, ctx, f"{path}.content")
    if role == "assistant":
        content = _assistant_fields(d, content, meta, ctx, path)
        calls, invalid = _read_calls(d, ctx, path, links)
        return Message(
            role, content, name=name, tool_calls=calls, invalid_tool_calls=invalid, metadata=meta
        )
    call_id = None
    if role == "tool" or role == "function":
        call_id = d.get("tool_call_id")
        if call_id is None:
            call_id = links.answer(name)
            if call_id is not None:
                meta["synthetic_tool_call_id"] = True
        elif type(call_id) is not str:
            expect(ctx, call_id, OPT_STR, "tool_call_id", f"{path}.tool_call_id")
        else:
            links.answered(call_id)
        if role == "function":
            meta["role"] = "function"
    return Message(role, content, name=name, tool_call_id=call_id, metadata=meta)


def _assistant_fields(
    d: dict[str, Any], content: Any, meta: dict[str, Any], ctx: Context, path: str
) -> Any:
    """Reasoning text and a refusal, which Chat keeps beside the content, as blocks."""
    if not meta and "refusal" not in d:
        return content
    before: list[Block] = []
    after: list[Block] = []
    for key in REASONING_FIELDS:
        v = meta.get(key)
        if isinstance(v, str):
            del meta[key]
            before.append(ReasoningBlock(v, extra={"field": key}))
    refusal = d.get("refusal")
    if isinstance(refusal, str):
        after.append(TextBlock(refusal, extra={"field": "refusal"}))
    elif refusal is not None:
        raise ctx.error("refusal must be a string or null", f"{path}.refusal")
    elif "refusal" in d:
        meta["refusal"] = None  # a response's explicit null: kept for the way back
    if not before and not after:
        return content
    body = (TextBlock(content),) if type(content) is str and content else ()
    if type(content) is tuple:
        body = content
    return (*before, *body, *after)


def _read_calls(
    d: dict[str, Any], ctx: Context, path: str, links: Links
) -> tuple[tuple[ToolCall, ...], tuple[InvalidToolCall, ...]]:
    raw_calls = d.get("tool_calls")
    if raw_calls is None and "function_call" not in d:
        return (), ()
    read: list[ToolCall | InvalidToolCall] = []
    if raw_calls is not None:
        expect(ctx, raw_calls, list, "tool_calls", f"{path}.tool_calls")
        for j, tc in enumerate(raw_calls):
            p = f"{path}.tool_calls[{j}]"
            expect(ctx, tc, dict, "a tool call", p)
            fn = expect(ctx, tc.get("function"), dict, "a tool call's function", f"{p}.function")
            call_name = expect(ctx, fn.get("name"), str, "a function name", f"{p}.function.name")
            call_id = expect(ctx, tc.get("id"), OPT_STR, "a tool call id", f"{p}.id")
            extra = {k: v for k, v in tc.items() if k not in ("id", "function", "type")}
            if tc.get("type", "function") != "function":
                extra["type"] = tc["type"]
            fn_rest = {k: v for k, v in fn.items() if k not in ("name", "arguments")}
            if fn_rest:
                extra["function_fields"] = fn_rest
            if call_id is None:
                call_id = links.new_id()
                extra["synthetic_id"] = True
            links.unanswered[call_id] = call_name
            read.append(parse_call(call_id, call_name, fn.get("arguments"), extra))
    legacy = d.get("function_call")
    if legacy is not None:
        p = f"{path}.function_call"
        expect(ctx, legacy, dict, "function_call", p)
        call_name = expect(ctx, legacy.get("name"), str, "a function name", f"{p}.name")
        call_id = links.new_id()
        links.unanswered[call_id] = call_name
        extra = {"legacy": True, "synthetic_id": True}
        read.append(parse_call(call_id, call_name, legacy.get("arguments"), extra))
    return split_calls(read)


def _read_content(content: Any, ctx: Context, path: str) -> str | tuple[Block, ...]:
    if content is None:
        return ""
    if type(content) is str:
        return content
    if type(content) is not list:
        raise ctx.error(
            f"content must be a string, an array of parts or null, not {type(content).__name__}",
            path,
        )
    return tuple(_read_part(p, ctx, f"{path}[{i}]") for i, p in enumerate(content))


def _read_part(d: Any, ctx: Context, path: str) -> Block:
    expect(ctx, d, dict, "a content part", path)
    kind = d.get("type")
    if kind == "text":
        text = expect(ctx, d.get("text"), str, "text", f"{path}.text")
        return TextBlock(text, extra=_rest(d, ("type", "text")))
    if kind == "refusal":
        text = expect(ctx, d.get("refusal"), str, "refusal", f"{path}.refusal")
        return TextBlock(text, extra={**_rest(d, ("type", "refusal")), "type": "refusal"})
    if kind == "image_url":
        inner = expect(ctx, d.get("image_url"), dict, "image_url", f"{path}.image_url")
        url = expect(ctx, inner.get("url"), str, "image url", f"{path}.image_url.url")
        return ImageBlock(url=url, extra=_with_part(_rest(inner, ("url",)), d, "image_url"))
    if kind == "input_audio":
        inner = expect(ctx, d.get("input_audio"), dict, "input_audio", f"{path}.input_audio")
        data = expect(ctx, inner.get("data"), str, "audio data", f"{path}.input_audio.data")
        extra = _with_part(_rest(inner, ("data",)), d, "input_audio")
        return AudioBlock(data=data, mime_type=audio_mime(inner.get("format")), extra=extra)
    if kind == "file":
        inner = expect(ctx, d.get("file"), dict, "file", f"{path}.file")
        for key in ("file_data", "file_id", "filename"):
            expect(ctx, inner.get(key), OPT_STR, key, f"{path}.file.{key}")
        extra = _with_part(_rest(inner, ("file_data", "file_id", "filename")), d, "file")
        data, mime = inner.get("file_data"), None
        if data is not None:
            parsed = parse_data_uri(data)
            if parsed is None:
                extra["raw_file_data"] = True
            else:
                mime, data = parsed
        return FileBlock(
            data=data, file_id=inner.get("file_id"), mime_type=mime, filename=inner.get("filename"),
            extra=extra,
        )  # fmt: skip
    if not isinstance(kind, str):
        raise ctx.error('a content part needs a string "type"', f"{path}.type")
    ctx.warn(f"unknown content part type {kind!r}: kept as is", f"{path}.type")
    return UnknownBlock(kind, d, extra={"format": NAME})


def _rest(d: dict[str, Any], known: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in known}


def _with_part(extra: dict[str, Any], part: dict[str, Any], inner: str) -> dict[str, Any]:
    rest = _rest(part, ("type", inner))
    if rest:
        extra["part_fields"] = rest
    return extra
