"""``SearchingScreen``: the search bar and stepping through its matches.

The headless ``SearchIndex`` finds the messages that match in a thread worker; the screen keeps
the matches, moves the tree's cursor to the next or previous one, and clears the search.
"""

from __future__ import annotations

from textual import on, work
from textual.widgets import Input
from textual.worker import get_current_worker

from ..model.safe import printable
from ..model.search import (
    REGEX_PREFIX,
    Query,
    QueryError,
    SearchIndex,
    locate,
    parse_query,
)
from ..model.search_hits import Hits, next_hit
from .loading import LoadingScreen, WorkerCancelled


class SearchingScreen(LoadingScreen):
    """Search as you type, jump to the first match on enter, step with n and N, clear."""

    hits: Hits
    hit: int
    search_query: Query | None
    """The search in force (None: none, or one that does not compile)."""
    query_error: str

    def action_search(self) -> None:
        if self.session is None:
            return
        bar = self.query_one("#search", Input)
        bar.add_class("-shown")
        bar.focus()

    @on(Input.Changed, "#search")
    def _search_changed(self, event: Input.Changed) -> None:
        self._run_search(event.value, jump=False)

    @on(Input.Submitted, "#search")
    def _search_submitted(self, event: Input.Submitted) -> None:
        bar = self.query_one("#search", Input)
        bar.remove_class("-shown")
        self.tree.focus()
        self._run_search(event.value, jump=True)

    def _run_search(self, text: str, *, jump: bool) -> None:
        self.query_text = text
        try:
            query = parse_query(text) if text not in ("", REGEX_PREFIX) else None
            self.query_error = ""
        except QueryError as exc:
            query, self.query_error = None, str(exc)
        self.search_query = query
        shown = query is not None and (len(query.needle) >= 2 or jump)
        self.tree.highlight = query.pattern if shown and query is not None else None
        self.detail.set_highlight(self.tree.highlight)
        self.tree.data_changed()
        if query is None or self.search_index is None:
            self.hits, self.hit = Hits(), -1
            self.update_status()
            return
        self._search_worker(self.search_index, query, jump)

    @work(thread=True, exclusive=True, group="search")
    def _search_worker(self, index: SearchIndex, query: Query, jump: bool) -> None:
        worker = get_current_worker()
        hits = index.find(query, WorkerCancelled(worker))
        if hits is None or worker.is_cancelled:
            return
        self.app.call_from_thread(self._search_done, query, hits, jump)

    def _search_done(self, query: Query, hits: Hits, jump: bool) -> None:
        if query.typed != self.query_text:
            return
        if self.model is not None and self.model.filter.active:
            hits = hits.kept(self.model.message_visible)
        self.hits = hits
        self.hit = -1
        if jump:
            self._step_hit(1, from_cursor=True)
        self.update_status()

    def _step_hit(self, step: int, *, from_cursor: bool = False) -> None:
        if not self.hits or self.search_query is None:
            if self.query_error:
                self.notify(printable(self.query_error), severity="warning", timeout=3)
            elif self.query_text:
                self.notify(f"No match for {printable(self.query_text)!r}", timeout=2)
            return
        row = self.tree.current_row
        here = (row[1], row[2]) if row else (0, -1)
        i = next_hit(self.hits, here, self.hit, step, from_cursor=from_cursor)
        self.hit = i
        c, m = self.hits[i]
        message = self.session.convs[c].messages[m]  # type: ignore[union-attr]
        kind, idx, line = locate(message, self.search_query)
        self.tree.go_to(kind, c, m, idx, line)
        self.update_status()

    def action_search_next(self) -> None:
        self._step_hit(1)

    def action_search_previous(self) -> None:
        self._step_hit(-1)

    def action_clear(self) -> None:
        bar = self.query_one("#search", Input)
        if bar.has_class("-shown"):
            bar.remove_class("-shown")
            self.tree.focus()
            return
        if self.query_text:
            bar.value = ""
            self._run_search("", jump=False)
