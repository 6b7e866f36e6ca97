"""The cost and time sections of ``msgviewer stats``: figures for ``--json`` and the table."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from ..core.cost import format_usd
from ..core.prices import PriceOverride
from ..core.safetext import visible
from ..core.timing import format_seconds
from ..formats import Conversation
from ..formats.prices import conversation_cost
from ..formats.timestamps import conversation_timing

SLOWEST = 5


def cost_figures(
    conversations: list[Conversation], prices: dict[str, PriceOverride] | None
) -> dict[str, Any]:
    """``{"total_usd": float | None, "by_model": {MODEL: float}, "unpriced": [MODEL...]}``."""
    total: float | None = None
    by_model: dict[str, float] = {}
    unpriced: dict[str, None] = {}
    for conv in conversations:
        costs = conversation_cost(conv, prices)
        if costs.total_usd is not None:
            total = (total or 0.0) + costs.total_usd
        for model, dollars in costs.by_model.items():
            by_model[model] = by_model.get(model, 0.0) + dollars
        unpriced.update(dict.fromkeys(costs.unpriced))
    return {
        "total_usd": total,
        "by_model": dict(sorted(by_model.items())),
        "unpriced": sorted(unpriced),
    }


def _iso(seconds: float) -> str:
    moment = datetime.fromtimestamp(seconds, timezone.utc)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def time_figures(conversations: list[Conversation]) -> dict[str, Any] | None:
    """``{"start", "end", "wall_s", "model_s", "tool_s", "slowest": [{"message", "tool",
    "s"}]}``, or None when no conversation has timestamps. With several conversations (the
    samples of an eval) the wall time spans them all and the others add up; ``message`` is an
    index within its conversation."""
    timings = [t for t in map(conversation_timing, conversations) if t is not None]
    if not timings:
        return None
    start = min(t.start for t in timings)
    end = max(t.end for t in timings)
    slowest = sorted(
        (step for t in timings for step in t.slowest(SLOWEST)), key=lambda s: -s.seconds
    )[:SLOWEST]
    return {
        "start": _iso(start),
        "end": _iso(end),
        "wall_s": round(end - start, 3),
        "model_s": round(sum(t.model_s for t in timings), 3),
        "tool_s": round(sum(t.tool_s for t in timings), 3),
        "slowest": [
            {"message": s.index, "tool": s.name, "s": round(s.seconds, 3)} for s in slowest
        ],
    }


def cost_lines(cost: dict[str, Any]) -> list[str]:
    """The table's cost section: a line per model, the total, the unpriced models."""
    if cost["total_usd"] is None and not cost["unpriced"]:
        return []
    rows = {visible(m): format_usd(d) for m, d in cost["by_model"].items()}
    rows["total"] = format_usd(cost["total_usd"])
    rows.update({visible(m): "unpriced" for m in cost["unpriced"]})
    width = max(len(k) for k in rows)
    lines = ["\ncost (US dollars)"]
    lines.extend(f"  {k.ljust(width)}  {v:>10}" for k, v in rows.items())
    return lines


def time_lines(time: dict[str, Any] | None) -> list[str]:
    """The table's time section: wall, model and tool time, the slowest tool calls."""
    if time is None:
        return []
    lines = [f"\ntime ({time['start']} to {time['end']})"]
    for label, key in (("wall", "wall_s"), ("model", "model_s"), ("tool", "tool_s")):
        lines.append(f"  {label:<5}  {format_seconds(time[key]):>10}")
    if time["slowest"]:
        lines.append("  slowest tool calls")
        width = max(len(visible(str(s["tool"]))) for s in time["slowest"])
        lines.extend(
            f"    {visible(str(s['tool'])).ljust(width)}  {format_seconds(s['s']):>10}"
            f"  message {s['message']}"
            for s in time["slowest"]
        )
    return lines
