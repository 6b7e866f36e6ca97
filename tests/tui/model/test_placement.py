"""Placing a long history's results under their calls a slice at a time: the view keeps its
rows meanwhile, ends with the rows placing them at once gives, and takes nothing made from a
view that changed since."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bench.generate import generate
from msgviewer import load
from msgviewer.formats import Conversation
from msgviewer.tui.model import placement as placing
from msgviewer.tui.model import tree_model
from msgviewer.tui.model.result_nesting import ResultNesting, nest_results
from msgviewer.tui.model.rows import Filter
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
        pytest.param(lambda m: m.expand(3), id="a message opened"),
        pytest.param(lambda m: m.set_filter(Filter(roles=frozenset({"user"}))), id="a filter"),
        pytest.param(lambda m: m.set_nested_view(False), id="file order"),
        pytest.param(lambda m: _delete_message(m, 2), id="an edit"),
    ],
)
def test_rows_made_from_a_view_changed_since_are_not_taken(change: Any) -> None:
    convs = HISTORIES["generated"]()
    model, nests = _linked(convs)
    p = placing.placement(model, nests)
    assert p is not None
    p.step()
    change(model)
    assert not p.still_fits()
    while not p.step():
        pass
    rows = list(model.rows)
    assert not p.take()
    assert model.rows == rows


def _delete_message(model: TreeModel, m: int) -> None:
    data = model.session.convs[0]
    messages = data.messages[:m] + data.messages[m + 1 :]
    model.session.replace_messages(
        0, dataclasses.replace(data.conversation, messages=messages), m, 0
    )
    model.splice(0, m, 1, 0)


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


def test_a_node_opened_and_another_closed_meanwhile_are_noticed() -> None:
    """As many rows as before, in the same list: only the nodes tell the view changed."""
    model, nests = _linked(HISTORIES["generated"]())
    first, second = _two_alike(model)
    model.expand(first)
    p = placing.placement(model, nests)
    assert p is not None
    model.collapse(first)  # (the rows after it are back where they were)
    model.expand(second)
    assert p.still_fits()  # (what is asked before each slice cannot tell)
    while not p.step():
        pass
    assert not p.fits()
    assert not p.take()


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
