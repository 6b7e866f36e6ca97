"""``MainScreen``: the tree, the detail pane, search, filter, problems, and the file behind them.

The screen mediates: widgets post messages up, the screen tells the others what to show. It
lays out the panes, keeps the status line and the detail pane up to date with the tree's cursor,
and runs the view keys (filter, go to, usage, problems, raw and source, copy, save media).
Loading and following (``LoadingScreen``), search (``SearchingScreen``) and editing
(``EditingScreen``) are the screens it builds on.
"""

from __future__ import annotations

import time
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, Header

from ..model import fmt
from ..model.loader import Follower
from ..model.media import is_media
from ..model.rows import CONV, MSG, Filter, Row, describe_filter
from ..model.safe import printable
from ..model.search import Query, SearchIndex
from ..model.search_hits import Hits
from ..model.session import Session
from ..model.tree_model import TreeModel
from ..widgets.conversation_tree import ConversationTree
from ..widgets.detail import DetailPane
from ..widgets.problems_panel import ProblemsPanel
from ..widgets.search_bar import SearchBar
from ..widgets.status_line import StatusLine
from .actions import save_media
from .copying import CopyKeys
from .saving import SavingScreen
from .searching import SearchingScreen

DETAIL_BURST = 0.1
"""Seconds: a cursor move this soon after the one before is part of a burst (a held key)."""
DETAIL_SETTLE = 0.05
"""Seconds: in a burst, the detail pane waits for the cursor to rest this long."""


DETAIL_SHARE = 40
"""The detail pane's share of the width at start, in percent; < and > change it by a step."""
DETAIL_STEP = 10


