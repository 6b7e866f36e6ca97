"""``TimelineScreen``: where the time of a run went (see ``widgets.timeline_chart``).

The figures come from the core's ``timing`` over each message's time as its format keeps it;
a file without timestamps says so.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from ..model.timeline import time_summary, timeline_rows
from ..widgets.timeline_chart import TimelineChart
from .chart_screen import ChartScreen


class TimelineScreen(ChartScreen):
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

    SUB_TITLE = "timeline"
    BODY_ID = "timeline-body"

    def body(self) -> ComposeResult:
        timing = self.session.convs[self.conv].timing if self.session.convs else None
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
