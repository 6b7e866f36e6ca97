"""Writing a conversation as a Gemini CLI chat session file."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.blocks import ReasoningBlock, TextBlock, ToolCallBlock, ToolResultBlock, UnknownBlock
from ...core.call_order import calls_in_order
from ...core.message import Message, ToolCall
from ...core.usage import Usage
from ..base import Context, Conversation, message_where
from ..io import json_bytes
from ..shared.provider import Losses
from .detect import NAME, NOTE_TYPES, PARTS_KEY, RESULT_KEY, TYPE_KEY
from .read import result_text

_SESSION_KEYS = ("sessionId", "projectHash", "startTime", "lastUpdated")


def write(conversations: Sequence[Conversation], ctx: Context) -> bytes:
    """One conversation as ``{"sessionId", ..., "messages": [records]}``."""
    conv = conversations[0]
    losses = Losses(ctx)
    own = conv.format == NAME
    meta = dict(conv.metadata) if own else {}
    if not own and conv.metadata:
        losses.add(f"conversation fields {', '.join(sorted(conv.metadata))}", "conversation")
    session = {k: meta.pop(k, "") for k in _SESSION_KEYS}
    results = _results(conv.messages)
    written: set[str] = set()
    records = []
    for i, m in enumerate(conv.messages):
        record = _record(m, i, _Results(results, written), losses)
        if record is not None:
            records.append(record)
    for call_id, (i, _m) in results.items():
        if call_id not in written:
            losses.add("a tool result that answers no call in the file", message_where(i))
    losses.flush()
    return json_bytes({**session, "messages": records, **meta}, pretty=True)


class _Results:
    """The tool results by call id, and the ids whose results were written."""

    def __init__(self, by_id: dict[str, tuple[int, Message]], written: set[str]) -> None:
        self.by_id = by_id
        self.written = written

    def take(self, call_id: str | None) -> Message | None:
        found = self.by_id.get(call_id) if call_id is not None else None
        if found is None:
            return None
        self.written.add(call_id)  # type: ignore[arg-type]
        return found[1]


def _results(messages: Sequence[Message]) -> dict[str, tuple[int, Message]]:
    """Each tool result, by call id: a tool message, or an Anthropic-style result block."""
    out: dict[str, tuple[int, Message]] = {}
    for i, m in enumerate(messages):
        if m.role == "tool" and m.tool_call_id is not None:
            out.setdefault(m.tool_call_id, (i, m))
        elif type(m.content) is tuple:
            for b in m.content:
                if type(b) is ToolResultBlock and b.tool_call_id is not None:
                    text = b.content if type(b.content) is str else _text(b.content)
                    tool = Message.tool(text, tool_call_id=b.tool_call_id, is_error=b.is_error)
                    out.setdefault(b.tool_call_id, (i, tool))
    return out


def _text(blocks: Any) -> str:
    return "".join(b.text for b in blocks if type(b) is TextBlock)


def _record(m: Message, i: int, results: _Results, losses: Losses) -> dict[str, Any] | None:
    where = message_where(i)
    meta = dict(m.metadata)
    if m.role == "tool":
        if m.tool_call_id is None:
            losses.add("a tool result without a call id", where)
        return None  # written inside the call it answers
    if (
        m.role == "user"
        and type(m.content) is tuple
        and m.content
        and all(type(b) is ToolResultBlock for b in m.content)
    ):
        return None  # results only: written inside their calls
    kind = {"user": "user", "assistant": "gemini"}.get(m.role)
    if kind is None:
        note = meta.get(TYPE_KEY)
        known = isinstance(note, str) and note in NOTE_TYPES  # (metadata may hold anything)
        kind = note if known else "info"
        if not known:
            losses.add("a system message (written as an info note)", where)
    meta.pop(TYPE_KEY, None)
    record: dict[str, Any] = {"id": m.id or ""}
    if "timestamp" in meta:
        record["timestamp"] = meta.pop("timestamp")
    record["type"] = kind
    parts = meta.pop(PARTS_KEY, None)
    record["content"] = _content(m, parts, where, losses)
    if kind == "gemini":
        _gemini(m, meta, record, results, losses, where)
    elif m.usage is not None or m.tool_calls:
        losses.add(f"usage and tool calls of a {m.role} message", where)
    for k, v in meta.items():
        record.setdefault(k, v)
    return record


def _content(m: Message, parts: Any, where: str, losses: Losses) -> Any:
    if type(m.content) is str:
        return m.content if not parts else [m.content]
    out: list[Any] = []
    for b in m.content:
        t = type(b)
        if t is TextBlock:
            out.append(b.text if b.extra.get("bare") else {"text": b.text})
        elif t is UnknownBlock and b.kind == "part":
            out.append(b.data)
        elif t not in (ReasoningBlock, ToolCallBlock, ToolResultBlock):
            losses.add(f"{b.type} blocks", where)
    if parts == "single" and len(out) == 1:
        return out[0]
    if parts:
        return out
    return "".join(p if type(p) is str else p.get("text", "") for p in out)


def _gemini(
    m: Message,
    meta: dict[str, Any],
    record: dict[str, Any],
    results: _Results,
    losses: Losses,
    where: str,
) -> None:
    thoughts = []
    for b in m.blocks:
        if type(b) is ReasoningBlock:
            if b.signature is not None or b.data is not None:
                losses.add("reasoning signatures", where)
            extra = dict(b.extra)
            thought = {"subject": extra.pop("subject", "")}
            thought["description"] = b.text
            thoughts.append({**thought, **extra})
    if thoughts or "thoughts" in meta:
        record["thoughts"] = thoughts or meta.pop("thoughts")
    meta.pop("thoughts", None)
    if m.usage is not None:
        record["tokens"] = _usage_out(m.usage)
    model = m.model
    if model is not None:
        record["model"] = model
    calls = []
    for call in calls_in_order(m):
        if type(call) is not ToolCall:  # kept as a call so that its result stays with it
            call = ToolCall(call.id, call.name or "unknown", {}, extra=call.extra)
            losses.add("unparsable tool call arguments (written as {})", where)
        calls.append(call)
    calls += [ToolCall(b.id, b.name, b.args) for b in m.blocks if type(b) is ToolCallBlock]
    if calls:
        record["toolCalls"] = [_call(c, results) for c in calls]
    elif "toolCalls" in meta:
        record["toolCalls"] = meta.pop("toolCalls")
    meta.pop("toolCalls", None)


def _call(c: ToolCall, results: _Results) -> dict[str, Any]:
    out: dict[str, Any] = {"id": c.id or "", "name": c.name, "args": c.args}
    tool = results.take(c.id)
    extra = dict(c.extra)
    if tool is not None:
        raw = tool.metadata.get(RESULT_KEY, _ABSENT)
        text = tool.text
        if raw is _ABSENT or result_text(raw, c.id, c.name) != text:
            key = "error" if tool.is_error else "output"
            raw = [{"functionResponse": {"id": c.id, "name": c.name, "response": {key: text}}}]
        out["result"] = raw
        status = extra.get("status")
        if status is None or (status == "error") != tool.is_error:
            extra["status"] = "error" if tool.is_error else "success"
    return {**out, **{k: v for k, v in extra.items() if k not in out}}


def _usage_out(u: Usage) -> dict[str, Any]:
    raw = u.extra
    if isinstance(raw, dict):
        thoughts = raw.get("thoughts") or 0
        if (
            raw.get("input") == u.input_tokens
            and (raw.get("output") or 0) + thoughts == u.output_tokens
            and raw.get("total") == u.total_tokens
            and (raw.get("cached") or 0) == u.cache_read_tokens
            and thoughts == u.reasoning_tokens
        ):
            return raw
    return {
        "input": u.input_tokens,
        "output": u.output_tokens - u.reasoning_tokens,
        "cached": u.cache_read_tokens,
        "thoughts": u.reasoning_tokens,
        "tool": 0,
        "total": u.total_tokens,
    }


_ABSENT = object()
