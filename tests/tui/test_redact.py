"""The app's Redact… command: every hit is listed before anything changes, Redact applies
them all as one undoable edit, and the preview follows the options."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, OptionList, Static

import msgviewer as mv
from msgviewer.core.redact import redact_messages
from msgviewer.document.secrets import SecretDetector
from msgviewer.tui.screens.redact import RedactScreen

from .conftest import SIZE, make_app, settle

pytestmark = pytest.mark.anyio
TOKEN = "ghp_Zq8rT4pLm2Xv9bN1cD5fG7hJ3kL6mP0sR2tW"


def leaky_file(tmp_path: Path) -> Path:
    conv = mv.Conversation(
        (
            mv.Message.user(f"Deploy with {TOKEN}; mail ops@example.com when done."),
            mv.Message.assistant(
                "", tool_calls=[mv.ToolCall("c1", "sh", {"cmd": f"GH_TOKEN={TOKEN} ./deploy"})]
            ),
            mv.Message.tool("deployed for Bluebird", tool_call_id="c1"),
            mv.Message.assistant("Done."),
        ),
        metadata={"headers": {"x-api-key": "q8Zr2LxP0aVn4Kd7WmTzz"}},
    )
    path = tmp_path / "leaky.json"
    mv.dump(conv, path)
    return path


def _doc(app):  # type: ignore[no-untyped-def]
    return app.main_screen.history.document(0)


async def test_redact_previews_every_hit_then_applies_one_undoable_edit(tmp_path: Path) -> None:
    path = leaky_file(tmp_path)
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        original = _doc(app).messages
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Redact")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, RedactScreen)
        hits = dialog.query_one("#hits", OptionList)
        _, findings, _ = redact_messages(original, SecretDetector())
        assert len(findings) == 3  # in the messages; one more in the request's headers
        assert hits.option_count == 4
        shown = [str(hits.get_option_at_index(i).prompt) for i in range(hits.option_count)]
        assert all(TOKEN not in line for line in shown)
        assert "[REDACTED:github-token:1]" in shown[0] and "ghp_… (40 characters)" in shown[0]
        assert shown[3].startswith("req") and "metadata.headers['x-api-key']" in shown[3]
        summary = str(dialog.query_one("#summary", Static).render())
        assert "3 secret(s) at 4 place(s), 1 in the title or request fields" in summary
        assert _doc(app).messages is original  # nothing changed yet
        # the user's own text joins the preview as it is typed
        dialog.query_one("#literal", Input).value = "Bluebird"
        await settle(pilot)
        assert hits.option_count == 5
        await pilot.press("ctrl+s")
        await settle(pilot)
        after = _doc(app).messages
        headers = _doc(app).conversation.metadata["headers"]
        assert headers["x-api-key"].startswith("[REDACTED:")
        assert _doc(app).history == ("Redact secrets",)
        assert (
            after[0].text
            == "Deploy with [REDACTED:github-token:1]; mail [REDACTED:email:1] when done."
        )
        assert after[1].tool_calls[0].args == {"cmd": "GH_TOKEN=[REDACTED:github-token:1] ./deploy"}
        assert after[2].text == "deployed for [REDACTED:literal:1]"
        assert after[3] is original[3]
        await pilot.press("ctrl+s")  # saved: the file holds no secret, in the request either
        await settle(pilot)
        saved = path.read_text()
        assert TOKEN not in saved and "q8Zr2LxP0aVn4Kd7WmTzz" not in saved
        assert "[REDACTED:literal:1]" in saved
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert _doc(app).messages == original
        headers = _doc(app).conversation.metadata["headers"]
        assert headers == {"x-api-key": "q8Zr2LxP0aVn4Kd7WmTzz"}


async def test_redact_cancel_and_a_bad_pattern_change_nothing(tmp_path: Path) -> None:
    app = make_app(leaky_file(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        original = _doc(app).messages
        app.main_screen.action_redact()
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, RedactScreen)
        dialog.query_one("#pattern", Input).value = "(unclosed"
        await settle(pilot)
        assert "bad pattern" in str(dialog.query_one("#summary", Static).render())
        await pilot.press("ctrl+s")  # nothing to apply while the pattern is bad
        await settle(pilot)
        assert app.screen is dialog
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, RedactScreen)
        assert _doc(app).messages is original and _doc(app).history == ()


async def test_export_writes_an_html_page(tmp_path: Path) -> None:
    from msgviewer.tui.screens.export import ExportScreen

    path = leaky_file(tmp_path)
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("X")
        dialog = app.screen
        assert isinstance(dialog, ExportScreen)
        names = [f.name for f in dialog.formats]
        dialog.query_one("#formats", OptionList).highlighted = names.index("html")
        await pilot.pause()
        target = dialog.query_one("#path", Input).value
        assert target == str(path.with_suffix(".html"))
        await pilot.press("enter")  # enter on the format writes
        await settle(pilot)
    page = Path(target).read_text()
    assert page.startswith("<!DOCTYPE html>") and 'id="c0-m3"' in page
