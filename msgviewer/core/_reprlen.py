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
    n = len(s) + 2
    # ``in`` on the str is a memchr (several times quicker than ``in`` on its bytes in 3.11):
    # the counts run only for characters that are there.
    if "\\" in s:
        n += s.count("\\")
    if "'" in s and '"' in s:
        n += s.count("'")  # both quotes present: repr quotes with ' and escapes it
    data = s.encode("ascii")  # a copy of the compact ASCII buffer: no per-character work
    # For ASCII, "not printable" is exactly "a control character", so one pass deleting them
    # both tells whether there are any and counts them (an ``isprintable`` check first would
    # seldom save it: most long texts have newlines).
    controls = len(data) - len(data.translate(None, _CONTROL))
    if not controls:
        return n
    short = data.count(b"\n")
    if controls > short:
        short += data.count(b"\t") + data.count(b"\r")
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
