"""``StatusLine``: one line under the panes: where you are, and what is on (search, filter)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class StatusLine(Static):
    """Position and state on the left, search/filter/follow state on the right."""

    DEFAULT_CSS = """
    StatusLine {
        height: 1;
        background: $panel;
        color: $text-muted;
        padding: 0 1;
    }
    """

    def show(self, left: Text, right: Text) -> None:
        """Show ``left`` and ``right``, right-aligned pieces kept whole."""
        width = max(0, self.size.width - 2)
        line = left.copy()
        room = max(0, width - right.cell_len - 1)
        if line.cell_len > room:
            line.truncate(max(0, room - 1))
            line.append("…")
        line.pad_right(max(0, width - line.cell_len - right.cell_len))
        line.append_text(right)
        self.update(line, layout=False)  # one line high whatever it says: no layout
