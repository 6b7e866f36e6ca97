"""Conversations -> ``openai-chat`` documents (request bodies, completions, fine-tuning JSONL)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.blocks import (
    AudioBlock,
    Block,
    FileBlock,
    ImageBlock,
    ReasoningBlock,
    TextBlock,
    UnknownBlock,
)
from ...core.call_order import calls_in_order
from ...core.message import Message, ToolCall
from ..base import Context, Conversation, message_where, read_from
from ..io import json_bytes, jsonl_bytes
from ..shared.openai import (
    CALL_EXTRA_SKIP,
    NO_TEXT_KEPT,
    Drops,
    audio_format,
    canonical,
    chat_usage_out,
    dump_args,
    fill,
    portable_request,
)
from .detect import ARRAY_KEY, DATASET_KEY, NAME, SHAPE_KEYS

REASONING_FIELDS = ("reasoning_content", "thinking", "reasoning")
"""Assistant message fields some servers and chat templates put reasoning text in."""
# Message metadata keys the reader sets or interprets (never written back as fields).
_MARKERS = frozenset({"role", "synthetic_tool_call_id"})
# An assistant's fields the writer sets from the model: kept metadata never stands in for them.
_WIRE_KEYS = frozenset({"content", "tool_calls", "function_call"})


def write(conversations: Sequence[Conversation], ctx: Context) -> bytes:
    """Conversations -> one JSON document, or JSONL (one per line) for several; records read
    from a JSON array of records go back as one."""
    docs = [_document(c, ctx) for c in conversations]
    if all(c.metadata.get(DATASET_KEY) is True for c in conversations):
        return json_bytes(docs, pretty=True)
    if len(docs) == 1:
        return json_bytes(docs[0], pretty=True)
    return jsonl_bytes(docs)


def _document(conv: Conversation, ctx: Context) -> dict[str, Any] | list[Any]:
    same = read_from(conv, NAME, SHAPE_KEYS)  # (through msgviewer's format too)
    drops = Drops(ctx)
    if (
        same
        and conv.metadata.get("object") == "chat.completion"
        and all(m.role == "assistant" for m in conv.messages)
    ):
        doc = _completion(conv, drops)
    else:
        # The file's shape, also when kept by msgviewer's own format (not a request field)
        record = conv.metadata.get(DATASET_KEY) is True
        bare = conv.metadata.get(ARRAY_KEY) is True
        if same:
            meta = {k: v for k, v in conv.metadata.items() if k not in SHAPE_KEYS}
        else:
            meta = portable_request(conv, NAME, ctx, shape=SHAPE_KEYS)
        bare = bare and not meta  # (else the fields need a body)
        messages = []
        for i, m in canonical(conv.messages):
            messages.append(_message_out(i, m, same, drops))
            if m.usage is not None or (m.response_metadata and not same):
                drops.add("usage and response metadata (a request body has none)", f"message {i}")
        # A dataset record leads with its messages (LLaMA-Factory's order); a body ends with them.
        if bare:
            doc = messages
        elif record:
            doc = {"messages": messages, **meta}
        else:
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
        fill(choice, {k: v for k, v in rm.items() if k not in meta}, ("index", "message"))
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
        # an assistant's calls come from the model; other roles' wire keys are kept data
        fill(out, meta, _MARKERS | _WIRE_KEYS if m.role == "assistant" else _MARKERS)
        if not isinstance(out.get("refusal", ""), str) and out["refusal"] is not None:
            del out["refusal"]  # not a refusal the reader would take back
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
            elif type(b) is TextBlock or (
                type(b) is UnknownBlock and b.extra.get("format") == NAME
            ):
                body.append((j, b))
            else:
                kind = getattr(b, "kind", None) or b.type
                drops.add(f"{kind} blocks in an assistant message", message_where(i, j))
        plain = all(type(b) is TextBlock and not b.extra and not b.citations for _, b in body)
        if not content:
            out["content"] = []  # as it was read
        elif not body:
            out["content"] = None if (m.tool_calls or m.invalid_tool_calls or fields) else ""
        elif plain and len(body) == 1 and (fields or not same):
            out["content"] = _text_out(body[0][0], body[0][1], drops, i)  # type: ignore[arg-type]
        else:
            parts = [_part_out(i, j, b, same, drops, text_only=True) for j, b in body]
            out["content"] = [p for p in parts if p is not None]
    out.update(fields)
    calls = []
    for c in calls_in_order(m):
        valid = type(c) is ToolCall
        if valid and same and c.extra.get("legacy"):
            out["function_call"] = {"name": c.name, "arguments": dump_args(c)}  # type: ignore[arg-type]
            continue
        call: dict[str, Any] = {}
        if c.id is not None and not (same and c.extra.get("synthetic_id")):
            call["id"] = c.id
        call["type"] = c.extra.get("type", "function") if same else "function"
        if not valid and c.args is None:
            drops.add(NO_TEXT_KEPT, message_where(i))
        call["function"] = (
            {"name": c.name, "arguments": dump_args(c)}  # type: ignore[arg-type]
            if valid
            else {"name": c.name or "", "arguments": c.args or ""}
        )
        if same:
            _call_extra(call, c.extra)
        calls.append(call)
    if calls:
        out["tool_calls"] = calls


_CALL_SKIP = CALL_EXTRA_SKIP | {"type", "legacy", "function_fields"}


def _call_extra(call: dict[str, Any], extra: dict[str, Any]) -> None:
    """A call's unknown fields back in place (never over the fields written from the model)."""
    fill(call, extra, _CALL_SKIP | {"id", "function"})
    fill(call["function"], extra.get("function_fields"))


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
            return fill({"type": "refusal", "refusal": b.text}, extra)
        return fill({"type": "text", "text": b.text}, extra)
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
    extra = dict(b.extra) if same else _portable_detail(b)
    part_fields = extra.pop("part_fields", {})
    if type(b) is ImageBlock:
        url = b.url or b.data_uri
        if url is None:
            return None
        inner = fill({"url": url}, extra, ("format",))
        return fill({"type": "image_url", "image_url": inner}, part_fields)
    if type(b) is AudioBlock:
        fmt = extra.pop("format", None) or audio_format(b.mime_type)
        if b.data is None or fmt is None:
            return None
        return {"type": "input_audio", "input_audio": fill({"data": b.data, "format": fmt}, extra)}
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
    return fill({"type": "file", "file": fill(inner, extra)}, part_fields)


def _portable_detail(b: Block) -> dict[str, Any]:
    """An image's ``detail`` means the same in Chat and Responses: keep it across them."""
    detail = b.extra.get("detail")
    return {"detail": detail} if detail in ("low", "high", "auto") else {}
