"""Shared pieces of the app tests: a factory with a fixed size, and waiting for workers."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from msgviewer.tui.app import MsgViewerApp

SAMPLES = Path(__file__).resolve().parents[2] / "msgviewer" / "samples"
DEMO = SAMPLES / "demo-agent-run.json"
SIZE = (120, 40)


def make_app(*paths: str | Path, **kwargs) -> MsgViewerApp:
    """The app on ``paths`` (the bundled sample if none)."""
    return MsgViewerApp([str(p) for p in paths], **kwargs)


async def settle(pilot: Pilot) -> None:
    """Wait for loading, analysis and search workers, then for the screen to catch up."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    # keys pressed in quick succession leave the detail pane to the cursor's rest (a timer)
    for _ in range(200):
        if not getattr(pilot.app.screen, "detail_pending", False):
            break
        await pilot.pause(0.01)


@pytest.fixture
def anyio_backend() -> str:
    """Async tests run on asyncio (Textual's loop), through anyio's pytest plugin."""
    return "asyncio"
