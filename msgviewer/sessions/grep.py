"""Search across sessions: message text, reasoning, tool names, arguments and results.

The bytes of each file are searched first, so a file without the pattern is never parsed:
only files that hit are read into messages, where the messages that match are found. The byte
search looks for the longest run of the pattern that a JSON writer never escapes (plain ASCII
but quotes, backslashes, slashes and ``<>&``), lowercased for a case-insensitive search, so it
can pass a file that has no match but never skips one that has.
"""

from __future__ import annotations

import re
import warnings
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

import orjson

from ..core.message import Message
from ..formats import FormatWarning, load
from .places import SessionFile

SNIPPET = 100
"""Characters of context a hit shows around the match."""

_UNSAFE = re.compile(r'[^\x20-\x7e]|["\\/<>&]')


@dataclass(frozen=True, slots=True)
class Hit:
    """A message that matched: its file, conversation and message index, role, a snippet."""

    path: str
    conversation: int
    message: int
    role: str
    snippet: str
    conversations: int = 1

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        del out["conversations"]
        return out


class Matcher:
    """The pattern, as a test on raw bytes (may pass) and on a message's text (exact)."""

    def __init__(self, pattern: str, *, ignore_case: bool = False, regex: bool = False) -> None:
        flags = re.IGNORECASE if ignore_case else 0
        self.ignore_case = ignore_case
        self.regex = re.compile(pattern if regex else re.escape(pattern), flags)
        literal = pattern if not regex or re.escape(pattern) == pattern else ""
        runs = _UNSAFE.split(literal)
        run = max(runs, key=len) if runs else ""
        self.needle = (run.lower() if ignore_case else run).encode("ascii")

    def may_match(self, data: bytes) -> bool:
        """False only when ``data`` cannot hold a match (its text, however JSON wrote it)."""
        if not self.needle:
            return True
        if data[:2] == b"PK":  # a zip (Inspect .eval): its members are compressed
            return True
        return self.needle in (data.lower() if self.ignore_case else data)

    def find(self, text: str) -> re.Match[str] | None:
        return self.regex.search(text)


def haystack(message: Message) -> str:
    """Everything searched in a message: text, reasoning, tool names, arguments, results."""
    parts: list[str] = [message.content] if isinstance(message.content, str) else []
    if not isinstance(message.content, str):
        parts.extend(_block(b) for b in message.content)
    if message.name:
        parts.append(message.name)
    for call in message.tool_calls:
        parts.append(f"{call.name} {_json(call.args)}")
    for bad in message.invalid_tool_calls:
        parts.append(f"{bad.name} {bad.args or ''} {bad.error or ''}")
    return "\n".join(p for p in parts if p)


def _block(block: Any) -> str:
    t = block.type
    if t in ("text", "reasoning"):
        return block.text
    if t == "error":
        return block.message
    if t in ("tool_call", "server_tool_call"):
        return f"{block.name} {_json(block.args)}"
    if t == "tool_result":
        c = block.content
        return c if isinstance(c, str) else "\n".join(_block(b) for b in c)
    if t == "server_tool_result":
        return _json(block.content)
    if t == "unknown":
        return f"{block.kind} {_json(block.data)}"
    return " ".join(
        str(v) for v in (getattr(block, "filename", None), getattr(block, "url", None)) if v
    )


def _json(value: Any) -> str:
    try:
        return orjson.dumps(value, default=str).decode()
    except (TypeError, orjson.JSONEncodeError):
        return str(value)


def _tool_names(message: Message) -> set[str]:
    names = {c.name for c in message.tool_calls}
    names.update(b.name for b in message.blocks if b.type in ("tool_call", "server_tool_call"))
    if message.role == "tool" and message.name:
        names.add(message.name)
    return names


def snippet(text: str, match: re.Match[str], width: int = SNIPPET) -> str:
    """The match with some context either side, on one line."""
    start = max(0, match.start() - width // 2)
    end = min(len(text), match.end() + width // 2)
    cut = " ".join(text[start:end].split())
    return ("…" if start else "") + cut + ("…" if end < len(text) else "")


def file_hits(
    file: SessionFile, matcher: Matcher, *, role: str | None = None, tool: str | None = None
) -> list[Hit]:
    """The messages of one session that match (none when the file is not a conversation)."""
    try:
        if not any(matcher.may_match(p.read_bytes()) for p in (file.path, *file.parts)):
            return []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FormatWarning)
            convs = load(file.path)
    except (OSError, zipfile.BadZipFile):
        return []
    except Exception:  # not a conversation file, or one that cannot be read: no hits
        return []
    hits = []
    for c, conv in enumerate(convs):
        for i, m in enumerate(conv.messages):
            if (role and m.role != role) or (tool and tool not in _tool_names(m)):
                continue
            text = haystack(m)
            found = matcher.find(text)
            if found is not None:
                hits.append(Hit(str(file.path), c, i, m.role, snippet(text, found), len(convs)))
    return hits


def grep(
    files: list[SessionFile],
    matcher: Matcher,
    *,
    role: str | None = None,
    tool: str | None = None,
    cancel: Any = None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[list[Hit]]:
    """The hits of each file that has some, file by file (``progress`` told each file done)."""
    for n, file in enumerate(files, 1):
        if cancel is not None and cancel.is_set():
            return
        hits = file_hits(file, matcher, role=role, tool=tool)
        if progress is not None:
            progress(n)
        if hits:
            yield hits
