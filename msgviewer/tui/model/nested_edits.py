"""Edits in the results-under-calls view that keep most rows (headless: no Textual).

With results under their calls, rows are not in message order, so an edit cannot just replace
a range of rows. ``NestedEdits`` finds what an edit touched instead: the rows that show the
edited messages, or the top-level messages that show them, are made again and every other row
is kept (renumbered), where a rebuild would make every row: 10 s at a million messages.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from ...core.message import Message
from .result_nesting import ResultNesting, call_keys, link_shape
from .row_list import RowList
from .rows import BLOCK, CONV, MSG, Node, Row
from .sidechains import _is_sidechain
from .tree_nodes import TreeNodes

REMADE_AT_MOST = 16
"""Messages edited in place whose rows are made again one by one (each is looked for among
the rows); more, and every row is made again."""


class NestedEdits(TreeNodes):
    """Edits to a conversation whose results sit under their calls, and finding a row."""

    rows: RowList

    @staticmethod
    def _extent_in(rows: RowList, pos: int) -> int:
        depth = rows[pos][5]
        end = pos + 1
        n = len(rows)
        while end < n and rows[end][5] > depth:
            end += 1
        return end

    def _nest_of_top_rows(self, conv: int) -> ResultNesting | None:
        """The nesting of ``conv`` when its rows are each top-level message's in turn, with
        no filter and no sub-agent runs among them; None otherwise (every row made again)."""
        nest = self.nesting(conv)
        data = self.session.convs[conv]
        if nest is None or self.filter.active or data.nested or not isinstance(data.top, range):
            return None
        return nest

    def _spliced_in_nests(
        self,
        conv: int,
        start: int,
        old_count: int,
        new_count: int,
        before: ResultNesting,
        replaced: Sequence[Message],
    ) -> bool:
        """With results under their calls, the rows after any edit not made in place (the
        nesting already ``spliced``): the rows of each top-level message that shows an edited
        message, or either end of a pair the edit dropped, are made again, and every other
        one's rows are kept, renumbered (where a rebuild would make every row: 10 s at a
        million messages). False, changing nothing, where the rows are not a top-level
        message's each (a filter, sub-agent runs) or every pair was dropped."""
        nest = self._nest_of_top_rows(conv)
        data = self.session.convs[conv]
        added = data.messages[start : start + new_count]
        if (
            nest is None
            or len(replaced) != old_count
            or any(_is_sidechain(m) for m in (*replaced, *added))
        ):
            return False
        end = start + old_count
        delta = new_count - old_count

        def at(m: int) -> int | None:
            return m if m < start else (m + delta if m >= end else None)

        # The messages whose rows change beyond their numbers (old numbers): the edited ones
        # and either end of a pair the edit dropped. Made again: the top-level messages that
        # show them before the edit (a message of results only shows under the call of its
        # first, with what the harness kept of them) and after it. (A result message that
        # loses a pair keeps a row of its own, so it shows under no other call's rows.)
        touched = set(range(start, end))
        for m, message in enumerate(replaced, start):
            for b in range(-1, len(message.blocks)):  # the calls of its results
                call = before.home.get((m, b))
                if call is not None:
                    touched.add(call[1])
            for key in call_keys(m, message):  # the results of its calls
                touched.update(r for _, r, _ in before.results_of(key))
        gone = {_top(before, m) for m in touched}
        made = {_top(nest, n) for m in touched if (n := at(m)) is not None}
        made.update(range(start, start + new_count))
        made.update(n for m in gone if (n := at(m)) is not None)
        rows = self.rows.copy()  # (a new list: a placement made from the old rows sees it)
        lo = bisect.bisect_left(rows, conv, key=_conv_of)
        hi = bisect.bisect_left(rows, conv + 1, lo=lo, key=_conv_of)
        depth = 1 if self.multi else 0
        first = lo + 1 if self.multi else lo  # (past the conversation's own row)
        if first == hi:
            return True  # (a closed conversation: none of its messages shows)
        # Each top-level message's rows run from its row to the next one's (no sub-agent run
        # held any before either: its messages were not all among those replaced, and a
        # conversation holding any has a list of top-level messages, not a range), and their
        # numbers rise: each one's row is looked for among the rows of chunks whose numbers
        # can hold it. Every place is found before any row changes.
        count = len(data.messages) - delta  # (before the edit)

        def top_from(m: int) -> int:
            """Where the rows of the first top-level message from ``m`` on start."""
            while m < count and m in before.hidden:
                m += 1
            return hi if m >= count else rows.index((MSG, conv, m, 0, 0, depth), first, hi)

        # the old messages whose rows go: the edited ones, and those of rows made again (the
        # messages new with the edit had none)
        left = {m - delta if m >= start else m for m in made if not start <= m < start + new_count}
        left.update(gone, range(start, end))
        try:
            cuts = [(top_from(m), top_from(m + 1)) for m in left if m not in before.hidden]
            # where each one made goes: before the first kept message numbered after it
            places: dict[int, list[int]] = {}
            for m in sorted(made):
                place = top_from(m if m < start else max(m - delta, end))
                places.setdefault(place, []).append(m)
            # rows from here on are all of messages past the edit (results come after
            # calls); before it, only results placed under a call before the edit may be
            after = top_from(end)
        except ValueError:  # a top-level message without its row: every row made again
            return False
        rows.renumber(after, hi, delta)
        rows.renumber(first, after, delta, end)
        # From the last place back, so that the places before it stay where they were; at one
        # place, the rows it loses go before those made there come.
        changes = [(p, 1, q) for p, q in cuts] + [(p, 0, p) for p in places]
        for p, cut, q in sorted(changes, reverse=True):
            if cut:
                del rows[p:q]
            else:
                rows[p:p] = [r for m in places[p] for r in self._message_rows(conv, (m,), depth)]
        self.rows = rows
        return True

    def _edited_in_place(self, conv: int, start: int, replaced: Sequence[Message]) -> bool:
        """With results under their calls, messages edited in place whose calls and results
        kept their ids, names and places (``link_shape``): every result stays where it is, as
        linking them again would leave it, and only the rows that show them are made again
        (where a rebuild would make every row: 10 s at a million messages). False, changing
        nothing, for any other edit."""
        nest = self._nest_of_top_rows(conv)
        if nest is None:
            return False
        edited = self.session.convs[conv].messages[start : start + len(replaced)]
        if len(edited) != len(replaced):
            return False
        pairs = zip(replaced, edited, strict=True)
        changed = [(m, old, new) for m, (old, new) in enumerate(pairs, start) if old is not new]
        if (
            not replaced
            or len(changed) > REMADE_AT_MOST
            or any(link_shape(old) != link_shape(new) for _, old, new in changed)
            # (a sub-agent run's grouping, made again before this: ``nested`` is the new one)
            or any(_is_sidechain(old) or _is_sidechain(new) for _, old, new in changed)
        ):
            return False
        # The rows showing them: each message's own (if it has one), and each call's results
        roots: dict[Node, None] = {}
        for m, _, message in changed:
            if m not in nest.hidden:
                roots[(MSG, conv, m, 0)] = None
            for b in range(-1, len(message.blocks)):
                call = nest.home.get((m, b))
                if call is not None:
                    roots[(call[0], conv, call[1], call[2])] = None
        found = sorted((pos, n) for n in roots if (pos := self.position(n)) is not None)
        rows = self.rows.copy()  # (a new list: a placement made from the old rows sees it)
        for pos, node in reversed(found):  # (from the last: the places before stay)
            row = rows[pos]
            if node[0] == MSG:
                made = self._message_rows(conv, (node[2],), row[5])
            elif self.is_expanded(row) and self.expandable(row):
                made = [row, *self._children(row)]
            else:
                made = [row]
            rows[pos : self._extent_in(rows, pos)] = made
        self.rows = rows
        return True

    def position(self, node: Node) -> int | None:
        """Index of the row of ``node``, or None when none is shown: one scan of the rows by
        ``list.index`` for the row it would be (20-40 ms a million rows when it is not)."""
        kind, c, m, i = node
        if kind == CONV:
            row: Row = (CONV, c, 0, 0, 0, 0)
        elif kind == MSG:
            row = (MSG, c, m, 0, 0, self.message_depth(c, m))
        else:
            nest = self.nesting(c)
            home = nest.home.get((m, i)) if nest is not None and kind == BLOCK else None
            if home is not None:  # a result under its call, in the call's message
                row = (kind, c, m, i, 0, self.message_depth(c, home[1]) + 2)
            else:
                row = (kind, c, m, i, 0, self.message_depth(c, m) + 1)
        try:
            return self.rows.index(row)
        except ValueError:
            return None


def _conv_of(row: Row) -> int:
    return row[1]


def _top(nest: ResultNesting, m: int) -> int:
    """The top-level message whose rows show message ``m``'s (its own, or its caller's)."""
    while m in nest.hidden:
        m = nest.home[(m, nest.hidden[m])][1]
    return m
