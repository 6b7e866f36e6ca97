"""Inspect AI messages and content items -> msgviewer messages and blocks.

The log around the messages is handled in ``log``; this module only knows one ``ChatMessage``
at a time. Reading keeps every field it does not model (``source``, ``internal``, a tool
``error``...) in ``Message.metadata`` or a block's ``extra`` under Inspect's own key names, so
writing the message back (``write_messages``) gives the same JSON.
"""

from __future__ import annotations

from typing import Any

from ...core.blocks import (
    AudioBlock,
    Block,
    CitationBlock,
    FileBlock,
    ImageBlock,
    ReasoningBlock,
    ServerToolCallBlock,
    TextBlock,
    UnknownBlock,
    VideoBlock,
)
from ...core.call_order import split_calls
from ...core.message import InvalidToolCall, Message, ToolCall
from ..base import Context
from ..io import loads_exactly
from ..shared.json_checks import json_type
from . import quick

ATTACHMENT = "attachment://"
ROLES = ("system", "user", "assistant", "tool")
# Fields each role's reader turns into Message fields (when they hold a usable value).
_MANAGED = {
    "system": ("id", "content", "role"),
    "user": ("id", "content", "role"),
    "assistant": ("id", "content", "role", "tool_calls", "model"),
    "tool": ("id", "content", "role", "tool_call_id", "function", "error"),
}


