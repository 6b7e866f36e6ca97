"""Where the time of a run went: model calls, tool calls, and the gaps between turns.

The input is one time per message (seconds since the epoch, or None where the file says
nothing): when the message was complete. A format layer reads them from what each format keeps.
From them:

- a model call lasts from the message it answers (the one before it, in its lane) to the
  response;
- a tool call lasts from the message that made the call to the one holding its result;
- the time before a user's prompt that starts a turn is a gap (the user away), counted as
  neither model nor tool time.

``lanes`` separates messages that run inside another step (a Claude Code subagent's, run by the
main agent's ``Task`` call): their steps are listed, marked ``nested``, and left out of the
totals, whose time the enclosing tool call already holds.
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from collections.abc import Sequence

from ._frozen import value
from .blocks import ToolResultBlock
from .message import Message

MODEL = "model"
TOOL = "tool"


@value
class Step:
    """One model call (``kind`` "model") or tool call ("tool")."""

    kind: str
    index: int
    """The message to show: the response of a model call, the message making a tool call."""
    start: float
    end: float
    name: str | None
    """The model's name, or the tool's."""
    nested: bool = False
    """Inside another step (a subagent's): not in the totals."""

    @property
    def seconds(self) -> float:
        return self.end - self.start


@value
class TurnTime:
    """One turn: from a user's prompt to the last message before the next prompt."""

    index: int
    """The turn's first message."""
    start: float
    end: float
    model_s: float
    tool_s: float
    gap_before_s: float
    """Time since the previous turn ended (0 for the first)."""
    steps: tuple[Step, ...]


@value
class Timing:
    """The time figures of a history that has timestamps."""

    start: float
    end: float
    model_s: float
    tool_s: float
    gap_s: float
    """Time between turns (the user away)."""
    turns: tuple[TurnTime, ...]
    steps: tuple[Step, ...]
    times: tuple[float | None, ...]
    """Each message's time, by index."""

    @property
    def wall_s(self) -> float:
        return self.end - self.start

    def slowest(self, n: int = 5, kind: str | None = TOOL) -> list[Step]:
        """The ``n`` longest steps (of ``kind``, or any), longest first; ties in order."""
        steps = [s for s in self.steps if kind is None or s.kind == kind]
        return sorted(steps, key=lambda s: -s.seconds)[:n]


def _result_ids(message: Message) -> list[str]:
    """The call ids a message answers: a tool message's, or its tool_result blocks'."""
    if message.role == "tool":
        return [message.tool_call_id] if message.tool_call_id else []
    if message.role == "user" and not isinstance(message.content, str):
        return [
            b.tool_call_id for b in message.content if type(b) is ToolResultBlock and b.tool_call_id
        ]
    return []


def _is_prompt(message: Message) -> bool:
    """A user's own message (not one carrying tool results)."""
    return message.role == "user" and not _result_ids(message)


def _union(spans: list[tuple[float, float]]) -> float:
    """The length of the union of intervals (parallel tool calls overlap)."""
    total = 0.0
    reach = float("-inf")
    for start, end in sorted(spans):
        if end <= reach:
            continue
        total += end - max(start, reach)
        reach = end
    return total


def timing(
    messages: Sequence[Message],
    times: Sequence[float | None],
    lanes: Sequence[str | None] | None = None,
) -> Timing | None:
    """The time figures of ``messages`` (see the module), or None if fewer than one message
    has a time."""
    known = [t for t in times if t is not None]
    if not known:
        return None
    lane_of = lanes if lanes is not None else [None] * len(messages)
    last: dict[str | None, float] = {}  # each lane's latest time so far
    calls: dict[str, tuple[int, float, str]] = {}  # call id -> (message, time, tool)
    steps: list[Step] = []
    turn_starts: list[int] = []
    answered = False  # the turn so far has had a response: a prompt starts the next one
    for index, message in enumerate(messages):
        lane = lane_of[index] if index < len(lane_of) else None
        nested = lane is not None
        if not nested and _is_prompt(message) and answered:
            turn_starts.append(index)
            answered = False
        t = times[index] if index < len(times) else None
        if t is None:
            continue
        before = last.get(lane)
        if message.role == "assistant":
            answered = answered or not nested
            if before is not None and t >= before:
                steps.append(Step(MODEL, index, before, t, message.model, nested))
            for call in message.tool_calls:
                calls[call.id] = (index, t, call.name)
        for call_id in _result_ids(message):
            made = calls.pop(call_id, None)
            if made is not None and t >= made[1]:
                steps.append(Step(TOOL, made[0], made[1], t, made[2], nested))
        last[lane] = t
    if not turn_starts or turn_starts[0] != 0:
        turn_starts.insert(0, 0)  # what comes before the first answered prompt is turn one
    return _totals(messages, times, lane_of, steps, turn_starts, min(known), max(known))


def _totals(
    messages: Sequence[Message],
    times: Sequence[float | None],
    lanes: Sequence[str | None],
    steps: list[Step],
    turn_starts: list[int],
    start: float,
    end: float,
) -> Timing:
    turns: list[TurnTime] = []
    previous_end: float | None = None
    gap_total = 0.0
    bounds = [*turn_starts, len(messages)]
    by_index = sorted(steps, key=lambda s: s.index)  # stable: a message's steps stay in order
    keys = [s.index for s in by_index]
    for first, after in itertools.pairwise(bounds):
        span = [
            times[i]
            for i in range(first, after)
            if i < len(times) and times[i] is not None and (i >= len(lanes) or lanes[i] is None)
        ]
        if not span:
            continue
        own = by_index[bisect_left(keys, first) : bisect_left(keys, after)]
        t0, t1 = min(span), max(span)  # type: ignore[type-var]
        gap = max(t0 - previous_end, 0.0) if previous_end is not None else 0.0
        gap_total += gap
        main = [s for s in own if not s.nested]
        turns.append(
            TurnTime(
                first,
                t0,
                t1,
                _union([(s.start, s.end) for s in main if s.kind == MODEL]),
                _union([(s.start, s.end) for s in main if s.kind == TOOL]),
                gap,
                tuple(own),
            )
        )
        previous_end = t1 if previous_end is None else max(previous_end, t1)
    main = [s for s in steps if not s.nested]
    return Timing(
        start,
        end,
        _union([(s.start, s.end) for s in main if s.kind == MODEL]),
        _union([(s.start, s.end) for s in main if s.kind == TOOL]),
        gap_total,
        tuple(turns),
        tuple(steps),
        tuple(times),
    )


def format_seconds(seconds: float) -> str:
    """A duration for people: ``0.25 s``, ``42.1 s``, ``4m 05s``, ``2h 03m``."""
    if seconds < 10:
        return f"{seconds:.2f} s"
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes}m {secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h {minutes:02d}m"


__all__ = ["MODEL", "TOOL", "Step", "Timing", "TurnTime", "format_seconds", "timing"]
