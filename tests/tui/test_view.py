"""``msgviewer.view``: the app on a program's objects, edited, and the objects given back."""

from __future__ import annotations

import asyncio

import pytest

import msgviewer
from msgviewer.tui.app import MsgViewerApp

from .conftest import SIZE, settle


def _drive(*keys: str):  # type: ignore[no-untyped-def]
    """A ``run`` for ``view``: the app headless, ``keys`` pressed, then quit with q."""

    def run(app: MsgViewerApp) -> None:
        async def go() -> None:
            async with app.run_test(size=SIZE) as pilot:
                await settle(pilot)
                await pilot.press(*keys)
                await settle(pilot)
                await pilot.press("q")  # no question about saving: the edits go back
                await pilot.pause()

        asyncio.run(go())

    return run


def test_view_returns_the_edited_langchain_messages() -> None:
    lc = pytest.importorskip("langchain_core.messages")
    messages = [
        lc.SystemMessage("Be brief."),
        lc.HumanMessage("Hi"),
        lc.AIMessage("Hello"),
    ]
    back = msgviewer.view(messages, run=_drive("j", "d"))  # delete message 1
    assert [type(m) for m in back] == [lc.SystemMessage, lc.AIMessage]
    assert [m.content for m in back] == ["Be brief.", "Hello"]


def test_view_with_no_edit_gives_the_messages_back_unchanged() -> None:
    messages = [msgviewer.Message.user("Hi"), msgviewer.Message.assistant("Hello")]
    assert msgviewer.view(messages, run=_drive()) == messages
