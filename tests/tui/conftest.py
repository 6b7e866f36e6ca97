"""Shared pieces of the app tests: a factory with a fixed size, and waiting for workers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input

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


@pytest.fixture(autouse=True)
def steady_snapshots(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a snapshot, what changes with time holds still until the picture is taken: a toast
    stays (one that times out, 1.5 s for a view switch, would be in the picture or not by
    how busy the machine was) and an input's cursor does not blink."""
    if "snap_compare" not in request.fixturenames:
        return
    notify = App.notify

    def lasting(self: App, *args: Any, **kwargs: Any) -> None:
        kwargs["timeout"] = 3600
        notify(self, *args, **kwargs)

    monkeypatch.setattr(App, "notify", lasting)
    input_init = Input.__init__

    def steady(self: Input, *args: Any, **kwargs: Any) -> None:
        input_init(self, *args, **kwargs)
        self.cursor_blink = False

    monkeypatch.setattr(Input, "__init__", steady)


@pytest.fixture
def anyio_backend() -> str:
    """Async tests run on asyncio (Textual's loop), through anyio's pytest plugin."""
    return "asyncio"
