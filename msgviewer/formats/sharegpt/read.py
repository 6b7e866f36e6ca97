"""Reading ShareGPT records: turns into messages, ``function_call`` turns into tool calls with
synthesized ids, observations answering them in order.
"""

from __future__ import annotations

import json
from collections import deque
from typing import Any

from ...core.blocks import UnknownBlock
from ...core.call_order import calls_in_order
from ...core.message import Message
from ..base import Context, Conversation
from .calls import (
    DEFAULT_TAGS,
    FORMAT_NAME,
    ROLE_OF_TAG,
    format_calls,
    parse_calls,
    split_parallel,
)
from .detect import TURN_KEYS
from .fast import read_turns


def read(value: Any, ctx: Context, *, quick: bool = True) -> list[Conversation]:
    """One conversation per record: a single record, or a JSON array of records.

    ``quick``: turns of the common shapes are built the quick way (``fast``); without it
    every turn is read the careful way, which gives the same conversations.
    """
    if isinstance(value, list):
        return [
            _read_record(r, f"$[{k}]", ctx, in_array=True, quick=quick) for k, r in ctx.each(value)
        ]
    return [_read_record(value, "$", ctx, in_array=False, quick=quick)]


def _read_record(
    record: Any, path: str, ctx: Context, *, in_array: bool, quick: bool
) -> Conversation:
    if not isinstance(record, dict):
        raise ctx.error("a ShareGPT record must be an object", path)
    for key in TURN_KEYS:  # (a loop, not a generator: a record of a few turns feels the cost)
        if key in record:
            break
    else:
        raise ctx.error('a ShareGPT record needs a "conversations" array', path)
    turns = record[key]
    if not isinstance(turns, list):
        raise ctx.error(f"{key} must be an array", f"{path}.{key}")
    layout: dict[str, Any] = {}
    if in_array:
        layout["container"] = "array"
    if key != "conversations":
        layout["turns_key"] = key
    messages: list[Message] = []
    system = record.get("system")
    if isinstance(system, str) and system:
        messages.append(Message.system(system))
        layout["system"] = "field"
    from_field = layout.get("system") == "field"
    metadata = {k: v for k, v in record.items() if k != key and not (k == "system" and from_field)}
    tools = record.get("tools")
    if isinstance(tools, str):
        try:
            parsed = json.loads(tools)
        except ValueError:
            parsed = None
        if isinstance(parsed, list):
            metadata["tools"] = parsed
            if json.dumps(parsed, ensure_ascii=False) != tools:
                layout["tools_json"] = tools
    _Turns(ctx, f"{path}.{key}", layout).read(turns, messages, quick=quick)
    if layout:
        metadata[FORMAT_NAME] = layout
    title = record.get("id")
    return Conversation(
        tuple(messages),
        FORMAT_NAME,
        metadata,
        str(title) if isinstance(title, (str, int)) and not isinstance(title, bool) else None,
    )


class _Turns:
    """Reads the turns of one record, linking observations to calls by position."""

    def __init__(self, ctx: Context, path: str, layout: dict[str, Any]) -> None:
        self.ctx = ctx
        self.path = path
        self.layout = layout
        # (id, name) of unanswered calls: a deque, as each result takes the first (one deque
        # for the record, shared with the quick reader)
        self.pending: deque[tuple[str | None, str | None]] = deque()

    def read(self, turns: list[Any], out: list[Message], *, quick: bool = True) -> None:
        first = turns[0] if turns else None
        if isinstance(first, dict) and "from" not in first:
            self.layout["style"] = "role"  # (the first turn's keys say the record's style)
        each = self.ctx.each(turns)  # (looks forwards only: the next turn, for results)
        if quick:
            read_turns(turns, self.pending, out, self.turn, each)
        else:
            for t, turn in each:
                self.turn(t, turn, turns, out)

    def turn(self, t: int, turn: Any, turns: list[Any], out: list[Message]) -> None:
        """Turn ``t`` (``turns[t]``) as messages added to ``out``."""
        sub = f"{self.path}[{t}]"
        if not isinstance(turn, dict):
            raise self.ctx.error("a turn must be an object", sub)
        role_key, content_key = ("from", "value") if "from" in turn else ("role", "content")
        tag = turn.get(role_key)
        kind = ROLE_OF_TAG.get(tag.lower()) if isinstance(tag, str) else None
        if kind is None:
            raise self.ctx.error(f"unknown role {tag!r} in a turn", f"{sub}.{role_key}")
        metadata = {k: v for k, v in turn.items() if k not in (role_key, content_key)}
        if tag != DEFAULT_TAGS[role_key][kind]:
            metadata[role_key] = tag
        value = turn.get(content_key)
        if kind == "call":
            out.append(self.calls(value, t, f"{sub}.{content_key}", metadata))
        elif kind == "tool":
            out.extend(self.results(value, f"{sub}.{content_key}", metadata, turns, t))
        else:
            self.pending.clear()
            out.append(Message(kind, self.text(value, f"{sub}.{content_key}"), metadata=metadata))

    def text(self, value: Any, path: str) -> str | tuple[UnknownBlock, ...]:
        if isinstance(value, str):
            return value
        if value is None:
            return ""
        self.ctx.warn(f"turn content that is not text ({type(value).__name__}) kept as it is", path)
        return (UnknownBlock(kind="value", data=value),)

    def calls(self, value: Any, t: int, path: str, metadata: dict[str, Any]) -> Message:
        calls, invalid = parse_calls(value, t)
        if calls is None:
            self.ctx.warn("function_call value is not a JSON tool call; kept as its text", path)
            metadata["value"] = value
        else:
            listed = isinstance(value, list) or (
                isinstance(value, str) and value.lstrip().startswith("[")
            )
            if listed and len(calls) + len(invalid) == 1:
                metadata["list"] = True
            if not isinstance(value, str):
                metadata["value_type"] = "object"  # written back as JSON, not as JSON text
            elif invalid or format_calls(calls, list_form=listed) != value:
                metadata["value"] = value  # its exact text, for an exact round trip
        message = Message(
            "assistant", "", tool_calls=calls or (), invalid_tool_calls=invalid, metadata=metadata
        )
        self.pending.clear()  # (answered in the calls' order, an unparsable one among them)
        self.pending.extend((c.id, c.name) for c in calls_in_order(message))
        return message

    def results(
        self, value: Any, path: str, metadata: dict[str, Any], turns: list[Any], t: int
    ) -> list[Message]:
        following = turns[t + 1] if t + 1 < len(turns) else None
        parts = split_parallel(value, len(self.pending), following)
        if parts is not None:
            out = []
            for k, part in enumerate(parts):
                call_id, name = self.pending.popleft()
                meta = metadata if k == 0 else {"observation_part": k}
                out.append(Message.tool(part, tool_call_id=call_id, name=name, metadata=meta))
            return out
        call_id, name = self.pending.popleft() if self.pending else (None, None)
        return [
            Message.tool(self.text(value, path), tool_call_id=call_id, name=name, metadata=metadata)
        ]


# -- writing ------------------------------------------------------------------------------
