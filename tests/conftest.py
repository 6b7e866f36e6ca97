"""Every test runs with a home, cache and log folder of its own: nothing reads the machine's
own sessions (``~/.claude``, ``~/.codex``, ``~/.gemini``, ``./logs``) or writes its cache."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    monkeypatch.setenv("INSPECT_LOG_DIR", str(Path(home) / "logs"))
    # pictures in half blocks whatever terminal runs the tests (Kitty's would change pictures)
    monkeypatch.setenv("MSGVIEWER_IMAGES", "blocks")
