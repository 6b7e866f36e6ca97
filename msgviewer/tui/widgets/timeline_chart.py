"""``TimelineChart``: where the time of a run went, one row per turn, gaps and slowest steps.

A turn's bar is split into model time and tool time, on one scale for every turn; a gap
between turns (the user away) is a row of its own, drawn as a gap, never as model time. The
slowest steps follow, each with its own bar. Enter goes to the row's message.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ...core.timing import format_seconds
from ..model.safe import one_line
from ..model.timeline import GAP, HEADING, STEP, TURN, TimelineRow
from .bar_chart import CursorChart

LABEL_WIDTH = 34
NUMBERS_WIDTH = 31


class TimelineChart(CursorChart):
    """Turns, gaps and the slowest steps; enter goes to the row's message."""

    PREFIX = "timeline"

    COMPONENT_CLASSES = {
        "timeline--model",
        "timeline--tool",
        "timeline--gap",
        "timeline--label",
        "timeline--heading",
        "timeline--cursor",
    }

    DEFAULT_CSS = """
    TimelineChart {
        & > .timeline--model { color: $primary; }
        & > .timeline--tool { color: $warning; }
        & > .timeline--gap { color: $text-muted; text-style: italic; }
        & > .timeline--label { color: $text-muted; }
        & > .timeline--heading { color: $foreground; text-style: bold; }
        & > .timeline--cursor { background: $primary-muted; }
    }
    """

    def __init__(self, rows: Sequence[TimelineRow], *, id: str | None = None) -> None:
        super().__init__(rows, id=id)
        self.scale_max = max(
            [r.model_s + r.tool_s for r in self.rows if r.kind == TURN]
            + [r.seconds for r in self.rows if r.kind == STEP]
            + [1e-9]
        )

    def row_text(self, index: int, width: int) -> Text:
        row = self.rows[index]
        text = Text(no_wrap=True, end="")
        bar_width = max(4, width - LABEL_WIDTH - NUMBERS_WIDTH)
        scale = bar_width / self.scale_max
        if row.kind == GAP:
            text.append(f"  ┆ {row.label}", self._style("gap"))
        elif row.kind == HEADING:
            text.append(row.label, self._style("heading"))
        else:
            label = one_line(row.label, LABEL_WIDTH - 3)  # (an ellipsis adds two cells)
            text.append(f"{label:<{LABEL_WIDTH}}", self._style("label"))
            model = max(1 if row.model_s else 0, round(row.model_s * scale))
            tool = max(1 if row.tool_s else 0, round(row.tool_s * scale))
            if row.kind == TURN:
                model_s, tool_s = format_seconds(row.model_s), format_seconds(row.tool_s)
                numbers = f"model {model_s:>8}  tool {tool_s:>8}"
            else:
                numbers = f"{format_seconds(row.seconds):>29}"
            text.append("█" * model, self._style("model"))
            text.append("█" * tool, self._style("tool"))
            text.append(" " * max(0, bar_width - model - tool))
            text.append(f" {numbers}", self._style("label"))
        return text

    def legend(self) -> Text:
        """What the bar colours mean, in the chart's own (theme) colours."""
        text = Text()
        text.append("█ model", self._style("model"))
        text.append("  ")
        text.append("█ tool", self._style("tool"))
        text.append("  ")
        text.append("┆ gap: nobody working (the user away)", self._style("gap"))
        return text
