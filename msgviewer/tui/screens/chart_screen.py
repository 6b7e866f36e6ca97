"""``ChartScreen``: a full screen of figures over a ``CursorChart``, one conversation's.

The usage and timeline screens share it: a header, the subclass's ``body`` (captions, the
chart and an empty ``#legend`` filled with the chart's own), a footer. The chart has the focus;
enter on a row returns ``(conv, message index)`` to the tree, escape returns None. Built again
by ``refresh_totals`` when the analysis arrives after the screen opened.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from ..model.session import Session
from ..widgets.bar_chart import CursorChart
from .once import DismissOnce


class ChartScreen(DismissOnce, Screen[tuple[int, int] | None]):
    """Subclasses set ``SUB_TITLE`` and ``BODY_ID``, bind ``close`` and write ``body``."""

    SUB_TITLE = ""
    BODY_ID = "chart-body"

    def __init__(self, session: Session, conv: int = 0) -> None:
        super().__init__()
        self.session = session
        self.conv = conv

    def body(self) -> ComposeResult:
        """What goes between the header and the footer."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="◆")
        with Vertical(id=self.BODY_ID):
            yield from self.body()
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = self.SUB_TITLE
        self._focus_chart()

    async def refresh_totals(self) -> None:
        """Build the view again: the analysis arrived after it opened."""
        await self.recompose()
        self._focus_chart()

    def _focus_chart(self) -> None:
        chart = self.query(CursorChart)
        if chart:
            chart.first().focus()
            self.query_one("#legend", Static).update(chart.first().legend())

    @on(CursorChart.Chosen)
    def _chosen(self, event: CursorChart.Chosen) -> None:
        self.dismiss((self.conv, event.index))

    def action_close(self) -> None:
        self.dismiss(None)
