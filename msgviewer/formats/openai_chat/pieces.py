"""A long Chat Completions file's messages cut into pieces, each decoded alone.

msgspec keeps nothing of a decode that fails: decoded with the whole file, one message off the
common shapes costs the decode of every message before it, made again once the decoder knows
better. Decoded a piece (some ``PIECE`` bytes of messages) at a time, it costs its own piece.

A cut is the comma between two messages: ``}``, ``,``, ``{`` and a ``"role"`` key, spaces
between (a quote inside a string is escaped: in valid JSON that ``"role"`` is in no string,
and a cut made in JSON that is not valid leaves a piece no JSON). Each piece is
JSON of its own: the first closed with the brackets that close the messages (and the body),
the last opened with those that open them, the others in brackets of their own. When every
piece decodes, the cuts lie between the values of one array: the pieces between two cuts are
whole values, and the first piece, closed by one bracket (a list) or by ``]}`` (a body),
leaves its cut in the list's own array or in the value of one of the body's keys. That key is
"messages" when the first piece's fields are just the plain values written before the
messages (``body_start``; the caller compares them): a key whose array held the cut would be
among them, an array for its value. And the messages are the file's when no other
"messages" key comes in the first piece or the last (one in any piece between leaves that
piece no JSON of its own).
"""

from __future__ import annotations

import mmap
import re
from collections.abc import Callable, Iterator
from itertools import pairwise
from typing import Any

USUAL: Any = object()
"""What decoding a piece gives where the file is to be read the usual way (what would turn the
loose way down is found in the piece)."""

PIECE = 1 << 21
"""About how many bytes of messages a piece holds; a file of fewer than two is decoded whole."""

LIST_ENDS = (b"]", b"[")
BODY_ENDS = (b"]}", b'{"messages":[')
"""What closes the first piece and opens the last, for a list of messages and for a body."""

_ROLE = b'"role"'
_COMMA_BEFORE = re.compile(rb"\}\s*(,)\s*\{\s*\Z")
_LOOK_BACK = 64
"""Bytes before a ``"role"`` key in which its message's start and the comma are looked for."""
_TRIES = 16
"""``"role"`` found where no message starts this many times in a row: no more cuts (a file
whose messages write their role after other keys)."""

_PLAIN = rb'(?:"[^"\\]*"|-?[0-9][0-9.eE+-]*|true|false|null)'
_BODY_START = re.compile(
    rb'\s*\{((?:\s*"[a-z_]+"\s*:\s*' + _PLAIN + rb"\s*,)*)\s*\"messages\"\s*:\s*\["
)
_PLAIN_FIELD = re.compile(rb'\s*"([a-z_]+)"\s*:\s*(' + _PLAIN + rb")\s*,")
_LIST_START = re.compile(rb"\s*\[")
_HEAD = 4096
"""The fields before the messages are looked for in the first bytes only."""


def decode(
    data: Any, decode_piece: Callable[[Any, int], Any], fields: Callable[[Any], dict[str, Any]]
) -> Any:
    """The messages of ``data`` and, of a body, its other fields (raw, by ``fields`` of a
    decoded body), decoded a piece at a time by ``decode_piece(piece, messages before it)``;
    ``USUAL`` where a piece's decode gives it (the usual way then reads the whole file).
    None where the file is decoded whole: its start is not one read here, no cut was found,
    a piece is no JSON, or the pieces do not show that the cuts lie between its messages."""
    start = list_start(data)
    head = None
    if start is None:
        head = body_start(data)
        if head is None:
            return None
        start = head[1]
    at = cuts(data, start)
    if not at:
        return None
    if head is not None and (_holds_messages(data, start, at[0]) or _holds_messages(data, at[-1])):
        return None  # (maybe a second "messages" key: the usual way keeps the last)
    messages: list[Any] = []
    first = last = None  # (of a body: the first piece and the last; the others are lists)
    for piece in pieces(data, at, LIST_ENDS if head is None else BODY_ENDS):
        doc = decode_piece(piece, len(messages))
        if doc is None or doc is USUAL:
            return doc
        if type(doc) is list:
            messages += doc
        else:
            messages += doc.messages
            first, last = doc if first is None else first, doc
    if head is None:
        return messages, None
    before, after = fields(first), fields(last)
    # The first piece's fields are the plain values before the messages, the last piece's the
    # others: no cut lies in another field's array, and none is given twice
    if {k: bytes(v) for k, v in before.items()} != head[0] or before.keys() & after.keys():
        return None
    return messages, before | after


