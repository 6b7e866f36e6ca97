"""``TimelineScreen``: where the time of a run went (see ``widgets.timeline_chart``).

The figures come from the core's ``timing`` over each message's time as its format keeps it;
a file without timestamps says so.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from ..model.session import Session
from ..model.timeline import time_summary, timeline_rows
from ..widgets.timeline_chart import TimelineChart
from .once import DismissOnce


class TimelineScreen(DismissOnce, Screen[tuple[int, int] | None]):
    """Turns as model and tool time; enter on a turn or a step returns to the tree there."""

    BINDINGS = [
        Binding("escape,m,q", "close", "Back"),
    ]
    """Escape (or m) goes back to the conversation."""

    DEFAULT_CSS = """
    TimelineScreen {
        #timeline-body { padding: 0 1; height: 1fr; }
        .caption { color: $text-muted; height: auto; }
        #time-summary { margin: 1 0; height: auto; }
        #timeline { height: 1fr; border-top: solid $panel; }
    }
    """

    def __init__(self, session: Session, conv: int = 0) -> None:
        super().__init__()
        self.session = session
        self.conv = conv

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="◆")
        timing = self.session.convs[self.conv].timing if self.session.convs else None
        with Vertical(id="timeline-body"):
            if not self.session.analysed:
                yield Static("The times are still being worked out…", classes="caption")
            elif timing is None:
                yield Static("No timeline: this file keeps no timestamps.", classes="caption")
            else:
                summary = Text()
                summary.append("Time: ", style="bold")
                summary.append(time_summary(timing))
                yield Static(summary, id="time-summary")
                yield TimelineChart(timeline_rows(timing), id="timeline")
                yield Static(id="legend", classes="caption")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "timeline"
        self._focus_chart()

    async def refresh_totals(self) -> None:
        """Build the view again: the analysis arrived after it opened."""
        await self.recompose()
        self._focus_chart()

    def _focus_chart(self) -> None:
        chart = self.query(TimelineChart)
        if chart:
            chart.first().focus()
            self.query_one("#legend", Static).update(chart.first().legend())

    @on(TimelineChart.Chosen)
    def _chosen(self, event: TimelineChart.Chosen) -> None:
        self.dismiss((self.conv, event.index))

    def action_close(self) -> None:
        self.dismiss(None)
