"""Reading LangChain messages (``messages_to_dict`` items, plain dicts or ``lc`` constructor
dicts) into a conversation; an Anthropic ``tool_use`` block that repeats a ``tool_calls`` entry
becomes that call (remembering its place in the content)."""

from __future__ import annotations

import dataclasses
from typing import Any

from ...core._frozen import builder
from ...core.blocks import ToolCallBlock
from ...core.message import _ROLE_OBJECTS, InvalidToolCall, Message, ToolCall, normalize_role
from ...core.usage import Usage
from ..base import Context, Conversation
from ..shared.json_checks import record_context, want_dict, want_int, want_list, want_str
from .fields import (
    CONVERSATION_KEY,
    DEFAULT_TYPE,
    ITEM_KEY,
    LC_CLASSES,
    LC_ID_KEY,
    LC_WRAPPER,
    MAPPED,
    NAME,
    PLAIN_ALIASES,
    TOOL_USE_KEY,
    TYPE_ROLES,
    is_lc_message,
)
from .read_blocks import NATIVE, BlockReader

_build = builder(Message)


def read(value: Any, ctx: Context) -> list[Conversation]:
    """Conversations of a LangChain file (JSON value, or the records of a JSONL file)."""
    if isinstance(value, dict):
        value = [value]
    items = want_list(value, "a LangChain file", ctx, "$")
    if items and all(_is_container(x) for x in items):
        out = []
        for i, item in enumerate(items):
            sub, path = record_context(ctx, i)
            out.append(_read_container(item, sub, path))
        return out
    return [_read_messages(items, ctx, "$", {})]


def _is_container(item: Any) -> bool:
    return isinstance(item, list) or (isinstance(item, dict) and "messages" in item)


def _read_container(item: Any, ctx: Context, path: str) -> Conversation:
    if isinstance(item, list):
        return _read_messages(item, ctx, path, {})
    items = want_list(item["messages"], "messages", ctx, f"{path}.messages")
    metadata = {k: v for k, v in item.items() if k != "messages"}
    return _read_messages(items, ctx, f"{path}.messages", metadata, wrapped=True)


def _read_messages(
    items: list[Any], ctx: Context, path: str, metadata: dict[str, Any], *, wrapped: bool = False
) -> Conversation:
    blocks = BlockReader(ctx)
    messages: list[Message] = []
    plain = False
    lc_prefix: list[Any] | None = None
    lc_style: dict[str, bool] = {}
    for i, item in ctx.each(items):
        sub, sub_path = record_context(ctx, i, path) if path == "$" else (ctx, f"{path}[{i}]")
        blocks.ctx = sub
        if isinstance(item, dict) and "lc" in item and is_lc_message(item):
            prefix = item["id"][:-1]
            if lc_prefix is None:
                lc_prefix = prefix
                if "type" not in item["kwargs"]:  # LangChain JS leaves it out
                    lc_style["untyped"] = True
            if item["kwargs"].get("tool_call_chunks") == []:
                lc_style["empty_chunks"] = True
            message = _read_lc(item, sub, sub_path, blocks)
            if message is not None and prefix != lc_prefix:
                meta = {**message.metadata, LC_ID_KEY: item["id"]}
                message = dataclasses.replace(message, metadata=meta)
        else:
            message, was_plain = _read_message(item, sub, sub_path, blocks)
            plain = plain or was_plain
        if message is not None:
            messages.append(message)
    shape: dict[str, Any] = {k: True for k, on in (("plain", plain), ("wrapped", wrapped)) if on}
    if lc_prefix is not None:
        shape["lc"] = lc_prefix
        if lc_style:
            shape["lc_kwargs"] = lc_style
    if shape:
        metadata = {**metadata, CONVERSATION_KEY: shape}
    return Conversation(tuple(messages), NAME, metadata)


def _read_lc(item: dict[str, Any], ctx: Context, path: str, blocks: BlockReader) -> Message | None:
    """A ``{"lc": 1, "type": "constructor", "id": [..., class], "kwargs": {...}}`` message."""
    kind = LC_CLASSES[item["id"][-1]]
    if kind == "remove":
        ctx.warn("a RemoveMessage (a LangGraph state edit, not a message) was skipped", path)
        return None
    data = item["kwargs"]
    if "content" not in data:
        raise ctx.error('a message needs "content"', f"{path}.kwargs")
    message = _message(kind, data, ctx, f"{path}.kwargs", blocks)
    rest = {k: v for k, v in item.items() if k not in LC_WRAPPER}
    if rest:
        message = dataclasses.replace(message, metadata={**message.metadata, ITEM_KEY: rest})
    return message


