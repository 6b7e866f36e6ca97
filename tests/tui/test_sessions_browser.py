"""The session browser: listing, filtering, previewing, opening and coming back, searching."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.widgets import DataTable

from msgviewer.tui.app import MsgViewerApp
from msgviewer.tui.screens.main import MainScreen
from msgviewer.tui.screens.opened import OpenedScreen
from msgviewer.tui.screens.sessions import SessionsScreen
from tests.sessions.layouts import build

from .conftest import SIZE, settle


@pytest.fixture
def home() -> Path:
    home = Path(os.environ["HOME"])
    build(home)
    return home


def _browser(app: MsgViewerApp) -> SessionsScreen:
    return next(s for s in app.screen_stack if isinstance(s, SessionsScreen))


def test_the_browser_snapshot(home: Path, snap_compare) -> None:
    assert snap_compare(MsgViewerApp(browse=[]), terminal_size=SIZE, run_before=settle)


@pytest.mark.anyio
async def test_filter_open_and_come_back_where_it_was(home: Path) -> None:
    app = MsgViewerApp(browse=[])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        browser = _browser(app)
        assert browser.query_one("#sessions", DataTable).row_count == 5
        await pilot.press(*"codex")
        await settle(pilot)
        assert [s.format for s in browser.model.rows] == ["codex"]
        await pilot.press("escape")  # clears the filter, the selection kept
        await settle(pilot)
        assert len(browser.model.rows) == 5
        assert browser.query_one("#sessions", DataTable).cursor_row == 3
        await pilot.press("up")
        await settle(pilot)
        chosen = browser._selected
        assert chosen is not None and chosen.endswith("4f1c9a52-7d3e-4b8a-9c61-2e5f0d8b7a13.jsonl")
        preview = str(browser.query_one("#preview").render())
        assert "tests/test_dates.py::test_parse_dates" in preview
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, OpenedScreen)
        assert app.screen.session.path == chosen and app.screen.error is None
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is browser
        assert browser.query_one("#sessions", DataTable).cursor_row == 2


@pytest.mark.anyio
async def test_search_lists_hits_by_session_and_opens_at_the_message(home: Path) -> None:
    app = MsgViewerApp(browse=[])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        browser = _browser(app)
        await pilot.press("slash", *"leap years", "enter")
        await settle(pilot)
        rows = browser.model.hits
        assert rows[0].hit is None and rows[0].path.endswith(".jsonl")  # the session's header
        assert [(r.hit.message, r.hit.role) for r in rows[1:]] == [(2, "user")]
        await pilot.press("down", "enter")
        await settle(pilot)
        opened = app.screen
        assert isinstance(opened, OpenedScreen)
        row = opened.tree.current_row
        assert row is not None and (row[1], row[2]) == (0, 2)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is browser and browser.searching
        await pilot.press("escape")  # back to the list
        await settle(pilot)
        assert not browser.searching and len(browser.model.rows) == 5


@pytest.mark.anyio
async def test_no_argument_and_no_sessions_opens_the_sample(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from msgviewer.cli import _browse

    assert _browse([]) is None  # a clean home: the bundled sample, as before
    (tmp_path / "home" / ".claude" / "projects").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert _browse([]) is None  # Claude Code's folder, but no session in it yet
    assert _browse([str(tmp_path)]) == [str(tmp_path)]
    app = MsgViewerApp([])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, MainScreen) and app.screen.session.message_count > 0


def test_search_all_uses_the_main_screens_query_rules() -> None:
    from msgviewer.tui.model.browser import matcher
    from msgviewer.tui.model.search import QueryError

    assert matcher("make test").find("Why does `Make Test` fail") is not None  # smartcase
    assert matcher("Make").find("why does make fail") is None
    assert matcher(r"re:make\s+test").find("MAKE   TEST") is not None
    assert matcher(r"re:Make\s+test").find("make test") is None
    with pytest.raises(QueryError):
        matcher("re:(unclosed")


@pytest.mark.anyio
async def test_the_cost_column_follows_tokens(home: Path) -> None:
    app = MsgViewerApp(browse=[])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = _browser(app).query_one("#sessions", DataTable)
        labels = [str(c.label) for c in table.columns.values()]
        assert labels[labels.index("Tokens") + 1] == "Cost"
        costs = [str(table.get_row_at(i)[5]) for i in range(table.row_count)]
        assert len(costs) == 5 and all(c.startswith("$") for c in costs)
