"""Words a regular expression cannot match without: a quick test before the slow one.

The secrets detector runs some forty patterns over every text of a run, and nearly every text
holds no secret. Most patterns name a word every match contains (``AKIA``, ``ghp_``,
``-----BEGIN``, one of ``key``/``pwd``/``token``...): a text without any of a pattern's words
is passed over with a substring search, which costs a fraction of the pattern's own scan.

``needles(pattern)`` reads the pattern's parse tree (the standard library's own parser) and
gives such words, case-folded; ``absent(needles, folded)`` says whether a text (folded by
``fold``) lacks them all. The words are a necessary condition only: a text holding one is
still scanned by the pattern, which decides.
"""

from __future__ import annotations

import re
import sys
from typing import Any

if sys.version_info >= (3, 11):
    from re import _constants as _c
    from re import _parser as _parse
else:  # pragma: no cover (Python 3.10)
    import sre_constants as _c
    import sre_parse as _parse

_REPEATS = {_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", _c.MAX_REPEAT)}


def fold(text: str) -> str:
    """``text`` case-folded so that a substring search finds any word a case-insensitive
    pattern would (folding leaves two letters the patterns take for ``i``: they are mended)."""
    folded = text.casefold()
    if not folded.isascii():
        folded = folded.replace("\u0131", "i").replace("\u0307", "")
    return folded


def needles(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    """Case-folded words one of which every match of ``pattern`` contains; None when the
    pattern names none (a text must then be scanned)."""
    try:
        tree = _parse.parse(pattern.pattern, pattern.flags)
    except Exception:  # (a pattern the parser of this Python reads otherwise)
        return None
    found = _required(list(tree))
    return tuple(sorted(found)) if found else None


def absent(words: tuple[str, ...] | None, folded: str) -> bool:
    """Whether ``folded`` holds none of ``words`` (so the pattern cannot match it)."""
    return words is not None and not any(word in folded for word in words)


def _required(items: list[tuple[Any, Any]]) -> frozenset[str] | None:
    """The most selective set of words a match of this sequence must contain, if any."""
    best: frozenset[str] | None = None
    run = [""]  # the texts the literal run so far may be ([ab] makes two)

    def consider(words: frozenset[str] | None) -> None:
        nonlocal best
        if words and all(words) and (best is None or _better(words, best)):
            best = words

    for op, av in items:
        chars = _one_of(op, av)
        if chars is not None and len(run) * len(chars) <= _MAX_WORDS:
            run = [r + c for r in run for c in chars]
            continue
        consider(frozenset(map(fold, run)))
        run = [""]
        if op is _c.SUBPATTERN:
            consider(_required(list(av[-1])))
        elif op is _c.BRANCH:
            consider(_either(av[1]))
        elif op in _REPEATS and av[0] >= 1:
            consider(_required(list(av[2])))
    consider(frozenset(map(fold, run)))
    return best


_MAX_WORDS = 32


def _one_of(op: Any, av: Any) -> list[str] | None:
    """The characters a literal (one) or a set of literals (``[po]``, a few) stands for."""
    if op is _c.LITERAL:
        return [chr(av)]
    if op is _c.IN and len(av) <= 8 and all(o is _c.LITERAL for o, _ in av):
        return [chr(v) for _, v in av]
    return None


def _either(alternatives: list[Any]) -> frozenset[str] | None:
    """Words a match of one of the alternatives must contain: each alternative's, together."""
    words: set[str] = set()
    for alternative in alternatives:
        required = _required(list(alternative))
        if not required:
            return None  # (this way needs no word)
        words |= required
    return frozenset(words)


def _better(a: frozenset[str], b: frozenset[str]) -> bool:
    """Longer shortest word first (rarer in text), then fewer words."""
    return (min(map(len, a)), -len(a)) > (min(map(len, b)), -len(b))
