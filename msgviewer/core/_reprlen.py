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
    n = len(data) + 2 + data.count(b"\\")
    if b"'" in data and b'"' in data:
        n += data.count(b"'")  # both quotes present: repr quotes with ' and escapes it
    controls = len(data) - len(data.translate(None, _CONTROL))
    if controls:
        short = data.count(b"\n") + data.count(b"\t") + data.count(b"\r")
        n += short + 3 * (controls - short)
    return n


def dict_repr_len(d: dict[Any, Any]) -> int:
    """``len(repr(d))`` for a dict: string keys and values measured without a repr."""
    n = 2 + 4 * len(d) - (2 if d else 0)  # braces, ": " after each key, ", " between items
    for k, v in d.items():
        n += str_repr_len(k) if type(k) is str else len(repr(k))
        n += str_repr_len(v) if type(v) is str else len(repr(v))
    return n
