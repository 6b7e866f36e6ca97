"""Placing a long history's results under their calls a slice at a time (headless).

Once tool links are made, the view moves each result under its call: every message that makes
calls opens, and the rows are made again. For a few thousand messages that is done at once
(``TreeModel.refresh_nesting``). For a long history it takes seconds (about 1 s at 100,000
messages, 10 s at a million), so a ``Placement`` makes the new rows on a copy of the view, one
slice of messages per ``step``, while the view keeps its rows and stays usable. The rows are
taken only if the view is still what the copy was made from: a key that opened or closed a
node, an edit, a filter or new messages meanwhile make them stale, and the caller places the
results at once instead (``refresh_nesting``), from the view as it now is.
"""

from __future__ import annotations

import copy
from typing import Any

from .result_nesting import ResultNesting
from .tree_model import TreeModel

AT_ONCE = 20_000
"""Histories of up to this many messages have their results placed at once."""


class Placement:
    """Rows with results placed under their calls, made on a copy of a view."""

    def __init__(self, model: TreeModel, nests: dict[int, ResultNesting]) -> None:
        self.model = model
        self.nests = nests
        self._was = _state(model)
        self._opened = _opened(model)
        view = copy.copy(model)  # (the same session, filter and settings)
        view._expanded = set(model._expanded)
        view._collapsed = set(model._collapsed)
        view._nests = {**model._nests, **nests}
        view._parents = {}
        view._plain = {}
        self.view = view
        self._steps = view.building()

    def step(self) -> bool:
        """Make the rows of one more slice of messages; True once every row is made."""
        return next(self._steps, True) is True

    def still_fits(self) -> bool:
        """Whether the view is still what the copy was made from, as far as can be told at
        once (asked before each slice: a node opened or closed changes its rows' count; the
        nodes themselves are compared by ``take``, once)."""
        return _same(self._was, _state(self.model))

    def fits(self) -> bool:
        """Whether the view is still what the copy was made from."""
        return self.still_fits() and _opened(self.model) == self._opened

    def take(self) -> bool:
        """Give the view the rows made (once ``step`` said they all are); False, changing
        nothing, when the view changed since."""
        if not self.fits():
            return False
        self.model._nests = self.view._nests
        self.model.rows = self.view.rows
        return True


def _state(model: TreeModel) -> list[Any]:
    """What a view's rows are made from: its rows (the same list, as long), how many nodes
    were opened or closed, its filter and order, each conversation's messages and grouping, and
    the places of its results. Objects are compared by identity (``_same``): an equal copy
    would cost a walk."""
    state: list[Any] = [model.rows, len(model.rows), model.filter, model.nested_view]
    state += [len(model._expanded), len(model._collapsed)]
    for d in model.session.convs:
        state += [d.conversation, d.top, d.nested]
    for c, nest in model._nests.items():
        state += [c, nest]
    return state


_VALUES = (int, bool)
"""Compared by value: the rest by identity."""


def _opened(model: TreeModel) -> tuple[frozenset[Any], frozenset[Any]]:
    """The nodes opened and closed in a view (a million after ``E`` in a long history: a copy
    and a comparison cost some 0.1 s, too much to ask before every slice)."""
    return frozenset(model._expanded), frozenset(model._collapsed)


def _same(was: list[Any], now: list[Any]) -> bool:
    return len(was) == len(now) and all(
        a is b or (type(a) in _VALUES and a == b) for a, b in zip(was, now, strict=True)
    )


def placement(model: TreeModel, nests: dict[int, ResultNesting]) -> Placement | None:
    """A placement of ``nests`` (conversation -> its results' places, made of its links) into
    the view, where one is worth making a slice at a time; None: place them at once
    (``refresh_nesting``). Nestings of links the conversations no longer have are left out."""
    convs = model.session.convs
    nests = {c: n for c, n in nests.items() if c < len(convs) and n.links is convs[c].links}
    if not nests or not model.nested_view or sum(len(d.messages) for d in convs) <= AT_ONCE:
        return None
    if all(nest.same_places(model._nests.get(c)) for c, nest in nests.items()):
        return None  # (no row moves: at once is only a new record of the links)
    return Placement(model, nests)
