"""``DiffScreen``: two conversations side by side, aligned, unchanged runs folded.

``n``/``N`` jump between changes; the pane below shows the highlighted change in detail (words
removed and added, JSON paths, usage deltas); ``enter`` opens a fold, or on a message closes
the screen with that message's indices (a, b) for the caller to show it in the normal view.
The rows and what they say come from the headless ``DiffView``; file text reaches the screen
only as rich ``Text`` (never markup).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

from ...core.diff import HistoryDiff
from ...core.message import Message
from ...core.safetext import one_line
from ..model.diff_view import DiffView
from .once import DismissOnce

STYLES = {
    "removed": "red",
    "added": "green",
    "changed": "yellow",
    "path": "cyan",
    "dim": "dim",
    "same": "",
}
_MARK_STYLES = {"~": "bold yellow", "+": "bold green", "-": "bold red", " ": ""}

Target = tuple[int | None, int | None]
"""The indices (in a, in b) of the message to open."""


class DiffScreen(DismissOnce, Screen[Target | None]):
    """How two conversations differ, side by side."""

    BINDINGS = [
        Binding("n", "next_change", "Next change"),
        Binding("N", "previous_change", "Previous change"),
        Binding("escape,q", "close", "Close"),
    ]
    """n and N move between changes, enter opens (a fold, or the message), escape closes."""

    DEFAULT_CSS = """
    DiffScreen {
        #diff-title { height: 1; padding: 0 1; background: $panel; }
        #diff-rows { height: 1fr; border: none; }
        #diff-detail { height: 12; border-top: solid $primary; padding: 0 1; overflow-y: auto; }
    }
    """

    def __init__(
        self,
        result: HistoryDiff,
        a: Sequence[Message],
        b: Sequence[Message],
        names: tuple[str, str] = ("a", "b"),
    ) -> None:
        super().__init__()
        self.view = DiffView(result, a, b)
        self.names = names

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="◆")
        yield Static(self._title(), id="diff-title")
        yield OptionList(*self._options(), id="diff-rows")
        yield Static(id="diff-detail")
        yield Footer()

    def on_mount(self) -> None:
        rows = self.query_one("#diff-rows", OptionList)
        rows.highlighted = self.view.first_change() if self.view.rows else None
        rows.focus()
        self._show_detail()

    @property
    def rows(self) -> OptionList:
        return self.query_one("#diff-rows", OptionList)

    def _title(self) -> Text:
        a, b = (one_line(n, 50) for n in self.names)
        stat = ", ".join(f"{op} {n}" for op, n in self.view.result.stat.items())
        title = Text()
        title.append("a ", style="bold red")
        title.append(a)
        title.append("   b ", style="bold green")
        title.append(b)
        title.append(f"   {stat}", style="dim")
        return title

    def _options(self) -> list[Option]:
        return [Option(self._row(k)) for k in range(len(self.view.rows))]

    def _row(self, k: int) -> Text:
        # one line of fixed columns: a mark, the message in a, the message in b
        mark, left, right = self.view.cells(k)
        half = max(10, (self.app.size.width - 8) // 2)
        row = Text(no_wrap=True, overflow="ellipsis")
        if self.view.rows[k].fold:
            row.append(f"  {left}", style="dim italic")
            return row
        row.append(mark, style=_MARK_STYLES[mark])
        row.append(" ")
        cell = Text(left)
        cell.truncate(half, overflow="ellipsis", pad=True)
        row.append_text(cell)
        row.append(" │ ", style="dim")
        cell = Text(right)
        cell.truncate(half, overflow="ellipsis")
        row.append_text(cell)
        return row

    def on_resize(self) -> None:
        rows = self.rows
        here = rows.highlighted
        rows.clear_options()
        rows.add_options(self._options())
        rows.highlighted = here

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_detail()

    def _show_detail(self) -> None:
        k = self.rows.highlighted
        text = Text()
        if k is not None:
            for style, chunk in self.view.detail(k):
                text.append(chunk, style=STYLES.get(style) or None)
        self.query_one("#diff-detail", Static).update(text)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        k = event.option_index
        if self.view.unfold(k):
            self.on_resize()  # the rows drawn again, the cursor where it was
            return
        target = self.view.target(k)
        if target is not None:
            self.dismiss(target)

    def action_next_change(self) -> None:
        self._jump(1)

    def action_previous_change(self) -> None:
        self._jump(-1)

    def _jump(self, step: int) -> None:
        here = self.rows.highlighted
        found = self.view.next_change(-1 if here is None else here, step)
        if found is None:
            self.notify("No more changes" if step > 0 else "No earlier change", timeout=2)
            return
        self.rows.highlighted = found

    def action_close(self) -> None:
        self.dismiss(None)
