"""Small things a new user trips on: a name run into its text, the ``~`` without a legend, a
footer cut at 90 columns, header pieces that start with a space, dialogs that need a second
key, a save that ends in "No unsaved changes", a clipped prompt, a screenshot with nowhere to go.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from textual.widgets import Footer, Label
from textual.widgets._footer import FooterKey

from msgviewer import Conversation, Message, load
from msgviewer.tui.app import MsgViewerApp
from msgviewer.tui.model.rows import MSG
from msgviewer.tui.screens.export import ExportScreen
from msgviewer.tui.screens.filter import FilterScreen
from msgviewer.tui.screens.help import HelpScreen
from msgviewer.tui.screens.prompt import PromptScreen
from msgviewer.tui.screens.usage import UsageScreen

from .conftest import DEMO, SIZE, make_app, settle

pytestmark = pytest.mark.anyio


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    target = tmp_path / "run.json"
    shutil.copy(DEMO, target)
    return target


def _named() -> Conversation:
    return Conversation(
        (
            Message.user("Describe the chart", name="alice"),
            Message.assistant("A rising line."),
        ),
        format="openai-chat",
    )


async def test_a_users_name_is_set_apart_from_the_text() -> None:
    app = MsgViewerApp(conversations=[_named()])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tree = app.main_screen.tree
        tree.go_to(MSG, 0, 0)
        await settle(pilot)
        line = tree.render_line(tree.cursor - int(tree.scroll_y)).text
        assert "alice: Describe the chart" in line


async def test_the_token_estimate_has_a_legend_in_help_and_usage() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        help_text = str(app.screen.query_one(".about").render())
        assert "~" in help_text and "estimate" in help_text
        await pilot.press("escape", "u")
        await settle(pilot)
        assert isinstance(app.screen, UsageScreen)
        captions = " ".join(str(s.render()) for s in app.screen.query(".caption"))
        assert "~ before a count" in captions


async def test_help_scrolls_with_j_and_k() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=(100, 20)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        scroll = app.screen._scroll
        assert scroll.max_scroll_y > 3
        await pilot.press("j", "j", "j")
        await pilot.pause()
        assert scroll.scroll_y == 3
        await pilot.press("k")
        await pilot.pause()
        assert scroll.scroll_y == 2
        await pilot.press("G")
        await pilot.pause()
        assert scroll.scroll_y == scroll.max_scroll_y


async def test_the_essential_keys_fit_a_90_column_footer(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=(90, 30)) as pilot:
        await settle(pilot)
        await pilot.press("j", "d", "o")  # an edit: Save and Undo join the footer
        await settle(pilot)
        footer = app.screen.query_one(Footer)
        shown = {
            key.description: key.region.right for key in footer.query(FooterKey) if key.region.width
        }
        for wanted in ("Search", "Filter", "Edit", "Undo", "Save", "Help", "Quit"):
            assert wanted in shown, f"{wanted} is not in the footer"
            assert shown[wanted] <= 90 - len("^p palette"), f"{wanted} is cut off"


async def test_titles_do_not_start_a_piece_with_a_space() -> None:
    # (SVG renderers drop a piece's leading spaces: "toolmessage 4 of 13", "msgviewer—")
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        title = app.format_title("msgviewer", "run.json")
        assert title.plain == "msgviewer — run.json"
        assert not any(title.plain[span.start] == " " for span in title.spans)
        detail = app.main_screen.detail
        heading = detail.parts[0].body
        assert "user  message 1 of" in heading.plain or "message 0 of" in heading.plain
        assert not any(heading.plain[span.start] == " " for span in heading.spans)
        svg = app.export_screenshot()
        assert "msgviewer&#160;</text>" in svg  # the space ends the title's piece


async def test_filter_presets_have_keys() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f")
        assert isinstance(app.screen, FilterScreen)
        await pilot.press("2")  # tool calls
        await settle(pilot)
        from msgviewer.tui.screens.filter import PRESETS

        assert app.main_screen.model.filter == PRESETS["tool calls"]


async def test_enter_in_the_format_list_writes(demo: Path, tmp_path: Path) -> None:
    target = tmp_path / "copy.json"
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("S")
        dialog = app.screen
        assert isinstance(dialog, ExportScreen)
        dialog.query_one("#path").value = str(target)
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, ExportScreen)
    assert load(target)[0].messages == load(DEMO)[0].messages


async def test_a_save_ends_in_saved_not_in_no_unsaved_changes(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j", "d", "o")
        await settle(pilot)
        assert app.main_screen.has_unsaved()
        await pilot.press("ctrl+s")
        await settle(pilot)
        said = [n.message for n in app._notifications]
        assert not app.main_screen.has_unsaved()
        assert said[-1] == "Saved run.json"
        assert "No unsaved changes" not in said


async def test_the_rename_prompt_shows_the_whole_question() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        await pilot.press("o")  # file order: the walk below is the file's
        await settle(pilot)
        await pilot.press("j", "j", "l", "j", "j", "j", "R")  # message 2's first call
        await settle(pilot)
        assert isinstance(app.screen, PromptScreen)
        label = app.screen.query_one(Label)
        question = app.screen.title_text
        assert "its result in message" in question
        shown = "".join(label.render_line(y).text.strip() + " " for y in range(label.size.height))
        assert " ".join(shown.split()) == " ".join(question.split())


async def test_the_palette_screenshot_goes_beside_the_file(demo: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(demo.parent / "nohome"))  # no ~/Downloads
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.deliver_screenshot()
        await settle(pilot)
        saved = list(demo.parent.glob("*.svg"))
        assert len(saved) == 1
        assert list(app._notifications)[-1].message == f"Saved screenshot to {saved[0]}"
