"""Writing conversations as ShareGPT records (a JSON record, an array of them, or JSONL).

A conversation read from ShareGPT gets its own layout back (tags, turn keys, record keys,
exact ``function_call`` text). One from another format becomes a strictly alternating record
(user side: human/observation, assistant side: gpt/function_call), with every field ShareGPT
has no place for reported once per conversation.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...core.blocks import TextBlock, ToolCallBlock, ToolResultBlock, UnknownBlock
from ...core.call_order import calls_in_order
from ...core.message import Message, ToolCall
from ..base import Context, Conversation, message_where, read_from
from ..io import json_bytes, jsonl_bytes
from .calls import DEFAULT_TAGS, FORMAT_NAME, SHAPE_KEYS, call_item, invalid_item, same_calls

_MEDIA = frozenset({"image", "audio", "video", "file"})


@dataclass
class _Turn:
    kind: str
    """system, user, assistant, call or tool."""
    index: int
    """The message it came from (for warnings)."""
    values: list[Any] = field(default_factory=list)
    """Text (several for tool results merged into one observation); call items for calls."""
    extra: dict[str, Any] = field(default_factory=dict)
    tag: str | None = None
    raw: Any = None
    """An exact function_call value to write instead of ``values``."""
    list_form: bool = False
    as_object: bool = False
    part: int = 0
    """Position of a tool result inside one observation of several results."""


class _Lossy:
    """What this conversation loses, each kind reported once at its first place."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.seen: dict[str, str] = {}

    def add(self, what: str, i: int, b: int | None = None) -> None:
        self.seen.setdefault(what, message_where(i, b))

    def flush(self) -> None:
        for what, where in self.seen.items():
            self.ctx.lossy(what, where)


def write_record(conv: Conversation, ctx: Context) -> dict[str, Any]:
    """The ShareGPT record of one conversation."""
    native = read_from(conv, FORMAT_NAME, SHAPE_KEYS)  # (through msgviewer's format too)
    layout = conv.metadata.get(FORMAT_NAME) if native else None
    layout = layout if isinstance(layout, dict) else {}
    role_key, content_key = (
        ("role", "content") if layout.get("style") == "role" else ("from", "value")
    )
    lossy = _Lossy(ctx)
    messages = conv.messages
    system = None
    start = 0
    if (
        messages
        and messages[0].role == "system"
        and (not native or layout.get("system") == "field")
    ):
        system = _text(messages[0].content, 0, lossy, native)
        _message_fields(messages[0], 0, lossy, native)
        start = 1
    turns: list[_Turn] = []
    for i in range(start, len(messages)):
        turns.extend(_message_turns(messages[i], i, lossy, native, role_key))
    turns = _merge(turns, lossy, strict=not native)
    record: dict[str, Any] = {layout.get("turns_key", "conversations"): [
        _render(t, role_key, content_key) for t in turns
    ]}  # fmt: skip
    if system is not None:
        record["system"] = system
    _record_fields(conv, record, layout, lossy, native)
    lossy.flush()
    return record


def _record_fields(
    conv: Conversation, record: dict[str, Any], layout: dict[str, Any], lossy: _Lossy, native: bool
) -> None:
    dropped = []
    for key, value in conv.metadata.items():
        if key == FORMAT_NAME and native:
            continue
        if key == "tools" and isinstance(value, list):
            raw = layout.get("tools_json")
            if isinstance(raw, str) and json.loads(raw) == value:
                record["tools"] = raw
            else:
                tools = value if native else [_tool(t) for t in value]
                record["tools"] = json.dumps(tools, ensure_ascii=False)
        elif native:
            record[key] = value
        else:
            dropped.append(key)
    if not native and conv.title is not None:
        dropped.append("title")
    if dropped:
        lossy.ctx.lossy(f"conversation fields {', '.join(dropped)}", "conversation")


def _tool(tool: Any) -> Any:
    """A tool definition in ShareGPT's ``{name, description, parameters}`` shape."""
    if not isinstance(tool, dict):
        return tool
    if tool.get("type") == "function" and isinstance(tool.get("function"), dict):
        return tool["function"]  # OpenAI chat
    if "input_schema" in tool and "parameters" not in tool:  # Anthropic
        out = {k: v for k, v in tool.items() if k != "input_schema"}
        out["parameters"] = tool["input_schema"]
        return out
    return tool


def _message_fields(msg: Message, i: int, lossy: _Lossy, native: bool) -> dict[str, Any]:
    """The turn keys of a message read from ShareGPT; reports the fields ShareGPT drops."""
    if msg.usage is not None:
        lossy.add("usage", i)
    if msg.response_metadata:
        lossy.add("response metadata (model, stop reason...)", i)
    if msg.id is not None:
        lossy.add("message ids", i)
    if msg.name is not None and msg.role != "tool":
        lossy.add("participant names", i)
    if msg.artifacts:
        lossy.add("tool artifacts", i)
    if msg.is_error:
        lossy.add("tool error flags", i)
    if not native:
        if msg.metadata:
            lossy.add(f"message fields ({', '.join(sorted(msg.metadata))})", i)
        return {}
    return dict(msg.metadata)


