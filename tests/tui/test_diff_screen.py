"""The diff screen: opened by ``msgviewer diff --view`` and the palette, folding, n/N, enter."""

from __future__ import annotations

import dataclasses

import pytest

import msgviewer as mv
from msgviewer.tui.app import MsgViewerApp
from msgviewer.tui.screens.diff import DiffScreen
from msgviewer.tui.screens.main import MainScreen

from .conftest import SAMPLES, SIZE, settle

FIXTURE = SAMPLES / "diff-fixture.json"
NEW_RUN = SAMPLES / "diff-new-run.json"


def compare_app() -> MsgViewerApp:
    a, b = mv.load(FIXTURE)[0], mv.load(NEW_RUN)[0]
    return MsgViewerApp(conversations=[a, b], compare=((FIXTURE.name, NEW_RUN.name), {}))


def test_snapshot(snap_compare) -> None:
    assert snap_compare(compare_app(), press=["n"], terminal_size=SIZE, run_before=settle)


@pytest.mark.anyio
async def test_n_and_enter_open_the_changed_message() -> None:
    app = compare_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, DiffScreen)
        first = screen.rows.highlighted
        assert screen.view.change(first).op == "changed"  # opens on the first change
        await pilot.press("n")
        second = screen.rows.highlighted
        assert screen.view.target(second) == (5, 5)
        await pilot.press("N")
        assert screen.rows.highlighted == first
        await pilot.press("n", "n")  # the first added message (only in b)
        assert screen.view.target(screen.rows.highlighted) == (None, 6)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        row = app.main_screen.tree.current_row
        assert (row[1], row[2]) == (1, 6)  # the new run's message 6


@pytest.mark.anyio
async def test_enter_on_a_fold_shows_what_it_hid() -> None:
    app = compare_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert screen.view.rows[0].fold
        before = len(screen.view.rows)
        screen.rows.highlighted = 0
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen and len(screen.view.rows) == before + 1
        assert not any(r.fold for r in screen.view.rows)


@pytest.mark.anyio
async def test_palette_compare_with_file_uses_the_edited_conversation(tmp_path) -> None:
    [conv] = mv.load(FIXTURE)
    edited = dataclasses.replace(conv, messages=conv.messages[:-1])  # as an edit would leave it
    app = MsgViewerApp(conversations=[edited])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        from msgviewer.tui.screens.comparing import compare_with_file

        compare_with_file(app.main_screen)
        await settle(pilot)
        await pilot.press(*str(FIXTURE), "enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, DiffScreen)
        assert screen.view.result.stat == {"same": 5, "changed": 0, "added": 1, "removed": 0}
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Compare with file…" in titles


@pytest.mark.anyio
async def test_an_unreadable_file_is_a_notification() -> None:
    app = MsgViewerApp(conversations=[mv.load(FIXTURE)[0]])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        from msgviewer.tui.screens.comparing import compare_with_file

        compare_with_file(app.main_screen)
        await settle(pilot)
        await pilot.press(*"/no/such/file.json", "enter")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert any("no such file" in n.message for n in app._notifications)
