"""Editing in the app, driven by keys: assertions on the Document and on the file saved.

Every test works on a copy of the demo sample (a msgviewer-format agent run: message 2 calls
read_file and grep, answered by tool messages 3 and 4; message 14's call is unanswered).
"""

from __future__ import annotations

import errno
import gc
import os
import shutil
import sys
import weakref
from pathlib import Path

import pytest

from msgviewer import Message, count_tokens_approximately, link_tools, load, trim
from msgviewer.tui.app import MsgViewerApp
from msgviewer.tui.model.rows import CALL, MSG
from msgviewer.tui.screens.confirm import ConfirmScreen
from msgviewer.tui.screens.editor import EditorScreen
from msgviewer.tui.screens.export import ExportScreen
from msgviewer.tui.screens.trim import TrimScreen

from .conftest import DEMO, SIZE, make_app, settle

pytestmark = pytest.mark.anyio


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    target = tmp_path / "run.json"
    shutil.copy(DEMO, target)
    return target


def _doc(app: MsgViewerApp):
    return app.main_screen.history.document(0)


def _messages(app: MsgViewerApp) -> tuple[Message, ...]:
    return _doc(app).messages


async def _type_over(app: MsgViewerApp, text: str) -> None:
    """Replace the editor's text as a user would: select all, then type."""
    area = app.screen.query_one("TextArea")
    area.select_all()
    area.replace(text, *area.selection)


