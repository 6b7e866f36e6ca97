"""``CursorChart``: a scrolling chart of one-line rows with a cursor; enter goes to a message.

A ``ScrollView`` drawing only visible rows, so 50,000 rows scroll like ten. Subclasses say how
a row is drawn (``row_text``), their colours (``PREFIX`` and ``COMPONENT_CLASSES``, with a
``cursor`` one) and their ``legend``; each row has an ``index``, the message enter goes to
(None: nowhere).
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

from .styles import component_style


class CursorChart(ScrollView, can_focus=True):
    """Rows of bars under a cursor; enter posts ``Chosen`` with the row's message index."""

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

    DEFAULT_CSS = """
    CursorChart {
        height: 1fr;
        background: $surface;
        overflow-x: hidden;
    }
    """

    PREFIX = "cursor-chart"
    """The component classes' prefix: ``PREFIX--cursor`` and the subclass's own."""

    class Chosen(Message):
        """Enter on a row: go to message ``index``."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, rows: Sequence[Any], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows = list(rows)
        self.cursor = 0

    def on_mount(self) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.rows))

    def on_resize(self) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.rows))

    def _style(self, name: str) -> Style:
        return component_style(self, f"{self.PREFIX}--{name}")

    def row_text(self, index: int, width: int) -> Text:
        """Row ``index`` drawn for ``width`` cells (cropped or padded to it afterwards)."""
        raise NotImplementedError

    def legend(self) -> Text:
        """What the bar colours mean, in the chart's own (theme) colours."""
        raise NotImplementedError

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        index = round(self.scroll_y) + y
        if index >= len(self.rows):
            return Strip.blank(width, self.rich_style)
        text = self.row_text(index, width)
        strip = Strip(list(text.render(self.app.console))).crop_extend(0, width, self.rich_style)
        if index == self.cursor:
            strip = strip.apply_style(self.rich_style + self._style("cursor"))
        return strip

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
