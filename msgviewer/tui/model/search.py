"""Search over every message: text, reasoning, tool names, arguments and results (headless).

The first search builds a lowercased haystack per message (in a worker thread); after that a
query is one substring (or pattern) test per message. A query is plain text or, after the
``re:`` prefix, a regular expression; it ignores case unless it holds a capital letter (vim's
smartcase), and then the lowercased haystacks only pick the candidates that the message's own
text confirms. ``locate`` then finds the block, call or line inside one message, so the cursor
lands on the match itself.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from itertools import chain
from typing import Any

from ...core.message import Message
from .preview import full_json
from .rows import BLOCK, CALL, LINE, MSG, block_lines
from .search_hits import Hits
from .session import CancelFlag, Session

CHUNK = 2000
"""Haystacks per tuple: an edit makes again only the tuples of the messages it changed, and
a search looks for cancellation between two."""


def _json(value: Any) -> str:
    return full_json(value, indent=False)  # any depth: a tool result may nest 1,000 deep


def _block_haystack(block: Any) -> str:
    t = block.type
    if t in ("text", "reasoning", "error", "tool_result"):
        parts = ["\n".join(block_lines(block)) if t == "tool_result" else _text(block)]
        if t == "tool_result" and not isinstance(block.content, str):
            parts.append(_json([getattr(b, "text", "") for b in block.content]))
        return "\n".join(parts)
    if t in ("tool_call", "server_tool_call"):
        return f"{block.name}\n{_json(block.args)}"
    if t == "server_tool_result":
        return _json(block.content)
    if t == "unknown":
        return f"{block.kind}\n{_json(block.data)}"
    if t == "citation":
        return f"{block.title or ''}\n{block.url or ''}\n{block.cited_text or ''}"
    return " ".join(
        str(v) for v in (getattr(block, "filename", None), getattr(block, "url", None)) if v
    )


def _text(block: Any) -> str:
    return block.message if block.type == "error" else block.text


REGEX_PREFIX = "re:"
"""A query that starts with this is a regular expression."""

_ESCAPED = re.compile(r"\\.")


@dataclass(frozen=True)
class Query:
    """What a search looks for: ``typed`` as the user typed it, compiled once."""

    typed: str
    regex: bool
    case_sensitive: bool
    pattern: re.Pattern[str]
    """Matches the query in the message's own text, honouring case as the query asks."""
    folded: re.Pattern[str] | None
    """Matches every candidate in lowercased text (None: the query is plain text)."""
    needle: str
    """A plain query lowercased: a substring test picks the candidates."""

    def matches(self, text: str) -> bool:
        return self.pattern.search(text) is not None


class QueryError(ValueError):
    """A regular expression that does not compile: ``str()`` says why, in one line."""


def parse_query(typed: str) -> Query:
    """The query ``typed`` means: plain text, or a regular expression after ``re:``.

    Case is ignored unless the query holds a capital letter, not counting escaped characters
    (``\\S`` is a class, not a capital): vim's smartcase. ``QueryError`` for a bad pattern.
    """
    regex = typed.startswith(REGEX_PREFIX)
    body = typed[len(REGEX_PREFIX) :] if regex else typed
    case_sensitive = any(ch.isupper() for ch in (_ESCAPED.sub("", body) if regex else body))
    source = body if regex else re.escape(body)
    flags = 0 if case_sensitive else re.IGNORECASE
    try:
        pattern = re.compile(source, flags)
        folded = re.compile(source, re.IGNORECASE) if regex else None
    except re.error as exc:
        raise QueryError(f"not a regular expression: {exc}") from None
    return Query(typed, regex, case_sensitive, pattern, folded, body.lower())


def as_query(query: Query | str) -> Query:
    return query if isinstance(query, Query) else parse_query(query)


def haystack_text(message: Message) -> str:
    """Everything searchable in a message, as it is."""
    content = message.content
    parts = [content] if type(content) is str else [_block_haystack(b) for b in content]
    if message.name:
        parts.append(message.name)
    for call in message.tool_calls:
        parts.append(f"{call.name}\n{_json(call.args)}")
    for call in message.invalid_tool_calls:
        parts.append(f"{call.name or ''}\n{call.args or ''}\n{call.error or ''}")
    return "\n".join(parts)


def haystack(message: Message) -> str:
    """Everything searchable in a message, lowercased."""
    return haystack_text(message).lower()


def _candidate(query: Query, hay: str) -> bool:
    """Whether a lowercased haystack may match: for a query that ignores case, whether it does."""
    if query.folded is not None:
        return query.folded.search(hay) is not None
    return query.needle in hay


Chunks = list[tuple[str, ...]]
"""One conversation's haystacks, in order, in tuples of at most ``CHUNK`` (maybe fewer)."""


