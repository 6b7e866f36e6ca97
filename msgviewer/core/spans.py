"""``changed_span(old, new)``: where two versions of a history differ, by identity.

Messages are immutable, so an edit keeps every message it leaves alone as the same object:
the span it changed is found by comparing references, never values (a value may change type
and still compare equal, ``1`` for ``True``). The comparison runs in C and stops at the first
difference from each end: an edit near either end of a million messages costs a pass over
the messages on its other side, some 30 ms, and no list of a million results.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import compress, count, islice
from operator import is_not
from typing import Any

__all__ = ["changed_span"]


def changed_span(old: Sequence[Any], new: Sequence[Any]) -> tuple[int, int, int]:
    """``(start, old count, new count)``: ``old[start:start+old count]`` became
    ``new[start:start+new count]``, every item outside it being the same object in both."""
    limit = min(len(old), len(new))
    start = _same_run(old, new, limit)
    end = _same_run(reversed(old), reversed(new), limit - start)
    return start, len(old) - start - end, len(new) - start - end


def _same_run(a: Iterable[Any], b: Iterable[Any], limit: int) -> int:
    """How many leading items of ``a`` and ``b`` (at most ``limit``) are the same objects."""
    differs = map(is_not, islice(a, limit), islice(b, limit))
    return next(compress(count(), differs), limit)