def _read_message(
    item: Any, ctx: Context, path: str, blocks: BlockReader
) -> tuple[Message | None, bool]:
    if type(item) is not dict:
        item = want_dict(item, "a message", ctx, path)
    kind = item.get("type")
    item_fields: dict[str, Any] = {}
    if "data" in item and isinstance(kind, str):
        data_path = f"{path}.data"
        data = item["data"]
        if type(data) is not dict:
            data = want_dict(data, "message data", ctx, data_path)
        plain = False
        if len(item) > 2:
            item_fields = {k: v for k, v in item.items() if k not in ("type", "data")}
    else:
        data, data_path, plain = item, path, True
        kind = PLAIN_ALIASES.get(kind, kind) if isinstance(kind, str) else kind
    if kind == "remove":
        ctx.warn("a RemoveMessage (a LangGraph state edit, not a message) was skipped", path)
        return None, plain
    if not isinstance(kind, str) or kind not in TYPE_ROLES:
        raise ctx.error(
            f"unknown message type {kind!r} (expected one of {', '.join(TYPE_ROLES)})",
            f"{path}.type",
        )
    if "content" not in data:
        raise ctx.error('a message needs "content"', data_path)
    message = _message(kind, data, ctx, data_path, blocks)
    if item_fields:
        message = dataclasses.replace(message, metadata={**message.metadata, ITEM_KEY: item_fields})
    return message, plain


def _message(
    kind: str, data: dict[str, Any], ctx: Context, path: str, blocks: BlockReader
) -> Message:
    role = TYPE_ROLES[kind]
    metadata: dict[str, Any] = {}
    if role is None:  # chat message: any role
        raw = want_str(data.get("role"), "chat message role", ctx, f"{path}.role")
        try:
            role = normalize_role(raw)
        except ValueError:
            role = "user"
        metadata["role"] = raw
    if kind != DEFAULT_TYPE[role]:
        metadata["type"] = kind
    kw: dict[str, Any] = {}
    rest: dict[str, Any] = {}  # metadata after additional_kwargs, in the file's order
    # One pass over the fields: a path is spelt out only for a value that is wrong.
    for key, value in data.items():
        if key not in MAPPED:
            if key != "role" and not _is_default(key, value):
                rest[key] = value
        elif value is None:
            continue
        elif key == "id" or key == "name":
            if type(value) is not str:
                want_str(value, key, ctx, f"{path}.{key}")
            kw[key] = value
        elif key == "additional_kwargs" or key == "response_metadata":
            # response_metadata is kept as is: its "model_name" is what Message.model reads.
            if value and type(value) is not dict:
                want_dict(value, key, ctx, f"{path}.{key}")
            if value:
                (metadata if key == "additional_kwargs" else kw)[key] = value
        elif key == "tool_calls":
            kw[key] = _tool_calls(value, ctx, f"{path}.tool_calls")
        elif key == "invalid_tool_calls":
            if value:
                kw[key] = _invalid_calls(value, ctx, f"{path}.invalid_tool_calls")
        elif key == "usage_metadata":
            kw["usage"] = _usage(value, ctx, f"{path}.usage_metadata")
    if rest:
        metadata.update(rest)
    if role == "tool":
        _tool_fields(data, ctx, path, kw)
    content = blocks.content(data["content"], f"{path}.content")
    calls = kw.get("tool_calls", ())
    if calls and type(content) is tuple and ToolCallBlock in map(type, content):
        content, calls = _fold_tool_use(content, calls)
    get = kw.get
    return _build(  # (role and content are canonical already: no checks to run)
        _ROLE_OBJECTS[role], content, get("id"), get("name"), get("tool_call_id"),
        get("is_error", False), calls, get("invalid_tool_calls", ()), get("usage"),
        get("response_metadata") or {}, get("artifacts", ()), metadata,
    )  # fmt: skip


def _fold_tool_use(
    content: tuple[Any, ...], calls: tuple[ToolCall, ...]
) -> tuple[tuple[Any, ...], tuple[ToolCall, ...]]:
    """Content without the ``tool_use`` blocks that repeat a tool call (matched by id), each
    call remembering where its block was and the block's other fields."""
    by_id = {c.id: k for k, c in enumerate(calls) if c.id is not None}
    calls_out = list(calls)
    kept = []
    for i, block in enumerate(content):
        k = by_id.pop(block.id, None) if _is_tool_use(block) else None
        if k is None:
            kept.append(block)
            continue
        call = calls_out[k]
        fields = {key: v for key, v in block.extra.items() if key != NATIVE}
        if block.args != call.args:
            fields["input"] = block.args
        if block.name != call.name:
            fields["name"] = block.name
        marker = {"index": i, "fields": fields} if fields else {"index": i}
        calls_out[k] = dataclasses.replace(call, extra={**call.extra, TOOL_USE_KEY: marker})
    return tuple(kept), tuple(calls_out)