async def test_text_edit_is_saved_and_read_back(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("e")  # message 0: the system prompt
        assert isinstance(app.screen, EditorScreen)
        await _type_over(app, "You are terse.")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert _messages(app)[0].text == "You are terse."
        assert _doc(app).dirty
        assert "unsaved" in app.main_screen.sub_title
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not _doc(app).dirty
    reread = load(demo)[0].messages
    original = load(DEMO)[0].messages
    assert reread[0].content == "You are terse."
    assert reread[1:] == original[1:]


async def test_tool_result_text_edit(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("colon", "4", "enter", "e")  # the grep result
        await _type_over(app, "src/export/csv.py:33: no match")
        await pilot.press("ctrl+s", "ctrl+s")
        await settle(pilot)
    reread = load(demo)[0].messages
    assert reread[4].content == "src/export/csv.py:33: no match"
    assert reread[4].tool_call_id == "toolu_02GrepEnc"


async def test_json_editor_rejects_invalid_input_and_keeps_the_text(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        before = _messages(app)
        await pilot.press("J")
        editor = app.screen
        assert isinstance(editor, EditorScreen)
        broken = '{"role": "system",\n "content": "x",,\n}'
        await _type_over(app, broken)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is editor  # still open, with the user's text
        assert editor.area.text == broken
        error = str(editor.query_one("#error").render())
        assert "line 2" in error and "not valid JSON" in error
        wrong_shape = (
            '{\n  "role": "system",\n  "content": [\n    {"type": "txt", "text": "x"}\n  ]\n}'
        )
        await _type_over(app, wrong_shape)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is editor
        error = str(editor.query_one("#error").render())
        assert "line 4" in error and "$.content[0].type" in error and "'txt'" in error
        assert editor.area.cursor_location[0] == 3  # on the line that is wrong
        assert _messages(app) == before  # nothing applied
        await _type_over(app, wrong_shape.replace('"txt"', '"text"'))
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not isinstance(app.screen, EditorScreen)
        assert _messages(app)[0].content[0].text == "x"
        assert _messages(app)[1:] == before[1:]


async def test_tool_call_arguments_as_json(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # message 2 (open: its calls hold their results), then reasoning, text, call 0
        await pilot.press("j", "j", "j", "j", "j")
        assert app.main_screen.tree.current_row[:4] == (CALL, 0, 2, 0)
        await pilot.press("e")
        await _type_over(app, '["not", "an object"]')
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "must be a JSON object" in str(app.screen.query_one("#error").render())
        await _type_over(app, '{"path": "README.md"}')
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert _messages(app)[2].tool_calls[0].args == {"path": "README.md"}


async def test_renaming_a_call_id_renames_its_result(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("j", "j", "l", "j", "j", "j", "j", "R")  # grep's call
        input_ = app.screen.query_one("Input")
        input_.value = "call_grep"
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
    messages = load(demo)[0].messages
    assert messages[2].tool_calls[1].id == "call_grep"
    assert messages[4].tool_call_id == "call_grep"
    links = link_tools(messages)
    assert links.result_for("call_grep").message_index == 4


async def test_delete_with_result(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        original = _messages(app)
        await pilot.press("j", "j", "d")  # message 2 calls read_file and grep
        assert isinstance(app.screen, ConfirmScreen)
        assert "answered in message 3, 4" in app.screen.question
        await pilot.press("w")
        await settle(pilot)
        assert _messages(app) == original[:2] + original[5:]
        await pilot.press("ctrl+s")
        await settle(pilot)
    messages = load(demo)[0].messages
    assert len(messages) == len(original) - 3
    links = link_tools(messages)
    assert not links.orphan_results


async def test_deleting_a_result_alone_when_asked(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        original = _messages(app)
        await pilot.press("colon", "4", "enter", "d")
        assert "answers tool calls in message 2" in app.screen.question
        await pilot.press("o")
        await settle(pilot)
        assert _messages(app) == original[:4] + original[5:]


async def test_restructure_role_insert_duplicate_move(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        original = _messages(app)
        await pilot.press("R", "u")  # system -> user
        await settle(pilot)
        assert _messages(app)[0].role == "user"
        await pilot.press("i", "a")  # insert an assistant message after 0
        await _type_over(app, "Noted.")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert [m.role for m in _messages(app)[:3]] == ["user", "assistant", "user"]
        assert _messages(app)[1].text == "Noted."
        assert app.main_screen.tree.current_row[:3] == (MSG, 0, 1)
        await pilot.press("D")
        await settle(pilot)
        assert _messages(app)[2] == _messages(app)[1]
        # the call message 4 (was 2) moves up past the user message 3 with its two results
        await pilot.press("colon", "4", "enter", "alt+up")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("w")
        await settle(pilot)
        roles = [m.role for m in _messages(app)[:7]]
        assert roles == ["user", "assistant", "assistant", "assistant", "tool", "tool", "user"]
        assert app.main_screen.tree.current_row[:3] == (MSG, 0, 3)
        assert not link_tools(_messages(app)).orphan_results
        # five edits undone one by one give the file back
        for _ in range(5):
            await pilot.press("ctrl+z")
            await settle(pilot)
        assert _messages(app) == original
        assert not _doc(app).dirty


async def test_undo_redo_across_several_edits(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("o")  # file order: one row per message
        await settle(pilot)
        states = [_messages(app)]
        for key in ("D", "D", "j", "d"):
            await pilot.press(key)
            await settle(pilot)
            if _messages(app) is not states[-1]:
                states.append(_messages(app))
        assert len(states) == 4
        assert _doc(app).history == (
            "Duplicate message 0",
            "Duplicate message 1",
            "Delete message 3",
        )
        for expected in reversed(states[:-1]):
            await pilot.press("ctrl+z")
            await settle(pilot)
            assert _messages(app) == expected
        await pilot.press("ctrl+y", "ctrl+y")
        await settle(pilot)
        assert _messages(app) == states[2]
        assert len(app.main_screen.model.rows) == len(states[2])


async def test_a_hundred_and_twenty_undo_steps(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        original = _messages(app)
        for _ in range(120):
            await pilot.press("D")
        await settle(pilot)
        assert len(_messages(app)) == len(original) + 120
        for _ in range(120):
            await pilot.press("ctrl+z")
        await settle(pilot)
        assert _messages(app) == original


async def test_quit_with_unsaved_changes_asks(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("q")
        await pilot.pause()
        assert app._exit  # nothing to save: quits at once
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("D", "q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "unsaved changes in run.json" in app.screen.question
        await pilot.press("c")  # cancel: still here, still dirty
        await pilot.pause()
        assert not app._exit and _doc(app).dirty
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("s")  # save and quit
        await settle(pilot)
        assert app._exit
    assert len(load(demo)[0].messages) == len(load(DEMO)[0].messages) + 1


async def test_quit_without_saving_leaves_the_file(demo: Path) -> None:
    before = demo.read_bytes()
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("d", "q", "d")
        await settle(pilot)
        assert app._exit
    assert demo.read_bytes() == before


async def test_trim_preview_then_apply_then_undo(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        original = _messages(app)
        await pilot.press("T")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, TrimScreen)
        budget = dialog.query_one("#budget")
        budget.value = "1500"
        await settle(pilot)
        expected = trim(
            list(original),
            max_tokens=1500,
            include_system=True,
            start_on="user",
            keep_tool_pairs=True,
        )
        kept = {id(m) for m in expected}
        dropped = {i for i, m in enumerate(original) if id(m) not in kept}
        assert dropped and app.main_screen.tree._cut == (0, dropped)
        summary = str(dialog.query_one("#summary").render())
        tokens = count_tokens_approximately(original)
        assert f"{tokens:,} → {count_tokens_approximately(expected):,}" in summary
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert list(_messages(app)) == expected
        assert app.main_screen.tree._cut is None
        assert _doc(app).history == ("Trim to 1,500 tokens",)
        links = link_tools(_messages(app))
        assert not links.orphan_results and not links.unanswered_calls[:-1]
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert _messages(app) == original


async def test_trim_cancel_changes_nothing(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("T")
        await settle(pilot)
        assert app.main_screen.tree._cut is not None
        await pilot.press("escape")
        await settle(pilot)
        assert app.main_screen.tree._cut is None and not _doc(app).dirty


async def test_fix_a_problem_from_the_panel(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert [p.code for p in app.main_screen.session.convs[0].problems] == ["unanswered-call"]
        await pilot.press("p", "x")
        await settle(pilot)
        assert app.main_screen.session.convs[0].problems == []
        assert link_tools(_messages(app)).unanswered_calls == ()
        assert _doc(app).history == ("Add a placeholder result for toolu_07OpenPr",)


async def test_merge_runs_from_the_palette(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("D")  # two system messages in a row
        await settle(pilot)
        await pilot.press("ctrl+p", *"merge runs")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert len(_messages(app)) == len(load(DEMO)[0].messages)
        assert _doc(app).history[-1] == "Merge runs"
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert len(_messages(app)) == len(load(DEMO)[0].messages) + 1


async def test_export_with_a_lossy_warning(demo: Path, tmp_path: Path) -> None:
    target = tmp_path / "run-openai.json"
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("X")
        dialog = app.screen
        assert isinstance(dialog, ExportScreen)
        names = [f.name for f in dialog.formats]
        dialog.query_one("#formats").highlighted = names.index("openai-chat")
        await pilot.pause()
        assert dialog.query_one("#path").value.endswith("run.openai-chat.json")
        dialog.query_one("#path").value = str(target)
        await pilot.press("enter")  # enter on the format writes
        await settle(pilot)
        question = app.screen
        assert isinstance(question, ConfirmScreen)
        assert "loses data" in question.question
        assert any("reasoning" in line for line in question.details)
        assert not target.exists()
        await pilot.press("w")
        await settle(pilot)
        assert not _doc(app).dirty and _doc(app).path == str(demo)  # a copy: still run.json
    exported = load(target, format="openai-chat")
    assert exported[0].format == "openai-chat"
    assert [m.role for m in exported[0].messages] == [m.role for m in load(DEMO)[0].messages]


async def test_export_cancelled_at_the_lossy_warning_writes_nothing(
    demo: Path, tmp_path: Path
) -> None:
    target = tmp_path / "out.json"
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("X")
        dialog = app.screen
        names = [f.name for f in dialog.formats]
        dialog.query_one("#formats").highlighted = names.index("openai-chat")
        dialog.query_one("#path").value = str(target)
        await pilot.press("enter")  # enter on the format writes
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
    assert not target.exists()


async def test_failed_save_keeps_the_file_and_the_edits(
    demo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = demo.read_bytes()
    import msgviewer.formats.io as io_module

    def disk_full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(io_module.os, "fsync", disk_full)
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("D", "ctrl+s")
        await settle(pilot)
        question = app.screen
        assert isinstance(question, ConfirmScreen)
        assert question.question == f"Could not save {demo.name}: no space left on device"
        assert demo.read_bytes() == before  # the original is intact
        assert not [p for p in demo.parent.iterdir() if p.name.startswith(".")]  # no leftovers
        assert _doc(app).dirty and len(_messages(app)) == 16  # the edit is kept
        monkeypatch.undo()
        await pilot.press("s")  # save elsewhere
        dialog = app.screen
        assert isinstance(dialog, ExportScreen)
        other = tmp_path / "elsewhere.json"
        dialog.query_one("#path").value = str(other)
        await pilot.press("tab", "enter")
        await settle(pilot)
        assert not _doc(app).dirty and _doc(app).path == str(other)
    assert demo.read_bytes() == before
    assert len(load(other)[0].messages) == 16


async def test_file_changed_on_disk_asks_before_overwriting(demo: Path) -> None:
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("D")
        await settle(pilot)
        changed = demo.read_bytes().replace(b"Patchwork", b"Someone else")
        demo.write_bytes(changed)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "changed on disk" in app.screen.question
        assert demo.read_bytes() == changed and _doc(app).dirty
        await pilot.press("o")  # overwrite anyway
        await settle(pilot)
        assert not _doc(app).dirty
    assert len(load(demo)[0].messages) == 16


async def test_save_as_another_format(demo: Path, tmp_path: Path) -> None:
    target = tmp_path / "run-anthropic.json"
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("S")
        dialog = app.screen
        names = [f.name for f in dialog.formats]
        assert "markdown" not in names  # save as: formats that can be opened again
        dialog.query_one("#formats").highlighted = names.index("anthropic")
        dialog.query_one("#path").value = str(target)
        await pilot.press("enter")  # enter on the format writes
        await settle(pilot)
        if isinstance(app.screen, ConfirmScreen):  # whatever anthropic cannot carry
            await pilot.press("w")
            await settle(pilot)
        assert _doc(app).path == str(target) and _doc(app).format == "anthropic"
    assert load(target)[0].format == "anthropic"


async def test_edit_in_external_editor(demo: Path, tmp_path: Path, monkeypatch) -> None:
    script = tmp_path / "fake-editor.py"
    script.write_text(
        "import sys\n"
        "p = sys.argv[1]\n"
        "text = open(p, encoding='utf-8').read()\n"
        "open(p, 'w', encoding='utf-8').write(text.replace('Patchwork', 'Quilt'))\n"
    )
    monkeypatch.setenv("VISUAL", f"{sys.executable} {script}")
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert _messages(app)[0].text.startswith("You are Quilt")
        # message 1 has several blocks: it goes out as JSON; broken JSON comes back into the
        # app's editor with the user's text and what is wrong
        breaker = tmp_path / "breaker.py"
        breaker.write_text("import sys\nopen(sys.argv[1], 'w').write('{')\n")
        monkeypatch.setenv("VISUAL", f"{sys.executable} {breaker}")
        await pilot.press("j", "ctrl+o")
        await settle(pilot)
        assert isinstance(app.screen, EditorScreen)
        assert app.screen.area.text == "{"
        assert "not valid JSON" in str(app.screen.query_one("#error").render())


async def test_an_edit_leaves_the_old_tool_links_to_the_analysis_worker(demo: Path) -> None:
    """Nothing the interface shows keeps the links an edit replaces, not the detail pane that
    showed a message's calls with them: the session hands them to the analysis worker, which
    frees them (at a million messages that takes 0.4 s, which the next key would pay)."""
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("colon", "2", "enter")  # message 2: its calls and their results
        await settle(pilot)
        session = app.main_screen.session
        old = weakref.ref(session.convs[0].links)
        assert "answered in message 3" in app.main_screen.detail.plain
        await pilot.press("colon", "0", "enter", "e")  # the system prompt: no calls
        await _type_over(app, "You are terse.")
        await pilot.press("ctrl+s")
        await settle(pilot)  # (the analysis worker done: it freed what the edit replaced)
        assert session.analysed
        assert session.convs[0].links is not None
        gc.collect()
        assert old() is None


async def test_an_edit_sets_the_history_it_makes_aside_from_the_collector(
    demo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An edit makes a new version of the history (a tuple of every message) and of the
    search index: set aside from the collector as soon as they are made, so that no young
    collection walks them (at a million messages each such walk took 40-95 ms, within the
    key). The analyses that follow set aside what lives too; here they do not, so only the
    edit's own step can."""
    from msgviewer.tui.model import session

    monkeypatch.setattr(session, "keep_out_of_collections", lambda *a, **k: None)
    app = make_app(demo)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("o", "slash", *"read", "enter")  # file order; a search to keep
        await settle(pilot)
        await pilot.press("escape", "j")
        for key in ("d", "ctrl+z"):
            before = _messages(app)
            await pilot.press(key)
            await settle(pilot)
            messages, hay = _messages(app), app.main_screen.search_index._hay[0]
            assert messages is not before and hay
            assert not any(o is messages or o is hay for o in gc.get_objects())


def test_made_to_last_pauses_collections_and_freezes_what_it_made() -> None:
    from msgviewer.tui.model.session import made_to_last

    assert gc.isenabled()
    with made_to_last():
        assert not gc.isenabled()
        made = [[n] for n in range(100)]
    assert gc.isenabled()
    assert not any(o is made for o in gc.get_objects())
