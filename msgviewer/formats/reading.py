"""Taking bytes in safely: files read (never mapped), endless inputs bounded, and text in
UTF-16 or UTF-32 recognised.

A regular file is read into memory at once. It is not memory-mapped: a file truncated while
a map of it is parsed kills the process (SIGBUS), and a read costs a few hundredths of a second
on a 175 MB file. Anything else (a pipe, standard input, a FIFO, ``/dev/urandom``) is read in
pieces up to a bound, past which reading stops with an error instead of filling the memory.
"""

from __future__ import annotations

import io
import mmap
import os
import re
import stat
import sys
from typing import Any, BinaryIO

from ..core.errors import FormatError

READ_LIMIT_VARIABLE = "MSGVIEWER_READ_LIMIT"
"""The environment variable that sets the bound on non-regular inputs: a number of bytes,
maybe with a K, M or G suffix (powers of 1024); 0 for no bound."""
DEFAULT_READ_LIMIT = 1 << 30
"""1 GiB: several times the largest conversation files known, and still read in seconds."""

_CHUNK = 1 << 20
_SIZE = re.compile(r"\s*(\d+)\s*([KMG]?)i?B?\s*", re.IGNORECASE)


def read_limit() -> int | None:
    """The bound on a non-regular input, in bytes (None: no bound)."""
    text = os.environ.get(READ_LIMIT_VARIABLE)
    if not text:
        return DEFAULT_READ_LIMIT
    match = _SIZE.fullmatch(text)
    if match is None:
        raise FormatError(
            f"{READ_LIMIT_VARIABLE}={text!r} is not a size (a number of bytes, or with K, M or G)"
        )
    size = int(match[1]) << (10 * " KMG".index(match[2].upper() or " "))
    return size or None


def _size(n: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n:,} bytes"


def read_path(name: str) -> bytes:
    """The bytes of the file called ``name``: a regular file whole, anything else bounded."""
    with open(name, "rb") as fh:
        if stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            return fh.read()
        return read_stream(fh, name)


def read_stdin() -> bytes:
    """Standard input: whole when it is a regular file (``msgviewer stats - < run.json``),
    otherwise up to the bound."""
    fh = sys.stdin.buffer
    try:
        regular = stat.S_ISREG(os.fstat(fh.fileno()).st_mode)
    except (OSError, ValueError, io.UnsupportedOperation):  # (no descriptor: a stand-in)
        regular = False
    return fh.read() if regular else read_stream(fh, "<stdin>")


def read_stream(fh: BinaryIO | Any, name: str) -> bytes:
    """Everything ``fh`` gives until its end, or a ``FormatError`` once it has given more than
    the bound (an endless device, a runaway pipe). Input that begins with NUL bytes is refused
    at once: no text does (``/dev/zero``)."""
    limit = read_limit()
    read = getattr(fh, "read1", fh.read)
    chunks: list[bytes] = []
    total = 0
    while chunk := read(_CHUNK):
        if isinstance(chunk, str):
            chunk = chunk.encode("utf-8", "surrogatepass")
        if not chunks:
            check_start(chunk, name)
        chunks.append(chunk)
        total += len(chunk)
        if limit is not None and total > limit:
            raise FormatError(
                f"stopped reading after {_size(limit)}: an input that is not a regular file "
                f"may be no longer (set {READ_LIMIT_VARIABLE} to read more)",
                file=name,
            )
    return b"".join(chunks)


# -- encodings ----------------------------------------------------------------------------

# Byte-order marks, the longer first (UTF-32 LE's begins with UTF-16 LE's).
_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le", "UTF-32 (little-endian)"),
    (b"\x00\x00\xfe\xff", "utf-32-be", "UTF-32 (big-endian)"),
    (b"\xff\xfe", "utf-16-le", "UTF-16 (little-endian)"),
    (b"\xfe\xff", "utf-16-be", "UTF-16 (big-endian)"),
)


def _without_bom(head: bytes) -> str | None:
    """The encoding JSON text beginning with ``head`` is in, told by where its first
    characters (ASCII, never NUL) put their zero bytes (RFC 4627, section 3); None for
    UTF-8 or anything else."""
    if len(head) >= 4:
        zeros = tuple(b == 0 for b in head[:4])
        return {
            (True, True, True, False): "UTF-32 (big-endian)",
            (False, True, True, True): "UTF-32 (little-endian)",
            (True, False, True, False): "UTF-16 (big-endian)",
            (False, True, False, True): "UTF-16 (little-endian)",
        }.get(zeros)
    if len(head) == 2 and (head[0] == 0) != (head[1] == 0):
        return "UTF-16 (big-endian)" if head[0] == 0 else "UTF-16 (little-endian)"
    return None


def check_start(head: bytes, name: str | None) -> None:
    """A ``FormatError`` if input beginning with ``head`` cannot be JSON text in any encoding
    (it begins with NUL bytes: ``/dev/zero``, a disk image...)."""
    start = bytes(head[:4])
    if len(start) >= 2 and not start.strip(b"\x00"):
        raise FormatError("binary data, not JSON text: it begins with NUL bytes", file=name)


def as_utf8(data: Any, file: str | None) -> Any:
    """``data`` as UTF-8: text with a UTF-16 or UTF-32 byte-order mark decoded and encoded
    again (a copy, rare enough); a ``FormatError`` naming the encoding of such text without
    one; anything else as it is (only its first four bytes looked at)."""
    if not isinstance(data, (bytes, bytearray, memoryview, mmap.mmap)) or len(data) < 2:
        return data
    head = bytes(data[:4])
    if head[:1] not in (b"\xff", b"\xfe", b"\x00") and head[1:2] != b"\x00":
        return data  # (the usual case, told from the first two bytes)
    for bom, codec, label in _BOMS:
        if head.startswith(bom):
            try:
                text = bytes(data[len(bom) :]).decode(codec)
            except UnicodeDecodeError as exc:
                where = exc.start + len(bom)
                raise FormatError(
                    f"not valid {label} at byte {where:,}: {exc.reason}", file=file
                ) from None
            return text.encode("utf-8")
    label = _without_bom(head)
    if label is not None:
        raise FormatError(
            f"looks like {label} text without a byte-order mark: msgviewer reads UTF-8, "
            "or UTF-16 and UTF-32 with a byte-order mark",
            file=file,
        )
    check_start(head, file)
    return data
