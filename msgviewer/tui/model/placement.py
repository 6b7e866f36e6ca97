"""Placing a long history's results under their calls a slice at a time (headless).

Once tool links are made, the view moves each result under its call: every message that makes
calls opens, and the rows are made again. For a few thousand messages that is done at once
(``TreeModel.refresh_nesting``). For a long history it takes seconds (about 1 s at 100,000
messages, 10 s at a million), so a ``Placement`` makes the new rows on a copy of the view, one
slice of messages per ``step``, while the view keeps its rows and stays usable. Nodes opened or
closed meanwhile are opened or closed in the rows made, as they are taken. An edit, a filter,
the order or new messages meanwhile make them stale: the caller places the results again,
from the view as it now is.
"""

from __future__ import annotations

import copy
from typing import Any

from .result_nesting import ResultNesting
from .tree_model import TreeModel

AT_ONCE = 20_000
"""Histories of up to this many messages have their results placed at once."""


FOLLOWED = 10
"""Nodes opened or closed during a placement that its rows follow: each is looked for by one
scan of the rows (20-40 ms a million rows when it is not shown, so at most some 0.4 s at a
million rows); more, and the rows are made again."""


class Placement:
    """Rows with results placed under their calls, made on a copy of a view."""

    def __init__(self, model: TreeModel, nests: dict[int, ResultNesting]) -> None:
        self.model = model
        self.nests = nests
        self._was = _state(model)
        view = copy.copy(model)  # (the same session, filter and settings)
        view._expanded = set(model._expanded)
        view._collapsed = set(model._collapsed)
        view._all_messages = dict(model._all_messages)
        view._nests = {**model._nests, **nests}
        view._parents = {}
        view._plain = {}
        self.view = view
        self._steps = view.building()

    def step(self) -> bool:
        """Make the rows of one more slice of messages; True once every row is made."""
        return next(self._steps, True) is True

    def fits(self) -> bool:
        """Whether the rows made still fit the view: no edit, filter, order or new messages
        since (asked before each slice; nodes opened or closed are followed by ``take``)."""
        return _same(self._was, _state(self.model))

    def take(self) -> bool:
        """Give the view the rows made (once ``step`` said they all are), opening and closing
        the nodes opened and closed in the view meanwhile; False, changing nothing, when they
        no longer fit it (or more than ``FOLLOWED`` nodes were opened or closed)."""
        if not self.fits():
            return False
        model, view = self.model, self.view
        opened, closed = model._expanded, model._collapsed
        changed = (opened ^ view._expanded) | (closed ^ view._collapsed)
        if len(changed) > FOLLOWED:
            return False
        # (the places replaced, and those they were carried from, freed by the next
        # analysis rather than here: 0.1 s at a million messages)
        model.session.graveyard.extend(model._nests[c] for c in self.nests if c in model._nests)
        model._nests = view._nests
        wanted = [(node, model.is_expanded(node)) for node in changed]  # (in the places made)
        model._expanded, model._collapsed = view._expanded, view._collapsed
        model.rows = view.rows
        for node, value in wanted:
            pos = model.position(node)
            if pos is None:  # (not shown: its rows are made when what holds it opens)
                model._set_expanded(node, value)
            elif value:
                model.expand(pos)
            else:
                model.collapse(pos)
        model._expanded, model._collapsed = opened, closed  # (the same nodes, as they were kept)
        model.rows_made()
        return True


def _state(model: TreeModel) -> list[Any]:
    """What a view's rows are made from, but for its open nodes: its rows (the same list: a
    node opened or closed changes it in place, a rebuild or an edit makes a new one), its
    filter and order, each conversation's messages and grouping, and the places of its
    results. Objects are compared by identity (``_same``): an equal copy would cost a walk."""
    state: list[Any] = [model.rows, model.filter, model.nested_view]
    for d in model.session.convs:
        state += [d.conversation, d.top, d.nested]
    for c, nest in model._nests.items():
        state += [c, nest]
    return state


_VALUES = (int, bool)
"""Compared by value: the rest by identity."""


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
