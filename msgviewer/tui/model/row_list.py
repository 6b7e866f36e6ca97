"""The visible rows as a list kept in chunks (headless).

An edit before the end of a long history changes the number of every message after it, so
every row after it would be made again: at a million messages, some 2.3 million tuples, a
second of the key. ``RowList`` keeps its rows in chunks of about ``CHUNK``, each with a number
added to the message number of every row it holds when the row is read: the rows after an
edit are renumbered a chunk at a time, and only a chunk cut by the edit is made again.

It is a sequence of rows like a list (index, slice, ``index``, slice assignment and deletion,
iteration); a chunk is never changed once made, so a copy shares them (``copy``).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate, chain
from operator import itemgetter
from typing import overload

from .rows import Row

CHUNK = 2048
"""Rows per chunk as rows are made (a cut chunk is made again with up to twice as many)."""

_number = itemgetter(2)


def _shifted(rows: Iterable[Row], shift: int) -> list[Row]:
    return [(k, c, m + shift, i, x, d) for k, c, m, i, x, d in rows]


class RowList(Sequence[Row]):
    """Rows in chunks, each read with its own shift of message numbers."""

    __slots__ = ("_chunks", "_high", "_len", "_low", "_shifts", "_starts")

    def __init__(self, rows: Iterable[Row] = ()) -> None:
        # (a long list is cut into new lists; a short one is copied: a chunk is never
        # changed, and the caller may change the list it gave)
        rows = rows if isinstance(rows, list) and len(rows) > 2 * CHUNK else list(rows)
        self._chunks: list[list[Row]] = []
        self._shifts: list[int] = []
        self._low: list[int] = []
        self._high: list[int] = []
        self._add(rows, 0)
        self._counted()

    # -- reading ----------------------------------------------------------------------------

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Row: ...

    @overload
    def __getitem__(self, index: slice) -> list[Row]: ...

    def __getitem__(self, index: int | slice) -> Row | list[Row]:
        if isinstance(index, slice):
            lo, hi, step = index.indices(self._len)
            if step != 1:
                return list(self)[index]
            return self._slice(lo, hi)
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("row index out of range")
        k = bisect.bisect_right(self._starts, index) - 1
        row = self._chunks[k][index - self._starts[k]]
        shift = self._shifts[k]
        if shift:
            return (row[0], row[1], row[2] + shift, row[3], row[4], row[5])
        return row

    def __iter__(self) -> Iterator[Row]:
        for chunk, shift in zip(self._chunks, self._shifts, strict=True):
            if shift:
                yield from _shifted(chunk, shift)
            else:
                yield from chunk

    def __contains__(self, row: object) -> bool:
        if not isinstance(row, tuple) or len(row) != 6:
            return False
        try:
            self.index(row)  # type: ignore[arg-type]
        except ValueError:
            return False
        return True

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (RowList, list)):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"RowList({list(self)!r})"

    def index(self, row: Row, start: int = 0, stop: int | None = None) -> int:  # type: ignore[override]
        """Position of ``row`` in ``rows[start:stop]``: chunks whose message numbers cannot
        hold it are passed over, the rest searched by ``list.index``."""
        start, stop, _ = slice(start, stop).indices(self._len)  # (as a list takes them)
        if start >= stop:
            raise ValueError("row not in the rows")
        m = row[2]
        starts = self._starts
        k = bisect.bisect_right(starts, start) - 1
        while k < len(self._chunks) and starts[k] < stop:
            shift = self._shifts[k]
            if self._low[k] + shift <= m <= self._high[k] + shift:
                lo = max(start - starts[k], 0)
                hi = stop - starts[k]
                stored = row if not shift else (row[0], row[1], m - shift, *row[3:])
                try:
                    return starts[k] + self._chunks[k].index(stored, lo, hi)
                except ValueError:
                    pass
            k += 1
        raise ValueError("row not in the rows")

    def copy(self) -> RowList:
        """A copy sharing this one's chunks (which neither changes)."""
        out = RowList.__new__(RowList)
        out._chunks = list(self._chunks)
        out._shifts = list(self._shifts)
        out._low = list(self._low)
        out._high = list(self._high)
        out._starts = list(self._starts)
        out._len = self._len
        return out

    # -- changing ---------------------------------------------------------------------------

    def __setitem__(self, index: int | slice, rows: Iterable[Row]) -> None:  # type: ignore[override]
        if not isinstance(index, slice):  # one row
            if index < 0:
                index += self._len
            if not 0 <= index < self._len:
                raise IndexError("row index out of range")
            index, rows = slice(index, index + 1), [rows]  # type: ignore[list-item]
        lo, hi, step = index.indices(self._len)
        if step != 1:
            raise ValueError("rows are replaced by runs only")
        self._replace(lo, max(lo, hi), list(rows))

    def __delitem__(self, index: slice) -> None:  # type: ignore[override]
        lo, hi, step = index.indices(self._len)
        if step != 1:
            raise ValueError("rows are deleted by runs only")
        self._replace(lo, max(lo, hi), [])

    def renumber(self, lo: int, hi: int, delta: int, end: int | None = None) -> None:
        """Add ``delta`` to the message number of every row in ``rows[lo:hi]`` (of those
        numbered ``end`` or more, when ``end`` is given). A chunk all of whose rows take it
        takes it as its shift; one only some of whose rows do is made again."""
        if not delta or lo >= hi:
            return
        self._cut(lo)
        self._cut(hi)
        k = bisect.bisect_left(self._starts, lo)
        while k < len(self._chunks) and self._starts[k] < hi:
            shift = self._shifts[k]
            if end is None or self._low[k] + shift >= end:
                self._shifts[k] = shift + delta
            elif self._high[k] + shift >= end:
                rows = self._read(k)
                made = [r if r[2] < end else (*r[:2], r[2] + delta, *r[3:]) for r in rows]
                self._set(k, made)
            k += 1

    # -- chunks -----------------------------------------------------------------------------

    def _read(self, k: int) -> list[Row]:
        shift = self._shifts[k]
        return _shifted(self._chunks[k], shift) if shift else self._chunks[k]

    def _set(self, k: int, rows: list[Row]) -> None:
        self._chunks[k] = rows
        self._shifts[k] = 0
        self._low[k] = min(map(_number, rows))
        self._high[k] = max(map(_number, rows))

    def _add(self, rows: list[Row], at: int) -> None:
        """Insert chunks of ``rows`` before chunk ``at`` (``_counted`` after)."""
        size = len(rows)
        if not size:
            return
        pieces = (
            [rows] if size <= 2 * CHUNK else [rows[i : i + CHUNK] for i in range(0, size, CHUNK)]
        )
        self._chunks[at:at] = pieces
        self._shifts[at:at] = [0] * len(pieces)
        self._low[at:at] = [min(map(_number, p)) for p in pieces]
        self._high[at:at] = [max(map(_number, p)) for p in pieces]

    def _drop(self, ka: int, kb: int) -> None:
        del self._chunks[ka:kb], self._shifts[ka:kb], self._low[ka:kb], self._high[ka:kb]

    def _counted(self) -> None:
        self._starts = [0, *accumulate(map(len, self._chunks))]
        self._len = self._starts.pop()

    def _cut(self, pos: int) -> None:
        """Make ``pos`` the start of a chunk (or the end of the rows)."""
        if pos <= 0 or pos >= self._len:
            return
        k = bisect.bisect_right(self._starts, pos) - 1
        j = pos - self._starts[k]
        if not j:
            return
        chunk, shift = self._chunks[k], self._shifts[k]
        self._drop(k, k + 1)
        for piece in (chunk[j:], chunk[:j]):  # (each inserted before the one after it)
            self._chunks.insert(k, piece)
            self._shifts.insert(k, shift)
            self._low.insert(k, min(map(_number, piece)))
            self._high.insert(k, max(map(_number, piece)))
        self._counted()

    def _slice(self, lo: int, hi: int) -> list[Row]:
        if lo >= hi:
            return []
        starts = self._starts
        ka = bisect.bisect_right(starts, lo) - 1
        kb = bisect.bisect_right(starts, hi - 1) - 1
        parts = []
        for k in range(ka, kb + 1):
            a = max(lo - starts[k], 0)
            b = min(hi - starts[k], len(self._chunks[k]))
            part = self._chunks[k][a:b]
            parts.append(_shifted(part, self._shifts[k]) if self._shifts[k] else part)
        return parts[0] if len(parts) == 1 else list(chain.from_iterable(parts))

    def _replace(self, lo: int, hi: int, rows: list[Row]) -> None:
        """``rows[lo:hi] = rows``: the chunks holding either end are made again, the new rows
        between their parts kept (one chunk of up to twice ``CHUNK``, or chunks of it)."""
        if not self._chunks:
            self._add(rows, 0)
            self._counted()
            return
        starts = self._starts
        ka = bisect.bisect_right(starts, lo) - 1  # (the last chunk when ``lo`` is the end)
        kb = bisect.bisect_right(starts, hi - 1) - 1 if hi > lo else ka
        left = self._read(ka)[: lo - starts[ka]]
        right = self._read(kb)[hi - starts[kb] :]
        self._drop(ka, kb + 1)
        self._add(left + rows + right, ka)
        self._counted()
