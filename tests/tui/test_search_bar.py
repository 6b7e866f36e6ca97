"""The search bar: ctrl+r makes the query a regular expression; a bad one says so."""

from __future__ import annotations

import pytest

from msgviewer.tui.screens.main import MainScreen
from msgviewer.tui.widgets.search_bar import SearchBar

from .conftest import DEMO, SIZE, make_app, settle

pytestmark = pytest.mark.anyio


async def test_ctrl_r_toggles_a_regex_search() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"run_tests|git_commit")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        assert screen.hits == ()  # as plain text, nothing has that bar in it
        await pilot.press("ctrl+r")
        await settle(pilot)
        bar = app.screen.query_one("#search", SearchBar)
        assert bar.value == "re:run_tests|git_commit"
        plain_runs = set(screen.hits)
        assert plain_runs and screen.search_query is not None and screen.search_query.regex
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert bar.value == "run_tests|git_commit" and screen.hits == ()


async def test_a_bad_pattern_is_reported_not_raised() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"re:(oops", "enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        assert screen.search_query is None and "not a regular expression" in screen.query_error
        assert screen.hits == ()
