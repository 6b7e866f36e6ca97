"""The app driven by keys, with assertions on its state."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from msgviewer import Message, TextBlock, ToolCall, load
from msgviewer.core.blocks import ReasoningBlock
from msgviewer.formats import Conversation
from msgviewer.tui.app import MsgViewerApp
from msgviewer.tui.model.rows import CALL, MSG
from msgviewer.tui.screens.main import MainScreen

from .conftest import DEMO, SAMPLES, SIZE, make_app, settle

pytestmark = pytest.mark.anyio


def _main(app: MsgViewerApp) -> MainScreen:
    return app.main_screen


def _row(app: MsgViewerApp):
    return _main(app).tree.current_row


async def test_t_jumps_from_a_call_to_its_result_and_back() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j", "j", "l")  # message 2: reasoning, text, two parallel calls
        await pilot.press("j", "j", "j", "j")
        await pilot.pause()
        assert _row(app)[:4] == (CALL, 0, 2, 1)  # the grep call
        await pilot.press("t")
        await pilot.pause()
        assert _row(app)[:3] == (MSG, 0, 4)  # grep's result is message 4
        await pilot.press("t")
        await pilot.pause()
        assert _row(app)[:4] == (CALL, 0, 2, 1)


async def test_t_on_an_unanswered_call_stays_put() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("G", "l", "j", "j")  # last message: text, then the unanswered call
        await pilot.pause()
        row = _row(app)
        assert row[0] == CALL
        await pilot.press("t")
        await pilot.pause()
        assert _row(app) == row


async def test_search_next_and_previous() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"run_tests", "enter")
        await settle(pilot)
        screen = _main(app)
        messages = load(DEMO)[0].messages
        expected = [m for m, msg in enumerate(messages) if "run_tests" in repr(msg)]
        assert [m for _, m in screen.hits] == expected
        assert _row(app)[2] == expected[0]
        await pilot.press("n")
        await pilot.pause()
        assert _row(app)[2] == expected[1]
        await pilot.press("n", "N", "N")
        await pilot.pause()
        assert _row(app)[2] == expected[0]
        await pilot.press("N")  # wraps round to the last match
        await pilot.pause()
        assert _row(app)[2] == expected[-1]


async def test_filter_screen_preset_shows_only_tool_calls() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f")
        await pilot.pause()
        await pilot.click("#preset-1")  # "tool calls"
        await pilot.pause()
        model = _main(app).model
        assert model is not None and model.filter.active
        shown = [model.message(r[1], r[2]) for r in model.rows]
        assert shown and all(m.role == "assistant" and m.tool_calls for m in shown)


async def test_filter_screen_toggles_a_role_off() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f", "down", "space", "enter")  # the second role is "user"
        await pilot.pause()
        model = _main(app).model
        roles = {model.message(r[1], r[2]).role for r in model.rows}
        assert roles == {"system", "assistant", "tool"}


async def test_go_to_message_number() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("colon", "1", "2", "enter")
        await pilot.pause()
        assert _row(app)[:3] == (MSG, 0, 12)


def _claude_lines() -> list[bytes]:
    return (SAMPLES / "claude-code-session.jsonl").read_bytes().splitlines(keepends=True)


async def test_follow_picks_up_appended_lines_and_waits_for_a_half_line(tmp_path: Path) -> None:
    lines = _claude_lines()
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"".join(lines[:4]))
    app = make_app(path, follow=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = _main(app)
        assert screen.follower is not None
        before = screen.session.message_count
        rest = b"".join(lines[4:])
        half = len(rest) - len(lines[-1]) // 2
        with path.open("ab") as fh:
            fh.write(rest[:half])  # everything but the second half of the last line
        screen.poll_follow()
        await settle(pilot)
        middle = screen.session.message_count
        assert middle > before
        assert screen.error is None
        with path.open("ab") as fh:
            fh.write(rest[half:])
        screen.poll_follow()
        await settle(pilot)
        full = sum(len(c.messages) for c in load(path))
        assert screen.session.message_count == full >= middle


async def test_follow_keeps_the_cursor_at_the_end_when_it_was_there(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    lines = _claude_lines()
    path.write_bytes(b"".join(lines[:4]))
    app = make_app(path, follow=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("G")
        screen = _main(app)
        with path.open("ab") as fh:
            fh.write(b"".join(lines[4:]))
        screen.poll_follow()
        await settle(pilot)
        assert screen.tree.cursor == len(screen.model.rows) - 1


async def test_F_turns_following_on_and_off(tmp_path: Path) -> None:
    path = tmp_path / "demo.json"
    shutil.copy(DEMO, path)
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("F")
        assert _main(app).follower is not None
        await pilot.press("F")
        assert _main(app).follower is None


HOSTILE = (
    "[bold]not bold[/bold] [link=https://evil.example]link[/link] [@click=app.quit]click[/] "
    "\x1b[31mred\x1b[0m \x1b]52;c;SGVsbG8=\x07 \x1b]8;;https://evil.example\x1b\\x\x1b]8;;\x1b\\"
)


def _screen_text(app: MsgViewerApp) -> str:
    svg = app.export_screenshot()
    text = html.unescape(re.sub(r"<[^>]+>", "", svg))
    return text.replace("\xa0", " ")


async def test_markup_and_escapes_in_content_are_shown_literally() -> None:
    conv = Conversation(
        (
            Message.user(HOSTILE),
            Message.assistant(
                [TextBlock(HOSTILE)], tool_calls=[ToolCall("c1", "[red]tool[/red]", {"a": HOSTILE})]
            ),
            Message.tool(HOSTILE, tool_call_id="c1", name="[b]n[/b]"),
        )
    )
    app = MsgViewerApp(conversations=[conv])
    async with app.run_test(size=(200, 40)) as pilot:
        await settle(pilot)
        assert app.is_running  # the [@click=app.quit] text did not quit anything
        for keys in ((), ("j", "l"), ("j", "j", "j", "j", "l")):
            await pilot.press(*keys)
            await pilot.pause()
            text = _screen_text(app)
            assert "[bold]not bold[/bold]" in text
            assert "\x1b" not in text and "\x07" not in text
            assert "␛[31mred" in text
        assert "[red]tool[/red]" in text and "[b]n[/b]" in text
        # the tree's own lines carry no escape either
        tree = _main(app).tree
        for y in range(len(tree.model.rows)):
            assert "\x1b" not in tree.render_line(y).text


async def test_a_file_that_fails_to_load_shows_the_error(tmp_path: Path) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "msgviewer", "version": 1, "messages": [{"role": "robot"}]}')
    app = make_app(bad)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        error = _main(app).error
        assert error is not None and "broken.json" in error and "$.messages[0].role" in error
        assert "robot" in _screen_text(app)


async def test_help_screen_lists_every_tree_and_screen_key() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=(SIZE[0], 90)) as pilot:  # tall enough to show every key
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        text = _screen_text(app)
        for description in (
            "Call ⇄ result",
            "Search",
            "Filter",
            "Usage",
            "Copy JSON",
            "Save media",
        ):
            assert description in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)


async def test_copy_puts_the_selected_node_on_the_clipboard() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j", "j", "j", "j", "j")  # message 2 (open), its read_file call
        await pilot.press("c")
        assert app.clipboard == '{\n  "path": "src/export/csv.py"\n}'
        await pilot.press("y")
        assert '"name": "read_file"' in app.clipboard and '"id": "toolu_01ReadCsv"' in app.clipboard


async def test_w_saves_an_image_to_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j", "l", "j", "j")  # message 1's screenshot
        await pilot.press("w")
        await pilot.pause()
        await pilot.press("enter")  # accept the suggested name
        await pilot.pause()
    image = next(b for b in load(DEMO)[0].messages[1].blocks if b.type == "image")
    assert (tmp_path / "export.png").read_bytes() == image.decoded()


async def test_r_shows_text_raw_instead_of_markdown() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        detail = _main(app).detail
        # the system prompt, rendered: inline code without its backticks
        assert "read_file" in detail.plain and "`read_file`" not in detail.plain
        await pilot.press("r")
        await pilot.pause()
        assert "`read_file`" in detail.plain
        assert "`read_file`" in _screen_text(app)  # backticks as typed


async def test_palette_offers_every_screen_and_tree_action() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = {c.title for c in app.get_system_commands(app.screen)}
        for title in ("Search", "Filter", "Usage", "Problems", "Call ⇄ result", "Copy JSON"):
            assert title in titles
        assert "Filter: tool calls" in titles


async def test_themes_change_the_tree_colours() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = _main(app).tree
        before = tree.render_line(2)
        app.theme = "textual-light"
        await pilot.pause()
        after = tree.render_line(2)
        assert before.text == after.text and list(before) != list(after)


async def test_rows_that_read_as_before_are_not_drawn_again_when_analyses_arrive() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = _main(app).tree
        before = [tree.render_line(y) for y in range(4)]
        tree.data_changed()  # what the analyses arriving do
        assert all(tree.render_line(y) is line for y, line in enumerate(before))
        tree.highlight = re.compile("user")  # rows that match are drawn again, marked
        tree.data_changed()
        matched = [y for y, line in enumerate(before) if "user" in line.text]
        assert matched and all(list(tree.render_line(y)) != list(before[y]) for y in matched)


async def test_detail_pane_scrolls_and_wraps_to_its_width() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = _main(app)
        main.tree.go_to(MSG, 0, 3)  # a long file the tool read
        await settle(pilot)
        detail = main.detail
        assert not detail.children  # drawn line by line: nothing mounted per node
        lines = detail.plain.splitlines()
        assert len(lines) > detail.size.height
        assert all(len(line) <= detail.scrollable_content_region.width for line in lines)
        detail.focus()
        await pilot.press("end")
        await settle(pilot)
        assert detail.scroll_offset.y == len(lines) - detail.scrollable_content_region.height
        assert lines[-1].strip() in _screen_text(app)
        await pilot.resize_terminal(SIZE[0] + 40, SIZE[1])
        await settle(pilot)
        assert len(detail.plain.splitlines()) < len(lines)  # wider: fewer wrapped lines


async def test_text_selected_in_the_detail_pane_is_drawn_and_copied() -> None:
    from textual.geometry import Offset
    from textual.selection import Selection

    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        detail = _main(app).detail
        line = next(i for i, text in enumerate(detail.plain.splitlines()) if "Patchwork" in text)
        before = detail.render_line(line)
        app.screen.selections = {detail: Selection(Offset(1, line), Offset(9, line + 1))}
        await settle(pilot)
        assert app.screen.get_selected_text() == (
            detail.plain.splitlines()[line][1:] + "\n" + detail.plain.splitlines()[line + 1][:9]
        )
        chosen = detail.render_line(line)
        assert chosen.text == before.text and chosen != before  # same text, drawn selected
        app.screen.selections = {detail: Selection(Offset(0, line), Offset(500, line))}
        await settle(pilot)
        assert detail.render_line(line).text == before.text  # past the line's end: no harm


async def test_detail_pane_takes_a_new_themes_colours() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        detail = _main(app).detail
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        await settle(pilot)
        [first, *_] = list(detail.render_line(0))
        assert first.style.bgcolor == detail.rich_style.bgcolor  # drawn again in the new colours


async def test_dragging_the_mouse_in_the_detail_pane_selects_the_text_under_it() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        main = _main(app)
        detail = main.detail
        lines = detail.plain.splitlines()
        line = next(i for i, text in enumerate(lines) if "Patchwork" in text)
        # the pane's padding is one cell: column x is character x - 1, the last one included
        await pilot.mouse_down(detail, offset=(3, line))
        await pilot.hover(detail, offset=(9, line + 1))
        await pilot.mouse_up(detail, offset=(9, line + 1))
        await pilot.pause()
        assert set(app.screen.selections) == {detail}  # the tree is not part of it
        assert app.screen.get_selected_text() == lines[line][2:] + "\n" + lines[line + 1][:9]
        main.tree.go_to(MSG, 0, 3)  # other text in the pane: the old selection means nothing
        await settle(pilot)
        assert detail.text_selection is None


async def _detail_of_first_message(pilot: Any) -> Any:
    """The detail pane, once it shows the first message of the first conversation."""
    await settle(pilot)
    _main(pilot.app).tree.go_to(MSG, 0, 0)
    await settle(pilot)
    return _main(pilot.app).detail


async def test_a_selection_over_wide_characters_is_drawn_over_those_characters() -> None:
    from textual.geometry import Offset
    from textual.selection import Selection

    conv = Conversation((Message.user("漢字テキスト and 🙂🎉 emoji"),))
    app = MsgViewerApp(conversations=[conv])
    async with app.run_test(size=SIZE) as pilot:
        detail = await _detail_of_first_message(pilot)
        line = next(i for i, text in enumerate(detail.plain.splitlines()) if "漢字" in text)
        text = detail.plain.splitlines()[line]
        start = text.index("テ")
        app.screen.selections = {detail: Selection(Offset(start, line), Offset(start + 3, line))}
        await settle(pilot)
        assert app.screen.get_selected_text() == "テキス"
        selected = app.screen.get_component_rich_style("screen--selection").bgcolor
        drawn = "".join(
            segment.text
            for segment in detail.render_line(line - detail.scroll_offset.y)
            if segment.style is not None and segment.style.bgcolor == selected
        )
        assert drawn == "テキス"


async def test_detail_pane_narrower_than_an_indent_still_shows_the_text() -> None:
    conv = Conversation(
        (
            Message.assistant(
                [ReasoningBlock(text="ponder"), TextBlock("said")],
                tool_calls=[ToolCall("c1", "f", {"k": 7})],
            ),
        )
    )
    app = MsgViewerApp(conversations=[conv])
    async with app.run_test(size=SIZE) as pilot:
        detail = await _detail_of_first_message(pilot)
        for width in (1, 2, 3):  # the reasoning bar takes two cells, JSON's indent one
            detail.styles.min_width = 0
            detail.styles.width = width + 4  # padding and the scrollbar's gutter
            await settle(pilot)
            assert detail.scrollable_content_region.width == width
            folded = "".join(detail.plain.replace("▌", "").split())
            for word in ("ponder", '"k":7'):
                assert word in folded, (width, detail.plain)


async def test_focus_moving_in_and_out_of_the_detail_pane_keeps_its_lines() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        detail = _main(app).detail
        lines = detail._lines
        await pilot.press("tab")
        await settle(pilot)
        assert app.focused is detail
        await pilot.press("shift+tab")
        await settle(pilot)
        assert detail._lines is lines  # not laid out again: same colours, same lines
