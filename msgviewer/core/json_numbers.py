"""JSON text with integers past 64 bits read exactly.

orjson, the quickest parser, reads an integer past 64 bits as a float (or refuses it past a
double's range): a call id of 20 digits would come back changed. msgspec and the standard
library read them as the integers they are. Here are the ways msgviewer reads JSON text so that
every integer stays as written: a whole document (``loads_whole``), a JSON text inside a
file's string (``loads_exactly``), and the search that tells whether a text may hold one
(``has_long_numbers``). It is part of the core because the core reads JSON text too: the
arguments of streamed chunks, once merged.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
from collections.abc import Iterator
from typing import Any

import msgspec
import orjson

Text = bytes | bytearray | memoryview
"""What the readers here take: bytes, or any buffer of them (a file's memory map too: the
core itself opens no file)."""

# A number of 19 digits or more may not fit 64 bits (-9223372036854775809 has 19): orjson reads
# such a number as a float or refuses it (past a double's range); the standard library reads it
# as the integer it is.
_DIGITS_AS_ZERO = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
_LONG_RUN = b"0" * 19
INT_DIGITS = 100_000
"""The most digits an integer read exactly may have: enough for any real file, and few enough
that converting it stays quick (Python's conversion is quadratic in the digits)."""


def has_long_numbers(data: Text) -> bool:
    """Whether the text may hold an integer orjson cannot read exactly (a run of 19 digits,
    maybe inside a string: then the exact reading costs a little time and changes nothing).

    Every digit mapped to "0" and the rest to spaces, then one search: quicker than a regular
    expression at every size (2.5x on a call's arguments, 14x on 4 KB). (Looking at one byte
    in four first is quicker on text, but slower on hexadecimal ids, where four digits in a row
    of the sampled bytes are common: a session log's every line has some.)"""
    # In pieces that overlap by a run's length less one: no copy of a whole large file
    step, overlap = _SCAN_PIECE, len(_LONG_RUN) - 1
    for start in range(0, len(data), step):
        if _LONG_RUN in bytes(data[start : start + step + overlap]).translate(_DIGITS_AS_ZERO):
            return True
    return False


_SCAN_PIECE = 1 << 16
"""Bytes looked at in one piece: small enough that the piece and its translation stay in the
processor's cache and reuse the memory of the piece before (on a 158 MB Codex rollout
0.15-0.17 s, against 0.40 s in pieces of 4 MiB, whose every copy was new memory for the
system to hand over)."""


def text_has_long_numbers(text: str) -> bool:
    """``has_long_numbers`` of a short text, such as a call's arguments (2.3x quicker than a
    regular expression on one)."""
    return _LONG_RUN in text.encode(errors="surrogatepass").translate(_DIGITS_AS_ZERO)


def loads_object(text: str) -> dict[str, Any] | None:
    """A JSON object's text (a call's arguments) as orjson reads it, when that is exactly what
    it holds; None for any other text: not JSON, not an object, or maybe holding an integer
    past 64 bits (which orjson reads as a float: a flat object of no floats holds none, and
    the text is searched only for the rest)."""
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:  # (a lone surrogate, which orjson refuses too)
        return None
    if type(value) is not dict:
        return None
    for v in value.values():
        kind = type(v)
        if kind is float or kind is dict or kind is list:
            if text_has_long_numbers(text):
                return None
            break
    return value


def loads_exactly(text: str) -> Any:
    """JSON text held in a file's string (a call's arguments), read as a whole document is
    (``loads_whole``): integers past 64 bits exactly, not as the floats orjson makes of them.
    ``ValueError`` when it is not JSON (nesting too deep too: orjson's error, not
    ``RecursionError``)."""
    return loads_whole(text.encode(errors="surrogatepass"))


def exact_loads(data: Text) -> Any:
    """Parse JSON keeping integers exactly (the standard library, which takes integers of up
    to ``INT_DIGITS`` digits here); floats as usual. ``NaN`` and ``Infinity``, which are not
    JSON, raise ``ValueError`` as orjson refuses them, and so does an escaped surrogate
    without its other half (``"\\ud800"``): whether a text reads must not hang on whether it
    also holds a long integer."""
    text = bytes(data).decode("utf-8")
    with int_digits(INT_DIGITS):
        value = json.loads(text, parse_constant=_not_json)
        if _SURROGATE_ESCAPE.search(text):
            try:  # (a pair is one character once read; half of one stays a lone surrogate)
                json.dumps(value, ensure_ascii=False).encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError(
                    "an escaped surrogate without its other half is not JSON"
                ) from None
    return value


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


@contextlib.contextmanager
def int_digits(digits: int) -> Iterator[None]:
    """Python's limit on the digits of an integer converted to or from text raised to
    ``digits`` (0: none) for the block; nothing to do before Python 3.11, which has none."""
    if not hasattr(sys, "get_int_max_str_digits"):
        yield
        return
    limit = sys.get_int_max_str_digits()
    if limit == 0 or 0 < digits <= limit:
        yield
        return
    sys.set_int_max_str_digits(digits)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(limit)


def loads_whole(data: Text) -> Any:
    """One JSON value, integers past 64 bits read exactly; orjson's error (with its line and
    column) for what is not JSON.

    msgspec reads integers of up to 4,300 digits exactly, as the standard library does, and
    everything else as orjson does (``tests/formats/test_whole_parse.py`` holds them equal), in
    0.4-0.8x the time of orjson's parse and the search for long integers it needs first. What
    msgspec refuses goes that way, which reads what msgspec cannot (longer integers, nesting
    near the recursion limit) and says what is wrong with the rest. One difference, for the
    better: a long integer nested within a few levels of the recursion limit, which the
    standard library could not reach, so that orjson read it as a float (or refused it past a
    double's range), is read exactly. (JSONL lines stay with
    orjson, after one search of the whole text: line by line msgspec is no quicker, and a
    Claude Code session read by it keeps 0.03x its file more memory.)"""
    if msgspec_reads_as_orjson():
        try:
            return _decode(data)
        except _DECODE_FAILS:
            pass  # (the usual way outside the handler: its error would hold this frame)
    if has_long_numbers(data):
        return exact_or_raise(data)
    return orjson.loads(data)


_decode = msgspec.json.Decoder().decode
_DECODE_FAILS = (msgspec.MsgspecError, ValueError, RecursionError, BufferError)
_ORJSON_DEPTH = 1024
"""The nesting orjson reads. msgspec reads as deep as the recursion limit lets it (less the
stack in use), so it is asked only while that limit is lower, as it is by default: it then
reads no text that orjson would refuse for its depth."""


def msgspec_reads_as_orjson() -> bool:
    """Whether msgspec reads no nesting deeper than orjson does (the recursion limit is at
    most ``_ORJSON_DEPTH``): ``loads_whole`` then parses with msgspec."""
    return sys.getrecursionlimit() <= _ORJSON_DEPTH


def exact_or_raise(data: Text) -> Any:
    """``exact_loads``, or orjson's error (with its line and column) if the text is not JSON."""
    try:
        return exact_loads(data)
    except (ValueError, RecursionError):
        return orjson.loads(data)  # (raises: the same text is not JSON for it either)