class MainScreen(CopyKeys, SearchingScreen):
    """The app's one working screen."""

    BINDINGS: list[BindingType] = [
        Binding("slash", "search", "Search", id="search"),
        Binding("n", "search_next", "Next match", id="search-next", show=False),
        Binding("N", "search_previous", "Previous match", id="search-previous", show=False),
        Binding("f", "filter", "Filter", id="filter"),
        Binding(
            "o", "results_view", "Results under calls / file order", id="results-view", show=False
        ),
        Binding("colon", "goto", "Go to #", id="goto", show=False),
        Binding("u", "usage", "Usage", id="usage", show=False),
        Binding("m", "timeline", "Timeline", id="timeline", show=False),
        Binding("dollar_sign", "cost_column", "Cost column", id="cost-column", show=False),
        Binding("p", "problems", "Problems", id="problems", show=False),
        Binding("r", "raw", "Raw/Markdown", id="raw", show=False),
        Binding("s", "source", "Source", id="source", show=False),
        Binding("c", "copy_text", "Copy text", id="copy-text", show=False),
        Binding(
            "y",
            "copy_json",
            "Copy JSON",
            id="copy-json",
            show=False,
            tooltip="Copy JSON (y or yy); yp copies its JSON path in the file ($.messages[3]…)",
        ),
        Binding("w", "save_media", "Save media", id="save-media", show=False),
        Binding("v", "view_value", "View whole value", id="view-value", show=False),
        Binding("F", "follow", "Follow file", id="follow", show=False),
        Binding("escape", "clear", "Clear search", id="clear", show=False),
        Binding("greater_than_sign", "detail_width(1)", "Widen detail", id="widen", show=False),
        Binding("less_than_sign", "detail_width(-1)", "Narrow detail", id="narrow", show=False),
        Binding("z", "zoom_detail", "Zoom detail", id="zoom", show=False),
    ]
    """Screen keys: search and filter, panels and views, copy and save."""

    DEFAULT_CSS = """
    MainScreen {
        layout: vertical;
        #panes { height: 1fr; }
        #conversation { width: 60%; min-width: 20; border-right: tall $panel; }
        #detail { width: 40%; min-width: 20; }
        #search { dock: bottom; display: none; border: none; height: 1; padding: 0 1; }
        #search.-shown { display: block; }
        #problems { display: none; }
        #problems.-shown { display: block; }
        #load-error { padding: 1 2; color: $error; width: 1fr; height: 1fr; }
    }
    """

    def __init__(
        self,
        paths: list[str],
        *,
        format: str | None = None,
        follow: bool = False,
        session: Session | None = None,
        prices: dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self.prices = prices
        self.paths = paths
        self.format = format
        self.follow_on_load = follow
        self.session: Session | None = session
        self.model: TreeModel | None = None
        self.error: str | None = None
        self.search_index: SearchIndex | None = None
        self.query_text = ""
        self.search_query: Query | None = None
        self.query_error = ""
        self.hits = Hits()
        self.hit = -1
        self.follower: Follower | None = None
        self._follow_timer: Any = None
        self._pending_row: Row | None = None
        self._last_move = 0.0
        self._detail_timer: Any = None
        self._analysis_due = False
        self._progress = ""
        self.detail_share = DETAIL_SHARE
        """The detail pane's share of the width, in percent."""
        self.detail_zoomed = False

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="◆")
        with Horizontal(id="panes"):
            yield ConversationTree(id="conversation")
            yield DetailPane(id="detail")
        yield ProblemsPanel(id="problems")
        yield SearchBar(
            placeholder="search text, tool names, arguments, results…"
            "  ctrl+r: regex · a capital letter: match case",
            id="search",
        )
        yield StatusLine(id="status")
        # compact: the essential keys fit in 90 columns
        yield Footer(compact=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # After a failed load the panes are gone; with no conversation (an eval log that ran
        # no sample) there is nothing to show, edit or save: the screen's keys do nothing.
        if action in self._own_actions() and (
            self.error is not None or (self.session is not None and not self.session.convs)
        ):
            return False
        return super().check_action(action, parameters)

    @classmethod
    def _own_actions(cls) -> frozenset[str]:
        """The actions of the screen's own key bindings (the tree's and the app's apart)."""
        if "_own" not in cls.__dict__:
            bindings = [
                b if isinstance(b, Binding) else Binding(*b)
                for klass in cls.__mro__
                if issubclass(klass, SavingScreen)  # the chain of msgviewer's screens
                for b in klass.__dict__.get("BINDINGS", ())
            ]
            cls._own = frozenset(b.action.partition("(")[0] for b in bindings)
        return cls._own

    @property
    def tree(self) -> ConversationTree:
        return self.query_one(ConversationTree)

    @property
    def detail(self) -> DetailPane:
        return self.query_one(DetailPane)

    # -- status -------------------------------------------------------------------------------

    def update_status(self) -> None:
        left, right = Text(), Text()
        if self._progress:
            left.append(self._progress)
        elif self.error:
            left.append("load error", style="bold red")
        elif self.session is not None and self.model is not None:
            row = self.tree.current_row
            session = self.session
            left.append(session.format or "", style="bold")
            left.append(f" · {fmt.plural(session.message_count, 'message')}")
            if len(session.convs) > 1:
                left.append(f" in {len(session.convs)} conversations")
            if row is not None and row[0] != CONV:
                left.append(f" · #{row[2]}")
            if session.analysed:
                problems = len(session.load_warnings)
                problems += sum(len(c.problems or ()) for c in session.convs)
                if problems:
                    left.append(f" · {fmt.plural(problems, 'problem')} (p)", style="yellow")
            else:
                left.append(" · analysing…", style="italic")
            if self.placing_results:
                left.append(" · placing results under calls…", style="italic")
        if self.query_text:
            where = f"{self.hit + 1}/{len(self.hits)}" if self.hits and self.hit >= 0 else ""
            count = where or fmt.plural(len(self.hits), "match")
            if self.query_error:
                count = "bad pattern"
            right.append(f"/{printable(self.query_text)} {count}  ", style="bold")
        if self.model is not None and self.model.filter.active:
            right.append(f"filter: {describe_filter(self.model.filter)}  ", style="bold")
        if self.model is not None and self.model.has_nesting:
            right.append(
                "results under calls (o)  " if self.model.nested_view else "file order (o)  "
            )
        if self.detail_zoomed:
            right.append("zoom (z)  ")
        if self.detail.raw:
            right.append("raw  ")
        if self.detail.source:
            right.append("source  ")
        if self.follower is not None:
            right.append("● following", style="bold green")
        if self.session is not None and self.has_unsaved():
            right.append("● unsaved  ", style="bold yellow")
        self.query_one(StatusLine).show(left, right)

    # -- tree → detail ------------------------------------------------------------------------

    @property
    def detail_pending(self) -> bool:
        """Whether the detail pane has yet to show the row under the cursor."""
        return self._pending_row is not None

    @on(ConversationTree.CursorMoved)
    def _cursor_moved(self, event: ConversationTree.CursorMoved) -> None:
        # Laying out the detail pane costs several times what moving the cursor does. A
        # single move shows its row's detail once the tree has painted; a move that follows
        # the last one closely (a held key) leaves the pane until the cursor rests, so the
        # tree keeps up with the key and the pane shows where it stopped.
        now = time.monotonic()
        burst = now - self._last_move < DETAIL_BURST
        self._last_move = now
        first = self._pending_row is None
        self._pending_row = event.row or ("none",)  # type: ignore[assignment]
        if burst:
            if self._detail_timer is None:
                self._detail_timer = self.set_timer(DETAIL_SETTLE, self._detail_due)
        elif first:
            self.call_after_refresh(self._show_pending)
        self.update_status()

    def _detail_due(self) -> None:
        self._detail_timer = None
        still = time.monotonic() - self._last_move
        if still < DETAIL_SETTLE:  # moved again since the timer was set: wait on
            self._detail_timer = self.set_timer(DETAIL_SETTLE - still, self._detail_due)
            return
        self._show_pending()

    def _show_pending(self) -> None:
        row = self._pending_row
        self._pending_row = None
        if row is not None:  # the tree's row now: an edit may have changed the rows since
            self.detail.show(self.session, self.tree.current_row)
        if self._analysis_due:
            self._analysis_due = False
            self.call_after_refresh(self._analyse)

    # -- filter, go to, panels ----------------------------------------------------------------

    def action_filter(self) -> None:
        if self.model is None:
            return
        from .filter import FilterScreen

        self.app.push_screen(FilterScreen(self.model.filter), self.apply_filter)

    def apply_filter(self, flt: Filter | None) -> None:
        """Show only what ``flt`` lets through, keeping the cursor on its message if it can."""
        if flt is None or self.model is None:
            return
        model = self.model
        self.tree.keep_cursor_through(lambda: model.set_filter(flt))
        self.update_status()

    def action_results_view(self) -> None:
        """Show each tool result under its call, or every message in file order."""
        model = self.model
        if model is None:
            return
        nested = not model.nested_view
        self.tree.keep_place_through(lambda: model.set_nested_view(nested))
        if not model.has_nesting:
            linked = self.session is not None and self.session.analysed
            why = "no tool call here has a result" if linked else "still linking tool calls"
            self.notify(f"Results under calls: {why}", timeout=2)
        else:
            self.notify("Results under their calls" if nested else "File order", timeout=1.5)
        self.update_status()

    def action_goto(self) -> None:
        if self.model is None:
            return
        from .prompt import PromptScreen

        row = self.tree.current_row
        conv = row[1] if row else 0
        last = len(self.session.convs[conv].messages) - 1  # type: ignore[union-attr]
        prompt = PromptScreen(f"Go to message (0 to {last})", placeholder="number", numeric=True)
        self.app.push_screen(prompt, lambda value: self.go_to_message(conv, value))

    def go_to_message(self, conv: int, value: str | None) -> None:
        """Put the cursor on message number ``value`` of conversation ``conv``."""
        if not value or self.session is None:
            return
        try:
            number = int(value)
        except ValueError:
            self.notify(f"Not a message number: {printable(value)}", severity="warning")
            return
        count = len(self.session.convs[conv].messages)
        if number < 0:
            number += count
        if not 0 <= number < count:
            self.notify(f"No message {number}: there are {count}", severity="warning")
            return
        if not self.tree.go_to(MSG, conv, number):
            self.notify(f"Message {number} is hidden by the filter", severity="warning")

    def action_usage(self) -> None:
        if self.session is None:
            return
        from .usage import UsageScreen

        self.app.push_screen(UsageScreen(self.session), self._usage_jump)

    def _usage_jump(self, target: tuple[int, int] | None) -> None:
        if target is not None:
            self.tree.go_to(MSG, *target)

    def action_timeline(self) -> None:
        """Where the time went: turns as model and tool time, the gaps, the slowest steps."""
        if self.session is None:
            return
        from .timeline import TimelineScreen

        self.app.push_screen(TimelineScreen(self.session), self._usage_jump)

    def action_cost_column(self) -> None:
        """Show or hide what each assistant message cost, beside its tokens."""
        if self.model is None:
            return
        self.model.show_cost = not self.model.show_cost
        self.tree.data_changed()

    def action_problems(self) -> None:
        panel = self.query_one(ProblemsPanel)
        panel.toggle_class("-shown")
        if panel.has_class("-shown"):
            panel.focus()
        else:
            self.tree.focus()

    @on(ProblemsPanel.Chosen)
    def _problem_chosen(self, event: ProblemsPanel.Chosen) -> None:
        from ..model.rows import BLOCK

        if event.block is not None:
            self.tree.go_to(BLOCK, event.conv, event.index, event.block)
        else:
            self.tree.go_to(MSG, event.conv, event.index)
        self.tree.focus()

    # -- detail modes, copy, save -------------------------------------------------------------

    def action_detail_width(self, step: int) -> None:
        """Widen (1) or narrow (-1) the detail pane by a step; out of zoom first."""
        self.detail_zoomed = False
        share = self.detail_share + step * DETAIL_STEP
        self.detail_share = max(DETAIL_STEP, min(100 - DETAIL_STEP, share))
        self._lay_out_panes()

    def action_zoom_detail(self) -> None:
        """The detail pane alone at full width (and focused), or back beside the tree."""
        self.detail_zoomed = not self.detail_zoomed
        self._lay_out_panes()
        (self.detail if self.detail_zoomed else self.tree).focus()

    def _lay_out_panes(self) -> None:
        tree, detail = self.tree, self.detail
        tree.display = not self.detail_zoomed
        detail.styles.width = "1fr" if self.detail_zoomed else f"{self.detail_share}%"
        tree.styles.width = f"{100 - self.detail_share}%"
        self.update_status()

    def action_raw(self) -> None:
        self.detail.raw = not self.detail.raw
        self.detail.refresh_content()
        self.update_status()

    def action_source(self) -> None:
        self.detail.source = not self.detail.source
        self.detail.refresh_content()
        self.update_status()

    def _selection(self) -> tuple[Row, Any] | None:
        row = self.tree.current_row
        if row is None or self.session is None:
            return None
        return row, self.session.convs[row[1]]

    def action_view_value(self) -> None:
        """The selected node's whole text or JSON, paged, with a key to save it to a file."""
        selection = self._selection()
        if selection is not None:
            from .value import ValueScreen

            self.app.push_screen(ValueScreen(*selection))

    def action_save_media(self) -> None:
        selection = self._selection()
        if selection is None:
            return
        row, conv = selection
        if row[0] == CONV:  # a conversation row (maybe of a conversation left empty): no media
            self.notify("Select a message or a block to save its media", timeout=2)
            return
        message = conv.messages[row[2]]
        blocks = message.blocks
        block = blocks[row[3]] if row[0] != MSG and row[3] < len(blocks) else None
        if block is None or not is_media(block):
            block = next((b for b in blocks if is_media(b)), None)
        if block is None:
            self.notify("No image, audio, video or file here", severity="warning", timeout=2)
            return
        save_media(self, block, f"message-{row[2]}")
