"""``changed_span(old, new)``: where two versions of a history differ, by identity; and
``Spanned``: an edit that says where it changes, so that nothing else is compared.

Messages are immutable, so an edit keeps every message it leaves alone as the same object:
the span it changed is found by comparing references, never values (a value may change type
and still compare equal, ``1`` for ``True``). The comparison runs in C and stops at the first
difference from each end: an edit near either end of a million messages costs a pass over
the messages on its other side, some 30 ms, and no list of a million results.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import compress, count, islice
from operator import is_not
from typing import Any

__all__ = ["Spanned", "changed_span"]


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


@dataclass(frozen=True)
class Spanned:
    """An edit ``fn(messages) -> messages`` that changes only ``messages[start:stop]`` of the
    list it is given: every message outside it is kept, as the same object, in its order
    (moved along if the span grows or shrinks). It holds on to nothing of that list once it
    returns (a Document keeps the list for its next edit). Called as ``fn`` is.

    A ``Document`` given one compares the span alone: a whole million-message history
    compared before and after takes some 60 ms. A span that does not fit the list (negative,
    past its end, or shrunk by more than it holds) is no help, and the whole is compared.
    """

    start: int
    stop: int
    fn: Callable[[list[Any]], Sequence[Any]]

    def __call__(self, messages: list[Any]) -> Sequence[Any]:
        return self.fn(messages)

    def changed(self, old: Sequence[Any], new: Sequence[Any]) -> tuple[int, int, int] | None:
        """``changed_span(old, new)`` found inside the span; None if the span does not fit."""
        lo, hi, grown = self.start, self.stop, len(new) - len(old)
        if not 0 <= lo <= hi <= len(old) or hi + grown < lo:
            return None
        start, old_count, new_count = changed_span(old[lo:hi], new[lo : hi + grown])
        return lo + start, old_count, new_count