class Reader:
    """Reads the messages of one sample (its attachments resolve ``attachment://`` text)."""

    def __init__(
        self,
        ctx: Context,
        attachments: Any,
        usage_by_id: dict[str, Any],
        *,
        quick_path: bool = True,
    ) -> None:
        self.ctx = ctx
        self.quick_path = quick_path
        self.attachments = attachments if isinstance(attachments, dict) else {}
        self.usage_by_id = usage_by_id
        # The attachments the messages refer to, in order of first use: the writer puts back a
        # reference only for these (text the log had inline stays inline, even when an event's
        # reference holds the same text).
        self.referenced: dict[str, None] = {}

    def resolve(self, text: str) -> str:
        """The attachment a reference points to (large content is stored once per sample)."""
        if text.startswith(ATTACHMENT) and self.attachments:
            key = text[len(ATTACHMENT) :]
            found = self.attachments.get(key)
            if isinstance(found, str):
                self.referenced[key] = None
                return found
        return text

    def string(self, item: dict[str, Any], key: str, path: str, *, optional: bool = False) -> Any:
        value = item.get(key)
        if value is None and optional:
            return None
        if not isinstance(value, str):
            raise self.ctx.error(
                f'"{key}" must be a string, not {json_type(value)}', f"{path}.{key}"
            )
        return value

    # -- messages ---------------------------------------------------------------------

    def messages(self, raw: list[Any], path: str) -> tuple[Message, ...]:
        """The messages of a sample: the common shapes the quick way, the rest carefully."""
        if not self.quick_path:
            return tuple(self.message(m, f"{path}[{j}]") for j, m in self.ctx.each(raw))
        quick_message = quick.message
        return tuple(
            [
                message
                if (message := quick_message(m, self)) is not None
                # anything the quick path cannot vouch for: read (and checked) carefully
                else self.message(m, f"{path}[{j}]")
                for j, m in self.ctx.each(raw)
            ]
        )

    def message(self, m: Any, path: str) -> Message:
        ctx = self.ctx
        if not isinstance(m, dict):
            raise ctx.error(f"a message must be an object, not {json_type(m)}", path)
        role = m.get("role")
        if role not in ROLES:
            raise ctx.error(
                f"unknown message role {role!r} (expected system, user, assistant or tool)",
                f"{path}.role",
            )
        content = self.content(m.get("content"), f"{path}.content")
        managed = set(_MANAGED[role])
        kw: dict[str, Any] = {}
        msg_id = m.get("id")
        if isinstance(msg_id, str):
            kw["id"] = msg_id
        elif msg_id is not None:
            raise ctx.error(f'"id" must be a string, not {json_type(msg_id)}', f"{path}.id")
        else:
            managed.discard("id")  # an explicit null stays in metadata, so it comes back
        if role == "assistant":
            calls = m.get("tool_calls")
            if calls is None:
                managed.discard("tool_calls")
            else:
                kw["tool_calls"], kw["invalid_tool_calls"] = self.tool_calls(
                    calls, f"{path}.tool_calls"
                )
            model = m.get("model")
            if isinstance(model, str):
                kw["response_metadata"] = {"model": model}
            else:
                managed.discard("model")
            if msg_id in self.usage_by_id:
                kw["usage"] = self.usage_by_id[msg_id]
        elif role == "tool":
            call_id = m.get("tool_call_id")
            if isinstance(call_id, str):
                kw["tool_call_id"] = call_id
            else:
                managed.discard("tool_call_id")
            name = m.get("function")
            if isinstance(name, str):
                kw["name"] = name
            else:
                managed.discard("function")
            error = m.get("error")
            if error is not None:
                kw["is_error"] = True
            # the error itself (type and message) stays in metadata: it is not a Message field
            managed.discard("error")
        metadata = {k: v for k, v in m.items() if k not in managed}
        if metadata:
            kw["metadata"] = metadata
        return Message(role, content, **kw)

    def tool_calls(
        self, calls: Any, path: str
    ) -> tuple[tuple[ToolCall, ...], tuple[InvalidToolCall, ...]]:
        ctx = self.ctx
        if not isinstance(calls, list):
            raise ctx.error(f"tool_calls must be an array, not {json_type(calls)}", path)
        read: list[ToolCall | InvalidToolCall] = []
        for k, call in enumerate(calls):
            sub = f"{path}[{k}]"
            if not isinstance(call, dict):
                raise ctx.error(f"a tool call must be an object, not {json_type(call)}", sub)
            name = self.string(call, "function", sub)
            call_id = self.string(call, "id", sub, optional=True)
            args = call.get("arguments")
            extra = {
                key: v for key, v in call.items() if key not in ("id", "function", "arguments")
            }
            if isinstance(args, dict):
                error = call.get("parse_error")
                if not args and isinstance(error, str):
                    # Inspect's own unparsable call: its text is in the error, its arguments
                    # left empty (written back as they are: the error stays among its fields)
                    read.append(InvalidToolCall(call_id, name, None, error, extra=extra))
                else:
                    read.append(ToolCall(call_id, name, args, extra=extra))
                continue
            if not isinstance(args, str):
                raise ctx.error(
                    f"tool call arguments must be an object, not {json_type(args)}",
                    f"{sub}.arguments",
                )
            # Hand-written logs sometimes carry the arguments as JSON text.
            try:
                parsed = loads_exactly(args)
            except ValueError:
                parsed = None
            if isinstance(parsed, dict):
                read.append(ToolCall(call_id, name, parsed, extra={**extra, "arguments": args}))
            else:
                error = call.get("parse_error")
                read.append(
                    InvalidToolCall(
                        call_id,
                        name,
                        args,
                        error if isinstance(error, str) else "arguments are not a JSON object",
                        extra=extra,
                    )
                )
        return split_calls(read)

    # -- content ----------------------------------------------------------------------

    def content(self, content: Any, path: str) -> str | tuple[Block, ...]:
        if isinstance(content, str):
            return self.resolve(content)
        if not isinstance(content, list):
            raise self.ctx.error(
                f"content must be a string or an array, not {json_type(content)}", path
            )
        return tuple(self.item(item, f"{path}[{k}]") for k, item in enumerate(content))

    def item(self, item: Any, path: str) -> Block:
        ctx = self.ctx
        if not isinstance(item, dict):
            raise ctx.error(f"a content item must be an object, not {json_type(item)}", path)
        kind = item.get("type")
        if not isinstance(kind, str):
            raise ctx.error('a content item needs a string "type"', f"{path}.type")
        if kind == "text":
            text = self.resolve(self.string(item, "text", path))
            citations = item.get("citations")
            if isinstance(citations, list):
                cites = tuple(
                    self.citation(c, f"{path}.citations[{i}]") for i, c in enumerate(citations)
                )
                return TextBlock(text, cites, extra=_rest(item, "type", "text", "citations"))
            return TextBlock(text, extra=_rest(item, "type", "text"))
        if kind == "reasoning":
            return self.reasoning(item, path)
        if kind in _MEDIA:
            cls, key = _MEDIA[kind]
            source = self.resolve(self.string(item, key, path))
            if kind == "document":
                filename = self.string(item, "filename", path, optional=True)
                mime = self.string(item, "mime_type", path, optional=True)
                skip = ["type", key]
                skip += [
                    k for k, v in (("filename", filename), ("mime_type", mime)) if v is not None
                ]
                return FileBlock(
                    url=source, filename=filename, mime_type=mime, extra=_rest(item, *skip)
                )
            return cls(url=source, extra=_rest(item, "type", key))
        if kind == "tool_use":
            return self.tool_use(item, path)
        if kind == "data":
            # Provider data Inspect carries opaquely: kept as it is, nothing to warn about.
            return UnknownBlock(kind="data", data=item)
        ctx.warn(f"unknown content type {kind!r} kept as it is", f"{path}.type")
        return UnknownBlock(kind=kind, data=item)

    def citation(self, c: Any, path: str) -> CitationBlock:
        if not isinstance(c, dict):
            raise self.ctx.error(f"a citation must be an object, not {json_type(c)}", path)
        fields = {k: c.get(k) for k in ("url", "title", "cited_text")}
        kept = {k: v for k, v in fields.items() if isinstance(v, str)}
        return CitationBlock(**kept, extra={k: v for k, v in c.items() if k not in kept})

    def reasoning(self, item: dict[str, Any], path: str) -> ReasoningBlock:
        text = self.resolve(self.string(item, "reasoning", path))
        signature = self.string(item, "signature", path, optional=True)
        redacted = item.get("redacted", False)
        if not isinstance(redacted, bool):
            raise self.ctx.error('"redacted" must be a boolean', f"{path}.redacted")
        skip = ["type", "reasoning"] if signature is None else ["type", "reasoning", "signature"]
        if not redacted:
            return ReasoningBlock(text, signature, extra=_rest(item, *skip))
        # Redacted: "reasoning" is opaque (encrypted) data; a summary, if any, is readable.
        summary = item.get("summary")
        skip.append("redacted")
        if isinstance(summary, str) and summary:
            skip.append("summary")
        else:
            summary = ""
        return ReasoningBlock(summary, signature, True, text, extra=_rest(item, *skip))

    def tool_use(self, item: dict[str, Any], path: str) -> ServerToolCallBlock:
        """A tool the provider ran (web search...): the call, its result kept in ``extra``."""
        name = self.string(item, "name", path)
        call_id = self.string(item, "id", path, optional=True)
        raw = item.get("arguments")
        args: Any = None
        if isinstance(raw, str):
            try:
                args = loads_exactly(raw)
            except ValueError:
                args = None
        elif isinstance(raw, dict):
            args = raw
        return ServerToolCallBlock(
            call_id,
            name,
            args if isinstance(args, dict) else {},
            extra=_rest(item, "id", "name"),
        )


_MEDIA: dict[str, tuple[type, str]] = {
    "image": (ImageBlock, "image"),
    "audio": (AudioBlock, "audio"),
    "video": (VideoBlock, "video"),
    "document": (FileBlock, "document"),
}


def _rest(item: dict[str, Any], *skip: str) -> dict[str, Any]:
    return {k: v for k, v in item.items() if k not in skip}
