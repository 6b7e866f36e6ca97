"""Placing a long history's results under their calls a slice at a time: the view keeps its
rows meanwhile, ends with the rows placing them at once gives, and takes nothing made from a
view that changed since."""

from __future__ import annotations

import dataclasses
import gc
from typing import Any

import pytest

from bench.generate import generate
from msgviewer import load
from msgviewer.core.edits import Part, delete_parts
from msgviewer.formats import Conversation
from msgviewer.tui.model import placement as placing
from msgviewer.tui.model import row_list, tree_model
from msgviewer.tui.model import session as session_module
from msgviewer.tui.model.history import EditHistory
from msgviewer.tui.model.result_nesting import ResultNesting, nest_results
from msgviewer.tui.model.rows import BLOCK, MSG, Filter
from msgviewer.tui.model.session import Session
from msgviewer.tui.model.tree_model import TreeModel

from ..conftest import DEMO, SAMPLES

HISTORIES = {
    "demo": lambda: load(DEMO),
    "anthropic": lambda: load(SAMPLES / "anthropic-agent.json"),
    "claude-code": lambda: load(SAMPLES / "claude-code-session.jsonl"),
    "generated": lambda: [Conversation(tuple(generate(300)))],
    "two conversations": lambda: [*load(DEMO), *load(SAMPLES / "anthropic-agent.json")],
}


