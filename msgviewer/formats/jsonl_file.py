"""A JSONL file parsed piece by piece as it is read, for ``load``.

Read whole, a file's bytes (as large as the file) and the records parsed from them are in
memory together: that is the peak of a load. Read in pieces of a few megabytes, each parsed
and let go before the next, the records are all that grows. Only plain UTF-8 JSONL, told by its
first line as ``io.parse`` tells it, is read this way; for anything else (one JSON document,
another encoding, a first line too long for the first piece) the caller reads the file whole,
and ``parse`` decides as ever. The records, their line numbers and the lines that are not JSON
are those ``parse`` gives for the same bytes.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, BinaryIO

from ..core.errors import FormatError
from .io import Lines, Parsed, is_one_value, iter_jsonl
from .reading import as_utf8

PIECE = 1 << 20
"""Bytes read at a time: enough that the reads cost nothing, and small beside the records.
(Larger pieces leave more of the memory they took unused once freed.)"""

_BOM = b"\xef\xbb\xbf"


Chooser = Callable[[Parsed], "Callable[[Any], None] | None"]
"""Given the first records (``DETECT_RECORDS`` of them, or all if fewer), what prepares each
record as it is parsed (``Format.prepare``), or None."""

DETECT_RECORDS = 20
"""Records enough to tell the format (``registry.detect_parsed`` looks at the first 20)."""


_reporter: ContextVar[Callable[[int], None] | None] = ContextVar("jsonl_reporter", default=None)


@contextmanager
def reporting(report: Callable[[int], None]) -> Iterator[None]:
    """Within it, a JSONL file parsed piece by piece in this thread (and context) calls
    ``report`` with the bytes read so far after each piece is parsed: the progress of a long
    load."""
    token = _reporter.set(report)
    try:
        yield
    finally:
        _reporter.reset(token)


def parse_jsonl_file(
    path: str, file: str | None = None, choose: Chooser | None = None
) -> Parsed | None:
    """The records of the JSONL file at ``path``, or None when it is not a regular file of
    plain UTF-8 JSONL (or cannot be opened): the caller then reads it whole, which says what
    is wrong with it. ``choose`` is asked once, given the first records, how to prepare each
    record (those already parsed, then the rest as they are parsed)."""
    try:
        with open(path, "rb") as fh:
            return _parse(fh, file, choose)
    except OSError:  # (the whole read meets it again and says what it is)
        return None


def _parse(fh: BinaryIO, file: str | None, choose: Chooser | None = None) -> Parsed | None:
    """``parse_jsonl_file`` of an open file."""
    if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
        return None  # (a pipe, a device: read whole, within its bound)
    head = _head(fh)
    if not _is_jsonl(head):
        return None
    lines = Lines()
    # what is read and not parsed yet: whole lines, then the start of the next
    pending = [head[len(_BOM) :] if head.startswith(_BOM) else head]
    before = 0  # lines of the file before the next piece
    prepare = None
    report = _reporter.get()
    while True:
        more = fh.read(PIECE)
        rest = b""
        if more:
            cut = more.rfind(b"\n") + 1
            if cut == 0:
                pending.append(more)  # (a line longer than a piece: read on)
                continue
            pending.append(more[:cut])
            rest = more[cut:]
        piece = b"".join(pending)
        pending = [rest]
        lines.add(iter_jsonl(piece, file, keep_bad=True, lines_before=before), prepare)
        if choose is not None and (len(lines.records) >= DETECT_RECORDS or not more):
            prepare = choose(lines.parsed(file))
            choose = None
            for record in lines.records if prepare is not None else ():
                if type(record) is dict:
                    prepare(record)
        if report is not None:
            report(fh.tell())  # (what is parsed: all that is read but a line's start)
        if not more:
            break
        before += piece.count(b"\n")
    return lines.parsed(file)


def _head(fh: BinaryIO) -> bytes:
    """The file's first pieces: up to the start of its second line, or as far as ``HEAD_LIMIT``
    (a first line longer than that: the file is read whole, the usual way). One look at each
    byte: blank space, however much of it, is passed over once."""
    parts: list[bytes] = []
    size = 0
    after_first_line = False
    while size < HEAD_LIMIT:
        part = fh.read(PIECE)
        if not part:
            break
        parts.append(part)
        size += len(part)
        if not after_first_line:
            nl = part.find(b"\n")
            if nl == -1:
                continue
            after_first_line = True
            part = part[nl + 1 :]
        if part.strip(_BLANK):
            break  # (the second line has begun)
    return b"".join(parts)


HEAD_LIMIT = 16 << 20
_BLANK = b" \t\r\n"


def _is_jsonl(head: bytes) -> bool:
    """Whether the file beginning with ``head`` is JSONL as ``io.parse`` decides it: a first
    line that is a JSON value on its own, and more than blank space after it."""
    try:
        if as_utf8(head, None) is not head:  # (UTF-16 or UTF-32: converted whole)
            return False
    except FormatError:  # (said with the file's name by the usual way)
        return False
    start = len(_BOM) if head.startswith(_BOM) else 0
    first_nl = head.find(b"\n", start)
    if first_nl == -1 or not head[first_nl + 1 :].strip():
        return False  # (no second line within the first piece: the usual way decides)
    return is_one_value(head[start:first_nl])
