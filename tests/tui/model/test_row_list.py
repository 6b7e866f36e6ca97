"""``RowList`` behaves as a list of rows through any run of changes, in chunks of any size."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from msgviewer.tui.model import row_list
from msgviewer.tui.model.row_list import RowList
from msgviewer.tui.model.rows import MSG, Row


def _rows(first: int, count: int, conv: int = 0) -> list[Row]:
    return [(MSG, conv, m, 0, 0, m % 3) for m in range(first, first + count)]


def _renumbered(rows: list[Row], lo: int, hi: int, delta: int, end: int | None) -> list[Row]:
    return [
        (r[0], r[1], r[2] + delta, *r[3:]) if lo <= p < hi and (end is None or r[2] >= end) else r
        for p, r in enumerate(rows)
    ]


_change = st.one_of(
    st.tuples(st.just("set"), st.integers(0, 60), st.integers(0, 60), st.integers(0, 30)),
    st.tuples(st.just("del"), st.integers(0, 60), st.integers(0, 60)),
    st.tuples(
        st.just("renumber"),
        st.integers(0, 60),
        st.integers(0, 60),
        st.integers(-5, 5),
        st.one_of(st.none(), st.integers(0, 80)),
    ),
    st.tuples(st.just("copy")),
)


@settings(max_examples=300, deadline=None)
@given(
    chunk=st.integers(1, 9),
    start=st.integers(0, 50),
    changes=st.lists(_change, max_size=12),
    probe=st.integers(0, 90),
)
def test_every_change_leaves_the_rows_a_list_would_hold(
    chunk: int,
    start: int,
    changes: list,
    probe: int,  # type: ignore[type-arg]
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(row_list, "CHUNK", chunk)
        _changed_as_a_list(start, changes, probe)


def _changed_as_a_list(start: int, changes: list, probe: int) -> None:  # type: ignore[type-arg]
    expected = _rows(0, start)
    rows = RowList(expected)
    copies: list[tuple[RowList, list[Row]]] = []
    made = 1000
    for change in changes:
        kind = change[0]
        if kind == "set":
            _, lo, hi, count = change
            new = _rows(made, count, conv=1)
            made += count
            expected[lo:hi] = new
            rows[lo:hi] = new
        elif kind == "del":
            _, lo, hi = change
            del expected[lo:hi]
            del rows[lo:hi]
        elif kind == "renumber":
            _, lo, hi, delta, end = change
            expected = _renumbered(expected, lo, hi, delta, end)
            rows.renumber(lo, hi, delta, end)
        else:  # a copy is changed from now on, the one copied stays as it was
            copies.append((rows, list(expected)))
            rows = rows.copy()
        assert list(rows) == expected and len(rows) == len(expected)
    for kept, was in copies:
        assert list(kept) == was
    assert rows == expected and [rows[i] for i in range(len(rows))] == expected
    assert rows[probe % 7 : probe] == expected[probe % 7 : probe]
    if expected:
        assert rows[-1] == expected[-1]
        target = expected[probe % len(expected)]
        assert rows.index(target) == expected.index(target)
        lo = probe % len(expected)
        tail = expected[lo:]
        if target in tail:
            assert rows.index(target, lo) == lo + tail.index(target)
        else:
            with pytest.raises(ValueError):
                rows.index(target, lo)
    with pytest.raises(ValueError):
        rows.index((MSG, 9, 0, 0, 0, 0))
    assert None not in rows and (MSG, 9, 0, 0, 0, 0) not in rows
    if expected:
        last = expected[-1]
        assert (last in rows) and rows.index(last, -1) == len(expected) - 1
        first = expected[0]
        if first not in expected[1:]:
            with pytest.raises(ValueError):
                rows.index(first, 1, -1)
        expected[0] = rows[0] = (MSG, 7, 7, 7, 7, 7)
        assert list(rows) == expected


def test_rows_before_a_renumbering_are_the_tuples_given() -> None:
    """Rows a change does not reach are the very tuples given (none made again); those it
    renumbers read with their new numbers."""
    made = _rows(0, 10 * row_list.CHUNK)
    rows = RowList(made)
    rows.renumber(row_list.CHUNK + 5, len(made), -1)
    assert all(rows[i] is made[i] for i in range(row_list.CHUNK + 5))
    assert rows[row_list.CHUNK + 5][2] == row_list.CHUNK + 4
    assert rows[len(made) - 1][2] == len(made) - 2
