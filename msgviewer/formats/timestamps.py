"""When each message of a conversation was written, from what its format keeps.

- Claude Code, Gemini CLI, pydantic-ai: the message's (or the response's) ``timestamp``;
- Codex: the line's timestamp, kept on the message or, for a response made of several items
  (reasoning, calls), on each item: the last one is when the response was complete;
- Gemini CLI: a tool result has no time of its own; its call's ``timestamp`` is when it ended;
- Inspect: the sample's events: a model event's ``completed`` (or ``timestamp``) for its
  output, a tool event's for its result, and a model event's start for its input messages.

Claude Code subagents' messages (``isSidechain``) run in their own lane (see
``core.timing``).
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from ..core.message import Message
from ..core.timing import Timing, timing
from .base import Conversation


def parse_time(value: Any) -> float | None:
    """An ISO 8601 time (or seconds since the epoch) as seconds since the epoch; None if it is
    neither. A time without a zone is taken as UTC."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value) if value > 0 else None
    if not isinstance(value, str) or len(value) < 10:
        return None
    text = value.strip().replace("Z", "+00:00").replace("z", "+00:00")
    head, dot, rest = text.partition(".")
    if dot:  # fromisoformat takes at most 6 fraction digits before Python 3.11
        digits = len(rest) - len(rest.lstrip("0123456789"))
        text = f"{head}.{rest[:digits][:6].ljust(6, '0')}{rest[digits:]}"
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp()


def _own_time(message: Message) -> float | None:
    return parse_time(message.metadata.get("timestamp")) or parse_time(
        message.response_metadata.get("timestamp")
    )


def _items_time(message: Message) -> float | None:
    """The latest time stamped on a message's blocks and calls (Codex items)."""
    stamps = [parse_time(b.extra.get("timestamp")) for b in message.blocks]
    stamps += [parse_time(c.extra.get("timestamp")) for c in message.tool_calls]
    found = [s for s in stamps if s is not None]
    return max(found) if found else None


def message_times(conversation: Conversation) -> list[float | None]:
    """Each message's time (seconds since the epoch), None where the file has none."""
    messages = conversation.messages
    if conversation.format == "inspect":
        return _inspect_times(conversation)
    times = [_own_time(m) for m in messages]
    if conversation.format == "codex":
        times = [
            t if t is not None else _items_time(m) for t, m in zip(times, messages, strict=True)
        ]
    if conversation.format == "gemini-cli":
        ended = {c.id: parse_time(c.extra.get("timestamp")) for m in messages for c in m.tool_calls}
        times = [
            t if t is not None or m.role != "tool" else ended.get(m.tool_call_id or "")
            for t, m in zip(times, messages, strict=True)
        ]
    return times


def message_lanes(conversation: Conversation) -> list[str | None] | None:
    """Claude Code subagents' lanes (None: the main agent's), or None for one lane."""
    if conversation.format != "claude-code":
        return None
    lanes: list[str | None] = []
    for m in conversation.messages:
        side = m.metadata.get("isSidechain") is True
        agent = m.metadata.get("agentId")
        lanes.append((agent if isinstance(agent, str) else "sidechain") if side else None)
    return lanes


def _inspect_times(conversation: Conversation) -> list[float | None]:
    inspect = conversation.metadata.get("inspect")
    sample = inspect.get("sample") if isinstance(inspect, dict) else None
    events = sample.get("events") if isinstance(sample, dict) else None
    by_id: dict[str, float] = {}
    by_call: dict[str, float] = {}
    for event in events if isinstance(events, list) else ():
        if not isinstance(event, dict):
            continue
        began = parse_time(event.get("timestamp"))
        ended = parse_time(event.get("completed")) or began
        if event.get("event") == "model" and ended is not None:
            for m in _list(event.get("input")):
                if isinstance(m, dict) and isinstance(m.get("id"), str) and began is not None:
                    by_id.setdefault(m["id"], began)
            output = event.get("output")
            for choice in _list(output.get("choices") if isinstance(output, dict) else None):
                m = choice.get("message") if isinstance(choice, dict) else None
                if isinstance(m, dict) and isinstance(m.get("id"), str):
                    by_id[m["id"]] = ended
        elif (
            event.get("event") == "tool" and ended is not None and isinstance(event.get("id"), str)
        ):
            by_call[event["id"]] = ended
    return [
        by_call.get(m.tool_call_id or "")
        if m.role == "tool" and m.tool_call_id in by_call
        else by_id.get(m.id or "")
        for m in conversation.messages
    ]


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def conversation_timing(conversation: Conversation) -> Timing | None:
    """The time figures of a conversation, or None if its file has no timestamps."""
    times = message_times(conversation)
    return timing(conversation.messages, times, message_lanes(conversation))


__all__ = ["conversation_timing", "message_lanes", "message_times", "parse_time"]
