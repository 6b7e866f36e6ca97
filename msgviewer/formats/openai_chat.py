"""``openai-chat``: OpenAI Chat Completions messages, request bodies, responses, fine-tuning JSONL.

Also reads Hugging Face chat-template messages (arguments as objects, ``reasoning_content`` or
``thinking``) and the legacy ``function`` role and ``function_call``. Fields read into the model
come back on writing: reasoning text and refusals in their own fields, an assistant's
``weight`` and other unknown message keys through ``message.metadata``, request fields through
``Conversation.metadata``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from ..core.blocks import (
    AudioBlock,
    Block,
    FileBlock,
    ImageBlock,
    ReasoningBlock,
    TextBlock,
    UnknownBlock,
    parse_data_uri,
)
from ..core.message import InvalidToolCall, Message, ToolCall
from ._openai_common import (
    CALL_EXTRA_SKIP,
    OPT_STR,
    Drops,
    audio_format,
    audio_mime,
    canonical,
    chat_usage_in,
    chat_usage_out,
    dump_args,
    expect,
    parse_call,
    portable_request,
)
from .base import Context, Conversation, Format, message_where
from .io import json_bytes, jsonl_bytes

NAME = "openai-chat"

ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
PART_TYPES = frozenset({"text", "image_url", "input_audio", "file", "refusal"})
REASONING_FIELDS = ("reasoning_content", "thinking", "reasoning")
_MESSAGE_KEYS = frozenset(
    {"role", "content", "name", "tool_calls", "tool_call_id", "function_call", "refusal"}
)
# Message metadata keys this module sets or interprets (never written back as fields).
_MARKERS = frozenset({"role", "synthetic_tool_call_id"})
# Keys of other vendors' request bodies that a Chat Completions body never has.
_FOREIGN_KEYS = frozenset({"system", "anthropic_version", "stop_sequences", "contents"})

# -- detection ----------------------------------------------------------------------------


def _looks_like_messages(items: Any) -> bool:
    if not isinstance(items, list) or not items:
        return False
    for d in items[:10]:
        if not isinstance(d, dict) or d.get("role") not in ROLES or "type" in d or "parts" in d:
            return False
        content = d.get("content")
        if isinstance(content, list):
            for part in content[:10]:
                if not isinstance(part, dict) or _foreign_part(part):
                    return False
        elif content is not None and not isinstance(content, str):
            return False
    return True


# Content parts of other formats' messages (Anthropic, Responses); other unknown parts are
# read as unknown blocks, so they do not stop detection.
_FOREIGN_PARTS = frozenset(
    {
        "tool_use",
        "tool_result",
        "thinking",
        "redacted_thinking",
        "document",
        "server_tool_use",
        "search_result",
        "input_text",
        "output_text",
        "input_image",
        "input_file",
    }
)


def _foreign_part(part: dict[str, Any]) -> bool:
    kind = part.get("type")
    if kind in PART_TYPES:
        return False
    return (
        not isinstance(kind, str)
        or kind in _FOREIGN_PARTS
        or kind.endswith("_tool_result")
        or "source" in part
    )


def sniff(value: Any) -> bool:
    """A list of chat messages, a request body, a fine-tuning record or a completion."""
    if isinstance(value, list):
        return _looks_like_messages(value)
    if not isinstance(value, dict) or "format" in value:
        return False
    choices = value.get("choices")
    if isinstance(choices, list):
        if value.get("object") == "chat.completion":
            return True
        first = choices[0] if choices else None
        return isinstance(first, dict) and isinstance(first.get("message"), dict)
    if _FOREIGN_KEYS & value.keys():
        return False
    model = value.get("model")
    if isinstance(model, str) and model.startswith("claude"):
        return False
    tools = value.get("tools")
    if isinstance(tools, list) and any(isinstance(t, dict) and "input_schema" in t for t in tools):
        return False
    return _looks_like_messages(value.get("messages"))


# -- reading ------------------------------------------------------------------------------


class _Links:
    """Ids for calls and results that have none (legacy functions, some HF templates)."""

    def __init__(self) -> None:
        self.unanswered: list[tuple[str, str | None]] = []
        self.count = 0

    def new_id(self) -> str:
        self.count += 1
        return f"call_{self.count}"

    def answer(self, name: str | None) -> str | None:
        for k, (call_id, call_name) in enumerate(self.unanswered):
            if name is None or call_name == name:
                del self.unanswered[k]
                return call_id
        return None


def read(value: Any, ctx: Context) -> list[Conversation]:
    """One JSON value (a whole file or one JSONL record) -> its conversation."""
    if isinstance(value, list):
        return [Conversation(read_messages(value, ctx, "$"), NAME, {})]
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


def read_messages(items: Any, ctx: Context, path: str) -> tuple[Message, ...]:
    """Chat message dicts -> messages."""
    expect(ctx, items, list, "messages", path)
    links = _Links()
    return tuple(_read_message(d, ctx, f"{path}[{i}]", links) for i, d in enumerate(items))


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
    links = _Links()
    messages = []
    for i, choice in enumerate(choices):
        path = f"$.choices[{i}]"
        expect(ctx, choice, dict, "a choice", path)
        m = _read_message(choice.get("message"), ctx, f"{path}.message", links)
        rm = {**response, **{k: v for k, v in choice.items() if k != "message"}}
        messages.append(
            dataclasses.replace(m, response_metadata=rm, usage=usage if i == 0 else None)
        )
    return Conversation(tuple(messages), NAME, meta)


def _read_message(d: Any, ctx: Context, path: str, links: _Links) -> Message:
    expect(ctx, d, dict, "a message", path)
    role = d.get("role")
    if role not in ROLES:
        what = f"unknown role {role!r}" if isinstance(role, str) else 'a message needs a "role"'
        raise ctx.error(f"{what} (expected one of {', '.join(sorted(ROLES))})", f"{path}.role")
    name = expect(ctx, d.get("name"), OPT_STR, "name", f"{path}.name")
    meta = {k: v for k, v in d.items() if k not in _MESSAGE_KEYS}
    content = _read_content(d.get("content"), ctx, f"{path}.content")
    kw: dict[str, Any] = {"name": name}
    if role == "assistant":
        content = _assistant_fields(d, content, meta, ctx, path)
        calls, invalid = _read_calls(d, ctx, path, links)
        kw["tool_calls"] = calls
        kw["invalid_tool_calls"] = invalid
    elif role in ("tool", "function"):
        call_id = expect(
            ctx, d.get("tool_call_id"), OPT_STR, "tool_call_id", f"{path}.tool_call_id"
        )
        if call_id is None:
            call_id = links.answer(name)
            if call_id is not None:
                meta["synthetic_tool_call_id"] = True
        kw["tool_call_id"] = call_id
        if role == "function":
            meta["role"] = "function"
    if meta:
        kw["metadata"] = meta
    return Message(role, content, **kw)


def _assistant_fields(
    d: dict[str, Any], content: Any, meta: dict[str, Any], ctx: Context, path: str
) -> Any:
    """Reasoning text and a refusal, which Chat keeps beside the content, as blocks."""
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
    d: dict[str, Any], ctx: Context, path: str, links: _Links
) -> tuple[list[ToolCall], list[InvalidToolCall]]:
    calls: list[ToolCall] = []
    invalid: list[InvalidToolCall] = []
    raw_calls = d.get("tool_calls")
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
            if call_id is None:
                call_id = links.new_id()
                extra["synthetic_id"] = True
            links.unanswered.append((call_id, call_name))
            _add(parse_call(call_id, call_name, fn.get("arguments"), extra), calls, invalid)
    legacy = d.get("function_call")
    if legacy is not None:
        p = f"{path}.function_call"
        expect(ctx, legacy, dict, "function_call", p)
        call_name = expect(ctx, legacy.get("name"), str, "a function name", f"{p}.name")
        call_id = links.new_id()
        links.unanswered.append((call_id, call_name))
        extra = {"legacy": True, "synthetic_id": True}
        _add(parse_call(call_id, call_name, legacy.get("arguments"), extra), calls, invalid)
    return calls, invalid


def _add(call: ToolCall | InvalidToolCall, calls: list, invalid: list) -> None:
    (calls if type(call) is ToolCall else invalid).append(call)


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


# -- writing ------------------------------------------------------------------------------


def write(conversations: Sequence[Conversation], ctx: Context) -> bytes:
    """Conversations -> one JSON document, or JSONL (one per line) for several."""
    docs = [_document(c, ctx) for c in conversations]
    if len(docs) == 1:
        return json_bytes(docs[0], pretty=True)
    return jsonl_bytes(docs)


def _document(conv: Conversation, ctx: Context) -> dict[str, Any]:
    same = conv.format == NAME
    drops = Drops(ctx)
    if (
        same
        and conv.metadata.get("object") == "chat.completion"
        and all(m.role == "assistant" for m in conv.messages)
    ):
        doc = _completion(conv, drops)
    else:
        meta = dict(conv.metadata) if same else portable_request(conv, NAME, ctx)
        messages = []
        for i, m in canonical(conv.messages):
            messages.append(_message_out(i, m, same, drops))
            if m.usage is not None or (m.response_metadata and not same):
                drops.add("usage and response metadata (a request body has none)", f"message {i}")
        doc = {**meta, "messages": messages}
    drops.flush()
    return doc


def _completion(conv: Conversation, drops: Drops) -> dict[str, Any]:
    meta = dict(conv.metadata)
    choices = []
    usage = None
    for i, m in enumerate(conv.messages):
        rm = m.response_metadata
        choice: dict[str, Any] = {"index": rm.get("index", i)}
        choice["message"] = _message_out(i, m, True, drops)
        choice.update((k, v) for k, v in rm.items() if k not in meta and k != "index")
        choices.append(choice)
        if m.usage is not None:
            if usage is None:
                usage = chat_usage_out(m.usage)
            else:
                drops.add("usage of a second choice", f"message {i}")
    doc = {**meta, "choices": choices}
    if usage is not None:
        doc["usage"] = usage
    return doc


def _message_out(i: int, m: Message, same: bool, drops: Drops) -> dict[str, Any]:
    role = m.role
    meta = m.metadata
    if role == "system":
        role = "developer" if meta.get("role") == "developer" else "system"
    out: dict[str, Any] = {"role": role}
    if m.role == "assistant":
        _assistant_out(i, m, same, drops, out)
    elif m.role == "tool":
        if same and meta.get("role") == "function":
            out = {"role": "function", "name": m.name or ""}
        elif m.tool_call_id is not None and not (same and meta.get("synthetic_tool_call_id")):
            out["tool_call_id"] = m.tool_call_id
        out["content"] = _content_out(i, m, same, drops, text_only=True)
        if m.is_error:
            drops.add("a tool result's error flag", f"message {i}")
    else:
        out["content"] = _content_out(i, m, same, drops, text_only=m.role == "system")
    if m.name is not None and "name" not in out and (m.role != "tool" or same):
        out["name"] = m.name
    if m.id is not None:
        drops.add("message ids", f"message {i}")
    if same:
        out.update((k, v) for k, v in meta.items() if k not in _MARKERS and k not in out)
    elif any(k != "role" for k in meta):
        drops.add("message metadata", f"message {i}")
    return out


def _assistant_out(i: int, m: Message, same: bool, drops: Drops, out: dict[str, Any]) -> None:
    content = m.content
    fields: dict[str, str] = {}
    if type(content) is str:
        out["content"] = content if content or not (m.tool_calls or m.invalid_tool_calls) else None
    else:
        body = []
        for j, b in enumerate(content):
            field = b.extra.get("field") if type(b) in (ReasoningBlock, TextBlock) else None
            if type(b) is ReasoningBlock:
                if same and field in REASONING_FIELDS and not b.data:
                    fields[field] = fields.get(field, "") + b.text
                else:
                    drops.add("reasoning", message_where(i, j))
            elif field == "refusal":
                fields["refusal"] = fields.get("refusal", "") + b.text  # type: ignore[union-attr]
            else:
                body.append((j, b))
        plain = all(type(b) is TextBlock and not b.extra and not b.citations for _, b in body)
        if not body:
            out["content"] = None if (m.tool_calls or m.invalid_tool_calls or fields) else ""
        elif plain and len(body) == 1 and (fields or not same):
            out["content"] = _text_out(body[0][0], body[0][1], drops, i)  # type: ignore[arg-type]
        else:
            parts = [_part_out(i, j, b, same, drops, text_only=True) for j, b in body]
            out["content"] = [p for p in parts if p is not None]
    out.update(fields)
    calls = []
    for c in m.tool_calls:
        if same and c.extra.get("legacy"):
            out["function_call"] = {"name": c.name, "arguments": dump_args(c)}
            continue
        call: dict[str, Any] = {}
        if c.id is not None and not (same and c.extra.get("synthetic_id")):
            call["id"] = c.id
        call["type"] = c.extra.get("type", "function") if same else "function"
        call["function"] = {"name": c.name, "arguments": dump_args(c)}
        if same:
            call.update((k, v) for k, v in c.extra.items() if k not in _CALL_SKIP)
        calls.append(call)
    for c in m.invalid_tool_calls:
        call = {"id": c.id} if c.id is not None else {}
        call["type"] = "function"
        call["function"] = {"name": c.name or "", "arguments": c.args or ""}
        if same:
            call.update((k, v) for k, v in c.extra.items() if k not in _CALL_SKIP)
        calls.append(call)
    if calls:
        out["tool_calls"] = calls


_CALL_SKIP = CALL_EXTRA_SKIP | {"type", "legacy"}


def _text_out(j: int, b: TextBlock, drops: Drops, i: int) -> str:
    if b.citations:
        drops.add("citations", message_where(i, j))
    return b.text


def _content_out(
    i: int, m: Message, same: bool, drops: Drops, *, text_only: bool
) -> str | list[dict[str, Any]]:
    content = m.content
    if type(content) is str:
        return content
    if not same and len(content) == 1 and type(content[0]) is TextBlock and not content[0].extra:
        return _text_out(0, content[0], drops, i)
    parts = [_part_out(i, j, b, same, drops, text_only=text_only) for j, b in enumerate(content)]
    return [p for p in parts if p is not None]


def _part_out(
    i: int, j: int, b: Block, same: bool, drops: Drops, *, text_only: bool
) -> dict[str, Any] | None:
    """One block as a content part, or None (reported) where Chat has no place for it."""
    t = type(b)
    if t is TextBlock:
        if b.citations:
            drops.add("citations", message_where(i, j))
        extra = {k: v for k, v in b.extra.items() if k != "type"} if same else {}
        if b.extra.get("type") == "refusal":
            return {"type": "refusal", "refusal": b.text, **extra}
        return {"type": "text", "text": b.text, **extra}
    if t is UnknownBlock and b.extra.get("format") == NAME:
        return b.data
    if t in (ImageBlock, AudioBlock, FileBlock) and not text_only:
        part = _media_out(b, same)  # type: ignore[arg-type]
        if part is not None:
            return part
    kind = getattr(b, "kind", None) or b.type
    drops.add(f"{kind} blocks" + (" in this role" if not text_only else ""), message_where(i, j))
    return None


def _media_out(b: ImageBlock | AudioBlock | FileBlock, same: bool) -> dict[str, Any] | None:
    extra = dict(b.extra) if same else {}
    part_fields = extra.pop("part_fields", {})
    if type(b) is ImageBlock:
        url = b.url or b.data_uri
        if url is None:
            return None
        inner = {"url": url, **{k: v for k, v in extra.items() if k != "format"}}
        return {"type": "image_url", "image_url": inner, **part_fields}
    if type(b) is AudioBlock:
        fmt = extra.pop("format", None) or audio_format(b.mime_type)
        if b.data is None or fmt is None:
            return None
        return {"type": "input_audio", "input_audio": {"data": b.data, "format": fmt, **extra}}
    raw = extra.pop("raw_file_data", False)
    inner = {}
    if b.filename is not None:
        inner["filename"] = b.filename
    if b.data is not None:
        inner["file_data"] = b.data if raw else b.data_uri
    if b.file_id is not None:
        inner["file_id"] = b.file_id
    if not inner.keys() & {"file_data", "file_id"}:
        return None
    return {"type": "file", "file": {**inner, **extra}, **part_fields}


FORMAT = Format(
    name=NAME,
    description="OpenAI Chat Completions: messages, request bodies, responses, fine-tuning JSONL",
    sniff=sniff,
    read=read,
    write=write,
    multi=True,
    cannot_carry=(
        "reasoning (except reasoning_content read from the same format), citations, server "
        "tool calls, tool error flags, message ids, usage outside a completion response"
    ),
)
