"""The detail pane reads like a pager: widened, narrowed, zoomed, scrolled from the keyboard,
and search matches marked in it."""

from __future__ import annotations

import pytest

from msgviewer.tui.model.rows import MSG
from msgviewer.tui.screens.main import MainScreen

from .conftest import DEMO, SIZE, make_app, settle

pytestmark = pytest.mark.anyio

LONG_OUTPUT = 3  # the demo's read_file result: many more lines than the pane is high


async def _open_long(pilot) -> MainScreen:
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, MainScreen)
    screen.tree.go_to(MSG, 0, LONG_OUTPUT)
    await settle(pilot)
    screen.detail.focus()
    await pilot.pause()
    assert screen.detail.max_scroll_y > 10
    return screen


async def test_pager_keys_scroll_the_focused_pane() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_long(pilot)
        detail = screen.detail
        await pilot.press("j", "j", "j")
        await pilot.pause()
        assert detail.scroll_y == 3
        await pilot.press("k")
        await pilot.pause()
        assert detail.scroll_y == 2
        await pilot.press("ctrl+d")
        await pilot.pause()
        half = detail.scrollable_content_region.height // 2
        assert detail.scroll_y == 2 + half
        await pilot.press("ctrl+u")
        await pilot.pause()
        assert detail.scroll_y == 2
        await pilot.press("G")
        await pilot.pause()
        assert detail.scroll_y == detail.max_scroll_y
        await pilot.press("g")
        await pilot.pause()
        assert detail.scroll_y == 0
        await pilot.press("space")
        await pilot.pause()
        assert detail.scroll_y > half
        # the tree's cursor did not move meanwhile
        assert screen.tree.current_row is not None and screen.tree.current_row[2] == LONG_OUTPUT


async def test_the_pane_widens_narrows_and_zooms() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _open_long(pilot)
        screen.tree.focus()
        start = screen.detail.size.width
        await pilot.press("greater_than_sign", "greater_than_sign")
        await pilot.pause()
        wider = screen.detail.size.width
        assert wider > start + SIZE[0] // 10
        await pilot.press("less_than_sign", "less_than_sign", "less_than_sign")
        await pilot.pause()
        assert screen.detail.size.width < start
        await pilot.press("z")
        await pilot.pause()
        assert not screen.tree.display and screen.detail.has_focus
        assert screen.detail.outer_size.width == SIZE[0]
        await pilot.press("z")
        await pilot.pause()
        assert screen.tree.display and screen.tree.has_focus


async def test_search_matches_are_marked_in_the_pane_without_moving_text() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        before = screen.detail.plain
        await pilot.press("slash", *"ascii", "enter")
        await settle(pilot)
        detail = screen.detail
        assert detail.highlight is not None
        lines = [detail.render_line(y) for y in range(detail.size.height)]
        assert "\n".join(s.text.rstrip() for s in lines).strip()
        marked = [seg.text for line in lines for seg in line if seg.style and seg.style.reverse]
        assert marked and all(t.lower() == "ascii" for t in marked)
        # the same characters, in the same places, as without the highlight
        detail.set_highlight(None)
        plain = [detail.render_line(y).text for y in range(detail.size.height)]
        assert [s.text for s in lines] == plain
        assert before  # the pane showed something before the search too
