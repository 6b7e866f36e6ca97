"""``len(repr(x))`` without building the repr, for the token estimate.

LangChain's ``count_tokens_approximately`` measures anything that is not plain text by the
length of its ``repr``; the estimate needs only that length. For a long ASCII string (the text
of a reasoning block, a tool result) the length follows from a few counts over the string's
bytes, which is several times quicker than building the escaped copy ``repr`` makes.
"""

from __future__ import annotations

from typing import Any

# Below this length ``repr`` itself is quicker than the counts.
_SHORT = 64
# ASCII characters ``repr`` escapes as \\xhh (all control characters and DEL), of which
# tab, newline and carriage return get the two-character escapes \\t \\n \\r instead.
_CONTROL = bytes([*range(32), 127])


def str_repr_len(s: str) -> int:
    """``len(repr(s))`` for a ``str``."""
    if len(s) < _SHORT or not s.isascii():
        return len(repr(s))
    data = s.encode("ascii")  # a copy of the compact ASCII buffer: no per-character work
    n = len(data) + 2
    # ``in`` is a memchr: the counts run only for characters that are there.
    if b"\\" in data:
        n += data.count(b"\\")
    if b"'" in data and b'"' in data:
        n += data.count(b"'")  # both quotes present: repr quotes with ' and escapes it
    if s.isprintable():
        return n
    controls = len(data) - len(data.translate(None, _CONTROL))
    short = data.count(b"\n")
    if b"\t" in data:
        short += data.count(b"\t")
    if b"\r" in data:
        short += data.count(b"\r")
    return n + short + 3 * (controls - short)


def dict_repr_len(d: dict[Any, Any]) -> int:
    """``len(repr(d))`` for a dict: its long string values measured without a repr.

    The rest of the dict (short strings, numbers, nested values) goes through ``repr``, which
    is quicker than walking it here.
    """
    short: dict[Any, Any] | None = None
    extra = 0
    for k, v in d.items():
        if type(v) is str and len(v) >= _SHORT:
            if short is None:
                short = dict(d)
            short[k] = ""
            extra += str_repr_len(v) - 2
    return len(repr(d if short is None else short)) + extra