def _message_turns(msg: Message, i: int, lossy: _Lossy, native: bool, role_key: str) -> list[_Turn]:
    meta = _message_fields(msg, i, lossy, native)
    tag = meta.pop(role_key, None)
    raw = meta.pop("value", None)
    as_object = meta.pop("value_type", None) == "object"
    list_form = bool(meta.pop("list", False))
    part = meta.pop("observation_part", None)
    role = msg.role
    blocks = msg.content
    results: list[ToolResultBlock] = []
    block_calls: list[ToolCallBlock] = []
    if isinstance(blocks, tuple):
        results = [b for b in blocks if type(b) is ToolResultBlock]
        block_calls = [b for b in blocks if type(b) is ToolCallBlock]
        blocks = tuple(b for b in blocks if type(b) not in (ToolResultBlock, ToolCallBlock))
    calls: list[Any] = [*msg.tool_calls, *block_calls]
    turns = [_Turn("tool", i, [_text(r.content, i, lossy, native)]) for r in results]
    if any(r.is_error for r in results):
        lossy.add("tool error flags", i)
    if results and not blocks:
        return turns
    if role == "assistant" and (calls or msg.invalid_tool_calls):
        if _text(blocks, i, lossy, native):
            lossy.add("assistant text beside tool calls", i)
        if not native and any(c.id is not None and not c.extra.get("synthetic_id") for c in calls):
            lossy.add("tool call ids", i)
        if any(c.args is None for c in msg.invalid_tool_calls):  # (Inspect keeps no text)
            lossy.add("an unparsable tool call kept with no text (written with null arguments)", i)
        items = [
            call_item(c, keep_id=native) if type(c) is ToolCall else invalid_item(c)
            for c in calls_in_order(msg)
        ]
        items += [call_item(c, keep_id=native) for c in block_calls]
        exact = raw if native and raw is not None else None
        if isinstance(exact, str) and not same_calls(exact, calls, msg.invalid_tool_calls):
            exact = None
        turn = _Turn("call", i, items, meta, tag, exact, list_form, as_object)
    else:
        kind = "tool" if role == "tool" else role
        turn = _Turn(kind, i, [_text(blocks, i, lossy, native)], meta, tag)
        turn.part = part if isinstance(part, int) else 0
    if role != "assistant" and calls:
        lossy.add(f"tool calls on a {role} message", i)
    return [*turns, turn]


def _text(content: Any, i: int, lossy: _Lossy, native: bool) -> Any:
    if isinstance(content, str):
        return content
    texts = []
    for b, block in enumerate(content):
        if type(block) is TextBlock:
            texts.append(block.text)
            if block.citations:
                lossy.add("citations", i, b)
        elif type(block) is UnknownBlock and native and block.kind == "value" and len(content) == 1:
            return block.data  # a non-text value read from this format: back as it was
        elif block.type == "reasoning":
            lossy.add("reasoning", i, b)
        elif block.type in _MEDIA:
            lossy.add("images and other media", i, b)
        else:
            lossy.add(f"{block.type} blocks", i, b)
    return "".join(texts)


def _merge(turns: list[_Turn], lossy: _Lossy, *, strict: bool) -> list[_Turn]:
    """Join the results of one parallel call into one observation; with ``strict``, also make
    the turns alternate by merging runs of one kind."""
    out: list[_Turn] = []
    for turn in turns:
        prev = out[-1] if out else None
        if prev is not None and prev.kind == turn.kind == "tool" and (strict or turn.part):
            prev.values.extend(turn.values)
        elif not strict or prev is None:
            out.append(turn)
        elif prev.kind == turn.kind == "call":
            prev.values.extend(turn.values)
        elif prev.kind == turn.kind and turn.kind in ("user", "assistant"):
            prev.values[0] = _join(prev.values[0], turn.values[0])
            lossy.add(f"separate consecutive {turn.kind} messages (merged)", turn.index)
        elif prev.kind == "assistant" and turn.kind == "call":
            lossy.add("assistant text beside tool calls", prev.index)
            out[-1] = turn
        else:
            out.append(turn)
    return out


def _join(a: Any, b: Any) -> Any:
    if isinstance(a, str) and isinstance(b, str):
        return f"{a}\n\n{b}" if a and b else a or b
    return a


def _render(turn: _Turn, role_key: str, content_key: str) -> dict[str, Any]:
    style = "role" if role_key == "role" else "from"
    tag = turn.tag or DEFAULT_TAGS[style][turn.kind]
    if turn.kind == "call":
        if turn.raw is not None:
            value: Any = turn.raw
        else:
            many = turn.list_form or len(turn.values) != 1
            obj = turn.values if many else turn.values[0]
            value = obj if turn.as_object else json.dumps(obj, ensure_ascii=False)
    elif turn.kind == "tool" and len(turn.values) > 1:
        value = json.dumps(turn.values, ensure_ascii=False)
    else:
        value = turn.values[0]
    return {role_key: tag, content_key: value, **turn.extra}


def write(conversations: Sequence[Conversation], ctx: Context) -> bytes:
    """One record: a JSON object; several: a JSON array if they were read from one, else JSONL."""
    records = [write_record(conv, ctx) for conv in conversations]
    layouts = [c.metadata.get(FORMAT_NAME) for c in conversations]
    from_array = all(isinstance(x, dict) and x.get("container") == "array" for x in layouts)
    if from_array:
        return json_bytes(records, pretty=True)
    if len(records) == 1:
        return json_bytes(records[0], pretty=True)
    return jsonl_bytes(records)
