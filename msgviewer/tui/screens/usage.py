"""``UsageScreen``: token totals and cost, a breakdown by model, and a chart of every turn.

Counts come from the core's ``usage_totals``; turns without usage in the file are estimated
there and marked approximate (≈) here (and never priced). Dollars come from the core's
``cost_totals``: a model without a known price says "unpriced".
"""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Sparkline, Static

from ...core.cost import format_usd
from ...core.usage import Usage
from ..model import fmt
from ..model.safe import printable
from ..widgets.turn_chart import TurnChart
from .chart_screen import ChartScreen

TOKEN_LEGEND = Text(
    "~ before a count (in the tree): an estimate, about 4 characters a token, for a message "
    "the file reports no usage for",
    style="italic",
)
"""What ``~`` means, said where tokens are counted."""

_COLUMNS = ("input", "output", "cache read", "cache write", "reasoning", "total")


def _numbers(usage: Usage) -> list[str]:
    return [
        f"{n:,}"
        for n in (
            usage.input_tokens,
            usage.output_tokens,
            usage.cache_read_tokens,
            usage.cache_write_tokens,
            usage.reasoning_tokens,
            usage.total_tokens,
        )
    ]


def _dollars(cost: Any, model: str) -> str:
    if model in cost.unpriced:
        return "unpriced"
    return format_usd(cost.by_model[model]) if model in cost.by_model else ""


def totals_table(totals: Any, turns: int, approximate: int, cost: Any = None) -> Table:
    """The totals row, and by model, as one table; with ``cost`` (``CostTotals``), a cost
    column."""
    priced = cost is not None and (cost.total_usd is not None or bool(cost.unpriced))
    table = Table(box=None, padding=(0, 1), header_style="bold", expand=False)
    table.add_column("", style="bold", no_wrap=True)
    table.add_column("calls", justify="right", no_wrap=True)
    widest = len(_numbers(totals.total)[-1])  # no count is bigger than the grand total
    for name in _COLUMNS:
        table.add_column(name, justify="right", no_wrap=True, min_width=max(len(name), widest))
    if priced:
        table.add_column("cost", justify="right", no_wrap=True, min_width=9)
    for model, usage in sorted(totals.by_model.items(), key=lambda kv: -kv[1].total_tokens):
        calls = sum(1 for t in totals.per_turn if (t.model or "unknown") == model)
        dollars = [_dollars(cost, model or "unknown")] if priced else []
        table.add_row(
            Text(printable(model or "unknown")), str(calls or ""), *_numbers(usage), *dollars
        )
    label = Text("total")
    if approximate:
        label.append(" ≈", style="italic")
    total = [format_usd(cost.total_usd) if cost.total_usd is not None else ""] if priced else []
    table.add_row(
        label, str(turns), *_numbers(totals.total), *total, style="bold", end_section=True
    )
    return table


class UsageScreen(ChartScreen):
    """Where the tokens went; enter on a turn returns to the tree at that message."""

    BINDINGS = [
        Binding("escape,u,q", "close", "Back"),
    ]
    """Escape (or u) goes back to the conversation."""

    DEFAULT_CSS = """
    UsageScreen {
        #usage-body { padding: 0 1; height: 1fr; }
        #totals { height: auto; margin: 1 0; }
        .caption { color: $text-muted; height: auto; }
        #context-spark { height: 3; margin: 0 0 1 0; }
        #context-spark > .sparkline--max-color { color: $warning; }
        #context-spark > .sparkline--min-color { color: $primary 50%; }
        #turns { height: 1fr; border-top: solid $panel; }
    }
    """

    SUB_TITLE = "usage"
    BODY_ID = "usage-body"

    def body(self) -> ComposeResult:
        data = self.session.convs[self.conv]
        totals = data.totals
        if totals is None:
            note = (
                "Usage is still being worked out…"
                if not self.session.analysed
                else ("No usage totals: this version of the core has no usage_totals.")
            )
            yield Static(note, classes="caption")
            return
        turns = totals.per_turn
        approximate = sum(1 for t in turns if t.approximate)
        cost = data.cost
        yield Static(totals_table(totals, len(turns), approximate, cost), id="totals")
        caption = Text()
        caption.append("Context per turn", style="bold")
        caption.append(": the prompt tokens each call saw   ")
        if approximate:
            caption.append(
                f"≈ {fmt.plural(approximate, 'turn')} estimated: the file has no usage for them",
                style="italic",
            )
        yield Static(caption, classes="caption")
        yield Static(TOKEN_LEGEND, classes="caption")
        yield Sparkline([t.context_tokens for t in turns] or [0], id="context-spark")
        yield TurnChart(turns, id="turns", costs=cost)
        yield Static(id="legend", classes="caption")