class SearchIndex:
    """Lowercased text of every message, built once, searched many times."""

    def __init__(self, session: Session) -> None:
        self.session = session
        # Per conversation, its haystacks in tuples: the collector stops tracking a tuple of
        # strings, so its full collections never walk a million haystacks, and an edit makes
        # a tuple or two again rather than one of a million (three passes over a million
        # strings, 50 ms). A list of chunks is never changed once made, only replaced: a
        # search in its worker reads the one it took while an edit makes the next.
        self._hay: list[Chunks] | None = None
        self._lock = threading.Lock()

    def build(self, cancel: CancelFlag | None = None) -> bool:
        """Build (or extend, after new messages) the haystacks; False if cancelled."""
        with self._lock:
            hay = self._hay or []
            self._hay = hay
            for c, conv in enumerate(self.session.convs):
                if c >= len(hay):
                    hay.append([])
                messages = conv.messages
                chunks = hay[c]
                built = _count(chunks)
                for first in range(built, len(messages), CHUNK):
                    if cancel is not None and cancel.is_set():
                        return False  # what was built is kept
                    part = messages[first : first + CHUNK]
                    chunks = hay[c] = [*chunks, tuple(map(haystack, part))]
            return True

    def invalidate_from(self, conv: int, msg: int) -> None:
        """Messages from ``msg`` on changed (a followed file grew): rebuild them next time."""
        with self._lock:
            if self._hay is not None and conv < len(self._hay):
                self._hay[conv] = _cut(self._hay[conv], msg)

    def splice(self, conv: int, start: int, old_count: int, new_count: int) -> None:
        """Messages ``start:start+old_count`` became ``new_count`` others (an edit): replace
        their haystacks, keeping everyone else's."""
        with self._lock:
            if self._hay is None or conv >= len(self._hay):
                return
            chunks = self._hay[conv]
            if _count(chunks) < start + old_count:  # not built that far: the next search does
                self._hay[conv] = _cut(chunks, start)
                return
            messages = self.session.convs[conv].messages
            new = tuple(haystack(m) for m in messages[start : start + new_count])
            self._hay[conv] = _spliced(chunks, start, start + old_count, new)

    def find(self, query: Query | str, cancel: CancelFlag | None = None) -> Hits | None:
        """(conversation, message) of every message that matches ``query``."""
        if not self.build(cancel):
            return None
        query = as_query(query)
        assert self._hay is not None
        parts = []
        for c, chunks in enumerate(self._hay):
            found: list[int] = []
            offset = 0
            for chunk in chunks:
                if cancel is not None and cancel.is_set():
                    return None
                found += [offset + j for j, h in enumerate(chunk) if _candidate(query, h)]
                offset += len(chunk)
            if query.case_sensitive:  # the lowercased text picked candidates: confirm each
                messages = self.session.convs[c].messages
                found = [i for i in found if query.matches(haystack_text(messages[i]))]
            parts.append((c, found))
        return Hits(parts)


def _count(chunks: Chunks) -> int:
    return sum(map(len, chunks))


def _cut(chunks: Chunks, count: int) -> Chunks:
    """The first ``count`` haystacks of ``chunks``."""
    kept = []
    for chunk in chunks:
        if count <= 0:
            break
        kept.append(chunk[:count])
        count -= len(chunk)
    return kept


def _spliced(chunks: Chunks, start: int, stop: int, new: tuple[str, ...]) -> Chunks:
    """``chunks`` with haystacks ``start:stop`` replaced by ``new``: the chunks that hold
    them made again (cut to ``CHUNK`` each), the others kept."""
    first, offset = 0, 0
    while first < len(chunks) and offset + len(chunks[first]) <= start:
        offset += len(chunks[first])
        first += 1
    last, end = first, offset
    while last < len(chunks) and end < stop:
        end += len(chunks[last])
        last += 1
    joined = tuple(chain.from_iterable(chunks[first:last]))
    kept = joined[: start - offset] + new + joined[stop - offset :]
    remade = [kept[k : k + CHUNK] for k in range(0, len(kept), CHUNK)]
    return chunks[:first] + remade + chunks[last:]


def locate(message: Message, query: Query | str) -> tuple[int, int, int]:
    """(kind, index, line) of the first place ``query`` occurs in ``message``.

    Falls back to the message row when the match is somewhere without a row (name, metadata).
    """
    query = as_query(query)
    direct = type(message.content) is str or (
        len(message.content) == 1
        and message.content[0].type == "text"
        and not message.tool_calls
        and not message.invalid_tool_calls
        and not message.artifacts
    )
    for b, block in enumerate(message.blocks):
        if not query.matches(_block_haystack(block)):
            continue
        for n, line in enumerate(block_lines(block)):
            if query.matches(line):
                if direct and message.role != "tool":
                    return LINE, 0, n
                return LINE, b, n
        return BLOCK, b, 0
    for k, call in enumerate(message.tool_calls):
        if query.matches(f"{call.name}\n{_json(call.args)}"):
            return CALL, k, 0
    return MSG, 0, 0
