"""Writing a conversation as ``messages_to_dict`` output (which ``messages_from_dict`` accepts),
or as ``lc`` constructor dicts (which ``langchain_core.load.load`` accepts) when it was read
from those, in the shape it was read in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.blocks import Block, ToolCallBlock, ToolResultBlock
from ...core.call_order import without_call_index
from ...core.message import InvalidToolCall, Message, ToolCall
from ...core.usage import Usage
from ..base import Context, Conversation, add_kept, message_where, read_from
from ..io import json_bytes
from ..shared.placing import insert_each
from .fields import (
    AI_TYPES,
    CHAT_TYPES,
    CONVERSATION_KEY,
    DEFAULT_TYPE,
    ITEM_KEY,
    LC_CLASS_OF,
    LC_ID_KEY,
    LC_METADATA,
    LC_PREFIX,
    MAPPED,
    NAME,
    SHAPE_KEYS,
    TOOL_USE_KEY,
    TYPE_ROLES,
)
from .read_blocks import NATIVE
from .write_blocks import tool_use_out, write_block


def write(conversations: Sequence[Conversation], ctx: Context) -> bytes:
    """One conversation as ``messages_to_dict`` output (in its ``messages`` object if it came
    in one; as plain dicts if it was read from plain dicts)."""
    conv = conversations[0]
    native = read_from(conv, NAME, SHAPE_KEYS)  # (through msgviewer's format too)
    shape = conv.metadata.get(CONVERSATION_KEY) if native else None
    shape = shape if isinstance(shape, dict) else {}
    lc = shape.get("lc")
    writer = _Writer(ctx, native, plain=bool(shape.get("plain")))
    writer.lc = [*lc] if isinstance(lc, list) else None
    style = shape.get("lc_kwargs")
    writer.lc_style = style if isinstance(style, dict) else {}
    items = writer.messages(conv.messages)
    others = {k: v for k, v in conv.metadata.items() if k != CONVERSATION_KEY}
    if shape.get("wrapped"):
        return json_bytes({"messages": items, **others}, pretty=True)
    if others:
        ctx.lossy(f"conversation fields {', '.join(sorted(others))}", "conversation")
    return json_bytes(items, pretty=True)


class _Writer:
    def __init__(self, ctx: Context, native: bool, plain: bool) -> None:
        self.ctx = ctx
        self.native = native
        self.plain = plain
        self.call_names: dict[str, str] = {}
        self.lc: list[Any] | None = None
        self.lc_style: dict[str, Any] = {}

    def messages(self, messages: Sequence[Message]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for i, message in enumerate(messages):
            for call in message.tool_calls:
                if call.id is not None:
                    self.call_names[call.id] = call.name
            for block in message.blocks:
                if type(block) is ToolCallBlock and block.id is not None:
                    self.call_names[block.id] = block.name
            fields = message.metadata.get(ITEM_KEY) if self.native else None
            fields = fields if isinstance(fields, dict) else {}
            where = message_where(i)
            if fields and self.plain:
                self.ctx.lossy("fields beside a message's type and data", where)
            for data in self.message(message, i):
                if self.lc is not None:
                    lc_id = message.metadata.get(LC_ID_KEY) if self.native else None
                    item = _lc_item(data, self.lc, lc_id, self.lc_style)
                    out.append(
                        add_kept(item, fields, lambda what, w=where: self.ctx.lossy(what, w))
                    )
                    continue
                if self.plain:
                    out.append(data)
                    continue
                item = {"type": data["type"], "data": data}
                out.append(add_kept(item, fields, lambda what, w=where: self.ctx.lossy(what, w)))
        return out

    def message(self, message: Message, i: int) -> list[dict[str, Any]]:
        results = [b for b in message.blocks if type(b) is ToolResultBlock]
        if not results:
            return [self._data(message, i, message.content)]
        # Anthropic-shaped results: one tool message each, then what else the turn said.
        out = [
            self._tool_result(b, i, j)
            for j, b in enumerate(message.content)
            if type(b) is ToolResultBlock
        ]  # type: ignore[union-attr]
        rest = tuple(b for b in message.content if type(b) is not ToolResultBlock)  # type: ignore[union-attr]
        if rest:
            out.append(self._data(message, i, rest))
        elif message.id is not None:
            self.ctx.lossy("the id of a message made only of tool results", message_where(i))
        return out

    def _tool_result(self, block: ToolResultBlock, i: int, j: int) -> dict[str, Any]:
        content = block.content if type(block.content) is str else self._content(block.content, i)
        data: dict[str, Any] = {
            "content": content,
            "additional_kwargs": {},
            "response_metadata": {},
            "type": "tool",
            "name": self.call_names.get(block.tool_call_id or ""),
            "id": None,
            "tool_call_id": block.tool_call_id or "",
            "artifact": None,
            "status": "error" if block.is_error else "success",
        }
        if block.tool_call_id is None:
            self.ctx.lossy("a tool result without a call id", message_where(i, j))
        return data

    def _type(self, message: Message) -> str:
        kind = message.metadata.get("type")
        if isinstance(kind, str) and kind in TYPE_ROLES:
            role = TYPE_ROLES[kind]
            if role == message.role or (
                role is None and isinstance(message.metadata.get("role"), str)
            ):
                return kind
        return DEFAULT_TYPE[message.role]

    def _content(self, content: str | tuple[Block, ...], i: int) -> str | list[Any]:
        if type(content) is str:
            return content
        out: list[Any] = []
        for j, block in enumerate(content):
            data = write_block(block, lambda what, j=j: self.ctx.lossy(what, message_where(i, j)))
            if data is None:
                self.ctx.lossy(f"a {block.type} block inside content", message_where(i, j))
            else:
                out.append(data)
        return out

    def _data(self, message: Message, i: int, content: str | tuple[Block, ...]) -> dict[str, Any]:
        kind = self._type(message)
        role = message.role
        where = message_where(i)
        extra_kwargs = dict(message.metadata.get("additional_kwargs") or {})
        if role == "system" and message.metadata.get("role") == "developer":
            extra_kwargs.setdefault("__openai_role__", "developer")
        data: dict[str, Any] = {
            "content": self._content(content, i),
            "additional_kwargs": extra_kwargs,
            "response_metadata": self._response(message),
            "type": kind,
            "name": message.name,
            "id": message.id,
        }
        if kind in AI_TYPES:
            self._ai_fields(message, data, where)
            _put_tool_use(message, data)
        else:
            self._not_ai(message, where)
        if role == "tool":
            self._tool_data(message, kind, data, where)
        else:
            if message.is_error:
                self.ctx.lossy("the error flag of a non-tool message", where)
            if message.artifacts:
                self.ctx.lossy("artifacts of a non-tool message", where)
        if kind in CHAT_TYPES:
            data["role"] = message.metadata.get("role", role)
        if kind == "AIMessageChunk":  # fields messages_to_dict always writes for chunks
            data["tool_call_chunks"] = []
            data["chunk_position"] = None
        for key, value in message.metadata.items():
            if key in ("type", "additional_kwargs", ITEM_KEY, LC_ID_KEY) or (
                key == "role" and kind in CHAT_TYPES
            ):
                continue
            if key == "role" and value == "developer":
                continue
            if key in MAPPED or (key in data and key not in LC_METADATA):
                # A field the writer sets from the message itself: it wins.
                if data.get(key, _ABSENT) != value:
                    self.ctx.lossy(f"message field {key!r} (it would replace a written one)", where)
            elif self.native or key in LC_METADATA - {"role"}:
                data[key] = value
            else:
                self.ctx.lossy(f"message field {key!r}", where)
        return data

    def _response(self, message: Message) -> dict[str, Any]:
        response = dict(message.response_metadata)
        model = message.model
        if not self.native and model is not None and "model_name" not in response:
            response["model_name"] = model  # LangChain's name for it
        return response

    def _ai_fields(self, message: Message, data: dict[str, Any], where: str) -> None:
        calls = [self._call_extra(_call_out(c), c.extra, where) for c in message.tool_calls]
        known = {c.id for c in message.tool_calls}
        for block in message.blocks:
            # A call only in the content (hand-built messages) must also be a tool call.
            if (
                type(block) is ToolCallBlock
                and block.id not in known
                and block.extra.get(NATIVE) != "tool_use"
            ):
                calls.append(
                    {"name": block.name, "args": block.args, "id": block.id, "type": "tool_call"}
                )
        data["tool_calls"] = calls
        data["invalid_tool_calls"] = [
            self._call_extra(_invalid_out(c), c.extra, where) for c in message.invalid_tool_calls
        ]
        usage = message.usage
        data["usage_metadata"] = None if usage is None else usage_out(usage, own=self.native)

    def _call_extra(
        self, call: dict[str, Any], extra: dict[str, Any], where: str
    ) -> dict[str, Any]:
        # LangChain builds its tool calls with create_tool_call, which takes no other keys:
        # only fields read from a LangChain file go back (other formats' are reported).
        if TOOL_USE_KEY in extra:
            extra = {k: v for k, v in extra.items() if k != TOOL_USE_KEY}
        extra = without_call_index(extra)  # (LangChain keeps invalid calls in a list of their own)
        if extra:
            if self.native:
                for key, value in extra.items():
                    # A call's own type was kept in extra when it was not the usual one.
                    if key == "type" or key not in call:
                        call[key] = value
                    elif call[key] != value:
                        self.ctx.lossy(f"tool call field {key!r} (it would replace one)", where)
            else:
                self.ctx.lossy(f"tool call fields {', '.join(sorted(extra))}", where)
        return call

    def _not_ai(self, message: Message, where: str) -> None:
        if message.tool_calls or message.invalid_tool_calls:
            self.ctx.lossy(f"tool calls on a {message.role} message", where)
        if message.usage is not None:
            self.ctx.lossy(f"usage on a {message.role} message", where)

    def _tool_data(self, message: Message, kind: str, data: dict[str, Any], where: str) -> None:
        if kind in ("function", "FunctionMessageChunk"):
            if data["name"] is None:
                data["name"] = ""
            return
        call_id = message.tool_call_id
        if call_id is None:
            self.ctx.lossy("a tool result without a call id", where)
        if not self.native and data["name"] is None and call_id in self.call_names:
            data["name"] = self.call_names[call_id]
        data["tool_call_id"] = call_id or ""
        artifacts = message.artifacts
        if len(artifacts) > 1:
            self.ctx.lossy("several artifacts (written as one list)", where)
        data["artifact"] = artifacts[0] if len(artifacts) == 1 else list(artifacts) or None
        data["status"] = "error" if message.is_error else "success"


def _put_tool_use(message: Message, data: dict[str, Any]) -> None:
    """Each call that was also a ``tool_use`` content block put back in its place."""
    placed = []
    for call in message.tool_calls:
        marker = call.extra.get(TOOL_USE_KEY)
        if isinstance(marker, dict):
            fields = dict(marker.get("fields") or {})
            name = fields.pop("name", call.name)
            args = fields.pop("input", call.args)
            index = marker.get("index")
            index = index if isinstance(index, int) else 1 << 30
            placed.append((index, tool_use_out(call.id, name, args, fields)))
    if not placed:
        return
    content = data["content"]
    content = [] if content == "" else [content] if type(content) is str else content
    data["content"] = insert_each(content, sorted(placed, key=lambda x: x[0]))


def _lc_item(
    data: dict[str, Any], prefix: list[Any], lc_id: Any, style: dict[str, Any]
) -> dict[str, Any]:
    """A message's data as an ``lc`` constructor dict: fields left at None are not written,
    and ``type`` and empty ``tool_call_chunks`` as the file had them (``style``)."""
    if not (isinstance(lc_id, list) and lc_id):
        lc_id = [*(prefix or LC_PREFIX), LC_CLASS_OF[data["type"]]]
    kwargs = {
        k: v
        for k, v in data.items()
        if v is not None
        and not (k == "type" and style.get("untyped"))
        and not (k == "tool_call_chunks" and v == [] and not style.get("empty_chunks"))
    }
    return {"lc": 1, "type": "constructor", "id": lc_id, "kwargs": kwargs}


def _call_out(call: ToolCall) -> dict[str, Any]:
    return {"name": call.name, "args": call.args, "id": call.id, "type": "tool_call"}


def _invalid_out(call: InvalidToolCall) -> dict[str, Any]:
    return {
        "type": "invalid_tool_call",
        "id": call.id,
        "name": call.name,
        "args": call.args,
        "error": call.error,
    }


def usage_out(usage: Usage, *, own: bool = False) -> dict[str, Any]:
    """Usage as ``usage_metadata``: the raw dict when it is LangChain's and still agrees.

    ``own``: the usage was read from a LangChain file, so its raw dict is ``usage_metadata``
    (fields this version does not know included). Otherwise the raw dict may be another
    provider's with the same count names (OpenAI Responses): only LangChain's keys pass.
    """
    extra = usage.extra
    if (
        isinstance(extra, dict)
        and extra.get("input_tokens") == usage.input_tokens
        and extra.get("output_tokens") == usage.output_tokens
        and extra.get("total_tokens") == usage.total_tokens
        and (own or set(extra) <= _USAGE_KEYS)
    ):
        inputs = extra.get("input_token_details") or {}
        outputs = extra.get("output_token_details") or {}
        if (
            isinstance(inputs, dict)
            and isinstance(outputs, dict)
            and (inputs.get("cache_read") or 0) == usage.cache_read_tokens
            and (inputs.get("cache_creation") or 0) == usage.cache_write_tokens
            and (outputs.get("reasoning") or 0) == usage.reasoning_tokens
        ):
            return extra
    out: dict[str, Any] = {
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "total_tokens": usage.total_tokens,
    }
    inputs = {}
    if usage.cache_read_tokens:
        inputs["cache_read"] = usage.cache_read_tokens
    if usage.cache_write_tokens:
        inputs["cache_creation"] = usage.cache_write_tokens
    if inputs:
        out["input_token_details"] = inputs
    if usage.reasoning_tokens:
        out["output_token_details"] = {"reasoning": usage.reasoning_tokens}
    return out


_USAGE_KEYS = frozenset(
    {"input_tokens", "output_tokens", "total_tokens", "input_token_details", "output_token_details"}
)
_ABSENT = object()
