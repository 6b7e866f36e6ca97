"""Keys on the row of a conversation with no messages (one emptied by deleting) do nothing
harmful: they say there is nothing there, or act on the conversation as a whole."""

from __future__ import annotations

import pytest

from msgviewer import Message
from msgviewer.formats import Conversation
from msgviewer.tui.app import MsgViewerApp
from msgviewer.tui.model.rows import CONV
from msgviewer.tui.screens.main import MainScreen

from .conftest import SIZE, settle

pytestmark = pytest.mark.anyio


async def test_media_copy_and_view_keys_on_an_empty_conversation_row() -> None:
    conversations = [
        Conversation(messages=()),
        Conversation(messages=(Message(role="user", content="hello"),)),
    ]
    app = MsgViewerApp(conversations=conversations)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        screen.tree.focus()
        await pilot.press("home")
        await settle(pilot)
        row = screen.tree.current_row
        assert row is not None and row[0] == CONV and row[1] == 0
        for key in ("w", "c", "y", "v", "escape"):
            await pilot.press(key)
            await settle(pilot)
        assert app.is_running and app._exception is None
