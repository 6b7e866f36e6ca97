"""The rows of the timeline view, headless: one per turn, a row for each gap between turns,
then the slowest steps; and the cost figures the header and the usage view show.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from ...core.cost import format_usd
from ...core.timing import MODEL, Timing, format_seconds

TURN, GAP, HEADING, STEP = "turn", "gap", "heading", "step"
SLOWEST = 10


@dataclass(frozen=True)
class TimelineRow:
    """A row of the timeline: ``kind`` TURN, GAP, HEADING or STEP; ``index`` the message enter
    goes to (None: nowhere)."""

    kind: str
    index: int | None
    label: str
    model_s: float = 0.0
    tool_s: float = 0.0
    seconds: float = 0.0
    """A step's length (its time is also in ``model_s`` or ``tool_s``, by kind)."""


def clock(seconds: float) -> str:
    """The time of day (UTC) of a moment, to the second."""
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%H:%M:%S")


def timeline_rows(timing: Timing, slowest: int = SLOWEST) -> list[TimelineRow]:
    """Turns with the gaps between them, then the ``slowest`` longest steps."""
    rows: list[TimelineRow] = []
    for n, turn in enumerate(timing.turns, 1):
        if turn.gap_before_s > 0:
            rows.append(TimelineRow(GAP, None, f"gap {format_seconds(turn.gap_before_s)}"))
        label = f"#{turn.index:<4} turn {n}  {clock(turn.start)}"
        rows.append(TimelineRow(TURN, turn.index, label, turn.model_s, turn.tool_s))
    steps = timing.slowest(slowest, kind=None)
    if steps:
        rows.append(TimelineRow(HEADING, None, "slowest steps"))
    for step in steps:
        what = "model" if step.kind == MODEL else "tool "
        nested = "subagent " if step.nested else ""
        label = f"#{step.index:<4} {what} {nested}{step.name or '?'}"
        model_s, tool_s = (step.seconds, 0.0) if step.kind == MODEL else (0.0, step.seconds)
        rows.append(TimelineRow(STEP, step.index, label, model_s, tool_s, step.seconds))
    return rows


def time_summary(timing: Timing) -> str:
    """``wall 28.6 s · model 16.9 s · tool 5.77 s · gaps 0 s``."""
    return (
        f"wall {format_seconds(timing.wall_s)} · model {format_seconds(timing.model_s)} · "
        f"tool {format_seconds(timing.tool_s)} · gaps {format_seconds(timing.gap_s)}"
    )


def session_cost(convs: list[Any]) -> tuple[float | None, list[str]]:
    """The cost of every conversation analysed, and the models without a price."""
    total: float | None = None
    unpriced: dict[str, None] = {}
    for conv in convs:
        cost = conv.cost
        if cost is None:
            continue
        if cost.total_usd is not None:
            total = (total or 0.0) + cost.total_usd
        unpriced.update(dict.fromkeys(cost.unpriced))
    return total, list(unpriced)


def cost_label(convs: list[Any]) -> str:
    """What the header says of the cost: ``$0.047``, ``$0.047 + unpriced``, ``unpriced``, or
    nothing when no message has usage."""
    total, unpriced = session_cost(convs)
    if total is None:
        return "unpriced" if unpriced else ""
    return format_usd(total) + (" + unpriced" if unpriced else "")


__all__ = [
    "GAP",
    "HEADING",
    "STEP",
    "TURN",
    "TimelineRow",
    "cost_label",
    "session_cost",
    "time_summary",
    "timeline_rows",
]
