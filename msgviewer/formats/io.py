"""Bytes in and out: reading files and standard input as JSON or JSONL (writing a file safely
is ``safe_write``'s; ``atomic_write`` is still found here by its old name)."""

from __future__ import annotations

import json
import mmap
import os
import sys
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

import orjson

from ..core.errors import FormatError
from ..core.json_numbers import (  # noqa: F401  (found here by the formats)
    INT_DIGITS,
    exact_loads,
    exact_or_raise,
    has_long_numbers,
    int_digits,
    loads_exactly,
    loads_object,
    loads_whole,
    text_has_long_numbers,
)
from .reading import as_utf8, read_path, read_stdin, read_stream
from .safe_write import write_file as atomic_write  # noqa: F401  (its old place)


@dataclass(frozen=True, slots=True)
class RawLine:
    """A JSONL line that is not JSON (cut off mid-way, or broken): its text and the error."""

    text: str
    error: FormatError


@dataclass
class Parsed:
    """A parsed input: one JSON value, or the records of a JSONL file with their line numbers."""

    value: Any = None
    records: list[Any] | None = None
    lines: Sequence[int] | None = None
    """The line of each record (an ``array`` of them when parsed here: no number object per
    line, freed after the read among the objects kept)."""
    file: str | None = None
    owned: bool = False
    """Parsed here from bytes: nobody else holds the values."""
    bad: list[RawLine] | None = None
    """Lines of a JSONL file that are not JSON, kept in ``records`` as ``RawLine`` values (only
    formats that say they take them get them; for the others the first is the error)."""

    @property
    def is_jsonl(self) -> bool:
        return self.records is not None


def read_bytes(source: str | os.PathLike[str] | BinaryIO) -> tuple[bytes, str]:
    """The bytes of a path (``-`` is standard input) or binary file, and a name for errors.

    A regular file is read whole; any other input (a pipe, a device, standard input) up to a
    bound, past which it is a ``FormatError`` (see ``formats.reading``)."""
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        if name == "-":
            return read_stdin(), "<stdin>"
        try:
            return read_path(name), name
        except FileNotFoundError:
            raise FormatError("no such file", file=name) from None
        except IsADirectoryError:
            raise FormatError("is a directory, not a file", file=name) from None
        except PermissionError:
            raise FormatError("permission denied", file=name) from None
        except OSError as exc:
            raise FormatError(exc.strerror or str(exc), file=name) from None
    name = getattr(source, "name", None) or "<input>"
    return read_stream(source, str(name)), name


Buffer = bytes | mmap.mmap
"""File contents: bytes, or a read-only memory map (both have ``find``; the parser takes
either, though msgviewer maps no file itself)."""


def read_buffer(source: str | os.PathLike[str] | BinaryIO) -> tuple[Buffer, str]:
    """``read_bytes``: kept under this name, which once memory-mapped a large file.

    A map is parsed in place, but a file truncated meanwhile kills the process with SIGBUS;
    reading it costs a few hundredths of a second on 175 MB (``bench/load.py`` holds the
    load time against the parse alone)."""
    return read_bytes(source)


ZIP_MAGIC = b"PK\x03\x04"
"""How a zip archive begins (its first local file header)."""


def _line_of(data: bytes, pos: int) -> int:
    return data.count(b"\n", 0, pos) + 1


def _json_error(exc: orjson.JSONDecodeError, data: bytes | str, file: str | None) -> FormatError:
    line = getattr(exc, "lineno", None)
    col = getattr(exc, "colno", None)
    what = f"invalid JSON: {exc.msg}" if hasattr(exc, "msg") else f"invalid JSON: {exc}"
    if col:
        what += f" (column {col})"
    return FormatError(what, file=file, line=line)


