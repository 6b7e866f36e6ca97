"""``TurnChart``: tokens per assistant turn with the running context size, one row per turn.

Each bar is the context the model saw (prompt tokens); its newest part, what this turn added
since the last, is drawn brighter, and the output follows in its own colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from ...core.cost import format_usd
from ..model import fmt
from ..model.safe import one_line
from .bar_chart import CursorChart

LABEL_WIDTH = 30
NUMBERS_WIDTH = 32
COST_WIDTH = 10


class TurnChart(CursorChart):
    """One bar per turn; enter goes to that turn's message."""

    PREFIX = "turn-chart"

    COMPONENT_CLASSES = {
        "turn-chart--context",
        "turn-chart--growth",
        "turn-chart--output",
        "turn-chart--label",
        "turn-chart--approx",
        "turn-chart--cursor",
    }

    DEFAULT_CSS = """
    TurnChart {
        & > .turn-chart--context { color: $primary; }
        & > .turn-chart--growth { color: $warning; }
        & > .turn-chart--output { color: $success; }
        & > .turn-chart--label { color: $text-muted; }
        & > .turn-chart--approx { color: $text-muted; text-style: italic; }
        & > .turn-chart--cursor { background: $primary-muted; }
    }
    """

    def __init__(self, turns: Sequence[Any], *, id: str | None = None, costs: Any = None) -> None:
        """``turns``: the ``TurnUsage`` rows; ``costs``: the ``CostTotals`` of the same
        messages, for a cost per turn."""
        super().__init__(turns, id=id)
        self.costs = costs if costs is not None and costs.per_message else None
        self.numbers_width = NUMBERS_WIDTH + (COST_WIDTH if self.costs is not None else 0)
        top = 1
        for t in self.rows:
            top = max(top, t.context_tokens + t.usage.output_tokens)
        self.scale_max = top

    def row_text(self, index: int, width: int) -> Text:
        turn = self.rows[index]
        prev = self.rows[index - 1].context_tokens if index else 0
        text = Text(no_wrap=True, end="")
        label = f"#{turn.index:<6}{one_line(turn.model or '?', LABEL_WIDTH - 8)}"
        text.append(f"{label:<{LABEL_WIDTH}}", self._style("label"))
        bar_width = max(4, width - LABEL_WIDTH - self.numbers_width)
        scale = bar_width / self.scale_max
        ctx = turn.context_tokens
        out = turn.usage.output_tokens
        grown = max(0, ctx - prev)
        old_cells = round((ctx - grown) * scale)
        new_cells = max(1 if grown else 0, round(ctx * scale) - old_cells)
        out_cells = max(1 if out else 0, round(out * scale))
        text.append("█" * old_cells, self._style("context"))
        text.append("█" * new_cells, self._style("growth"))
        text.append("█" * out_cells, self._style("output"))
        text.append(" " * max(0, bar_width - old_cells - new_cells - out_cells))
        mark = "≈" if turn.approximate else " "
        numbers = f"{mark}ctx {fmt.tokens(ctx):>6} +{fmt.tokens(grown):<6} out {fmt.tokens(out):>5}"
        if self.costs is not None:
            dollars = self.costs.of(turn.index)
            numbers += f" {format_usd(dollars) if dollars is not None else '':>{COST_WIDTH - 1}}"
        text.append(f" {numbers}", self._style("approx" if turn.approximate else "label"))
        return text

    def legend(self) -> Text:
        """What the bar colours mean, in the chart's own (theme) colours."""
        text = Text()
        text.append("█ context", self._style("context"))
        text.append("  ")
        text.append("█ added this turn", self._style("growth"))
        text.append("  ")
        text.append("█ output", self._style("output"))
        return text
