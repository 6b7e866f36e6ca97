"""The app's cost and time: header, cost column, usage view, timeline, price overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

from msgviewer.formats.prices import load_prices
from msgviewer.tui.model.timeline import GAP, HEADING, STEP, TURN, cost_label, timeline_rows
from msgviewer.tui.screens.main import MainScreen
from msgviewer.tui.screens.timeline import TimelineScreen
from msgviewer.tui.widgets.timeline_chart import TimelineChart

from .conftest import SAMPLES, SIZE, make_app, settle

pytestmark = pytest.mark.anyio
pytest.importorskip("genai_prices", reason="the price database needs Python 3.11")

CLAUDE_CODE = SAMPLES / "claude-code-session.jsonl"


async def test_the_header_shows_the_cost() -> None:
    app = make_app(CLAUDE_CODE)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        assert main.sub_title.startswith("claude-code-session.jsonl · $0.047 · ")
        assert cost_label(main.session.convs) == "$0.047"


async def test_enter_on_a_timeline_step_goes_to_its_message() -> None:
    app = make_app(CLAUDE_CODE)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, TimelineScreen)
        chart = app.screen.query_one(TimelineChart)
        kinds = [row.kind for row in chart.rows]
        assert kinds[:2] == [TURN, HEADING] and set(kinds[2:]) == {STEP}
        # the slowest step: the model call answering the Task result (#10, 5.18 s)
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert app.main_screen.tree.current_row[2] == 10


async def test_the_cost_column_toggles() -> None:
    app = make_app(CLAUDE_CODE)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = app.main_screen
        labels = main.tree.labels
        row = next(r for r in main.model.rows if r[2] == 13)
        assert "$0.0081" not in "".join(t for t, _ in labels.left_right(row)[1])
        await pilot.press("dollar_sign")
        right = "".join(t for t, _ in main.tree.labels.left_right(row)[1])
        assert "$0.0081" in right
        await pilot.press("dollar_sign")
        assert "$0.0081" not in "".join(t for t, _ in main.tree.labels.left_right(row)[1])


async def test_prices_given_to_the_app_override_the_database(tmp_path: Path) -> None:
    prices = tmp_path / "prices.toml"
    prices.write_text(
        '[models."claude-sonnet-4-5-20250929"]\ninput = 0\noutput = 0\n'
        '[models."claude-haiku-4-5-20251001"]\ninput = 0\noutput = 1000000\n',
        encoding="utf-8",
    )
    app = make_app(CLAUDE_CODE, prices=load_prices(prices))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        cost = app.main_screen.session.convs[0].cost
        # only haiku's output is priced: 64 + 41 tokens at a dollar each
        assert cost.total_usd == pytest.approx(105.0)
        assert "$105.00" in app.main_screen.sub_title


async def test_a_file_without_timestamps_says_so() -> None:
    app = make_app(SAMPLES / "openai-chat-agent.json")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("m")
        await pilot.pause()
        assert not app.screen.query(TimelineChart)


def test_gaps_between_turns_are_rows_of_their_own() -> None:
    from msgviewer.core import Message
    from msgviewer.core.timing import timing

    messages = [
        Message.user("a"),
        Message.assistant("b"),
        Message.user("c"),
        Message.assistant("d"),
    ]
    found = timing(messages, [0.0, 5.0, 305.0, 310.0])
    assert found is not None
    rows = timeline_rows(found)
    assert [r.kind for r in rows[:3]] == [TURN, GAP, TURN]
    assert rows[1].label == "gap 5m 00s" and rows[1].index is None
    assert (rows[2].model_s, rows[2].tool_s) == (5.0, 0.0)
