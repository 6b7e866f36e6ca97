"""jless habits inside a tool call: with the detail pane focused on a call, ``j``/``k`` move a
cursor over its arguments, ``yp`` copies the argument's path in the file, ``yy`` its JSON and
``c`` its text; with the tree focused the keys work on the tree's node as before."""

from __future__ import annotations

import orjson
import pytest

from msgviewer.tui.model.rows import CALL, MSG
from msgviewer.tui.screens.main import MainScreen

from .conftest import DEMO, SAMPLES, SIZE, make_app, settle

pytestmark = pytest.mark.anyio

EDIT = (CALL, 0, 7, 0)  # the demo's edit_file call: {"path", "old", "new"}


async def _on_call(pilot, node) -> MainScreen:  # type: ignore[no-untyped-def]
    await settle(pilot)
    screen = pilot.app.main_screen
    screen.tree.go_to(*node)
    await settle(pilot)
    screen.detail.focus()
    await pilot.pause()
    return screen


async def test_yp_yy_and_c_on_an_argument_of_a_call() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _on_call(pilot, EDIT)
        detail = screen.detail
        assert detail.argument_at_cursor() == ()  # the arguments as a whole first
        await pilot.press("k")  # nothing above: stays
        await pilot.press("j", "j")
        await pilot.pause()
        assert detail.argument_at_cursor() == ("old",)
        await pilot.press("y", "p")
        await settle(pilot)
        assert app.clipboard == "$.messages[7].tool_calls[0].args.old"
        old = screen.session.convs[0].messages[7].tool_calls[0].args["old"]
        await pilot.press("y", "y")
        await pilot.pause()
        assert orjson.loads(app.clipboard) == old and app.clipboard.startswith('"')
        await pilot.press("c")
        await pilot.pause()
        assert app.clipboard == old
        await pilot.press("k", "k")
        await pilot.press("y", "p")
        await settle(pilot)
        assert app.clipboard == "$.messages[7].tool_calls[0].args"
        # the tree focused: the keys are the tree node's again
        screen.tree.focus()
        await pilot.press("y", "p")
        await settle(pilot)
        assert app.clipboard == "$.messages[7].tool_calls[0]"


async def test_the_cursor_is_drawn_on_its_line_only_while_the_pane_has_focus() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _on_call(pilot, EDIT)
        detail = screen.detail
        await pilot.press("j")
        await pilot.pause()
        lines = detail.plain.split("\n")
        start = detail.arg_starts[detail.arg_cursor]
        assert lines[start].strip().startswith('"path": ')
        cursor = detail.get_component_rich_style("detail--cursor").bgcolor

        def lit(y: int) -> bool:
            strip = detail.render_line(y - detail.scroll_offset.y)
            return any(s.style is not None and s.style.bgcolor == cursor for s in strip)

        assert lit(start) and not lit(start + 1) and not lit(start - 1)
        screen.tree.focus()
        await pilot.pause()
        assert not lit(start)


async def test_j_moves_past_the_arguments_then_scrolls_and_elsewhere_only_scrolls() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=(120, 14)) as pilot:
        screen = await _on_call(pilot, EDIT)
        detail = screen.detail
        await pilot.press(*"jjjjjj")
        await pilot.pause()
        assert detail.argument_at_cursor() == ("new",)  # the last one; no cursor on "}"
        end = detail.arg_starts[detail.arg_cursor + 1]
        top, height = detail.scroll_offset.y, detail.scrollable_content_region.height
        assert top < end <= top + height  # kept on screen
        screen.tree.go_to(MSG, 0, 3)  # a tool output: no call, j scrolls as in a pager
        await settle(pilot)
        screen.detail.focus()
        await pilot.press("j", "j")
        await pilot.pause()
        assert detail.argument_at_cursor() is None and detail.scroll_offset.y == 2


@pytest.mark.parametrize(
    ("name", "node", "presses", "path"),
    [
        ("anthropic-agent.json", (CALL, 0, 2, 0), 2, "$.messages[1].content[2].input.date"),
        (
            "openai-chat-agent.json",
            (CALL, 0, 2, 0),
            1,
            "$.messages[2].tool_calls[0].function.arguments|fromjson.city",
        ),
        (
            "gemini-agent.json",
            (CALL, 0, 2, 0),
            3,
            "$.contents[1].parts[1].functionCall.args.months[1]",
        ),
        (
            "claude-code-session.jsonl",
            (CALL, 0, 2, 0),
            1,
            "$[6].message.content[0].input.file_path",
        ),
    ],
)
async def test_yp_names_the_argument_in_each_format(name, node, presses, path) -> None:  # type: ignore[no-untyped-def]
    app = make_app(SAMPLES / name)
    async with app.run_test(size=SIZE) as pilot:
        await _on_call(pilot, node)
        await pilot.press(*"j" * presses, "y", "p")
        await settle(pilot)
        assert app.clipboard == path
