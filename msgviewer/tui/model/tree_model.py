"""The conversation tree as a flat list of visible rows (headless: no Textual).

Only visible rows exist (see ``rows`` for what a row is). Expanding a node splices its
children in after it and collapsing cuts them out, so the cost of a key press is the size of
one message, never the size of the file. An edit replaces the rows of the messages it changed
and renumbers those after them a chunk at a time (``row_list``); finding a message's row is a
binary search.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from typing import Any

from ...core.message import Message
from .carried_nesting import carried
from .nested_edits import NestedEdits
from .result_nesting import ResultNesting
from .row_list import RowList
from .rows import (
    BLOCK,
    CALL,
    CONV,
    LINE,
    MAX_LINES,
    MORE,
    MSG,
    Filter,
    Node,
    Row,
    conv_msg,
    node_of,
)
from .session import Session, keep_out_of_collections, message_categories

FREEZE_ROWS = 100_000
"""Rows from which a view made anew is set aside from the collector (``rows_made``)."""
SLICE = 2000
"""Messages whose rows ``building`` makes between two pauses (some 20 ms of work)."""


class TreeModel(NestedEdits):
    """Visible rows of a session, and the expansion state behind them."""

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.rows = RowList()
        self.show_cost = False
        """Whether assistant rows show what their call cost (the ``$`` key)."""
        self.rebuild()

    def rebuild(self) -> None:
        """Build the visible rows from scratch (on load, filter change, or new messages)."""
        for _ in self.building():
            pass
        self.rows_made()

    _set_aside = 0
    """``id`` of the rows last set aside (a list made once is set aside once)."""

    def rows_made(self) -> None:
        """The rows are a list made anew (a rebuild, a placement taken, an edit): a long one
        is set aside from the collector, which would walk it at every full collection."""
        rows = self.rows
        if len(rows) >= FREEZE_ROWS and id(rows) != self._set_aside:
            self._set_aside = id(rows)
            keep_out_of_collections(often=True)

    def building(self) -> Iterator[None]:
        """``rebuild`` a slice at a time: pausing after every ``SLICE`` messages whose rows
        are made one by one (results under their calls, a filter...); the rows are taken at
        the end."""
        rows: list[Row] = []
        multi = self.multi
        for c, conv in enumerate(self.session.convs):
            if multi:
                crow = (CONV, c, 0, 0, 0, 0)
                rows.append(crow)
                if not self.is_expanded(crow):
                    continue
            depth = 1 if multi else 0
            top = conv.top
            if (
                not self.filter.active
                and not self._expanded
                and not self._all_messages.get(c)
                and isinstance(top, range)
                and self.nesting(c) is None
            ):
                rows.extend(self._plain_rows(c, 0, len(top), depth))  # the common case
                continue
            for start in range(0, len(top), SLICE):
                rows.extend(self._message_rows(c, top[start : start + SLICE], depth))
                yield
        self.rows = RowList(rows)

    def set_filter(self, flt: Filter) -> None:
        self.filter = flt
        self.rebuild()

    def set_nested_view(self, nested: bool) -> None:
        """Show results under their calls (True) or every message in file order."""
        self.nested_view = nested
        self.rebuild()

    def refresh_nesting(self, made: dict[int, ResultNesting] | None = None) -> bool:
        """Place results anew where tool links were made since (after a load or an edit;
        ``made``: nestings of some of them already made); True if the rows changed."""
        if not self._update_nests(made) or not self.nested_view:
            return False
        self.rebuild()
        return True

    # -- expansion ----------------------------------------------------------------------------

    def _extent(self, pos: int) -> int:
        """Index just past the last descendant of the row at ``pos``."""
        return self._extent_in(self.rows, pos)

    def expand(self, pos: int) -> bool:
        """Show the children of the row at ``pos``; False if it has none or is open."""
        row = self.rows[pos]
        if not self.expandable(row) or self.is_expanded(row):
            return False
        self._set_expanded(node_of(row), True)
        self.rows[pos + 1 : pos + 1] = self._children(row)
        return True

    def collapse(self, pos: int) -> bool:
        """Hide the children of the row at ``pos``; False if it shows none."""
        row = self.rows[pos]
        if not self.expandable(row) or not self.is_expanded(row):
            return False
        self._set_expanded(node_of(row), False)
        del self.rows[pos + 1 : self._extent(pos)]
        return True

    def toggle(self, pos: int) -> bool:
        return self.collapse(pos) or self.expand(pos)

    def parent(self, pos: int) -> int | None:
        """Index of the row's parent row, or None at the top level."""
        rows = self.rows
        row = rows[pos]
        depth = row[5]
        # Found without looking back over the messages before it (a scan of the file).
        if depth == 0:
            return None
        nest = self.nesting(row[1])
        if (
            row[0] == MSG
            and (nest is None or row[2] not in nest.hidden)
            and self._parent_message(row[1], row[2]) is None
        ):
            return self._find_head((CONV, row[1], 0, 0, 0, 0), pos)
        # Inside one message (or one sub-agent run): a scan back over its rows.
        for p in range(pos - 1, -1, -1):
            if rows[p][5] < depth:
                return p
        return None

    def expand_all(self, messages: bool = True) -> None:
        """Expand every message (and conversation), keeping block defaults."""
        for c in range(len(self.session.convs)):
            if self.multi:
                self._set_expanded((CONV, c, 0, 0), True)
            if messages:
                self._all_messages[c] = True
        if messages:
            self._forget_messages()
        self.rebuild()

    def collapse_all(self) -> None:
        """Collapse every message back to one row each (those the view opens too)."""
        self._expanded = {n for n in self._expanded if n[0] == CONV}
        self._all_messages = dict.fromkeys(range(len(self.session.convs)), False)
        self._forget_messages()
        self.rebuild()

    def _forget_messages(self) -> None:
        """Every message as ``_all_messages`` says: none opened or closed on its own."""
        self._expanded = {n for n in self._expanded if n[0] != MSG}
        self._collapsed = {n for n in self._collapsed if n[0] != MSG}

    # -- finding rows -------------------------------------------------------------------------

    def find(self, row: Row, hint: int = 0) -> int | None:
        """Index of ``row`` among the visible rows (searching from ``hint`` outwards)."""
        rows = self.rows
        hint = max(0, min(hint, len(rows)))
        try:
            return rows.index(row, hint)
        except ValueError:
            pass
        try:
            return rows.index(row, 0, hint)
        except ValueError:
            return None

    def reveal_message(self, conv: int, msg: int) -> int | None:
        """Make message ``msg`` visible (opening what holds it) and return its row index.

        None when the filter hides it.
        """
        if self.filter.active and not self.message_visible(conv, msg):
            return None
        if self.multi:
            crow = (CONV, conv, 0, 0, 0, 0)
            pos = self._find_head(crow, 0)
            if pos is not None and not self.is_expanded(crow):
                self.expand(pos)
        nest = self.nesting(conv)
        if nest is not None and msg in nest.hidden:
            return self._reveal_result(conv, nest, msg, nest.hidden[msg])
        parent = self._parent_message(conv, msg)
        if parent is not None:
            pm, k = parent
            ppos = self.reveal_message(conv, pm)
            if ppos is None:
                return None
            if not self.is_expanded(self.rows[ppos]):
                self.expand(ppos)
            cpos = self._find_under((CALL, conv, pm, k, 0, self.rows[ppos][5] + 1), ppos)
            if cpos is not None and not self.is_expanded(self.rows[cpos]):
                self.expand(cpos)
        row = (MSG, conv, msg, 0, 0, self.message_depth(conv, msg))
        # Rows before a message are at least its earlier siblings: start looking there.
        return self._find_head(row, min(msg, len(self.rows)))

    def _reveal_result(self, conv: int, nest: Any, msg: int, block: int) -> int | None:
        """Row of a result shown under its call (``block`` -1: the whole message), opening
        the call; None when the filter hides it."""
        kind, cm, i = nest.home[(msg, block)]
        cpos = self.reveal(kind, conv, cm, i)
        if cpos is None or self.rows[cpos][:4] != (kind, conv, cm, i):
            return None
        if not self.is_expanded(self.rows[cpos]):
            self.expand(cpos)
        row = (MSG, conv, msg, 0) if block < 0 else (BLOCK, conv, msg, block)
        return self._find_under((*row, 0, self.rows[cpos][5] + 1), cpos)

    def _find_under(self, row: Row, parent: int) -> int | None:
        """Index of ``row`` among the rows under the row at ``parent``; None if not there.

        A child is looked for among its parent's rows only: one a filter hides would otherwise
        cost a scan of every row (a search stepping to a match in a hidden block).
        """
        try:
            return self.rows.index(row, parent + 1, self._extent(parent))
        except ValueError:
            return None

    def _find_head(self, row: Row, hint: int) -> int | None:
        """``find`` for a conversation or message row, in O(log n) when rows are in order.

        Rows come in (conversation, message) order unless sub-agent runs nest, and such a
        row is the first of its (conversation, message): a binary search finds it whatever is
        expanded above it. The answer is checked; the scan is the fallback.
        """
        rows = self.rows
        pos = bisect.bisect_left(rows, conv_msg(row), key=conv_msg)
        if pos < len(rows) and rows[pos] == row:
            return pos
        return self.find(row, hint)

    def reveal(self, kind: int, conv: int, msg: int, idx: int = 0, line: int = 0) -> int | None:
        """Make a node visible and return its row index (the message's, if the node is hidden)."""
        nest = self.nesting(conv)
        if nest is not None and kind in (BLOCK, LINE, MORE) and (msg, idx) in nest.home:
            bpos = self._reveal_result(conv, nest, msg, idx)  # a result block under its call
            if bpos is None or kind == BLOCK:
                return bpos
            return self._reveal_line(bpos, conv, msg, idx, line)
        if nest is not None and msg in nest.hidden and nest.hidden[msg] >= 0:
            return self.reveal_message(conv, msg)  # its blocks sit under calls
        mpos = self.reveal_message(conv, msg)
        if mpos is None or kind == MSG:
            return mpos
        if not self.is_expanded(self.rows[mpos]):
            self.expand(mpos)
        depth = self.rows[mpos][5] + 1
        if kind == LINE and self._direct_lines(self.message(conv, msg)):
            shown = min(line, MAX_LINES - 1)
            return self._find_under((LINE, conv, msg, 0, shown, depth), mpos) or mpos
        if kind in (LINE, MORE):
            bpos = self._find_under((BLOCK, conv, msg, idx, 0, depth), mpos)
            if bpos is None:
                return mpos
            return self._reveal_line(bpos, conv, msg, idx, line)
        found = self._find_under((kind, conv, msg, idx, 0, depth), mpos)
        return mpos if found is None else found

    def _reveal_line(self, bpos: int, conv: int, msg: int, idx: int, line: int) -> int:
        """Row of line ``line`` of the block at ``bpos`` (the block's if past those shown)."""
        if line >= MAX_LINES:
            return bpos
        if not self.is_expanded(self.rows[bpos]):
            self.expand(bpos)
        depth = self.rows[bpos][5] + 1
        return self._find_under((LINE, conv, msg, idx, line, depth), bpos) or bpos

    def messages_changed(self) -> None:
        """Messages were replaced or appended (following a file): rebuild, keeping state."""
        self._masks = None
        self._nests.clear()
        self._update_nests()
        self.rebuild()

    # -- edits --------------------------------------------------------------------------------

    def splice(
        self,
        conv: int,
        start: int,
        old_count: int,
        new_count: int,
        replaced: Sequence[Message],
    ) -> None:
        """Messages ``start:start+old_count`` of ``conv`` (``replaced``) became ``new_count``
        new ones (the session already holds them): replace their rows and renumber the rows
        after them.

        Costs the rows of the change plus a step for each chunk of rows after it (``RowList``),
        not a rebuild. Expansion state moves with the messages it belongs to; a replaced
        message keeps it when the count is unchanged (an edit in place). The rows it gives
        share the chunks they keep with the rows before (set aside from the collector when
        those were made): only its few new chunks are not, so nothing is set aside here.
        """
        self._splice(conv, start, old_count, new_count, replaced)

    def _splice(
        self, conv: int, start: int, old_count: int, new_count: int, replaced: Sequence[Message]
    ) -> None:
        end = start + old_count
        delta = new_count - old_count
        messages = self.session.convs[conv].messages
        if self._masks is not None and conv < len(self._masks):
            masks = self._masks[conv]
            if len(masks) >= end:
                masks[start:end] = [
                    message_categories(m) for m in messages[start : start + new_count]
                ]
            else:
                del masks[start:]
        keep = old_count == new_count

        def moved(nodes: set[Node]) -> set[Node]:
            out = set()
            for node in nodes:
                kind, c, m, i = node
                if kind == CONV or c != conv or m < start:
                    out.add(node)
                elif m >= end:
                    out.add((kind, c, m + delta, i))
                elif keep:
                    out.add(node)
            return out

        self._expanded = moved(self._expanded)
        self._collapsed = moved(self._collapsed)
        data = self.session.convs[conv]
        if keep and self._edited_in_place(conv, start, replaced):
            return
        # What the edit replaces is freed by the analysis worker the edit starts, not here (a
        # million rows and the places of half a million results: a fifth of a second)
        self.session.graveyard.append(self.rows)
        before = self.nesting(conv)
        if conv in self._nests:  # carried over the edit until it is linked again
            self._nests[conv] = carried(self._nests[conv], start, replaced, new_count, messages)
        if before is not None and self._spliced_in_nests(
            conv, start, old_count, new_count, before, replaced
        ):
            return
        if before is not None or self.nesting(conv) is not None:
            # results sit (or sat, when the edit dropped every pair) under their calls: rows
            # are not in order
            self.rebuild()
            return
        if data.nested or not isinstance(data.top, range):
            self.rebuild()  # sub-agent runs sit under their calls: rows are not in order
            return
        rows = self.rows.copy()  # (a new list: a placement made from the old rows sees it)
        key = conv_msg
        lo = bisect.bisect_left(rows, (conv, start), key=key)
        hi = bisect.bisect_left(rows, (conv, end), lo=lo, key=key)
        stop = bisect.bisect_left(rows, (conv + 1, -1), lo=hi, key=key)
        shown = not self.multi or self.is_expanded((CONV, conv, 0, 0))
        depth = 1 if self.multi else 0
        rows.renumber(hi, stop, delta)  # (by chunk: every row after the edit)
        rows[lo:hi] = (
            self._message_rows(conv, range(start, start + new_count), depth) if shown else []
        )
        self.rows = rows