def cuttable(data: Any) -> bool:
    """Whether ``data`` is bytes in memory or mapped, long enough for two pieces."""
    return (type(data) is bytes or isinstance(data, mmap.mmap)) and len(data) >= 2 * PIECE


def body_start(data: Any) -> tuple[dict[str, bytes], int] | None:
    """The fields of a body before its messages, each a plain value (text as written), and
    where the messages' array starts; None for a body with any other field before them."""
    head = bytes(data[:_HEAD])
    match = _BODY_START.match(head)
    if match is None:
        return None
    fields: dict[str, bytes] = {}
    for field in _PLAIN_FIELD.finditer(match[1]):
        if field[1].decode() in fields:
            return None  # (given twice: the usual way tells which it keeps)
        fields[field[1].decode()] = field[2]
    return fields, match.end()


def list_start(data: Any) -> int | None:
    """Where a list of messages starts (past its bracket); None for anything else."""
    match = _LIST_START.match(bytes(data[:_HEAD]))
    return None if match is None else match.end()


def cuts(data: Any, start: int) -> list[int]:
    """Commas between messages after ``start``, about ``PIECE`` bytes apart (none in the last
    ``PIECE`` bytes)."""
    out: list[int] = []
    at = start + PIECE
    stop = len(data) - PIECE
    tries = 0
    while at < stop and tries < _TRIES:
        found = data.find(_ROLE, at)
        if found < 0 or found >= stop:
            break
        comma = _COMMA_BEFORE.search(data, max(found - _LOOK_BACK, start), found)
        if comma is None:
            tries += 1
        else:
            tries = 0
            out.append(comma.start(1))
        at = found + 1 if comma is None else max(comma.start(1) + PIECE, found + 1)
    return out


def pieces(data: Any, at: list[int], ends: tuple[bytes, bytes]) -> Iterator[Any]:
    """The pieces the commas ``at`` cut ``data`` into, each JSON of its own (``ends``: what
    closes the first and opens the last), each good until the next is asked for.

    The first and the last are bytes of their own (a body's fields, decoded raw, may be views
    of them); the others are copied in turn into one buffer, made once: a new one for each
    cost a sixth of their decoding in page faults, the one buffer a twentieth."""
    closer, opener = ends
    between = list(pairwise(at))
    view = memoryview(data)
    into = memoryview(bytearray(1 + max((end - start for start, end in between), default=0)))
    into[0:1] = b"["
    try:
        yield b"".join((view[: at[0]], closer))
        for start, end in between:
            size = end - start  # (the comma before it makes room for the bracket)
            into[1:size] = view[start + 1 : end]
            into[size : size + 1] = b"]"
            yield into[: size + 1]
        yield b"".join((opener, view[at[-1] + 1 :]))
    finally:
        into.release()
        view.release()


_MESSAGES = re.compile(
    b'"' + b"".join(rb"(?:%c|\\u00%02x)" % (c, c) for c in b"messages") + b'"', re.IGNORECASE
)
"""A ``"messages"`` string however written: any of its letters may be a ``\\u`` escape."""


def _holds_messages(data: Any, start: int, end: int | None = None) -> bool:
    """Whether a ``"messages"`` key (or such a string) is written in ``data[start:end]``."""
    return _MESSAGES.search(data, start, len(data) if end is None else end) is not None
