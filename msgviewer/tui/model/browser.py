"""The session browser's state (headless): the sessions found so far, the filter, the rows
shown, and the search hits grouped by session.

Summaries arrive in batches while the files are read; the list is kept newest first, and the
selected session stays selected (by path) through new arrivals and filter changes.
"""

from __future__ import annotations

import bisect
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...core.cost import format_usd
from ...formats import FormatWarning, load
from ...sessions import Hit, Matcher, Summary
from ...sessions.costs import session_cost
from ...sessions.listing import sort_key
from .safe import one_line
from .search import REGEX_PREFIX, parse_query

PREVIEW_MESSAGES = 8
"""Messages shown in the preview of the selected session."""


@dataclass(frozen=True, slots=True)
class HitRow:
    """A row of the search results: a session's header (``hit`` None) or one of its hits."""

    summary: Summary | None
    path: str
    hit: Hit | None = None


class BrowserModel:
    """What the browser shows: ``rows`` (the sessions that pass the filter, newest first)."""

    def __init__(self) -> None:
        self.sessions: list[Summary] = []
        self._keys: list[float] = []  # -sort_key of each session, for ordered insertion
        self.filter = ""
        self.rows: list[Summary] = []
        self.total_files: int | None = None
        self.read_files = 0
        self.done = False
        self.hits: list[HitRow] = []
        self.query = ""
        self.prices: dict[str, Any] | None = None
        """Price overrides (``--prices``) for the Cost column."""

    def cost(self, s: Summary) -> str:
        """A session's cost for its row: ``$1.23``, ``—`` when nothing in it is priced."""
        dollars, _ = session_cost(s, self.prices)
        return "—" if dollars is None else format_usd(dollars)

    def add(self, summaries: Sequence[Summary]) -> None:
        """Sessions read meanwhile: placed by their last activity, the filter applied."""
        for s in summaries:
            key = -sort_key(s)
            at = bisect.bisect_right(self._keys, key)
            self._keys.insert(at, key)
            self.sessions.insert(at, s)
        self._refilter()

    def set_filter(self, text: str) -> None:
        self.filter = text
        self._refilter()

    def _refilter(self) -> None:
        words = self.filter.strip()
        self.rows = [s for s in self.sessions if s.matches(words)] if words else list(self.sessions)

    def index_of(self, path: str | None) -> int | None:
        """The row of the session at ``path`` (None when it is filtered out or unknown)."""
        for i, s in enumerate(self.rows):
            if s.path == path:
                return i
        return None

    def progress(self) -> str:
        """``Reading 120 of 1,000 files…`` while loading; the count of sessions after."""
        shown = f"{len(self.rows)} of {len(self.sessions)}" if self.filter else str(len(self.rows))
        if self.done:
            return f"{shown} sessions"
        total = f" of {self.total_files:,}" if self.total_files is not None else ""
        return f"{shown} sessions · reading {self.read_files:,}{total} files…"

    # -- search ----------------------------------------------------------------------------

    def start_search(self, query: str) -> None:
        self.query = query
        self.hits = []

    def add_hits(self, hits: Sequence[Hit]) -> None:
        """One session's hits: a header row for the session, then a row per message."""
        if not hits:
            return
        path = hits[0].path
        summary = next((s for s in self.sessions if s.path == path), None)
        self.hits.append(HitRow(summary, path))
        self.hits.extend(HitRow(summary, path, h) for h in hits)

    @property
    def hit_count(self) -> int:
        return sum(1 for r in self.hits if r.hit is not None)


def matcher(typed: str) -> Matcher:
    """The search of every session for what was typed, by the main screen's rules: ``re:``
    for a regular expression, case ignored unless the query has a capital (``QueryError``
    for a bad pattern)."""
    query = parse_query(typed)
    body = typed[len(REGEX_PREFIX) :] if query.regex else typed
    return Matcher(body, ignore_case=not query.case_sensitive, regex=query.regex)


def preview(path: str, limit: int = PREVIEW_MESSAGES) -> list[tuple[str, str]]:
    """The first messages of a session as (role, first line) pairs, for the preview pane."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FormatWarning)
        convs = load(path)
    out: list[tuple[str, str]] = []
    for conv in convs:
        for m in conv.messages:
            if len(out) >= limit:
                return out
            text = m.text
            if not text.strip():
                names = [c.name for c in m.tool_calls] or [
                    b.type for b in m.blocks if b.type != "text"
                ]
                text = ", ".join(names) or "(empty)"
            out.append((m.role, one_line(text, 160)))
    return out
