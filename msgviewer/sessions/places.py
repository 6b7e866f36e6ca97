"""Where sessions are: the standard places of each tool, and the session files under folders.

A Claude Code session's sub-agent runs live in ``<session>/subagents/agent-*.jsonl`` beside
``<session>.jsonl``: they belong to that session and are never listed on their own. Every other
file is a candidate; whether it is a conversation is decided by its content, not its name.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

SUBAGENTS = "subagents"


@dataclass(frozen=True, slots=True)
class SessionFile:
    """A candidate session: its file, and the sub-agent files that belong to it."""

    path: Path
    parts: tuple[Path, ...] = ()

    def stamp(self) -> list[int]:
        """Size and modification time of every file of the session (what the cache keys on)."""
        out: list[int] = []
        for p in (self.path, *self.parts):
            st = p.stat()
            out += [st.st_size, st.st_mtime_ns]
        return out

    @property
    def size(self) -> int:
        return sum(_size(p) for p in (self.path, *self.parts))


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def standard_places(env: Mapping[str, str] | None = None, cwd: str | None = None) -> list[Path]:
    """The standard places that exist: Claude Code, Codex, Gemini CLI and Inspect logs.

    ``env`` (default ``os.environ``) gives ``HOME``, ``CODEX_HOME`` and ``INSPECT_LOG_DIR``;
    ``cwd`` (default the current directory) is where Inspect's default ``./logs`` is looked for.
    """
    env = os.environ if env is None else env
    home = Path(env.get("HOME") or os.path.expanduser("~"))
    codex = Path(env["CODEX_HOME"]) if env.get("CODEX_HOME") else home / ".codex"
    inspect = env.get("INSPECT_LOG_DIR") or os.path.join(cwd or os.getcwd(), "logs")
    places = [home / ".claude" / "projects", codex / "sessions", home / ".gemini" / "tmp"]
    places.append(Path(inspect))
    return [p for p in places if p.is_dir()]


def session_files(roots: list[Path]) -> Iterator[SessionFile]:
    """Every candidate file under ``roots`` (a root may be a file), sub-agent files grouped
    under their session. Unreadable folders are passed over."""
    seen: set[Path] = set()
    for root in roots:
        if root.is_file():
            found: Iterator[SessionFile] = iter([_with_parts(root)])
        else:
            found = _walk(root)
        for item in found:
            key = item.path.resolve()
            if key not in seen:
                seen.add(key)
                yield item


def _walk(root: Path) -> Iterator[SessionFile]:
    for folder, dirs, files in os.walk(root, onerror=lambda _exc: None):
        dirs.sort()
        here = Path(folder)
        # <session>/subagents/ beside <session>.jsonl: read with the session, not on its own
        if here.name == SUBAGENTS and (here.parent.parent / f"{here.parent.name}.jsonl").is_file():
            dirs.clear()
            continue
        for name in sorted(files):
            path = here / name
            if path.is_file():
                yield _with_parts(path)


def _with_parts(path: Path) -> SessionFile:
    if path.suffix != ".jsonl":
        return SessionFile(path)
    folder = path.parent / path.stem / SUBAGENTS
    if not folder.is_dir():
        return SessionFile(path)
    return SessionFile(path, tuple(sorted(folder.glob("agent-*.jsonl"))))
