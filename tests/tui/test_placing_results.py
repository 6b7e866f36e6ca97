"""A long history's results placed under their calls a slice at a time: the keys work while the
rows are made, and the view ends as placing them at once leaves it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.generate import generate
from msgviewer import dump, load
from msgviewer.formats import Conversation
from msgviewer.tui.app import MsgViewerApp
from msgviewer.tui.model import placement, tree_model
from msgviewer.tui.model.rows import MSG
from msgviewer.tui.model.session import Session
from msgviewer.tui.model.tree_model import TreeModel
from msgviewer.tui.screens.loading import LoadingScreen

from .conftest import SIZE, make_app, settle

pytestmark = pytest.mark.anyio


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An agent run placed a slice at a time, in slices of a few messages, each slice made
    when the test says (``_place_slices`` is held back)."""
    monkeypatch.setattr(placement, "AT_ONCE", 0)
    monkeypatch.setattr(tree_model, "SLICE", 5)
    monkeypatch.setattr(LoadingScreen, "_place_slices", lambda self: None)
    path = tmp_path / "run.json"
    dump(Conversation(tuple(generate(300))), path)
    return path


def _placed_at_once(path: Path) -> list:
    session = Session.from_conversations(load(path))
    session.analyse()
    return TreeModel(session).rows


def _place_every_slice(screen: LoadingScreen) -> int:
    slices = 0
    while screen._placing is not None:
        screen._place_slice()
        slices += 1
    return slices


def _linked(app: MsgViewerApp) -> LoadingScreen:
    """The app's screen, its history linked and its results being placed."""
    screen = app.screen
    assert isinstance(screen, LoadingScreen)
    assert screen._placing is not None
    return screen


def _status(screen: LoadingScreen) -> str:
    return str(screen.query_one("#status").render())


async def test_keys_work_while_results_are_placed(run: Path) -> None:
    app = make_app(run)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = _linked(app)
        assert "placing results under calls" in _status(screen)
        in_file_order = list(screen.model.rows)
        await pilot.press("down", "down", "down")
        assert screen.tree.current_row == (MSG, 0, 3, 0, 0, 0)
        assert screen.model.rows == in_file_order
        assert _place_every_slice(screen) > 300 // 5
        await pilot.pause()
        assert screen.model.rows == _placed_at_once(run)
        assert screen.model.rows != in_file_order
        row = screen.tree.current_row
        assert row is not None and row[:3] == (MSG, 0, 3)  # the cursor stayed on its message
        assert "placing results" not in _status(screen)
        assert "results under calls (o)" in _status(screen)


async def test_a_node_opened_meanwhile_stays_open_in_the_placed_view(run: Path) -> None:
    app = make_app(run)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = _linked(app)
        started = screen._placing
        screen._place_slice()
        await pilot.press("down", "right")  # the user message opens: its blocks show
        opened = screen.model.rows[1]
        assert screen.model.is_expanded(opened)
        screen._place_slice()  # the placement goes on: the node is followed when it ends
        assert screen._placing is started
        _place_every_slice(screen)
        await pilot.pause()
        assert screen._placing is None
        assert screen.model.is_expanded(opened)
        # results under calls, the message open, as placing them at once from the view gives
        pos = screen.model.rows.index(opened)
        assert screen.model.rows[pos + 1][5] == opened[5] + 1
        assert screen.model.rows != _placed_at_once(run)
        placed = list(screen.model.rows)
        screen.model.rebuild()  # (at once, from the view as it now is)
        assert screen.model.rows == placed
        assert not screen.model.nesting_stale()
        row = screen.tree.current_row
        assert row is not None and row[:3] == opened[:3]  # the cursor stayed on it


async def test_the_app_places_the_results_by_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The slices made by the app's own worker, one after another, end as at once."""
    monkeypatch.setattr(placement, "AT_ONCE", 0)
    monkeypatch.setattr(tree_model, "SLICE", 5)
    path = tmp_path / "run.json"
    dump(Conversation(tuple(generate(300))), path)
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, LoadingScreen)
        for _ in range(500):
            if screen._placing is None:
                break
            await pilot.pause(0.01)
        assert screen._placing is None
        assert screen.model.rows == _placed_at_once(path)


async def test_conversations_linked_while_others_are_placed_are_placed_next(
    tmp_path: Path, run: Path
) -> None:
    both = tmp_path / "both.json"
    dump([*load(run), Conversation(tuple(generate(120, seed=1)))], both)
    app = make_app(both)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = _linked(app)
        first = screen._placing
        assert first is not None and set(first.nests) == {0}
        assert screen._waiting is not None and set(screen._waiting) == {1}
        _place_every_slice(screen)
        await pilot.pause()
        assert screen._waiting is None
        assert screen.model.rows == _placed_at_once(both)
        assert not screen.model.nesting_stale()


async def test_a_placement_for_a_history_since_loaded_again_stops(run: Path) -> None:
    app = make_app(run)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = _linked(app)
        old = screen.model
        screen._place_slice()
        screen._loaded(Session.from_conversations(load(run)))  # (read again, not linked yet)
        in_file_order = list(screen.model.rows)
        screen._place_slice()
        assert screen._placing is None  # its slices stop, its links are not placed again
        assert screen.model is not old and screen.model.rows == in_file_order
