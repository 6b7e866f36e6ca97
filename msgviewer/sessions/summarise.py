"""One session file -> its ``Summary``: the format found by content, then the cheapest read
that gives the summary's facts (a line scan for session logs, the reader for the rest)."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import orjson

from ..core.errors import MsgviewerError
from ..formats import FormatWarning, detect, loads
from .generic import from_conversations
from .places import SessionFile
from .scans import ClaudeScan, scan_codex, scan_gemini_cli
from .summary import Summary

_HEAD_LINES = 20
"""Detection looks at this many lines of a JSONL file first (session logs open with
housekeeping lines; the registry looks at as many)."""


def detect_format(data: bytes) -> str | None:
    """The format of a file's bytes by content, or None when it is no conversation file.

    The first lines are tried first: a session log is known by them without parsing the rest.
    """
    if not data.strip():
        return None
    end = 0
    for _ in range(_HEAD_LINES):
        nl = data.find(b"\n", end)
        if nl == -1:
            end = len(data)
            break
        end = nl + 1
    try:
        return detect(data[:end])
    except MsgviewerError:
        if end >= len(data):
            return None
    except Exception:
        return None
    try:
        return detect(data)
    except Exception:  # anything unreadable is simply not a session
        return None


def summarise(file: SessionFile) -> Summary | None:
    """The summary of one session, or None when the file is not a conversation file."""
    try:
        data = file.path.read_bytes()
        st = file.path.stat()
    except OSError:
        return None
    fmt = detect_format(data)
    if fmt is None:
        return None
    s = Summary(path=str(file.path), format=fmt, size=file.size, mtime=st.st_mtime)
    if fmt == "claude-code":
        scan = ClaudeScan(s)
        scan.feed(data)
        for part in file.parts:
            try:
                scan.feed(part.read_bytes(), main=False)
            except OSError:
                continue
            s.subagents += 1
        scan.finish()
    elif fmt == "codex":
        scan_codex(data, s)
    elif fmt == "gemini-cli" and _gemini(data, s):
        pass
    else:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FormatWarning)
                convs = loads(data, format=fmt)
        except Exception:  # detected but unreadable: not listed (opening it would say why)
            return None
        from_conversations(convs, s)
    if s.project is None:
        s.project = _folder(file.path)
    return s


def _gemini(data: bytes, s: Summary) -> bool:
    try:
        return scan_gemini_cli(orjson.loads(data), s)
    except orjson.JSONDecodeError:
        return False


def _folder(path: Path) -> str:
    """A file's project when it names none: its folder (``chats``' parent for Gemini CLI)."""
    parent = path.parent
    if parent.name == "chats":
        parent = parent.parent
    return str(parent).replace(os.path.expanduser("~"), "~", 1)
