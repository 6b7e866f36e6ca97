"""The rows under each node of the conversation tree, and its expansion state (headless).

``TreeNodes`` knows, for any node, whether it can open, whether it is open, and the rows it
shows when it is (a message's blocks and calls, a block's lines, a call's sub-agent run and, in
the results-under-calls view, its result), with the filter applied. ``TreeModel`` builds on it
the flat list of visible rows.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...core.call_order import call_places
from ...core.gc_pause import collections_paused
from ...core.message import Message
from .result_nesting import CallKey, ResultNesting, nest_results
from .rows import (
    ARTIFACT,
    BLOCK,
    CALL,
    CONV,
    INVALID,
    LINE,
    MAX_LINES,
    MORE,
    MSG,
    SHORT_OUTPUT,
    Filter,
    Node,
    Row,
    block_lines,
    split_lines,
)
from .session import TOOL_CALL, TOOL_RESULT, Session, block_category, message_categories


class TreeNodes:
    """The rows under each node of a session's tree, and which nodes are expanded."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.filter = Filter()
        self._expanded: set[Node] = set()
        self._collapsed: set[Node] = set()
        self._all_messages: dict[int, bool] = {}
        """Conversation -> every message open (expand all) or closed (collapse all), whatever
        the view would open: one entry, where a node each made the sets a million long (and
        an edit moves every node after it along, 0.3 s for 300,000 at a million messages)."""
        self._masks: list[list[int]] | None = None
        self._parents: dict[int, tuple[Any, dict[int, tuple[int, int]]]] = {}
        self._plain: dict[tuple[int, int], list[Row]] = {}
        self.nested_view = True
        """Results under their calls (where a conversation has linked pairs), or file order."""
        self._nests: dict[int, ResultNesting] = {}
        self._update_nests()

    # -- results under their calls ----------------------------------------------------------

    def nesting(self, conv: int) -> ResultNesting | None:
        """Where conversation ``conv``'s results sit in the view; None: in file order.

        Results sit under their calls while calls are shown: a filter hiding the calls (or
        the assistant messages making them) leaves results in file order.
        """
        if not self.nested_view:
            return None
        f = self.filter
        if f.active and ("assistant" not in f.roles or not f.categories & TOOL_CALL):
            return None
        nest = self._nests.get(conv)
        return nest if nest else None

    def compare_nesting(self, conv: int, nest: ResultNesting) -> None:
        """Compare ``nest``, made of ``conv``'s new links, with the nesting shown now (off the
        UI thread: nestings are never changed once made, only replaced)."""
        nest.compared_with(self._nests.get(conv))

    def nesting_stale(self) -> bool:
        """Whether a conversation has tool links its nesting was not made from."""
        nests = self._nests
        return any(
            data.links is not None and (c not in nests or nests[c].links is not data.links)
            for c, data in enumerate(self.session.convs)
        )

    def _update_nests(self, made: dict[int, ResultNesting] | None = None) -> bool:
        """Nest the results of conversations linked since (``made``: nestings already made of
        some of their links, off the UI thread); True if any result moved."""
        changed = False
        for c, data in enumerate(self.session.convs):
            links = data.links
            old = self._nests.get(c)
            if links is None or (old is not None and old.links is links):
                continue
            new = made.get(c) if made else None
            if new is None or new.links is not links:
                new = nest_results(data.messages, links)
            if (new or old) and not new.same_places(old):
                changed = True
            if old is not None:  # (freed by the analysis worker: at a million, 0.13 s)
                self.session.graveyard.append(old)
            self._nests[c] = new
        return changed

    @property
    def has_nesting(self) -> bool:
        """Whether any conversation has results to place under calls (an agent run)."""
        return any(self._nests.values())

    def _result_rows(self, c: int, nest: ResultNesting, key: CallKey, d: int) -> list[Row]:
        """The rows of the results shown under call ``key``, at depth ``d``."""
        out: list[Row] = []
        f = self.filter
        for kind, rm, b in nest.results_of(key):
            if kind == MSG:
                if f.active and not self.message_visible(c, rm):
                    continue
            elif f.active and (
                self.message(c, rm).role not in f.roles or not f.categories & TOOL_RESULT
            ):
                continue
            row = (kind, c, rm, b, 0, d)
            out.append(row)
            if self.is_expanded(row) and self.expandable(row):
                out.extend(self._children(row))
            if kind == BLOCK and nest.hidden.get(rm) == b and f.categories & TOOL_RESULT:
                # a message of results only has no row here: what a harness kept of the
                # results (Claude Code's toolUseResult) follows its first result instead
                out.extend(
                    (ARTIFACT, c, rm, k, 0, d) for k in range(len(self.message(c, rm).artifacts))
                )
        return out

    # -- structure --------------------------------------------------------------------------

    @property
    def multi(self) -> bool:
        return len(self.session.convs) > 1

    def message(self, conv: int, msg: int) -> Message:
        return self.session.convs[conv].messages[msg]

    def _direct_lines(self, message: Message) -> bool:
        """A message that is one text block and nothing else shows its lines directly."""
        content = message.content
        return (
            message.role != "tool"
            and (type(content) is str or (len(content) == 1 and content[0].type == "text"))
            and not message.tool_calls
            and not message.invalid_tool_calls
            and not message.artifacts
        )

    def expandable(self, row: Row) -> bool:
        kind, c, m, i, _, _ = row
        if kind == CONV:
            return bool(self.session.convs[c].messages)
        if kind == MSG:
            message = self.message(c, m)
            if self._direct_lines(message):
                return len(split_lines(message.text)) > 1
            return bool(
                message.blocks
                or message.tool_calls
                or message.invalid_tool_calls
                or message.artifacts
            )
        if kind == BLOCK:
            nest = self.nesting(c)
            if nest is not None and (BLOCK, m, i) in nest.under:
                return True
            return len(block_lines(self.message(c, m).blocks[i])) > 1
        if kind == CALL:
            if (m, i) in self.session.convs[c].nested:
                return True
            nest = self.nesting(c)
            return nest is not None and (CALL, m, i) in nest.under
        if kind == INVALID:  # an invalid call a provider still answered
            nest = self.nesting(c)
            return nest is not None and (INVALID, m, i) in nest.under
        return False

    def _default_expanded(self, node: Node) -> bool:
        kind, c, m, i = node
        if kind == CONV:
            return c == 0 or not self.multi
        if kind == MSG and c in self._all_messages:
            return self._all_messages[c]
        if kind in (MSG, CALL, INVALID, BLOCK):
            nest = self.nesting(c)
            if nest is not None:
                if kind == MSG:
                    return m in nest.openers
                if (kind, m, i) in nest.under:
                    return True  # a call shows its result
        if kind == BLOCK:
            message = self.message(c, m)
            block = message.blocks[i]
            if block.type == "reasoning":
                return False
            if message.role == "tool" or block.type == "tool_result":
                return len(block_lines(block)) <= SHORT_OUTPUT
            return True
        return False

    def is_expanded(self, row: Row | Node) -> bool:
        node = row[:4]
        if node in self._expanded:
            return True
        if node in self._collapsed:
            return False
        return self._default_expanded(node)  # type: ignore[arg-type]

    def _set_expanded(self, node: Node, value: bool) -> None:
        default = self._default_expanded(node)
        self._expanded.discard(node)
        self._collapsed.discard(node)
        if value != default:
            (self._expanded if value else self._collapsed).add(node)

    # -- rows ---------------------------------------------------------------------------------

    def message_depth(self, conv: int, msg: int) -> int:
        """Depth of a message row: sub-agent messages sit two levels under their call's message."""
        base = 1 if self.multi else 0
        nest = self.nesting(conv)
        if nest is not None and msg in nest.hidden:  # a result under its call's row
            return self.message_depth(conv, nest.home[(msg, nest.hidden[msg])][1]) + 2
        parent = self._parent_message(conv, msg)
        return base if parent is None else self.message_depth(conv, parent[0]) + 2

    def _parent_message(self, conv: int, msg: int) -> tuple[int, int] | None:
        """(message, call) whose sub-agent run holds message ``msg``; None at the top level."""
        nested = self.session.convs[conv].nested
        if not nested:
            return None
        # Inverted once per grouping (a new dict after each edit): looking through every run
        # would cost what the sub-agent runs cost, on every go-to and search step.
        cached = self._parents.get(conv)
        if cached is None or cached[0] is not nested:
            inverse: dict[int, tuple[int, int]] = {}
            for key, members in nested.items():
                for m in members:
                    inverse.setdefault(m, key)
            cached = self._parents[conv] = (nested, inverse)
        return cached[1].get(msg)

    def message_visible(self, conv: int, msg: int) -> bool:
        """True when the filter lets message ``msg`` of ``conv`` through."""
        f = self.filter
        if not f.active:
            return True
        message = self.message(conv, msg)
        if message.role not in f.roles:
            return False
        mask = self._mask(conv, msg)
        return mask == 0 or bool(mask & f.categories)

    def _mask(self, conv: int, msg: int) -> int:
        if self._masks is None:
            # Computed once, the first time a filter is set: one pass over the messages.
            self._masks = [[message_categories(m) for m in c.messages] for c in self.session.convs]
        masks = self._masks[conv]
        if len(masks) <= msg:  # messages appended while following
            messages = self.session.convs[conv].messages
            masks.extend(message_categories(m) for m in messages[len(masks) :])
        return masks[msg]

    def _message_rows(self, conv: int, msgs: Iterable[int], depth: int) -> list[Row]:
        out: list[Row] = []
        expanded, collapsed = self._expanded, self._collapsed
        filtering = self.filter.active
        nest = self.nesting(conv)
        hidden = nest.hidden if nest is not None else {}
        every = self._all_messages.get(conv)  # (as ``_default_expanded`` says, inlined)
        openers = nest.openers if nest is not None and every is None else frozenset()
        for m in msgs:
            if m in hidden:  # it sits under its call
                continue
            if filtering and not self.message_visible(conv, m):
                continue
            out.append((MSG, conv, m, 0, 0, depth))
            node = (MSG, conv, m, 0)
            if (every or node in expanded or m in openers) and node not in collapsed:
                out.extend(self._children((MSG, conv, m, 0, 0, depth)))
        return out

    def _children(self, row: Row) -> list[Row]:
        kind, c, m, i, _, depth = row
        d = depth + 1
        if kind == CONV:
            return self._message_rows(c, self.session.convs[c].top, d)
        nest = self.nesting(c)
        if kind == BLOCK:
            if nest is not None and (BLOCK, m, i) in nest.under:
                return self._result_rows(c, nest, (BLOCK, m, i), d)
            return self._line_rows(c, m, i, block_lines(self.message(c, m).blocks[i]), d)
        if kind == CALL:
            members = self.session.convs[c].nested.get((m, i), [])
            rows = self._message_rows(c, members, d)
            if nest is not None and (CALL, m, i) in nest.under:
                rows += self._result_rows(c, nest, (CALL, m, i), d)
            return rows
        if kind == INVALID and nest is not None:
            return self._result_rows(c, nest, (INVALID, m, i), d)
        if kind != MSG:
            return []
        message = self.message(c, m)
        if self._direct_lines(message):
            return self._line_rows(c, m, 0, split_lines(message.text), d)
        cats = self.filter.categories
        out: list[Row] = []
        moved = nest.moved.get(m, ()) if nest is not None else ()
        for b, block in enumerate(message.blocks):
            if not cats & block_category(block, message.role) or b in moved:
                continue
            brow = (BLOCK, c, m, b, 0, d)
            out.append(brow)
            if self.is_expanded(brow) and self.expandable(brow):
                out.extend(self._children(brow))
        if cats & TOOL_CALL:
            for invalid, k in call_places(message):  # (in the file's order)
                crow = (INVALID if invalid else CALL, c, m, k, 0, d)
                out.append(crow)
                opens = (nest is not None or not invalid) and self.is_expanded(crow)
                if opens and self.expandable(crow):
                    out.extend(self._children(crow))
        if cats & TOOL_RESULT:
            out.extend((ARTIFACT, c, m, k, 0, d) for k in range(len(message.artifacts)))
        return out

    def _plain_rows(self, conv: int, start: int, stop: int, depth: int) -> list[Row]:
        """The rows of messages ``start:stop`` of ``conv`` at ``depth``, none of them open.

        Sliced from one list of such rows kept per conversation and depth: a slice copies
        references, so the rows of a view made again are the tuples made the first time.
        """
        made = self._plain.setdefault((conv, depth), [])
        if len(made) < stop:
            with collections_paused():  # plain tuples, no cycles: a collection only walks them
                made.extend([(MSG, conv, m, 0, 0, depth) for m in range(len(made), stop)])
        return made[start:stop]

    def _line_rows(self, c: int, m: int, b: int, lines: tuple[str, ...], d: int) -> list[Row]:
        shown = min(len(lines), MAX_LINES)
        out: list[Row] = [(LINE, c, m, b, n, d) for n in range(shown)]
        if len(lines) > shown:
            out.append((MORE, c, m, b, len(lines) - shown, d))
        return out
