"""``SessionsScreen``: every session under some folders (or the standard places), to pick one.

Type to filter (project, prompt, model); ``enter`` opens the selected session and ``escape``
there comes back here, where the list was. ``/`` searches the contents of every session: the
hits are listed by session and message, and ``enter`` opens the session at that message.
Reading and searching run in thread workers that send what they found in batches, so the list
shows before every file has been read.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Static
from textual.worker import get_current_worker

from ...sessions import Matcher, Summary, grep, iter_summaries, roots_of, session_files
from ..model import fmt
from ..model.browser import BrowserModel, HitRow, matcher, preview
from ..model.safe import printable
from ..model.search import QueryError
from .loading import WorkerCancelled
from .opened import OpenedScreen

BATCH_SECONDS = 0.1
"""A worker sends what it found at most this often (each batch redraws the list)."""

_ROLE_STYLE = {
    "user": "bold cyan",
    "assistant": "bold green",
    "tool": "yellow",
    "system": "magenta",
}


def _when(s: Summary) -> str:
    value = s.updated or s.started
    return value[:16].replace("T", " ") if value else "—"


def _cut(text: str, width: int, *, left: bool = False) -> str:
    """``text`` in at most ``width`` cells: its end kept (``left``) or its start."""
    if len(text) <= width:
        return text
    return "…" + text[-(width - 1) :] if left else text[: width - 1] + "…"


class SessionsScreen(Screen[None]):
    """The list of sessions, a preview of the selected one, and search across all of them."""

    BINDINGS: list[BindingType] = [
        Binding("up", "move(-1)", "Up", show=False, priority=True),
        Binding("down", "move(1)", "Down", show=False, priority=True),
        Binding("pageup", "move(-20)", "Page up", show=False, priority=True),
        Binding("pagedown", "move(20)", "Page down", show=False, priority=True),
        Binding("enter", "open", "Open", priority=True),
        Binding("slash", "search", "Search all", priority=True),
        Binding("escape", "back", "Clear / back", priority=True),
        Binding("ctrl+q", "app.quit", "Quit", priority=True),
    ]

    DEFAULT_CSS = """
    SessionsScreen {
        layout: vertical;
        #query { border: none; height: 1; padding: 0 1; background: $boost; }
        #browser { height: 1fr; }
        #sessions, #hits { width: 1fr; border-right: tall $panel; }
        #hits { display: none; }
        #preview { width: 44; padding: 0 1; }
        &.-narrow #browser { layout: vertical; }
        &.-narrow #sessions, &.-narrow #hits { height: 1fr; border-right: none; }
        &.-narrow #preview {
            width: 1fr; height: 12; border-top: tall $panel; overflow-y: hidden;
        }
        #progress { height: 1; background: $panel; color: $text-muted; padding: 0 1; }
        &.-searching #sessions { display: none; }
        &.-searching #hits { display: block; }
    }
    """

    def __init__(self, dirs: list[str]) -> None:
        super().__init__()
        self.dirs = dirs
        self.model = BrowserModel()
        self.searching = False
        self.previews: dict[str, Any] = {}
        self._selected: str | None = None
        self._moved = False

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="◆")
        yield Input(placeholder="type to filter: project, prompt, model", id="query")
        with Horizontal(id="browser"):
            yield DataTable(id="sessions", cursor_type="row", zebra_stripes=True)
            yield DataTable(id="hits", cursor_type="row")
            yield Static(id="preview")
        yield Static(id="progress")
        yield Footer()

    @property
    def table(self) -> DataTable:
        return self.query_one("#hits" if self.searching else "#sessions", DataTable)

    NARROW = 170
    """Below this many columns the preview goes under the list, which keeps every column."""

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width < self.NARROW, "-narrow")

    def on_mount(self) -> None:
        self.sub_title = "sessions"
        t = self.query_one("#sessions", DataTable)
        # what finds a session first (when, where, about what); the counts after, seen by
        # scrolling right on a narrow terminal
        t.add_columns(
            "When", "Project", "First prompt", "Msgs", "Tokens", "Cost", "Model", "Format"
        )
        self.model.prices = getattr(self.app, "prices", None)
        self.query_one("#hits", DataTable).add_columns("Session / message", "Hit")
        self.query_one("#query", Input).focus()
        self._show_progress(self.model.progress())
        self._read()

    # -- reading ---------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="sessions")
    def _read(self) -> None:
        cancel = WorkerCancelled(get_current_worker())
        roots = roots_of(self.dirs)
        batch: list[Summary] = []
        last = time.monotonic()
        read = 0

        def found(n: int) -> None:
            self.app.call_from_thread(self._found, n)

        for summary in iter_summaries(roots, cancel=cancel, found=found):
            batch.append(summary)
            read += 1
            if time.monotonic() - last >= BATCH_SECONDS:
                self.app.call_from_thread(self._arrived, batch, read, False)
                batch, last = [], time.monotonic()
        if not cancel.is_set():
            self.app.call_from_thread(self._arrived, batch, read, True)

    def _found(self, count: int) -> None:
        self.model.total_files = count
        self._show_progress(self.model.progress())

    def _arrived(self, batch: list[Summary], read: int, done: bool) -> None:
        self.model.read_files = read
        self.model.done = done
        self.model.add(batch)
        self._fill_sessions()

    def _fill_sessions(self) -> None:
        table = self.query_one("#sessions", DataTable)
        # Until the reader moves, the newest session stays selected as newer ones arrive.
        keep = self._selected if self._moved else None
        table.clear()
        for s in self.model.rows:
            total = s.input_tokens + s.output_tokens
            table.add_row(
                _when(s),
                Text(_cut(printable(os.path.basename(s.project or "")), 14)),
                Text(_cut(printable(s.title or "(no prompt)"), 30)),
                Text(str(s.messages), justify="right"),
                Text(fmt.tokens(total) if total else "—", justify="right"),
                Text(self.model.cost(s), justify="right"),
                Text(_cut(printable(s.models[0] if s.models else "—"), 16)),
                s.format,
                key=s.path,
            )
        at = self.model.index_of(keep)
        if at is not None:
            table.move_cursor(row=at, animate=False)
        elif self.model.rows:
            table.move_cursor(row=0, animate=False)
            self._select(self.model.rows[0].path)
        self._show_progress(self.model.progress())

    def _show_progress(self, text: str) -> None:
        self.query_one("#progress", Static).update(Text(printable(text)))

    # -- the filter and the keys -----------------------------------------------------------

    @on(Input.Changed, "#query")
    def _query_changed(self, event: Input.Changed) -> None:
        if not self.searching:
            self._moved = self._moved or bool(event.value)
            self.model.set_filter(event.value)
            self._fill_sessions()

    def action_move(self, step: int) -> None:
        self._moved = True
        table = self.table
        if table.row_count:
            table.move_cursor(row=max(0, min(table.row_count - 1, table.cursor_row + step)))

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "sessions" and not self.searching:
            self._select(str(event.row_key.value))
        elif event.data_table.id == "hits" and self.searching:
            row = self.model.hits[event.cursor_row]
            self._select(row.path)

    def _select(self, path: str) -> None:
        self._selected = path
        if path in self.previews:
            self._show_preview(path, self.previews[path])
        else:
            self.query_one("#preview", Static).update(Text("…", style="dim"))
            self._preview_worker(path)

    @work(thread=True, exclusive=True, group="preview")
    def _preview_worker(self, path: str) -> None:
        try:
            shown: Any = preview(path)
        except Exception as exc:  # a file that cannot be read: the preview says why
            shown = f"Cannot be read: {exc}"
        self.app.call_from_thread(self._previewed, path, shown)

    def _previewed(self, path: str, shown: Any) -> None:
        self.previews[path] = shown
        if path == self._selected:
            self._show_preview(path, shown)

    def _show_preview(self, path: str, shown: Any) -> None:
        text = Text()
        text.append(printable(Path(path).name) + "\n\n", style="bold")
        if isinstance(shown, str):
            text.append(printable(shown), style="red")
        for role, line in shown if not isinstance(shown, str) else ():
            text.append(f"{role:<10}", style=_ROLE_STYLE.get(role, ""))
            text.append(line + "\n")
        self.query_one("#preview", Static).update(text)

    def action_open(self) -> None:
        if self.searching:
            query = self.query_one("#query", Input).value
            if query and query != self.model.query:
                self._start_search(query)
                return
            table = self.query_one("#hits", DataTable)
            if not self.model.hits or table.cursor_row < 0:
                return
            row: HitRow = self.model.hits[table.cursor_row]
            at = (row.hit.conversation, row.hit.message) if row.hit else None
            self.app.push_screen(
                OpenedScreen(row.path, at=at, prices=getattr(self.app, "prices", None))
            )
        elif self.model.rows and self._selected is not None:
            self.app.push_screen(
                OpenedScreen(self._selected, prices=getattr(self.app, "prices", None))
            )

    def action_search(self) -> None:
        if self.searching:
            return
        self.searching = True
        self.add_class("-searching")
        query = self.query_one("#query", Input)
        query.placeholder = "search every session: text, reasoning, tools (enter)"
        query.value = self.model.query
        query.focus()

    def action_back(self) -> None:
        query = self.query_one("#query", Input)
        if self.searching:
            self.workers.cancel_group(self, "grep")
            self.searching = False
            self.remove_class("-searching")
            query.placeholder = "type to filter: project, prompt, model"
            query.value = self.model.filter
            self._fill_sessions()
        elif query.value:
            query.value = ""
        else:
            self.app.exit()

    # -- searching -------------------------------------------------------------------------

    def _start_search(self, query: str) -> None:
        self.model.start_search(query)
        self.query_one("#hits", DataTable).clear()
        try:
            search = matcher(query)
        except QueryError as exc:
            self._show_progress(str(exc))
            return
        self._show_progress(f"searching for {query}…")
        self._grep(query, search)

    @work(thread=True, exclusive=True, group="grep")
    def _grep(self, query: str, matcher: Matcher) -> None:
        cancel = WorkerCancelled(get_current_worker())
        files = list(session_files(roots_of(self.dirs)))
        done = [0]

        def progress(n: int) -> None:
            done[0] = n

        last = time.monotonic()
        batch: list[Any] = []
        for hits in grep(files, matcher, cancel=cancel, progress=progress):
            batch.append(hits)
            if time.monotonic() - last >= BATCH_SECONDS:
                self.app.call_from_thread(self._hits, query, batch, done[0], len(files), False)
                batch, last = [], time.monotonic()
        if not cancel.is_set():
            self.app.call_from_thread(self._hits, query, batch, len(files), len(files), True)

    def _hits(self, query: str, batch: list[Any], done: int, total: int, final: bool) -> None:
        if query != self.model.query or not self.searching:
            return
        table = self.query_one("#hits", DataTable)
        for hits in batch:
            start = len(self.model.hits)
            self.model.add_hits(hits)
            for row in self.model.hits[start:]:
                if row.hit is None:
                    title = row.summary.title if row.summary and row.summary.title else row.path
                    table.add_row(Text(printable(title)[:60], style="bold"), Text(""))
                else:
                    h = row.hit
                    where = Text(f"  #{h.message} ")
                    where.append(h.role, style=_ROLE_STYLE.get(h.role, ""))
                    table.add_row(where, Text(printable(h.snippet)))
        count = fmt.plural(self.model.hit_count, "hit")
        state = "" if final else f" · searched {done:,} of {total:,} files…"
        self._show_progress(f"{count} for {query}{state}")
