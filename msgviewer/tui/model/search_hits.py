"""``Hits``: the matches of a search, and ``next_hit``: which one a step goes to.

A common word matches most of a long history (``deploy``: 893,000 of a million generated
messages). As a tuple of ``(conversation, message)`` pairs that is a million small tuples and
ints, which the next search frees one by one on the interface's thread (30-40 ms at a million,
in the key that made it). ``Hits`` keeps one array of message numbers per conversation
instead, and reads as the same sorted sequence of pairs.
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import accumulate
from typing import Any, overload

__all__ = ["Hits", "next_hit"]


class Hits(Sequence[tuple[int, int]]):
    """Sorted ``(conversation, message)`` pairs, one array of message numbers each conversation."""

    __slots__ = ("_ends", "_parts")

    def __init__(self, parts: Iterable[tuple[int, Iterable[int]]] = ()) -> None:
        """``parts``: ``(conversation, its matching message numbers in order)``, by conversation."""
        arrays = ((c, array("q", found)) for c, found in parts)
        self._parts = [(c, found) for c, found in arrays if found]
        self._ends = list(accumulate(len(found) for _, found in self._parts))

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    @overload
    def __getitem__(self, i: int) -> tuple[int, int]: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[tuple[int, int], ...]: ...
    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return tuple(self)[i]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("hit index out of range")
        k = bisect.bisect_right(self._ends, i)
        c, found = self._parts[k]
        return c, found[i - (self._ends[k - 1] if k else 0)]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        for c, found in self._parts:
            for m in found:
                yield c, m

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Hits):
            return self._parts == other._parts
        if isinstance(other, Sequence):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Hits({len(self)} matches)"

    def kept(self, keep: Callable[[int, int], bool]) -> Hits:
        """The hits ``keep(conversation, message)`` says yes to."""
        return Hits((c, (m for m in found if keep(c, m))) for c, found in self._parts)


def next_hit(
    hits: Sequence[tuple[int, int]],
    here: tuple[int, int],
    current: int,
    step: int,
    *,
    from_cursor: bool,
) -> int:
    """Index in ``hits`` (sorted ``(conv, msg)`` pairs, at least one) of the match ``step``
    (1 or -1) away: from the match ``current``, or from the message ``here`` when
    ``from_cursor`` or there is no current match (-1). It wraps round at either end."""
    if from_cursor or current < 0:
        if step > 0:
            i = bisect.bisect_left(hits, here)
            i = i if i < len(hits) else 0
        else:
            i = bisect.bisect_left(hits, here) - 1
    else:
        i = current + step
    return i % len(hits)
