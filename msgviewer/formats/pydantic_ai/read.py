"""Reading a pydantic-ai message history: each part of a request its own message, each response
one assistant message.
"""

from __future__ import annotations

import json
from typing import Any

from ...core.blocks import (
    Block,
    ReasoningBlock,
    ServerToolCallBlock,
    ServerToolResultBlock,
    TextBlock,
    UnknownBlock,
)
from ...core.call_order import split_calls
from ...core.message import InvalidToolCall, Message, ToolCall
from ..base import Context, Conversation
from ..io import loads_exactly
from ..shared.json_checks import (
    compact_json,
    json_type,
    record_context,
    want_dict,
    want_list,
    want_str,
)
from . import quick
from .content import (
    EMPTY_KEY,
    JSON_KEY,
    REDACTED_ID,
    REQUEST_KEY,
    is_multimodal,
    media_class,
    read_item,
)
from .detect import NAME
from .usage import usage_in

# pydantic-ai maps only a "failed" outcome to a provider's error channel (Anthropic is_error...):
# a denied call (the approval mechanism said no) and an interrupted one (no result was made) are
# sent to the model as ordinary results. A call the model must retry is a retry-prompt part.
_ERROR_OUTCOMES = frozenset({"failed"})
_KEPT_PARTS = frozenset({"compaction"})


def read(value: Any, ctx: Context, *, quick_path: bool = True) -> list[Conversation]:
    """Conversations of a pydantic-ai history (a JSON list, JSONL records, or lists of them).

    ``quick_path=False`` reads every item carefully (the quick path's tests compare the two).
    """
    if isinstance(value, dict):
        value = [value]
    items = want_list(value, "a pydantic-ai message history", ctx, "$")
    if items and all(isinstance(x, list) for x in items):
        out = []
        for i, history in enumerate(items):
            sub, path = record_context(ctx, i)
            out.append(_Reader(sub, quick_path).history(history, path, top=False))
        return out
    return [_Reader(ctx, quick_path).history(items, "$", top=True)]


