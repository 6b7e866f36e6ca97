"""``TurnChart``: tokens per assistant turn with the running context size, one row per turn.

A ``ScrollView`` drawing only visible rows, so a run of 50,000 turns scrolls like one of ten.
Each bar is the context the model saw (prompt tokens); its newest part, what this turn added
since the last, is drawn brighter, and the output follows in its own colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...core.cost import format_usd
from ..model import fmt
from ..model.safe import one_line
from .styles import component_style

LABEL_WIDTH = 30
NUMBERS_WIDTH = 32
COST_WIDTH = 10


class TurnChart(ScrollView, can_focus=True):
    """One bar per turn; enter goes to that turn's message."""

    BINDINGS: list[BindingType] = [
        Binding("up,k", "move(-1)", "Up", show=False),
        Binding("down,j", "move(1)", "Down", show=False),
        Binding("home,g", "move(-1000000000)", "First", show=False),
        Binding("end,G", "move(1000000000)", "Last", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("enter", "choose", "Go to message"),
    ]
    """Arrows or j/k move between turns; enter opens the turn's message in the tree."""

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
        height: 1fr;
        background: $surface;
        overflow-x: hidden;
        & > .turn-chart--context { color: $primary; }
        & > .turn-chart--growth { color: $warning; }
        & > .turn-chart--output { color: $success; }
        & > .turn-chart--label { color: $text-muted; }
        & > .turn-chart--approx { color: $text-muted; text-style: italic; }
        & > .turn-chart--cursor { background: $primary-muted; }
    }
    """

    class Chosen(Message):
        """Enter on a turn: go to message ``index``."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, turns: Sequence[Any], *, id: str | None = None, costs: Any = None) -> None:
        """``costs``: the ``CostTotals`` of the same messages, for a cost per turn."""
        super().__init__(id=id)
        self.turns = list(turns)
        self.costs = costs if costs is not None and costs.per_message else None
        self.numbers_width = NUMBERS_WIDTH + (COST_WIDTH if self.costs is not None else 0)
        self.cursor = 0
        top = 1
        for t in self.turns:
            top = max(top, t.context_tokens + t.usage.output_tokens)
        self.scale_max = top

    def on_mount(self) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.turns))

    def on_resize(self) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.turns))

    def _style(self, name: str) -> Style:
        return component_style(self, f"turn-chart--{name}")

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        index = round(self.scroll_y) + y
        if index >= len(self.turns):
            return Strip.blank(width, self.rich_style)
        turn = self.turns[index]
        prev = self.turns[index - 1].context_tokens if index else 0
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
        strip = Strip(list(text.render(self.app.console))).crop_extend(0, width, self.rich_style)
        if index == self.cursor:
            strip = strip.apply_style(self.rich_style + self._style("cursor"))
        return strip

    def legend(self) -> Text:
        """What the bar colours mean, in the chart's own (theme) colours."""
        text = Text()
        text.append("█ context", self._style("context"))
        text.append("  ")
        text.append("█ added this turn", self._style("growth"))
        text.append("  ")
        text.append("█ output", self._style("output"))
        return text

    def action_move(self, step: int) -> None:
        if not self.turns:
            return
        old = self.cursor
        self.cursor = max(0, min(len(self.turns) - 1, self.cursor + step))
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
        if self.turns:
            self.post_message(self.Chosen(self.turns[self.cursor].index))
