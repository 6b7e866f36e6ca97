"""The standard places of each tool, built under a temporary home from the bundled samples."""

from __future__ import annotations

import shutil
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
CLAUDE_ID = "4f1c9a52-7d3e-4b8a-9c61-2e5f0d8b7a13"
SUB_ID = "5d0c1f3e-8a2b-4c7d-9e61-2f4a8b3c9d10"


def build(home: Path) -> dict[str, Path]:
    """Claude Code (one session with a ``subagents/`` folder), Codex dated folders, Gemini CLI
    and an Inspect log folder under ``home``; the path of each session by name."""
    projects = home / ".claude" / "projects"
    ledger = projects / "-home-dana-src-ledger"
    ledger.mkdir(parents=True)
    paths = {"claude": ledger / f"{CLAUDE_ID}.jsonl"}
    shutil.copy(SAMPLES / "claude-code-session.jsonl", paths["claude"])
    tidy = projects / "-home-dev-tidy-dates"
    shutil.copytree(SAMPLES / "claude-code-subagents", tidy)
    paths["subagents"] = tidy / f"{SUB_ID}.jsonl"
    codex = home / ".codex" / "sessions" / "2025" / "09" / "14"
    codex.mkdir(parents=True)
    paths["codex"] = codex / "rollout-2025-09-14T10-21-03-01994a6e.jsonl"
    shutil.copy(SAMPLES / "codex-rollout.jsonl", paths["codex"])
    chats = home / ".gemini" / "tmp" / ("5f2c8a1e" * 8) / "chats"
    chats.mkdir(parents=True)
    paths["gemini"] = chats / "session-2026-03-02T09-14-3b6f0c2e.json"
    shutil.copy(SAMPLES / "gemini-cli-session.json", paths["gemini"])
    logs = home / "logs"
    logs.mkdir()
    paths["eval"] = logs / "2025-06-03T14-12-31_unit-convert.eval"
    shutil.copy(SAMPLES / "inspect-eval-log.eval", paths["eval"])
    # Not conversations: never listed, never an error.
    (logs / "notes.txt").write_text("nothing to see\n")
    (home / ".gemini" / "tmp" / "settings.json").write_text('{"theme": "dark"}\n')
    return paths