class _Reader:
    def __init__(self, ctx: Context, quick_path: bool) -> None:
        self.ctx = ctx
        self.quick_path = quick_path
        self.warned: set[str] = set()

    def history(self, items: list[Any], path: str, *, top: bool) -> Conversation:
        messages: list[Message] = []
        base = self.ctx
        read_quickly = quick.messages if self.quick_path else _not_quickly
        for i, item in base.each(items):
            if (read := read_quickly(item)) is not None:
                messages.extend(read)
                continue
            # anything the quick path cannot vouch for: read (and checked) carefully
            if top:
                self.ctx, sub = record_context(base, i)
            else:
                sub = f"{path}[{i}]"
            item = want_dict(item, "a model message", self.ctx, sub)
            kind = item.get("kind")
            parts = want_list(item.get("parts"), "parts", self.ctx, f"{sub}.parts")
            if kind == "request":
                messages.extend(self.request(item, parts, sub))
            elif kind == "response":
                messages.append(self.response(item, parts, sub))
            else:
                raise self.ctx.error(
                    f'message kind must be "request" or "response", not {kind!r}', f"{sub}.kind"
                )
        self.ctx = base
        return Conversation(tuple(messages), NAME)

    # -- requests ---------------------------------------------------------------------------

    def request(self, item: dict[str, Any], parts: list[Any], path: str) -> list[Message]:
        fields = {k: v for k, v in item.items() if k not in ("kind", "parts") and v is not None}
        out = [self.request_part(p, f"{path}.parts[{j}]") for j, p in enumerate(parts)]
        if not out:  # a request with no parts still has its fields (instructions...)
            out = [Message("user", "", metadata={EMPTY_KEY: True})]
        first = out[0]
        out[0] = Message(
            first.role,
            first.content,
            id=first.id,
            name=first.name,
            tool_call_id=first.tool_call_id,
            is_error=first.is_error,
            artifacts=first.artifacts,
            metadata={REQUEST_KEY: fields, **first.metadata},
        )
        return out

    def request_part(self, part: Any, path: str) -> Message:
        part = want_dict(part, "a request part", self.ctx, path)
        kind = part.get("part_kind")
        ctx = self.ctx
        if kind == "system-prompt":
            content = want_str(part.get("content"), "content", ctx, f"{path}.content")
            return Message("system", content, metadata=_meta(part, ("content",)))
        if kind == "user-prompt":
            content = self.user_content(part.get("content"), f"{path}.content")
            return Message("user", content, metadata=_meta(part, ("content",)))
        if kind == "tool-return":
            return self.tool_return(part, path)
        if kind == "retry-prompt":
            return self.retry(part, path)
        if not isinstance(kind, str):
            raise ctx.error(
                f'a part needs a string "part_kind", not {json_type(kind)}', f"{path}.part_kind"
            )
        self._warn_once(kind, f"request part kind {kind!r} is not understood; kept as is", path)
        return Message("user", (UnknownBlock(kind, part),))

    def user_content(self, value: Any, path: str) -> str | tuple[Block, ...]:
        if isinstance(value, str):
            return value
        items = want_list(value, "user prompt content", self.ctx, path)
        return tuple(
            read_item(x, self.ctx, f"{path}[{i}]", self.warned) for i, x in enumerate(items)
        )

    def tool_return(self, part: dict[str, Any], path: str) -> Message:
        ctx = self.ctx
        name = want_str(part.get("tool_name"), "tool_name", ctx, f"{path}.tool_name")
        call_id = want_str(part.get("tool_call_id"), "tool_call_id", ctx, f"{path}.tool_call_id")
        metadata = _meta(part, ("tool_name", "tool_call_id", "content", "metadata"))
        content = self.return_value(part.get("content"), f"{path}.content", metadata)
        artifact = part.get("metadata")
        return Message(
            "tool",
            content,
            tool_call_id=call_id,
            name=name,
            is_error=isinstance(part.get("outcome"), str) and part["outcome"] in _ERROR_OUTCOMES,
            artifacts=() if artifact is None else (artifact,),
            metadata=metadata,
        )

    def return_value(self, value: Any, path: str, metadata: dict[str, Any]) -> Any:
        """A tool's return value as content: text, files as blocks, other JSON as JSON text."""
        if isinstance(value, str):
            return value
        items = value if isinstance(value, list) else [value]
        has_files = any(is_multimodal(x) for x in items)
        if has_files and all(isinstance(x, str) or is_multimodal(x) for x in items):
            blocks = tuple(
                read_item(x, self.ctx, f"{path}[{i}]", self.warned) for i, x in enumerate(items)
            )
            if not isinstance(value, list):
                metadata[JSON_KEY] = "item"
            return blocks
        metadata[JSON_KEY] = "json"
        return compact_json(value)

    def retry(self, part: dict[str, Any], path: str) -> Message:
        ctx = self.ctx
        name = want_str(part.get("tool_name"), "tool_name", ctx, f"{path}.tool_name", optional=True)
        call_id = want_str(
            part.get("tool_call_id"), "tool_call_id", ctx, f"{path}.tool_call_id", optional=True
        )
        raw = part.get("content")
        metadata = _meta(part, ("tool_name", "tool_call_id", "content"))
        if isinstance(raw, str):
            content = raw
        else:
            want_list(raw, "retry prompt content", ctx, f"{path}.content")
            # Validation errors: shown as the JSON the model is sent.
            content = json.dumps(raw, indent=2, ensure_ascii=False)
            metadata[JSON_KEY] = "json"
        if name is None:
            # A retry not tied to a tool call (output validation): the model reads it as user text.
            metadata = {"part_kind": "retry-prompt", "tool_call_id": call_id, **metadata}
            return Message("user", content, metadata=metadata)
        return Message(
            "tool", content, tool_call_id=call_id, name=name, is_error=True, metadata=metadata
        )

    # -- responses ----------------------------------------------------------------------------

    def response(self, item: dict[str, Any], parts: list[Any], path: str) -> Message:
        blocks: list[Block] = []
        calls: list[ToolCall | InvalidToolCall] = []
        for j, part in enumerate(parts):
            sub = f"{path}.parts[{j}]"
            part = want_dict(part, "a response part", self.ctx, sub)
            kind = part.get("part_kind")
            if kind == "tool-call":
                calls.append(self.call(part, sub))
            else:
                blocks.append(self.response_part(kind, part, sub))
        response = {k: v for k, v in item.items() if k not in ("kind", "parts", "usage")}
        response = {k: v for k, v in response.items() if v is not None}
        usage = None
        if item.get("usage") is not None:
            usage = usage_in(item["usage"], self.ctx, f"{path}.usage")
        content: str | tuple[Block, ...] = tuple(blocks)
        if len(blocks) == 1 and type(blocks[0]) is TextBlock and not blocks[0].extra:
            content = blocks[0].text
        valid, invalid = split_calls(calls)
        return Message(
            "assistant",
            content,
            tool_calls=valid,
            invalid_tool_calls=invalid,
            usage=usage,
            response_metadata=response,
        )

    def call(self, part: dict[str, Any], path: str) -> ToolCall | InvalidToolCall:
        ctx = self.ctx
        name = want_str(part.get("tool_name"), "tool_name", ctx, f"{path}.tool_name")
        call_id = want_str(
            part.get("tool_call_id"), "tool_call_id", ctx, f"{path}.tool_call_id", optional=True
        )
        extra = _meta(part, ("tool_name", "tool_call_id", "args"))
        args, error = _args(part.get("args"), ctx, f"{path}.args")
        if error is not None:
            return InvalidToolCall(call_id, name, part["args"], error, extra=extra)
        if isinstance(part.get("args"), str):
            extra["args_json"] = True  # written back as a JSON string
        return ToolCall(call_id, name, args, extra=extra)

    def response_part(self, kind: Any, part: dict[str, Any], path: str) -> Block:
        ctx = self.ctx
        if kind == "text":
            text = want_str(part.get("content"), "content", ctx, f"{path}.content")
            return TextBlock(text, extra=_meta(part, ("content",)))
        if kind == "thinking":
            text = want_str(part.get("content"), "content", ctx, f"{path}.content")
            sig = want_str(
                part.get("signature"), "signature", ctx, f"{path}.signature", optional=True
            )
            extra = _meta(part, ("content", "signature"))
            if part.get("id") == REDACTED_ID and sig is not None:
                # Anthropic redacted thinking: pydantic-ai keeps its data as the signature.
                return ReasoningBlock(text, redacted=True, data=sig, extra=extra)
            return ReasoningBlock(text, sig, extra=extra)
        if kind == "builtin-tool-call":
            name = want_str(part.get("tool_name"), "tool_name", ctx, f"{path}.tool_name")
            args, error = _args(part.get("args"), ctx, f"{path}.args")
            extra = _meta(part, ("tool_name", "tool_call_id", "args"))
            if error is not None:
                extra["args"] = part["args"]  # unparsable: kept as the text it was
            elif isinstance(part.get("args"), str):
                extra["args_json"] = True
            return ServerToolCallBlock(part.get("tool_call_id"), name, args, extra=extra)
        if kind == "builtin-tool-return":
            extra = _meta(part, ("tool_call_id", "content"))
            return ServerToolResultBlock(part.get("tool_call_id"), part.get("content"), extra=extra)
        if kind == "file":
            content = want_dict(part.get("content"), "file content", ctx, f"{path}.content")
            data = want_str(content.get("data"), "data", ctx, f"{path}.content.data")
            mime = want_str(
                content.get("media_type"), "media_type", ctx, f"{path}.content.media_type"
            )
            extra = _meta(part, ("content",))
            file_extra = {
                k: v for k, v in content.items() if k not in ("data", "media_type", "kind")
            }
            if file_extra:
                extra["file"] = file_extra
            return media_class(mime)(data=data, mime_type=mime, extra=extra)
        if not isinstance(kind, str):
            raise ctx.error(
                f'a part needs a string "part_kind", not {json_type(kind)}', f"{path}.part_kind"
            )
        if kind not in _KEPT_PARTS:
            self._warn_once(
                kind, f"response part kind {kind!r} is not understood; kept as is", path
            )
        return UnknownBlock(kind, part)

    def _warn_once(self, kind: str, what: str, path: str) -> None:
        if kind not in self.warned:
            self.warned.add(kind)
            self.ctx.warn(what, path)


def _not_quickly(item: Any) -> None:
    """Leaves every item to the careful reader."""


def _meta(part: dict[str, Any], skip: tuple[str, ...]) -> dict[str, Any]:
    """A part's other fields (timestamp, ids, provider details), leaving out nulls and the
    discriminator; a ``success`` outcome is the default and is left out too."""
    return {
        k: v
        for k, v in part.items()
        if k not in skip
        and k != "part_kind"
        and v is not None
        and not (k == "outcome" and v == "success")
    }


def _args(value: Any, ctx: Context, path: str) -> tuple[dict[str, Any], str | None]:
    """Tool call arguments as an object, or ({}, why) when a JSON string does not parse."""
    if value is None or value == "":
        return {}, None
    if isinstance(value, dict):
        return value, None
    if not isinstance(value, str):
        raise ctx.error(f"args must be an object or a JSON string, not {json_type(value)}", path)
    try:
        parsed = loads_exactly(value)
    except ValueError as exc:
        return {}, f"arguments are not valid JSON: {exc}"
    if not isinstance(parsed, dict):
        return {}, f"arguments are JSON {json_type(parsed)}, not an object"
    return parsed, None
