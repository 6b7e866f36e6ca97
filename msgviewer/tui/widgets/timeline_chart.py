"""``TimelineChart``: where the time of a run went, one row per turn, gaps and slowest steps.

A turn's bar is split into model time and tool time, on one scale for every turn; a gap
between turns (the user away) is a row of its own, drawn as a gap, never as model time. The
slowest steps follow, each with its own bar. Enter goes to the row's message.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...core.timing import format_seconds
from ..model.safe import one_line
from ..model.timeline import GAP, HEADING, STEP, TURN, TimelineRow
from .styles import component_style

LABEL_WIDTH = 34
NUMBERS_WIDTH = 31


class TimelineChart(ScrollView, can_focus=True):
    """Turns, gaps and the slowest steps; enter goes to the row's message."""

    BINDINGS: list[BindingType] = [
        Binding("up,k", "move(-1)", "Up", show=False),
        Binding("down,j", "move(1)", "Down", show=False),
        Binding("home,g", "move(-1000000000)", "First", show=False),
        Binding("end,G", "move(1000000000)", "Last", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("enter", "choose", "Go to message"),
    ]
    """Arrows or j/k move between rows; enter opens the row's message in the tree."""

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
        height: 1fr;
        background: $surface;
        overflow-x: hidden;
        & > .timeline--model { color: $primary; }
        & > .timeline--tool { color: $warning; }
        & > .timeline--gap { color: $text-muted; text-style: italic; }
        & > .timeline--label { color: $text-muted; }
        & > .timeline--heading { color: $foreground; text-style: bold; }
        & > .timeline--cursor { background: $primary-muted; }
    }
    """

    class Chosen(Message):
        """Enter on a row: go to message ``index``."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, rows: Sequence[TimelineRow], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows = list(rows)
        self.cursor = 0
        self.scale_max = max(
            [r.model_s + r.tool_s for r in self.rows if r.kind == TURN]
            + [r.seconds for r in self.rows if r.kind == STEP]
            + [1e-9]
        )

    def on_mount(self) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.rows))

    def on_resize(self) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.rows))

    def _style(self, name: str) -> Style:
        return component_style(self, f"timeline--{name}")

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        index = round(self.scroll_y) + y
        if index >= len(self.rows):
            return Strip.blank(width, self.rich_style)
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
        strip = Strip(list(text.render(self.app.console))).crop_extend(0, width, self.rich_style)
        if index == self.cursor:
            strip = strip.apply_style(self.rich_style + self._style("cursor"))
        return strip

    def legend(self) -> Text:
        """What the bar colours mean, in the chart's own (theme) colours."""
        text = Text()
        text.append("█ model", self._style("model"))
        text.append("  ")
        text.append("█ tool", self._style("tool"))
        text.append("  ")
        text.append("┆ gap: nobody working (the user away)", self._style("gap"))
        return text

    def action_move(self, step: int) -> None:
        if not self.rows:
            return
        old = self.cursor
        self.cursor = max(0, min(len(self.rows) - 1, self.cursor + step))
        self.refresh_line(old)
        self.refresh_line(self.cursor)
        height = self.scrollable_content_region.height
        top = round(self.scroll_y)
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)

    def action_page(self, direction: int) -> None:
        self.action_move(direction * max(1, self.scrollable_content_region.height - 1))

    def action_choose(self) -> None:
        if self.rows and self.rows[self.cursor].index is not None:
            self.post_message(self.Chosen(self.rows[self.cursor].index))
