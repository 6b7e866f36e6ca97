"""Bytes in and out: reading files and standard input as JSON or JSONL, and atomic writes."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import orjson

from ..core.errors import FormatError


@dataclass
class Parsed:
    """A parsed input: one JSON value, or the records of a JSONL file with their line numbers."""

    value: Any = None
    records: list[Any] | None = None
    lines: list[int] | None = None
    file: str | None = None

    @property
    def is_jsonl(self) -> bool:
        return self.records is not None


def read_bytes(source: str | os.PathLike[str] | BinaryIO) -> tuple[bytes, str]:
    """The bytes of a path (``-`` is standard input) or binary file, and a name for errors."""
    if isinstance(source, (str, os.PathLike)):
        name = os.fspath(source)
        if name == "-":
            return sys.stdin.buffer.read(), "<stdin>"
        try:
            return Path(name).read_bytes(), name
        except FileNotFoundError:
            raise FormatError("no such file", file=name) from None
        except IsADirectoryError:
            raise FormatError("is a directory, not a file", file=name) from None
        except PermissionError:
            raise FormatError("permission denied", file=name) from None
        except OSError as exc:
            raise FormatError(exc.strerror or str(exc), file=name) from None
    data = source.read()
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    return data, getattr(source, "name", None) or "<input>"


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
    data: bytes, file: str | None = None, *, partial_tail: bool = False
) -> Iterator[tuple[int, Any]]:
    """(line number, value) for each non-blank line.

    A last line without its newline that does not parse is a record still being written: with
    ``partial_tail`` it is skipped (the caller waits for the rest), otherwise it is an error.
    """
    start = 0
    line = 0
    size = len(data)
    while start < size:
        end = data.find(b"\n", start)
        complete = end != -1
        if not complete:
            end = size
        line += 1
        chunk = data[start:end]
        start = end + 1
        if not chunk.strip():
            continue
        try:
            yield line, orjson.loads(chunk)
        except orjson.JSONDecodeError as exc:
            if not complete and partial_tail:
                return
            what = f"invalid JSON: {exc.msg}" if hasattr(exc, "msg") else f"invalid JSON: {exc}"
            if not complete:
                what += " (the last line is incomplete: is the file still being written?)"
            raise FormatError(what, file=file, line=line) from None


def parse(data: bytes | str, file: str | None = None) -> Parsed:
    """Parse bytes as one JSON value, or failing that as JSONL (one value per line)."""
    if isinstance(data, str):
        # Lone surrogates (text decoded with "surrogateescape"...) become bytes that are not
        # UTF-8, which the parser then refuses with a line and column.
        data = data.encode("utf-8", "surrogatepass")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if not data or data.isspace():  # (strip() would copy a file of any size)
        raise FormatError("the input is empty", file=file, path="$")
    try:
        return Parsed(value=orjson.loads(data), file=file)
    except orjson.JSONDecodeError as exc:
        first_error = exc
    # More than one line: try JSONL. Only a file whose first line parses on its own is JSONL;
    # otherwise the JSON error of the whole is the one that explains the problem.
    first_nl = data.find(b"\n", 0, len(data.rstrip()))
    if first_nl != -1:
        first_line = data[:first_nl].strip()
        try:
            orjson.loads(first_line)
            is_jsonl = bool(first_line)
        except orjson.JSONDecodeError:
            is_jsonl = False
        if is_jsonl:
            records: list[Any] = []
            lines: list[int] = []
            for line, record in iter_jsonl(data, file):
                lines.append(line)
                records.append(record)
            return Parsed(records=records, lines=lines, file=file)
    raise _json_error(first_error, data, file)


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


def atomic_write(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file beside it and a rename.

    The target is either its old self or entirely the new data, never half written. The file
    keeps the permissions of the file it replaces.
    """
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        except FileNotFoundError:
            os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
