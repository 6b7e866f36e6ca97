"""The two small diffs a message diff is made of: words of a text, and JSON values by path.

``word_diff`` splits a text into words and the whitespace between them (joining the pieces
gives each side back) and aligns the words; ``json_diff`` walks two JSON values and names each leaf
that differs by its path (``args.files[2].name``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from difflib import SequenceMatcher
from typing import Any

_WORDS = re.compile(r"\S+|\s+")
_MAX_CELLS = 4_000_000  # words a x words b above which the texts are shown as one replacement

WordOp = tuple[str, str]
"""One piece of a word diff: ``("=", text)`` on both sides, ``("-", text)`` only in the first,
``("+", text)`` only in the second."""


def words(text: str) -> list[str]:
    """``text`` as words and runs of whitespace (``"".join`` gives ``text`` back)."""
    return _WORDS.findall(text)


def word_diff(a: str, b: str) -> tuple[WordOp, ...]:
    """The pieces that turn ``a`` into ``b``, word by word; adjacent pieces of one kind joined."""
    wa, wb = words(a), words(b)
    if len(wa) * len(wb) > _MAX_CELLS:  # two long, different texts: the alignment would crawl
        return _joined([("-", a), ("+", b)])
    out: list[WordOp] = []
    # autojunk off: a text's common words ("the ") are what keeps the pieces in place
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, wa, wb, autojunk=False).get_opcodes():
        if tag == "equal":
            out.append(("=", "".join(wa[i1:i2])))
            continue
        if i2 > i1:
            out.append(("-", "".join(wa[i1:i2])))
        if j2 > j1:
            out.append(("+", "".join(wb[j1:j2])))
    return _joined(out)


def _joined(ops: list[WordOp]) -> tuple[WordOp, ...]:
    out: list[WordOp] = []
    for op, text in ops:
        if not text:
            continue
        if out and out[-1][0] == op:
            out[-1] = (op, out[-1][1] + text)
        else:
            out.append((op, text))
    return tuple(out)


def json_diff(a: Any, b: Any, path: str = "") -> Iterator[tuple[str, Any, Any]]:
    """``(path, value in a, value in b)`` for each place the two JSON values differ.

    Objects are compared key by key (a missing key is ``MISSING``), arrays item by item; any
    other difference (a type, a number, a string) is reported at its own path, whole.
    """
    if type(a) is dict and type(b) is dict:
        for key in {**a, **b}:
            yield from json_diff(a.get(key, MISSING), b.get(key, MISSING), _key_path(path, key))
    elif type(a) in (list, tuple) and type(b) in (list, tuple):
        for i in range(max(len(a), len(b))):
            yield from json_diff(
                a[i] if i < len(a) else MISSING, b[i] if i < len(b) else MISSING, f"{path}[{i}]"
            )
    elif not _equal(a, b):
        yield path, a, b


def _equal(a: Any, b: Any) -> bool:
    # 1 and True are equal in Python, not in JSON
    return a == b and (type(a) is bool) == (type(b) is bool)


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _key_path(path: str, key: Any) -> str:
    key = str(key)
    if _IDENTIFIER.match(key):
        return f"{path}.{key}" if path else key
    return f"{path}[{_quoted(key)}]"


def _quoted(key: str) -> str:
    return '"' + key.replace("\\", "\\\\").replace('"', '\\"') + '"'


class _Missing:
    """Where a key or an item exists on one side only."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()
"""The value of a key or item absent from one side of a ``json_diff``."""
