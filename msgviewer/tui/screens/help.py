"""``HelpScreen``: every key of the app, generated from the bindings themselves."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..keys import KeyGroup
from .once import DismissOnce

ABOUT = (
    "msgviewer shows LLM conversations: the tree on the left (conversations, messages, content "
    "blocks), the selected node in full on the right. Tool calls show whether they were "
    "answered; t jumps between a call and its result. A token count with ~ (~84) is an "
    "estimate (about 4 characters a token): the file reports no usage for that message. Every "
    "action is also in the command palette (ctrl+p)."
)


class HelpScreen(DismissOnce, ModalScreen[None]):
    """The list of keys; any of escape, q, ? or F1 closes it."""

    BINDINGS = [
        Binding("escape,q,question_mark,f1", "close", "Close"),
        Binding("j", "scroll_by(1)", "Scroll down", show=False),
        Binding("k", "scroll_by(-1)", "Scroll up", show=False),
        Binding("g", "scroll_to_end(0)", "Top", show=False),
        Binding("G", "scroll_to_end(1)", "Bottom", show=False),
        Binding("space", "page(1)", "Page down", show=False),
        Binding("b", "page(-1)", "Page up", show=False),
    ]
    """Close the help screen; scroll it as a pager does."""

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
        & > VerticalScroll {
            width: 84; height: 90%; padding: 0 2;
            border: round $primary; background: $surface;
            border-title-style: bold;
        }
        .about { color: $text-muted; margin: 1 0; }
    }
    """

    def __init__(self, groups: Sequence[KeyGroup]) -> None:
        """Show ``groups`` (the app's ``keys.key_groups()``), one table each."""
        super().__init__()
        self.groups = tuple(groups)

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = "Keys"
            scroll.border_subtitle = "escape closes"
            yield Static(ABOUT, classes="about", markup=False)
            for group in self.groups:
                yield Static(self._table(group.title, group.bindings))

    def _table(self, title: str, bindings: tuple[Binding, ...]) -> Table:
        table = Table(
            title=Text(title, style="bold"),
            title_justify="left",
            box=None,
            show_header=False,
            padding=(0, 2),
            expand=False,
        )
        table.add_column("keys", style="bold", width=24, no_wrap=True)
        table.add_column("action")
        for binding in bindings:
            if not binding.description:
                continue
            keys = " ".join(
                self.app.get_key_display(Binding(k, "")) for k in binding.key.split(",")
            )
            table.add_row(keys, binding.tooltip or binding.description)
        return table

    @property
    def _scroll(self) -> VerticalScroll:
        return self.query_one(VerticalScroll)

    def action_scroll_by(self, lines: int) -> None:
        self._scroll.scroll_relative(y=lines, animate=False)

    def action_page(self, direction: int) -> None:
        height = max(1, self._scroll.scrollable_content_region.height - 1)
        self._scroll.scroll_relative(y=direction * height, animate=False)

    def action_scroll_to_end(self, bottom: int) -> None:
        if bottom:
            self._scroll.scroll_end(animate=False)
        else:
            self._scroll.scroll_home(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