def iter_jsonl(
    data: Buffer,
    file: str | None = None,
    *,
    partial_tail: bool = False,
    keep_bad: bool = False,
    lines_before: int = 0,
) -> Iterator[tuple[int, Any]]:
    """(line number, value) for each non-blank line.

    A last line without its newline that does not parse is a record still being written: with
    ``partial_tail`` it is skipped (the caller waits for the rest), otherwise it is an error.
    With ``keep_bad`` a line that does not parse is given as a ``RawLine`` instead of raised.
    ``lines_before``: the lines of the file before ``data`` (when it is read piece by piece).
    """
    start = 0
    line = lines_before
    size = len(data)
    view = memoryview(data)  # lines are parsed in place, not copied out first
    find = data.find
    long_numbers = has_long_numbers(data)
    while start < size:
        end = find(b"\n", start)
        complete = end != -1
        if not complete:
            end = size
        line += 1
        chunk = view[start:end]
        start = end + 1
        try:
            if long_numbers and has_long_numbers(chunk):
                record = exact_or_raise(chunk)
            else:
                record = orjson.loads(chunk)
        except orjson.JSONDecodeError as exc:
            if not bytes(chunk).strip():
                continue  # a blank line
            if not complete and partial_tail:
                return
            what = f"invalid JSON: {exc.msg}" if hasattr(exc, "msg") else f"invalid JSON: {exc}"
            if not complete:
                what += " (the last line is incomplete: is the file still being written?)"
            error = FormatError(what, file=file, line=line)
            if not keep_bad:
                raise error from None
            # (given outside the handler, which would otherwise stay alive while suspended)
            record = RawLine(bytes(chunk).decode("utf-8", "replace"), error)
        yield line, record


_SPACE = frozenset(b" \t\r\n")


def _is_blank(data: Buffer) -> bool:
    """Empty or only whitespace, found without copying the data (nor stripping it)."""
    head = data[:4096]
    if not head.isspace() and head:
        return False
    return len(data) <= 4096 or bytes(data).isspace()


def content_end(data: Buffer) -> int:
    """Length of ``data`` without its trailing whitespace (``rstrip`` would copy it all)."""
    end = len(data)
    while end and data[end - 1] in _SPACE:
        end -= 1
    return end


def parse(data: Buffer | str, file: str | None = None) -> Parsed:
    """Parse bytes (or a memory map) as one JSON value, or as JSONL.

    A file whose first line is a JSON value on its own, with more after it, is JSONL: no JSON
    document can continue past a complete value. Deciding that from the first line spares a
    whole-file parse that would fail at its end (a third of the cost of reading a big log).
    """
    if isinstance(data, str):
        # Lone surrogates (text decoded with "surrogateescape"...) become bytes that are not
        # UTF-8, which the parser then refuses with a line and column.
        data = data.encode("utf-8", "surrogatepass")
    data = as_utf8(data, file)  # (UTF-16 or UTF-32 with a byte-order mark)
    if data[:3] == b"\xef\xbb\xbf":
        data = data[3:]  # (a copy of a map too: rare enough)
    if _is_blank(data):
        raise FormatError("the input is empty", file=file, path="$")
    first_nl = data.find(b"\n", 0, content_end(data))
    if first_nl != -1 and is_one_value(data[:first_nl]):
        lines = Lines()
        lines.add(iter_jsonl(data, file, keep_bad=True))
        return lines.parsed(file)
    try:
        with memoryview(data) as view:
            return Parsed(value=loads_whole(view), file=file, owned=True)
    except orjson.JSONDecodeError as exc:
        # Only the error is raised, outside this handler: the exception's traceback holds
        # this frame, and the cycle would keep the data alive until a collection (never,
        # once the loader has frozen the collector's generations).
        error = _json_error(exc, data, file)
    raise error


def is_one_value(line: bytes) -> bool:
    """Whether a line is one complete JSON value on its own."""
    if not line.strip():
        return False
    try:
        orjson.loads(line)
    except orjson.JSONDecodeError:
        if not has_long_numbers(line):
            return False
        try:
            exact_loads(line)
        except (ValueError, RecursionError):
            return False
    return True


