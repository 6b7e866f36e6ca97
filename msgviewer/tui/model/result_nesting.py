"""Where each tool result sits in the "results under their calls" view (headless).

Built in one pass over a conversation's tool links: every result that comes after the call it
answers moves under that call's row. A call is a ``tool_calls`` entry (a ``CALL`` row) or a
tool-call block (a ``BLOCK`` row); a result is a whole tool message (OpenAI, LangChain...) or a
result block (Anthropic, Claude Code). A message left with nothing of its own (a tool message,
a user message of result blocks only) has no top-level row in that view; one holding more
keeps its row, less the blocks that moved. A result with no call, or one written before its
call, stays where it is.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from typing import Any

from ...core.message import Message
from .rows import BLOCK, CALL, INVALID, MSG

CallKey = tuple[int, int, int]
"""A call's node without its conversation: (CALL, INVALID or BLOCK, message, index)."""
Spot = tuple[int, int, int]
"""A result's node without its conversation, its message counted from its call's: (MSG, 2, 0)
is the whole message two after the call's, (BLOCK, 1, 3) block 3 of the next one. (Relative,
so an edit before a call and its results changes none of its spots: ``carried_nesting``.)"""


@dataclass
class ResultNesting:
    """The results of one conversation placed under their calls."""

    links: Any = None
    """The ``ToolLinks`` this was made from (None: carried over an edit, not linked again yet)."""
    under: Mapping[CallKey, list[Spot]] = field(default_factory=dict)
    """Call -> the results shown beneath it (``Spot``s: ``results_of`` numbers them)."""
    home: Mapping[tuple[int, int], CallKey] = field(default_factory=dict)
    """(message, block index or -1 for a whole message) of a moved result -> its call."""
    hidden: Mapping[int, int] = field(default_factory=dict)
    """Messages with no top-level row -> their first moved result's block (-1: the message)."""
    moved: Mapping[int, frozenset[int]] = field(default_factory=dict)
    """Messages that keep their row -> their result blocks shown under calls instead."""
    openers: Set[int] = frozenset()
    """Messages whose calls hold results: open by default, so the results show."""
    placed_like: Callable[[], ResultNesting | None] | None = field(
        default=None, repr=False, compare=False
    )
    """A nesting found to put every result where this does (``compared_with``), held weakly:
    it is no longer shown once this one is."""
    placed_unlike: Callable[[], ResultNesting | None] | None = field(
        default=None, repr=False, compare=False
    )
    """A nesting found to put some result elsewhere (``compared_with``), held weakly."""

    def __bool__(self) -> bool:
        return bool(self.under)

    def results_of(self, key: CallKey) -> list[tuple[int, int, int]]:
        """The results shown beneath call ``key``: (MSG, message, 0) or (BLOCK, message,
        block), in order."""
        cm = key[1]
        return [(kind, cm + off, b) for kind, off, b in self.under.get(key, ())]

    def same_places(self, other: ResultNesting | None) -> bool:
        """Whether ``other`` puts every result where this does (the rows would not change)."""
        if other is None:
            return False
        like, unlike = self.placed_like, self.placed_unlike
        if like is not None and like() is other:
            return True
        if unlike is not None and unlike() is other:
            return False
        # (the counts first: a nesting carried over an edit counts its calls at once, where
        # comparing it with one made of links walks every call in Python)
        return len(self.under) == len(other.under) and self.under == other.under

    def compared_with(self, other: ResultNesting | None) -> None:
        """Compare with ``other`` now, so that ``same_places(other)`` later is at once: the
        analysis worker compares the nesting it made with the one shown (0.14 s at a million
        messages, each time, that the interface would spend; more for one carried over an
        edit, whose places are worked out as they are asked)."""
        if other is None:
            return
        if self.same_places(other):
            self.placed_like = weakref.ref(other)
        else:
            self.placed_unlike = weakref.ref(other)


def nest_results(messages: Sequence[Message], links: Any) -> ResultNesting:
    """Place every paired result of ``messages`` under its call (one pass over the pairs)."""
    under: dict[CallKey, list[Spot]] = {}
    for call, result in links.pairs:
        cm, rm, rb = call.message_index, result.message_index, result.block_index
        if rm < cm or (rm == cm and (rb is None or call.block_index is None)):
            continue  # a result written before its call stays where it is
        if rm == cm and rb <= call.block_index:
            continue
        if call.block_index is None:
            key = (INVALID if call.invalid else CALL, cm, call.call_index or 0)
        else:
            key = (BLOCK, cm, call.block_index)
        spot = (MSG, rm - cm, 0) if rb is None else (BLOCK, rm - cm, rb)
        under.setdefault(key, []).append(spot)
    return _finish(under, messages, links)


def _finish(
    under: dict[CallKey, list[Spot]], messages: Sequence[Message], links: Any
) -> ResultNesting:
    """Work out homes, hidden messages and openers from ``under``."""
    home: dict[tuple[int, int], CallKey] = {}
    blocks: dict[int, list[int]] = {}
    wholes: set[int] = set()
    for key, spots in under.items():
        cm = key[1]
        for kind, off, b in spots:
            rm = cm + off
            if kind == MSG:
                home[(rm, -1)] = key
                wholes.add(rm)
            else:
                home[(rm, b)] = key
                blocks.setdefault(rm, []).append(b)
    callers = {key[1] for key in under}
    hidden: dict[int, int] = {m: -1 for m in wholes}
    moved: dict[int, frozenset[int]] = {}
    for rm, bs in blocks.items():
        if rm in callers or _keeps_row(messages[rm], bs):
            moved[rm] = frozenset(bs)
        else:
            hidden[rm] = min(bs)
    return ResultNesting(links, under, home, hidden, moved, frozenset(callers))


def link_shape(message: Message) -> tuple[Any, ...]:
    """What a message gives its conversation's tool links and the places of its results: its
    role, the ids and names of its calls and results, and the kinds of its blocks. An edit
    that keeps them moves no result."""
    return (
        message.role,
        message.tool_call_id,
        message.name,
        tuple(
            (
                b.type,
                getattr(b, "id", None),
                getattr(b, "tool_call_id", None),
                getattr(b, "name", None),
            )
            for b in message.blocks
        ),
        tuple((c.id, c.name) for c in message.tool_calls),
        tuple((c.id, c.name) for c in message.invalid_tool_calls),
        len(message.artifacts),
    )


def _keeps_row(message: Message, moved: list[int]) -> bool:
    """Whether a message of result blocks holds anything besides the blocks that moved."""
    return bool(
        len(message.blocks) > len(set(moved)) or message.tool_calls or message.invalid_tool_calls
    )


def call_keys(m: int, message: Message) -> list[CallKey]:
    """Every key a call of message ``m`` may have in a nesting (``nest_results``)."""
    calls = len(message.tool_calls) + len(message.invalid_tool_calls)
    keys = [(kind, m, i) for i in range(calls) for kind in (CALL, INVALID)]
    keys += [(BLOCK, m, b) for b in range(len(message.blocks))]
    return keys
