"""``DiffView`` (headless): folded runs, jumps between changes, cells and details as text."""

from __future__ import annotations

import msgviewer as mv
from msgviewer.tui.model.diff_view import CONTEXT, DiffView


def history(n: int) -> list[mv.Message]:
    return [mv.Message.user(f"message {k}") for k in range(n)]


def test_long_unchanged_runs_are_folded_around_changes() -> None:
    a = history(100)
    b = list(a)
    b[50] = mv.Message.user("changed")
    view = DiffView(mv.diff(a, b), a, b)
    kinds = [("fold" if r.fold else view.change(k).op) for k, r in enumerate(view.rows)]
    assert kinds == ["fold", *["same"] * CONTEXT, "changed", *["same"] * CONTEXT, "fold"]
    assert [r.end - r.start for r in view.rows if r.fold] == [50 - CONTEXT, 49 - CONTEXT]
    view.unfold(0)
    assert len(view.rows) == (50 - CONTEXT) + CONTEXT + 1 + CONTEXT + 1


def test_jumps_and_targets() -> None:
    a = history(30)
    b = [*a[:10], mv.Message.user("new"), *a[10:29]]
    view = DiffView(mv.diff(a, b), a, b)
    first = view.first_change()
    assert view.target(first) == (None, 10)
    second = view.next_change(first)
    assert view.change(second).op == "removed"
    assert view.next_change(second) is None
    assert view.next_change(second, -1) == first


def test_cells_and_detail_are_visible_text() -> None:
    a = [mv.Message.assistant("tea \x1b[31m please")]
    b = [mv.Message.assistant("coffee \x1b[31m please")]
    view = DiffView(mv.diff(a, b), a, b)
    mark, left, right = view.cells(0)
    assert mark == "~" and "\x1b" not in left + right
    text = "".join(t for _, t in view.detail(0))
    assert "\x1b" not in text and "[-tea-]{+coffee+}" in text
