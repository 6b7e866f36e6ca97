"""Search queries: plain text or a regular expression, case as vim's smartcase (headless)."""

from __future__ import annotations

import re

import pytest
from rich.console import Console
from rich.style import Style

from msgviewer import load
from msgviewer.tui.model.rows import CALL, MSG
from msgviewer.tui.model.search import QueryError, SearchIndex, locate, parse_query
from msgviewer.tui.model.session import Session
from msgviewer.tui.widgets.row_strip import row_strip

from ..conftest import DEMO


def _session() -> Session:
    session = Session.from_conversations(load(DEMO))
    session.analyse()
    return session


def _texts(session: Session, hits: list[tuple[int, int]]) -> list[str]:
    return [repr(session.convs[c].messages[m]) for c, m in hits]


def test_lowercase_query_ignores_case() -> None:
    session = _session()
    hits = SearchIndex(session).find("ascii")
    assert hits
    assert all("ascii" in t.lower() for t in _texts(session, hits))
    # Both spellings occur in the demo: a case-insensitive search finds the upper-case ones too
    assert any("ASCII" in t for t in _texts(session, hits))
    assert any("ascii" in t for t in _texts(session, hits))


def test_a_capital_letter_makes_the_query_match_case() -> None:
    session = _session()
    index = SearchIndex(session)
    upper, lower = index.find("ASCII"), index.find("ascii")
    assert upper and lower and set(upper) < set(lower)
    messages = session.convs[0].messages
    assert all("ASCII" in repr(messages[m]) for _, m in upper)
    only_lower = set(lower) - set(upper)
    assert only_lower and all("ASCII" not in repr(messages[m]) for _, m in only_lower)


def test_regex_prefix_searches_by_pattern() -> None:
    session = _session()
    index = SearchIndex(session)
    hits = index.find(r"re:run_tests|git_commit")
    messages = session.convs[0].messages
    expected = [
        m
        for m, msg in enumerate(messages)
        if re.search("run_tests|git_commit", repr(msg), re.IGNORECASE)
    ]
    assert [m for _, m in hits] == expected
    assert index.find("re:zoë\\s+ångström") == index.find("zoë ångström") != []


def test_regex_smartcase_does_not_count_escapes_as_capitals() -> None:
    assert not parse_query(r"re:\Stests").case_sensitive
    assert parse_query(r"re:\STests").case_sensitive
    assert not parse_query("re:a\\Wb").case_sensitive


def test_a_bad_pattern_is_a_one_line_error() -> None:
    with pytest.raises(QueryError, match="not a regular expression"):
        parse_query("re:(unclosed")
    # The same text as plain text is fine
    assert parse_query("(unclosed").matches("an (unclosed bracket")


def test_locate_lands_on_the_call_the_pattern_names() -> None:
    session = _session()
    messages = session.convs[0].messages
    m, k = next(
        (i, k)
        for i, msg in enumerate(messages)
        for k, call in enumerate(msg.tool_calls)
        if call.name == "git_commit"
    )
    assert locate(messages[m], parse_query("re:git_c.mmit")) == (CALL, k, 0)
    assert locate(messages[m], parse_query("GIT_COMMIT")) == (MSG, 0, 0)  # capitals: no match


def test_highlight_keeps_every_character_in_place() -> None:
    """A highlighted match changes colours only: the row reads the same, space for space."""
    console = Console(width=80, color_system="truecolor")
    left = [("The customer CSV export drops people with non-ASCII names", "")]
    plain = row_strip(
        left, [], lambda _: Style(), 80, Style(), console, None, cursor=False, pair=False, cut=False
    )
    lit = row_strip(
        left,
        [],
        lambda n: Style(bgcolor="red") if n == "match" else Style(),
        80,
        Style(),
        console,
        parse_query("ascii").pattern,
        cursor=False,
        pair=False,
        cut=False,
    )
    assert "".join(s.text for s in lit) == "".join(s.text for s in plain)
    assert "non-ASCII names" in "".join(s.text for s in lit)
    lit_text = [s.text for s in lit if s.style is not None and s.style.bgcolor is not None]
    assert lit_text == ["ASCII"]