def _is_tool_use(block: Any) -> bool:
    return type(block) is ToolCallBlock and block.extra.get(NATIVE) == "tool_use"


def _is_default(key: str, value: Any) -> bool:
    """Fields LangChain always writes: leaving their defaults out keeps metadata small."""
    return (
        (key == "example" and value is False)
        or (key == "tool_call_chunks" and value == [])
        or (key == "chunk_position" and value is None)
    )


def _tool_fields(data: dict[str, Any], ctx: Context, path: str, kw: dict[str, Any]) -> None:
    if data.get("tool_call_id") is not None:
        kw["tool_call_id"] = want_str(
            data["tool_call_id"], "tool_call_id", ctx, f"{path}.tool_call_id"
        )
    status = data.get("status", "success")
    if status not in ("success", "error"):
        raise ctx.error(f'status must be "success" or "error", not {status!r}', f"{path}.status")
    kw["is_error"] = status == "error"
    if data.get("artifact") is not None:
        kw["artifacts"] = (data["artifact"],)


def _tool_calls(value: Any, ctx: Context, path: str) -> tuple[ToolCall, ...]:
    out = []
    for i, call in enumerate(want_list(value, "tool_calls", ctx, path)):
        # The usual call, checked without spelling out paths; anything else, the long way.
        if type(call) is dict and len(call) == 4 and call.get("type") == "tool_call":
            name, args, call_id = call.get("name"), call.get("args"), call.get("id")
            if type(name) is str and type(args) is dict and type(call_id) is str:
                out.append(ToolCall(call_id, name, args))
                continue
        sub = f"{path}[{i}]"
        call = want_dict(call, "a tool call", ctx, sub)
        name = want_str(call.get("name"), "tool call name", ctx, f"{sub}.name")
        args = want_dict(call.get("args"), "tool call args", ctx, f"{sub}.args")
        call_id = want_str(call.get("id"), "tool call id", ctx, f"{sub}.id", optional=True)
        extra = _call_rest(call, ("name", "args", "id"), "tool_call")
        out.append(ToolCall(call_id, name, args, extra=extra))
    return tuple(out)


def _invalid_calls(value: Any, ctx: Context, path: str) -> tuple[InvalidToolCall, ...]:
    out = []
    for i, call in enumerate(want_list(value, "invalid_tool_calls", ctx, path)):
        sub = f"{path}[{i}]"
        call = want_dict(call, "an invalid tool call", ctx, sub)
        fields = [
            want_str(call.get(k), k, ctx, f"{sub}.{k}", optional=True)
            for k in ("id", "name", "args", "error")
        ]
        extra = _call_rest(call, ("id", "name", "args", "error"), "invalid_tool_call")
        out.append(InvalidToolCall(*fields, extra=extra))
    return tuple(out)


def _call_rest(call: dict[str, Any], mapped: tuple[str, ...], kind: str) -> dict[str, Any]:
    """A call's other fields; its ``type`` too when it is not the usual ``kind``."""
    return {k: v for k, v in call.items() if k not in mapped and (k != "type" or v != kind)}


def _usage(value: Any, ctx: Context, path: str) -> Usage:
    usage = value if type(value) is dict else want_dict(value, "usage_metadata", ctx, path)
    counts = {}
    for key in ("input_tokens", "output_tokens", "total_tokens"):
        count = usage.get(key, 0)
        if type(count) is not int:
            count = want_int(count, key, ctx, f"{path}.{key}")
        counts[key] = count
    for ours, key, where in _DETAILS:
        source = usage.get(where) or _NONE
        if type(source) is not dict:
            source = want_dict(source, where, ctx, f"{path}.{where}")
        count = source.get(key) or 0
        if type(count) is not int:
            count = want_int(count, key, ctx, f"{path}.{where}.{key}")
        counts[ours] = count
    return Usage(**counts, extra=usage)


_NONE: dict[str, Any] = {}
_DETAILS = (
    ("cache_read_tokens", "cache_read", "input_token_details"),
    ("cache_write_tokens", "cache_creation", "input_token_details"),
    ("reasoning_tokens", "reasoning", "output_token_details"),
)
