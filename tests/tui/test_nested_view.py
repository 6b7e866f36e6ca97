"""The results-under-calls view in the app: the default for agent runs, ``o`` switches to file
order and back with the cursor on its node; several files open as nodes named by their file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from msgviewer.tui.model.rows import CALL, CONV, MSG
from msgviewer.tui.model.tree_model import TreeModel

from .conftest import DEMO, SAMPLES, SIZE, make_app, settle

pytestmark = pytest.mark.anyio


def _status(app) -> str:  # type: ignore[no-untyped-def]
    from msgviewer.tui.widgets.status_line import StatusLine

    return str(app.main_screen.query_one(StatusLine).render())


async def test_an_agent_run_opens_with_results_under_their_calls() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        model = app.main_screen.model
        assert model.nested_view and model.has_nesting
        rows = model.rows
        call = rows.index((CALL, 0, 2, 0, 0, 1))
        assert rows[call + 1] == (MSG, 0, 3, 0, 0, 2)  # read_file's result, beneath it
        assert not [r for r in rows if r[0] == MSG and r[5] == 0 and r[2] in (3, 4)]
        assert "results under calls (o)" in _status(app)


async def test_o_switches_to_file_order_and_back_keeping_the_cursor_on_its_message() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = app.main_screen.tree
        tree.go_to(MSG, 0, 4)
        await pilot.pause()
        assert tree.current_row == (MSG, 0, 4, 0, 0, 2)
        await pilot.press("o")
        await settle(pilot)
        assert [r[:3] for r in tree.model.rows] == [(MSG, 0, m) for m in range(15)]
        assert tree.current_row == (MSG, 0, 4, 0, 0, 0)
        assert "file order (o)" in _status(app)
        await pilot.press("t")  # to its call, in file order: inside message 2
        await pilot.pause()
        assert tree.current_row[:4] == (CALL, 0, 2, 1)
        await pilot.press("o")
        await settle(pilot)
        assert tree.current_row == (CALL, 0, 2, 1, 0, 1)
        await pilot.press("j")
        assert tree.current_row == (MSG, 0, 4, 0, 0, 2)  # its result, right beneath


async def test_a_file_without_tool_results_stays_as_it_was() -> None:
    app = make_app(SAMPLES / "anthropic-response.json")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        model = app.main_screen.model
        assert not model.has_nesting
        assert "results under calls" not in _status(app)
        assert {r[0] for r in model.rows} <= {CONV, MSG}


async def test_an_edit_in_the_view_leaves_the_rows_a_fresh_view_would_show(
    tmp_path: Path,
) -> None:
    path = tmp_path / "run.json"
    shutil.copy(DEMO, path)
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.main_screen
        screen.tree.go_to(MSG, 0, 7)
        await pilot.press("D")  # duplicate the edit_file call (fresh ids, its result too)
        await settle(pilot)
        model = screen.model
        messages = screen.session.convs[0].messages
        assert len(messages) == 16
        fresh = TreeModel(screen.session)
        fresh._expanded, fresh._collapsed = set(model._expanded), set(model._collapsed)
        fresh.rebuild()
        assert model.rows == fresh.rows
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert len(screen.session.convs[0].messages) == 15
        assert model.rows[model.rows.index((CALL, 0, 2, 0, 0, 1)) + 1] == (MSG, 0, 3, 0, 0, 2)


async def test_several_files_open_as_nodes_named_by_their_file() -> None:
    app = make_app(SAMPLES / "openai-chat-agent.json", SAMPLES / "inspect-eval.json")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.main_screen
        labels = screen.tree.labels
        names = [
            "".join(text for text, _ in labels.left_right(row)[0])
            for row in screen.model.rows
            if row[0] == CONV
        ]
        assert [n.split("  ")[0].strip("▾▸ ") for n in names] == [
            "openai-chat-agent.json",
            "inspect-eval.json · todo_audit #1",
            "inspect-eval.json · todo_audit #2",
        ]
        assert "openai-chat-agent.json, inspect-eval.json" in screen.sub_title
