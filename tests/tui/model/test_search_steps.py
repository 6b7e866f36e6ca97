"""Stepping through search matches: from the cursor, from the current match, wrapping."""

from __future__ import annotations

from msgviewer.tui.model.search_hits import next_hit

HITS = ((0, 2), (0, 5), (1, 0))


def test_from_the_cursor_the_next_match_is_at_or_after_it() -> None:
    assert next_hit(HITS, (0, 3), -1, 1, from_cursor=True) == 1
    assert next_hit(HITS, (0, 5), -1, 1, from_cursor=True) == 1
    assert next_hit(HITS, (0, 3), -1, -1, from_cursor=True) == 0


def test_past_the_last_match_it_wraps_to_the_first_and_back() -> None:
    assert next_hit(HITS, (2, 0), -1, 1, from_cursor=True) == 0
    assert next_hit(HITS, (0, 0), -1, -1, from_cursor=True) == 2


def test_from_the_current_match_it_steps_and_wraps() -> None:
    assert next_hit(HITS, (0, 0), 1, 1, from_cursor=False) == 2
    assert next_hit(HITS, (0, 0), 2, 1, from_cursor=False) == 0
    assert next_hit(HITS, (0, 0), 0, -1, from_cursor=False) == 2


def test_with_no_current_match_it_starts_from_the_cursor() -> None:
    assert next_hit(HITS, (0, 4), -1, 1, from_cursor=False) == 1