@pytest.fixture(autouse=True)
def small_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every history placed a slice at a time, in slices of a few messages."""
    monkeypatch.setattr(placing, "AT_ONCE", 0)
    monkeypatch.setattr(tree_model, "SLICE", 7)


def _linked(convs: list[Conversation]) -> tuple[TreeModel, dict[int, ResultNesting]]:
    """A view of ``convs`` in file order, its conversations linked since (as the analysis
    worker links them), and the nestings the worker makes of those links."""
    session = Session.from_conversations(convs)
    model = TreeModel(session)
    session.analyse()
    nests = {c: nest_results(data.messages, data.links) for c, data in enumerate(session.convs)}
    return model, nests


def _placed_at_once(convs: list[Conversation]) -> TreeModel:
    session = Session.from_conversations(convs)
    session.analyse()
    return TreeModel(session)


def _steps(p: placing.Placement, model: TreeModel) -> int:
    before = list(model.rows)
    steps = 1
    while not p.step():
        assert model.rows == before  # the view keeps its rows meanwhile
        steps += 1
    return steps


@pytest.mark.parametrize("name", HISTORIES)
def test_rows_placed_a_slice_at_a_time_are_those_placed_at_once(name: str) -> None:
    convs = HISTORIES[name]()
    model, nests = _linked(convs)
    in_file_order = list(model.rows)
    p = placing.placement(model, nests)
    assert p is not None
    _steps(p, model)
    assert p.take()
    expected = _placed_at_once(convs)
    assert model.rows == expected.rows
    assert model.rows != in_file_order  # results did move
    assert not model.nesting_stale()


def test_a_long_history_takes_many_slices() -> None:
    model, nests = _linked(HISTORIES["generated"]())
    p = placing.placement(model, nests)
    assert p is not None
    assert _steps(p, model) >= 300 // 7


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda m: m.set_filter(Filter(roles=frozenset({"user"}))), id="a filter"),
        pytest.param(lambda m: m.set_nested_view(False), id="file order"),
        pytest.param(lambda m: _delete_message(m, 2), id="an edit"),
    ],
)
def test_rows_made_from_a_view_changed_since_are_not_taken(change: Any) -> None:
    """An edit, a filter, the order: the rows made are left, and the view is as it was."""
    convs = HISTORIES["generated"]()
    model, nests = _linked(convs)
    p = placing.placement(model, nests)
    assert p is not None
    p.step()
    change(model)
    assert not p.fits()
    while not p.step():
        pass
    rows = list(model.rows)
    assert not p.take()
    assert model.rows == rows


def _delete_message(model: TreeModel, m: int) -> None:
    data = model.session.convs[0]
    gone = data.messages[m]
    messages = data.messages[:m] + data.messages[m + 1 :]
    model.session.replace_messages(
        0, dataclasses.replace(data.conversation, messages=messages), m, 0
    )
    model.splice(0, m, 1, 0, (gone,))


def test_a_placement_leaves_out_links_the_history_no_longer_has() -> None:
    model, nests = _linked(HISTORIES["generated"]())
    model.session.convs[0].links = None  # (an edit dropped them)
    assert placing.placement(model, nests) is None


def test_a_short_history_is_placed_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(placing, "AT_ONCE", 20_000)
    model, nests = _linked(HISTORIES["generated"]())
    assert placing.placement(model, nests) is None
    assert model.refresh_nesting(nests)
    assert model.rows == _placed_at_once(HISTORIES["generated"]()).rows


def _open(model: TreeModel, kind: int, m: int) -> None:
    """Open a message, and what holds it."""
    pos = model.reveal(kind, 0, m)
    assert pos is not None and model.expand(pos)


CHANGES = {
    "a message opened": lambda m: _open(m, MSG, 3),
    "a message opened then closed": lambda m: (_open(m, MSG, 3), m.collapse(m.reveal(MSG, 0, 3))),
    "a result opened, to sit under its call": lambda m: _open(m, MSG, _a_result(m)),
    "a block opened or closed (and its message opened)": lambda m: _toggle_part(m),
    "a result block opened or closed (to sit under its call)": lambda m: _toggle_result(m),
    "a message making calls opened (open by default once placed)": lambda m: _open(
        m, MSG, _a_caller(m)
    ),
}


def _a_caller(model: TreeModel) -> int:
    return next(k for k, msg in enumerate(model.session.convs[0].messages) if msg.tool_calls)


def _a_result(model: TreeModel) -> int:
    """A message that opens, and is placed under a call."""
    data = model.session.convs[0]
    hidden = nest_results(data.messages, data.links).hidden
    return next(k for k in sorted(hidden) if model.expandable((MSG, 0, k, 0, 0, 0)))


def _toggle_part(model: TreeModel) -> None:
    """Open or close (as it is not) a block of many lines, its message opened to show it."""
    c, m, i = _a_part(model)
    pos = model.reveal(BLOCK, c, m, i)
    assert pos is not None and model.rows[pos][:4] == (BLOCK, c, m, i) and model.toggle(pos)


def _toggle_result(model: TreeModel) -> None:
    """Open or close a result block of many lines, in a message of results (Claude Code's)."""
    data = model.session.convs[0]
    home = nest_results(data.messages, data.links).home
    m, i = next(
        (m, i) for m, i in sorted(home) if i >= 0 and model.expandable((BLOCK, 0, m, i, 0, 0))
    )
    pos = model.reveal(BLOCK, 0, m, i)
    assert pos is not None and model.rows[pos][:4] == (BLOCK, 0, m, i) and model.toggle(pos)


def _a_part(model: TreeModel) -> tuple[int, int, int]:
    """A block that opens, in a message of blocks (one alone shows its lines right under
    it): its conversation, message and index."""
    for c, data in enumerate(model.session.convs):
        for k, msg in enumerate(data.messages):
            for i in range(len(msg.blocks) if len(msg.blocks) > 1 else 0):
                if model.expandable((BLOCK, c, k, i, 0, 0)):
                    return c, k, i
    raise AssertionError("no block that opens")


@pytest.mark.parametrize(
    ("history", "change"),
    [
        (history, change)
        for history in ("generated", "claude-code", "two conversations")
        for change in CHANGES
        # (only generated blocks are long enough to open; only Claude Code's results are
        # blocks of a message)
        if (history == "generated" or not change.startswith("a block"))
        and (history == "claude-code" or not change.startswith("a result block"))
    ],
)
def test_nodes_opened_and_closed_meanwhile_are_followed(history: str, change: str) -> None:
    """The rows taken are those placing the results at once would make from the view as it
    now is, the nodes open and closed as the user left them."""
    convs = HISTORIES[history]()
    model, nests = _linked(convs)
    p = placing.placement(model, nests)
    assert p is not None
    p.step()
    CHANGES[change](model)
    assert p.fits()
    while not p.step():
        pass
    opened, closed = set(model._expanded), set(model._collapsed)
    assert p.take()
    assert (model._expanded, model._collapsed) == (opened, closed)
    taken = list(model.rows)
    model.rebuild()
    assert taken == model.rows


def test_a_node_opened_and_another_closed_meanwhile_are_followed() -> None:
    """As many rows as before, in the same list: only the nodes tell the view changed."""
    model, nests = _linked(HISTORIES["generated"]())
    first, second = _two_alike(model)
    model.expand(first)
    p = placing.placement(model, nests)
    assert p is not None
    model.collapse(first)  # (the rows after it are back where they were)
    model.expand(second)
    closed, opened = model.rows[first], model.rows[second]
    while not p.step():
        pass
    assert p.take()
    assert not model.is_expanded(closed) and model.is_expanded(opened)
    taken = list(model.rows)
    model.rebuild()
    assert taken == model.rows


def test_too_many_nodes_opened_meanwhile_are_not_followed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(placing, "FOLLOWED", 2)
    model, nests = _linked(HISTORIES["generated"]())
    p = placing.placement(model, nests)
    assert p is not None
    for m in (1, 3, 5):
        _open(model, MSG, m)
    while not p.step():
        pass
    rows = list(model.rows)
    assert not p.take()
    assert model.rows == rows


def _two_alike(model: TreeModel) -> tuple[int, int]:
    """Two closed message rows that open onto as many rows as each other."""
    seen: dict[int, int] = {}
    for pos, row in enumerate(model.rows):
        if model.expandable(row) and not model.is_expanded(row):
            count = len(model._children(row))
            if count in seen:
                return seen[count], pos
            seen[count] = pos
    raise AssertionError("no two messages alike")


def test_links_nested_off_the_interface_are_used_as_they_are() -> None:
    model, nests = _linked(HISTORIES["generated"]())
    assert model.refresh_nesting(nests)
    assert model._nests[0] is nests[0]


def _walked_by_the_collector(value: object) -> bool:
    """Whether a full collection would look at ``value`` (frozen objects it passes over)."""
    return any(o is value for o in gc.get_objects())


def _walked_chunks(model: TreeModel) -> list[bool]:
    """Of each chunk of the rows (``RowList``), whether a full collection would walk it."""
    return [_walked_by_the_collector(chunk) for chunk in model.rows._chunks]


@pytest.mark.parametrize("made", ["rebuilt", "placed a slice at a time", "edited"])
def test_a_long_view_made_anew_is_set_aside_from_the_collector(
    made: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows made anew for a long history (a rebuild, a placement taken) are frozen: every full
    collection would otherwise walk them (a million rows: 30-40 ms every few keys, until the
    next analysis froze them). An edit keeps the chunks of rows it does not cut, set aside
    already, and makes only a few new ones. A short history's rows are left to the
    collector."""
    monkeypatch.setattr(row_list, "CHUNK", 16)
    model, nests = _linked([Conversation(tuple(generate(300)))])
    monkeypatch.setattr(tree_model, "FREEZE_ROWS", len(model.rows) + 10**6)
    model.rebuild()
    assert all(_walked_chunks(model))  # (short: left as it is)
    monkeypatch.setattr(tree_model, "FREEZE_ROWS", 100)
    try:
        if made == "rebuilt":
            model.rebuild()
        elif made == "edited":
            model.rebuild()
            rows = model.rows
            change = EditHistory(model.session).edit(0, delete_parts([Part("message", 1)]), "d")
            assert change is not None
            model.splice(0, change.start, change.old_count, change.new_count, change.replaced)
            assert model.rows is not rows
        else:
            p = placing.placement(model, nests)
            assert p is not None
            _steps(p, model)
            assert p.take()
        walked = _walked_chunks(model)
        assert len(model.rows) >= 100 and len(walked) > 10
        assert sum(walked) <= (2 if made == "edited" else 0)
    finally:
        gc.unfreeze()  # (what earlier tests froze too: counted afresh at the next analysis)
        monkeypatch.setattr(session_module, "_frozen_after_cleanup", None)