class Lines:
    """Every record of a JSONL file and its line number, repeated strings shared; and the
    lines that are not JSON (also among the records, as ``RawLine`` values)."""

    def __init__(self) -> None:
        self.records: list[Any] = []
        self.lines = array("q")
        self.bad: list[RawLine] = []
        self._previous: dict[str, Any] = {}
        self._kinds: dict[str, str] = {}

    def add(
        self, pairs: Iterator[tuple[int, Any]], prepare: Callable[[Any], None] | None = None
    ) -> None:
        """Records and their line numbers (from ``iter_jsonl``), after those added before;
        each record given to ``prepare`` once parsed (``Format.prepare``)."""
        records = self.records
        lines = self.lines
        previous = self._previous
        kinds = self._kinds
        for line, record in pairs:
            if type(record) is dict:
                if prepare is not None:  # (first: the content it reads has no kinds to share)
                    prepare(record)
                previous = _share_repeats(record, previous, kinds)
            elif type(record) is RawLine:
                self.bad.append(record)
            records.append(record)
            lines.append(line)
        self._previous = previous

    def parsed(self, file: str | None) -> Parsed:
        return Parsed(
            records=self.records, lines=self.lines, file=file, owned=True, bad=self.bad or None
        )


def _share_repeats(
    record: dict[str, Any], previous: dict[str, Any], kinds: dict[str, str]
) -> dict[str, Any]:
    """Give the record's top-level strings equal to one of the line before's (its session id,
    working directory, version; its own id, which is this line's parent id...) that line's
    string object, and the ``type`` and ``role`` of the objects inside it one object each.

    Session logs repeat them on every line: one object for all saves memory, and freeing the
    copies at once, while the next line is parsed into their place, saves as much again (a
    copy freed later, once the messages are built, leaves a hole among the objects kept).
    The values are equal: nothing changes but memory. Returns the record, for the next line.
    """
    others: dict[str, str] | None = None
    for key, value in record.items():
        kind = type(value)
        if kind is str:
            same = previous.get(key)
            if same == value:
                if same is not value:
                    record[key] = same
                continue
            if others is None:
                others = {v: v for v in previous.values() if type(v) is str}
            same = others.get(value)
            if same is not None:
                record[key] = same
        elif kind is dict:
            _share_kinds(value, kinds)
    return record


def _share_kinds(value: dict[str, Any], kinds: dict[str, str]) -> None:
    """The ``type`` and ``role`` of an object and of the objects in its ``content`` made one
    string object per value (a message's role, its blocks' types)."""
    share = kinds.setdefault
    for key in _KIND_KEYS:
        v = value.get(key)
        if type(v) is str and len(v) <= _KIND_LENGTH:
            value[key] = share(v, v)
    content = value.get("content")
    if type(content) is list:
        for block in content:
            if type(block) is dict:
                v = block.get("type")
                if type(v) is str and len(v) <= _KIND_LENGTH:
                    block["type"] = share(v, v)


_KIND_KEYS = ("type", "role")
_KIND_LENGTH = 40
"""Longer values are not kinds: they are left alone (and not kept in the table)."""


def json_bytes(value: Any, *, pretty: bool = False) -> bytes:
    """A JSON value as UTF-8 bytes (pretty: two-space indent, trailing newline)."""
    if pretty:
        return _dumps(value, orjson.OPT_INDENT_2) + b"\n"
    return _dumps(value)


def jsonl_bytes(values: list[Any]) -> bytes:
    """Values as JSONL: one compact JSON value per line."""
    return b"".join(_dumps(v) + b"\n" for v in values)


# orjson reads 1024 levels of nesting but writes only 254; the standard library's encoder
# writes as deep as the recursion limit lets it: room for 1024 levels above the caller's stack.
_DEEP_RECURSION_LIMIT = 5000


def _dumps(value: Any, option: int | None = None) -> bytes:
    try:
        return orjson.dumps(value, option=option)
    except orjson.JSONEncodeError as exc:
        if "Integer exceeds 64-bit range" in str(exc):
            return _stdlib_dumps(value, option)
        if "recursion" not in str(exc).lower():
            raise
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, _DEEP_RECURSION_LIMIT))
    try:
        # Compact even when asked to indent: only the C encoder is quick at that depth.
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    finally:
        sys.setrecursionlimit(limit)
    return text.encode()


def _stdlib_dumps(value: Any, option: int | None) -> bytes:
    """Integers past 64 bits, written by the standard library in orjson's layout."""
    with int_digits(0):
        if option == orjson.OPT_INDENT_2:
            text = json.dumps(value, ensure_ascii=False, allow_nan=False, indent=2)
        else:
            text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.encode()
