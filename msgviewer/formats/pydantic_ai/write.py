"""Writing a history as pydantic-ai ``ModelMessagesTypeAdapter`` JSON.

Consecutive non-assistant messages become the parts of one request; a message whose metadata
holds ``pydantic_ai_request`` starts a new request with those fields, which regroups a
history read from pydantic-ai exactly. Every assistant message is one response.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.blocks import (
    AudioBlock,
    Block,
    FileBlock,
    ImageBlock,
    ReasoningBlock,
    ServerToolCallBlock,
    ServerToolResultBlock,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
    UnknownBlock,
    VideoBlock,
)
from ...core.call_order import calls_in_order
from ...core.message import InvalidToolCall, Message, ToolCall
from ..base import Context, Conversation, message_where
from ..io import json_bytes, loads_exactly
from ..shared.json_checks import compact_json
from ..shared.provider import SYNTHETIC_ID, pair_tool_ids
from .content import EMPTY_KEY, JSON_KEY, REDACTED_ID, REQUEST_KEY, write_item
from .detect import NAME
from .usage import FINISH_REASONS, usage_out

_MEDIA = (ImageBlock, AudioBlock, VideoBlock, FileBlock)
_PROVIDER = ("id", "provider_name", "provider_details")
# Message metadata keys this writer consumes itself.
_OWN_METADATA = frozenset(
    {REQUEST_KEY, JSON_KEY, EMPTY_KEY, "timestamp", "dynamic_ref", "outcome", "part_kind"}
)
_RESPONSE_KEYS = (
    "model_name",
    "timestamp",
    "provider_name",
    "provider_url",
    "provider_details",
    "provider_response_id",
    "finish_reason",
    "run_id",
    "metadata",
)


class Writer:
    """Writes one conversation; ``native`` when it was read from pydantic-ai (its own
    leftover fields then go back where they came from instead of being reported lossy)."""

    def __init__(self, ctx: Context, native: bool) -> None:
        self.ctx = ctx
        self.native = native
        self.call_names: dict[str, str] = {}

    def history(self, messages: Sequence[Message]) -> list[dict[str, Any]]:
        # pydantic-ai links every result to its call by id: calls without one get one, and
        # results without one take the id of the call they answer.
        messages, _ = pair_tool_ids(messages)
        out: list[dict[str, Any]] = []
        request: dict[str, Any] | None = None
        for i, message in enumerate(messages):
            self._note_calls(message)
            if message.role == "assistant":
                request = None
                out.append(self.response(message, i))
                continue
            fields = message.metadata.get(REQUEST_KEY)
            if request is None or fields is not None:
                fields = dict(fields) if isinstance(fields, dict) else {}
                fields.pop("parts", None)
                fields.pop("kind", None)
                fields.setdefault("instructions", None)
                request = {"parts": [], **fields, "kind": "request"}
                out.append(request)
            if not message.metadata.get(EMPTY_KEY):
                request["parts"].extend(self.request_parts(message, i))
        return out

    def _note_calls(self, message: Message) -> None:
        for call in message.tool_calls:
            if call.id is not None:
                self.call_names[call.id] = call.name
        if type(message.content) is tuple:
            for block in message.content:
                if type(block) is ToolCallBlock and block.id is not None:
                    self.call_names[block.id] = block.name

    # -- request parts ------------------------------------------------------------------------

    def request_parts(self, message: Message, i: int) -> list[dict[str, Any]]:
        where = message_where(i)
        self._message_fields(message, where)
        role = message.role
        meta = message.metadata
        if role == "system":
            part = {"content": self._text(message.content, i), **self._meta(meta, where)}
            part.setdefault("dynamic_ref", None)
            return [{**part, "part_kind": "system-prompt"}]
        if role == "tool":
            return [self._tool_part(message, i)]
        if meta.get("part_kind") == "retry-prompt":
            part = {"content": self._retry_content(message, i), "tool_name": None}
            if isinstance(meta.get("tool_call_id"), str):
                part["tool_call_id"] = meta["tool_call_id"]
            extra = {k: v for k, v in meta.items() if k != "tool_call_id"}
            return [{**part, **self._meta(extra, where), "part_kind": "retry-prompt"}]
        content = message.content
        if type(content) is str:
            return [{"content": content, **self._meta(meta, where), "part_kind": "user-prompt"}]
        blocks: tuple[Block, ...] = content  # type: ignore[assignment]
        if len(blocks) == 1 and type(blocks[0]) is UnknownBlock:
            data = blocks[0].data
            if isinstance(data, dict) and isinstance(data.get("part_kind"), str):
                return [data]  # a request part pydantic-ai has and msgviewer does not model
        out = [
            self._result_part(b, i, j) for j, b in enumerate(blocks) if type(b) is ToolResultBlock
        ]
        rest = [(j, b) for j, b in enumerate(blocks) if type(b) is not ToolResultBlock]
        if rest or not out:
            items = self._items(rest, i)
            plain = all(type(x) is str for x in items)
            value: Any = "".join(items) if plain and len(items) == 1 else items
            out.append({"content": value, **self._meta(meta, where), "part_kind": "user-prompt"})
        return out

    def _items(self, blocks: list[tuple[int, Block]], i: int) -> list[Any]:
        items = []
        for j, block in blocks:
            lost: list[str] | None = None if self.native else []
            item = write_item(block, lost)
            if lost:
                fields = ", ".join(repr(k) for k in lost if k != SYNTHETIC_ID)
                self.ctx.lossy(f"{block.type} fields {fields}", message_where(i, j))
            if item is None:
                self.ctx.lossy(f"a {block.type} block in a user prompt", message_where(i, j))
            else:
                if type(block) is TextBlock and block.citations:
                    self.ctx.lossy("citations", message_where(i, j))
                items.append(item)
        return items

    def _tool_part(self, message: Message, i: int) -> dict[str, Any]:
        where = message_where(i)
        meta = message.metadata
        name = message.name or self.call_names.get(message.tool_call_id or "")
        if name is None:
            self.ctx.lossy("a tool result without a tool name", where)
        retry = message.is_error and meta.get("outcome") not in ("failed", "denied")
        if retry:
            part: dict[str, Any] = {
                "content": self._retry_content(message, i),
                "tool_name": name or "",
            }
            if message.artifacts:
                self.ctx.lossy("artifacts of a failed tool call", where)
        else:
            part = {"tool_name": name or "", "content": self._return_value(message, i)}
        if message.tool_call_id is not None:
            part["tool_call_id"] = message.tool_call_id
        else:
            self.ctx.lossy("a tool result without a call id", where)
        if not retry:
            artifacts = message.artifacts
            if len(artifacts) > 1:
                self.ctx.lossy("several artifacts (written as one list)", where)
            part["metadata"] = artifacts[0] if len(artifacts) == 1 else list(artifacts) or None
        part.update(self._meta(meta, where))
        part["part_kind"] = "retry-prompt" if retry else "tool-return"
        return part

    def _result_part(self, block: ToolResultBlock, i: int, j: int) -> dict[str, Any]:
        """An Anthropic-shaped result block as a tool-return or retry-prompt part."""
        content = block.content
        if type(content) is not str:
            content = self._text(content, i)
        name = self.call_names.get(block.tool_call_id or "", "")
        if block.is_error:
            part = {"content": content, "tool_name": name, "tool_call_id": block.tool_call_id}
            return {**part, "part_kind": "retry-prompt"}
        part = {"tool_name": name, "content": content, "tool_call_id": block.tool_call_id}
        return {**part, "metadata": None, "part_kind": "tool-return"}

    def _return_value(self, message: Message, i: int) -> Any:
        content = message.content
        shown = message.metadata.get(JSON_KEY)
        if type(content) is str:
            if shown == "json":
                try:
                    return loads_exactly(content)
                except ValueError:
                    return content  # edited into something that is not JSON: keep the text
            return content
        blocks: tuple[Block, ...] = content  # type: ignore[assignment]
        if all(type(b) is TextBlock for b in blocks):
            return self._text(blocks, i)
        items = self._items(list(enumerate(blocks)), i)
        return items[0] if shown == "item" and len(items) == 1 else items

    def _retry_content(self, message: Message, i: int) -> Any:
        text = self._text(message.content, i)
        if message.metadata.get(JSON_KEY) == "json":
            try:
                value = loads_exactly(text)
                if isinstance(value, list):
                    return value
            except ValueError:
                pass
        return text

    def _text(self, content: str | tuple[Block, ...], i: int) -> str:
        if type(content) is str:
            return content
        parts = []
        for j, block in enumerate(content):
            if type(block) is TextBlock:
                parts.append(block.text)
            else:
                self.ctx.lossy(f"a {block.type} block where only text fits", message_where(i, j))
        return "".join(parts)

    def _meta(self, meta: dict[str, Any], where: str) -> dict[str, Any]:
        """A part's own fields from message metadata; other formats' fields are reported."""
        out: dict[str, Any] = {}
        for key, value in meta.items():
            if key in (REQUEST_KEY, JSON_KEY, EMPTY_KEY, SYNTHETIC_ID, "part_kind"):
                continue
            if key in _OWN_METADATA or self.native:
                out[key] = value
            else:
                self.ctx.lossy(f"message field {key!r}", where)
        return out

    def _message_fields(self, message: Message, where: str) -> None:
        if message.id is not None:
            self.ctx.lossy("message id", where)
        if message.name is not None and message.role != "tool":
            self.ctx.lossy("participant name", where)
        if message.role != "tool" and message.artifacts:
            self.ctx.lossy("artifacts of a non-tool message", where)
        if message.role != "assistant" and (message.tool_calls or message.usage is not None):
            self.ctx.lossy(f"tool calls or usage on a {message.role} message", where)

    # -- responses ------------------------------------------------------------------------------

    def response(self, message: Message, i: int) -> dict[str, Any]:
        where = message_where(i)
        self._message_fields(message, where)
        for key in message.metadata:
            self.ctx.lossy(f"message field {key!r}", where)
        parts: list[dict[str, Any]] = []
        for j, block in enumerate(message.blocks):
            part = self._response_part(block, message_where(i, j))
            if part is None:
                self.ctx.lossy(f"a {block.type} block in a response", message_where(i, j))
            else:
                parts.append(part)
        for call in calls_in_order(message):
            if type(call) is InvalidToolCall and not self.native and call.error:
                self.ctx.lossy("the error text of an invalid tool call", where)
            parts.append(self._call(call))
        out: dict[str, Any] = {"parts": parts}
        if message.usage is not None:
            out["usage"] = usage_out(message.usage, own=self.native)
        rm = dict(message.response_metadata)
        out["model_name"] = rm.pop("model_name", None) or message.model
        rm.pop("model", None)
        for key in _RESPONSE_KEYS[1:]:
            if key in rm or key != "timestamp":
                out[key] = rm.pop(key, None)
        if not self.native and out["finish_reason"] is not None:
            out["finish_reason"] = self._finish_reason(out["finish_reason"], where)
        out["kind"] = "response"
        for key, value in rm.items():
            if self.native:
                out[key] = value
            else:
                self.ctx.lossy(f"response field {key!r}", where)
        return out

    def _finish_reason(self, reason: Any, where: str) -> str | None:
        """Another provider's finish reason as one of pydantic-ai's (None when it has none)."""
        mapped = FINISH_REASONS.get(reason.lower()) if isinstance(reason, str) else None
        if mapped is None:
            self.ctx.lossy(f"the finish reason {reason!r}", where)
        return mapped

    def _provider(
        self, extra: dict[str, Any], known: tuple[str, ...], where: str | None = None
    ) -> dict[str, Any]:
        """Part fields from a block's extra: all of them when native, else the known ones
        (the others named in a lossy warning when ``where`` is given)."""
        if self.native:
            return dict(extra)
        lost = [k for k in extra if k not in known and k != SYNTHETIC_ID]
        if lost and where is not None:
            self.ctx.lossy(f"part fields {', '.join(map(repr, lost))}", where)
        return {k: v for k, v in extra.items() if k in known}

    def _response_part(self, block: Block, where: str) -> dict[str, Any] | None:
        kind = type(block)
        if kind is TextBlock:
            return {
                "content": block.text,
                **self._provider(block.extra, _PROVIDER),
                "part_kind": "text",
            }  # type: ignore[union-attr]
        if kind is ReasoningBlock:
            return self._thinking(block)  # type: ignore[arg-type]
        if kind in _MEDIA and block.data is not None:  # type: ignore[union-attr]
            extra = dict(block.extra)
            file = {"data": block.data, "media_type": block.mime_type or "application/octet-stream"}  # type: ignore[union-attr]
            file.update(extra.pop("file", None) or {})
            file["kind"] = "binary"
            return {"content": file, **self._provider(extra, _PROVIDER), "part_kind": "file"}
        if kind is ServerToolCallBlock or kind is ToolCallBlock:
            extra = dict(block.extra)
            extra.pop(SYNTHETIC_ID, None)
            raw = extra.pop("args", None)
            as_json = extra.pop("args_json", False)
            args = (
                raw if isinstance(raw, str) else compact_json(block.args) if as_json else block.args
            )  # type: ignore[union-attr]
            part = {"tool_name": block.name, "args": args, "tool_call_id": block.id}  # type: ignore[union-attr]
            if block.id is None:  # type: ignore[union-attr]
                del part["tool_call_id"]  # pydantic-ai makes one up; null is refused
            part.update(self._provider(extra, _PROVIDER, where))
            part["part_kind"] = "builtin-tool-call" if kind is ServerToolCallBlock else "tool-call"
            return part
        if kind is ServerToolResultBlock:
            if block.status is not None:  # type: ignore[union-attr]
                self.ctx.lossy("the status of a built-in tool result", where)
            extra = dict(block.extra)
            part = {"tool_name": extra.pop("tool_name", ""), "content": block.content}  # type: ignore[union-attr]
            if block.tool_call_id is not None:  # type: ignore[union-attr]
                part["tool_call_id"] = block.tool_call_id  # type: ignore[union-attr]
            part.update(self._provider(extra, (*_PROVIDER, "metadata", "timestamp"), where))
            return {**part, "part_kind": "builtin-tool-return"}
        if kind is UnknownBlock:
            data = block.data  # type: ignore[union-attr]
            return (
                data if isinstance(data, dict) and isinstance(data.get("part_kind"), str) else None
            )
        return None

    def _thinking(self, block: ReasoningBlock) -> dict[str, Any]:
        extra = self._provider(block.extra, _PROVIDER)
        signature = block.signature
        if block.data is not None:
            if block.redacted:
                extra["id"] = REDACTED_ID
                signature = block.data
            elif signature is None:
                signature = block.data  # OpenAI encrypted reasoning rides in the signature
        part = {"content": block.text}
        if "id" in extra:
            part["id"] = extra.pop("id")
        part["signature"] = signature
        part.update(extra)
        part.setdefault("provider_name", None)
        return {**part, "part_kind": "thinking"}

    def _call(self, call: ToolCall | InvalidToolCall) -> dict[str, Any]:
        extra = dict(call.extra)
        extra.pop(SYNTHETIC_ID, None)
        as_json = extra.pop("args_json", False)
        if isinstance(call, InvalidToolCall):
            args: Any = call.args
        else:
            args = compact_json(call.args) if as_json else call.args
        part = {"tool_name": call.name or "", "args": args, "tool_call_id": call.id}
        part.update(self._provider(extra, _PROVIDER))
        return {**part, "part_kind": "tool-call"}


def write(conversations: Sequence[Conversation], ctx: Context) -> bytes:
    """One conversation as ModelMessagesTypeAdapter JSON."""
    conv = conversations[0]
    native = conv.format == NAME
    if conv.metadata and not native:
        ctx.lossy(f"conversation fields {', '.join(sorted(conv.metadata))}", "conversation")
    return json_bytes(Writer(ctx, native).history(conv.messages), pretty=True)
