"""The diff screen's rows (headless): two conversations aligned, unchanged runs folded.

Each row is one change of a ``HistoryDiff`` (a message on one side or both) or a fold standing
for a run of unchanged messages; the screen draws the rows and asks here what to show, where
the next change is, and which message a row opens. Everything from a file comes out as safe
segments (``core.diff_text``); nothing here imports Textual.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...core.diff import Change, HistoryDiff
from ...core.diff_text import Segment, detail_segments, summary
from ...core.message import Message
from ...core.safetext import one_line

CONTEXT = 1  # unchanged messages kept in view on each side of a change


@dataclass(frozen=True, slots=True)
class Row:
    """Changes ``start:end`` of the diff: one change, or (``fold``) a run of unchanged ones."""

    start: int
    end: int
    fold: bool = False


class DiffView:
    """The rows of a diff between messages ``a`` and ``b``, and what each row shows."""

    def __init__(self, result: HistoryDiff, a: Sequence[Message], b: Sequence[Message]) -> None:
        self.result = result
        self.a = a
        self.b = b
        self.rows: list[Row] = _rows(result.changes)

    @property
    def changes(self) -> tuple[Change, ...]:
        return self.result.changes

    def unfold(self, k: int) -> bool:
        """Open the fold at row ``k`` into its rows; False if row ``k`` is not a fold."""
        row = self.rows[k]
        if not row.fold:
            return False
        self.rows[k : k + 1] = [Row(i, i + 1) for i in range(row.start, row.end)]
        return True

    def next_change(self, k: int, step: int = 1) -> int | None:
        """The row of the next (``step`` 1) or previous (-1) change after row ``k``."""
        k += step
        while 0 <= k < len(self.rows):
            row = self.rows[k]
            if not row.fold and self.changes[row.start].op != "same":
                return k
            k += step
        return None

    def change(self, k: int) -> Change | None:
        """The change a row shows (None for a fold)."""
        row = self.rows[k]
        return None if row.fold else self.changes[row.start]

    def cells(self, k: int, width: int = 60) -> tuple[str, str, str]:
        """(op mark, left cell, right cell) of row ``k``, each one visible line."""
        row = self.rows[k]
        if row.fold:
            n = row.end - row.start
            return "", f"… {n:,} unchanged message{'s' if n != 1 else ''} (enter: show)", ""
        c = self.changes[row.start]
        mark = {"same": " ", "changed": "~", "added": "+", "removed": "-"}[c.op]
        return mark, self._cell(self.a, c.a_index, width), self._cell(self.b, c.b_index, width)

    @staticmethod
    def _cell(messages: Sequence[Message], index: int | None, width: int) -> str:
        if index is None:
            return ""
        m = messages[index]
        return f"{index} {m.role}: " + one_line(summary(m), width)

    def detail(self, k: int) -> list[Segment]:
        """What a row's change is: a header, then each detail (words, paths, deltas)."""
        c = self.change(k)
        if c is None:
            row = self.rows[k]
            return [("dim", f"{row.end - row.start:,} messages the same on both sides\n")]
        where = f"a[{_index(c.a_index)}] b[{_index(c.b_index)}]"
        out: list[Segment] = [(c.op, f"{c.op} {where}\n")]
        if c.op == "same":
            out.append(("dim", "the same on both sides\n"))
        elif c.op in ("added", "removed"):
            m = self.b[c.b_index] if c.op == "added" else self.a[c.a_index]  # type: ignore[index]
            out.append((c.op, f"{m.role}: {one_line(summary(m), 400)}\n"))
        for d in c.details:
            out.extend(detail_segments(d))
        return out

    def target(self, k: int) -> tuple[int | None, int | None] | None:
        """The message indices (a, b) a row opens; None for a fold."""
        c = self.change(k)
        return None if c is None else (c.a_index, c.b_index)

    def first_change(self) -> int:
        """The row of the first change (0 when there is none)."""
        found = self.next_change(-1)
        return 0 if found is None else found


def _index(i: int | None) -> str:
    return "-" if i is None else str(i)


def _rows(changes: Sequence[Change]) -> list[Row]:
    """One row per change, runs of unchanged messages longer than the context folded."""
    rows: list[Row] = []
    n = len(changes)
    i = 0
    while i < n:
        if changes[i].op != "same":
            rows.append(Row(i, i + 1))
            i += 1
            continue
        j = i
        while j < n and changes[j].op == "same":
            j += 1
        keep_before = 0 if i == 0 else CONTEXT  # context after the change before
        keep_after = 0 if j == n else CONTEXT  # context before the change after
        if j - i > keep_before + keep_after + 1:
            rows.extend(Row(k, k + 1) for k in range(i, i + keep_before))
            rows.append(Row(i + keep_before, j - keep_after, fold=True))
            rows.extend(Row(k, k + 1) for k in range(j - keep_after, j))
        else:
            rows.extend(Row(k, k + 1) for k in range(i, j))
        i = j
    return rows
