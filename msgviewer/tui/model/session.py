"""What the app knows about the files it shows: conversations and the analyses of each.

Headless (no Textual): built by the loader in a worker thread, read by every widget. The
analyses (tool links, problems, usage) are filled in once, after the first paint.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from ...core.blocks import MEDIA_TYPES
from ...core.gc_pause import collections_paused
from ...core.message import Message
from ...formats import Conversation


class CancelFlag(Protocol):
    """Something long work checks to stop early (a ``threading.Event`` is one)."""

    def is_set(self) -> bool: ...


# Block categories the filter works on.
TEXT, REASONING, TOOL_CALL, TOOL_RESULT, MEDIA, OTHER = (1, 2, 4, 8, 16, 32)
CATEGORIES: dict[str, int] = {
    "text": TEXT,
    "reasoning": REASONING,
    "tool_call": TOOL_CALL,
    "tool_result": TOOL_RESULT,
    "media": MEDIA,
    "other": OTHER,
}
ALL_CATEGORIES = TEXT | REASONING | TOOL_CALL | TOOL_RESULT | MEDIA | OTHER

_BLOCK_CATEGORY = {
    "text": TEXT,
    "reasoning": REASONING,
    "tool_call": TOOL_CALL,
    "server_tool_call": TOOL_CALL,
    "tool_call_chunk": TOOL_CALL,
    "tool_result": TOOL_RESULT,
    "server_tool_result": TOOL_RESULT,
    **{t: MEDIA for t in MEDIA_TYPES},
}


def block_category(block: Any, role: str) -> int:
    """The filter category of a block (the text of a tool message counts as tool output)."""
    if role == "tool":
        return TOOL_RESULT
    return _BLOCK_CATEGORY.get(block.type, OTHER)


def message_categories(message: Message) -> int:
    """The categories of everything a message holds, as a bit mask."""
    if message.role == "tool":
        return TOOL_RESULT
    mask = 0
    content = message.content
    if type(content) is str:
        mask = TEXT if content else 0
    else:
        for block in content:
            mask |= _BLOCK_CATEGORY.get(block.type, OTHER)
    if message.tool_calls or message.invalid_tool_calls:
        mask |= TOOL_CALL
    return mask


@dataclass(repr=False)
class ConvData:
    """One conversation and what was worked out about it."""

    conversation: Conversation
    links: Any = None
    """``ToolLinks`` once analysed."""
    problems: list[Any] | None = None
    """Lint ``Problem`` list once analysed."""
    totals: Any = None
    """``UsageTotals`` once analysed."""
    cost: Any = None
    """``CostTotals`` once analysed."""
    timing: Any = None
    """``Timing`` once analysed (still None if the file has no timestamps)."""
    top: Sequence[int] = ()
    """Indexes of the messages shown at the top level, in order (sub-agent runs are not)."""
    nested: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    """(message, tool call index) -> the sub-agent messages that call started."""
    document: Any = None
    """The ``Document`` edits go through (None until one is made for it)."""
    source: str | None = None
    """The name of the file it came from, shown when several files are open (None: one)."""
    part: tuple[int, int] = (1, 1)
    """(n, of): which of its file's conversations this is."""

    def name(self, c: int) -> str:
        """What its tree row and detail pane call it: its file's name and its title when
        several files are open ("a.json · Fix the export", "run.eval · 2 of 3"), else its
        title ("Conversation 2" without one). Shown through ``one_line``/``printable``."""
        title = self.conversation.title
        if self.source is None:
            return title or f"Conversation {c + 1}"
        n, of = self.part
        rest = title or (f"{n} of {of}" if of > 1 else "")
        return f"{self.source} · {rest}" if rest else self.source

    @property
    def messages(self) -> tuple[Message, ...]:
        return self.conversation.messages

    def __repr__(self) -> str:  # short: workers put their arguments' repr in their names
        return f"ConvData({len(self.messages)} messages)"


@dataclass(repr=False)
class Session:
    """The loaded files: conversations, where they came from, and their analyses."""

    convs: list[ConvData]
    path: str | None = None
    format: str | None = None
    analysed: bool = False
    graveyard: list[Any] = field(default_factory=list)
    """What an edit replaced that takes a while to free (analyses; a long history's rows and
    places of results), kept until the analysis worker drops it (as it starts, and as it
    ends: the places the new links replace come meanwhile)."""
    load_warnings: list[str] = field(default_factory=list)
    """What reading the files reported and kept without understanding (a broken line of a
    session log, say), each saying where: shown among the problems."""
    prices: dict[str, Any] | None = None
    """Price overrides (``--prices`` or ``MSGVIEWER_PRICES``) for the cost analysis."""

    def file_of(self, c: int) -> tuple[list[Conversation], int]:
        """The conversations of the file conversation ``c`` came from, in order, and its place
        among them (what a JSON path in that file counts)."""
        conv = self.convs[c]
        if conv.source is None:  # one file open: every conversation is its
            return [x.conversation for x in self.convs], c
        n, of = conv.part
        first = c - (n - 1)
        return [x.conversation for x in self.convs[first : first + of]], n - 1

    @classmethod
    def from_conversations(
        cls,
        conversations: Sequence[Conversation],
        path: str | None = None,
        documents: Sequence[Any] | None = None,
    ) -> Session:
        """A session of ``conversations``, with sub-agent runs grouped under their calls.

        ``documents``, one per conversation, are what edits go through.
        """
        from .sidechains import group_sidechains

        convs = []
        for i, conv in enumerate(conversations):
            top, nested = group_sidechains(conv.messages)
            doc = documents[i] if documents is not None else None
            convs.append(ConvData(conv, top=top, nested=nested, document=doc))
        fmt = conversations[0].format if conversations else None
        return cls(convs, path=path, format=fmt)

    def replace_messages(
        self, c: int, conversation: Conversation, start: int = 0, count: int | None = None
    ) -> None:
        """Conversation ``c`` changed (an edit): take it, regroup sub-agent runs, and drop the
        analyses of it until ``analysis``/``store`` give new ones.

        ``start``/``count``: the new messages (the rest were there before), so a history
        without sub-agent runs is not scanned again for them.
        """
        from .sidechains import _is_sidechain, group_sidechains

        conv = self.convs[c]
        # Freeing a million-message history takes a pass over it: the analysis worker does it.
        self.graveyard.append(conv.conversation)
        conv.conversation = conversation
        messages = conversation.messages
        span = messages[start:] if count is None else messages[start : start + count]
        if conv.nested or not isinstance(conv.top, range) or any(map(_is_sidechain, span)):
            conv.top, conv.nested = group_sidechains(messages)
        else:
            conv.top = range(len(messages))
        # Freeing 100k-message analyses takes a while: the analysis worker does it.
        self.graveyard.append((conv.links, conv.problems, conv.totals, conv.cost, conv.timing))
        conv.links = conv.problems = conv.totals = conv.cost = conv.timing = None
        self.analysed = False

    def analysis(
        self, on_links: Callable[[int, tuple[Message, ...], Any], None] | None = None
    ) -> list[tuple[int, Analysis]]:
        """Analyses of the conversations that have none (run off the UI; stores nothing).

        ``on_links(c, messages, links)`` hears of each conversation's tool links as soon as
        they are made, before the slower lint and totals: edits that need them wait less.
        """
        from ...core.links import link_tools

        lint = _optional("msgviewer.core.lint", "lint")
        usage_totals = _optional("msgviewer.core.totals", "usage_totals")
        self.graveyard.clear()  # old analyses, freed here rather than on the UI thread
        out = []
        # Analyses are made with collections paused and set aside from the collector once
        # made: at a million messages they are millions of objects that live until the next
        # edit, and a full collection while they are young walks them all (four of half a
        # second each, in whichever thread set one off: the interface's too).
        with collections_paused():
            for c, conv in enumerate(list(self.convs)):
                msgs = conv.messages
                if conv.links is not None and conv.problems is not None:
                    continue
                links = conv.links if conv.links is not None else _with_refs(link_tools(msgs))
                if on_links is not None:
                    on_links(c, msgs, links)
                problems = list(lint(msgs)) if lint else []
                totals = usage_totals(msgs) if usage_totals else None
                cost, timing = cost_and_time(conv.conversation, self.prices)
                out.append((c, Analysis(msgs, links, problems, totals, cost, timing)))
            # Counted here, off the UI thread: the count walks every frozen object (0.35 s
            # at a million messages).
            keep_out_of_collections(gc.get_freeze_count())
        # what the interface replaced with the links meanwhile (the places of results carried
        # over an edit), freed here too
        self.graveyard.clear()
        return out

    def store_links(self, c: int, messages: tuple[Message, ...], links: Any) -> bool:
        """Keep tool links made for ``messages`` if they are still conversation ``c``'s."""
        if c < len(self.convs) and self.convs[c].messages is messages:
            self.convs[c].links = links
            return True
        return False

    def store(self, results: Sequence[tuple[int, Analysis]]) -> None:
        """Keep the analyses that are still of the current messages (on the UI thread)."""
        for c, result in results:
            if c < len(self.convs) and self.convs[c].messages is result.messages:
                conv = self.convs[c]
                conv.links, conv.problems, conv.totals = (
                    result.links,
                    result.problems,
                    result.totals,
                )
                conv.cost, conv.timing = result.cost, result.timing
        self.analysed = all(conv.links is not None for conv in self.convs)

    def __repr__(self) -> str:
        return f"Session({self.path!r}, {len(self.convs)} conversations)"

    @property
    def message_count(self) -> int:
        return sum(len(c.messages) for c in self.convs)

    def analyse(self) -> None:
        """Link tools, lint and total usage for every conversation (run once, off the UI)."""
        from ...core.links import link_tools

        lint = _optional("msgviewer.core.lint", "lint")
        usage_totals = _optional("msgviewer.core.totals", "usage_totals")
        for conv in self.convs:
            msgs = conv.messages
            conv.links = _with_refs(link_tools(msgs))
            conv.problems = list(lint(msgs)) if lint else []
            conv.totals = usage_totals(msgs) if usage_totals else None
            conv.cost, conv.timing = cost_and_time(conv.conversation, self.prices)
        self.analysed = True
        keep_out_of_collections()


@dataclass(repr=False)
class Analysis:
    """What ``Session.analysis`` worked out about one version of a conversation's messages."""

    messages: tuple[Message, ...]
    links: Any
    problems: list[Any]
    totals: Any
    cost: Any = None
    timing: Any = None


def cost_and_time(conversation: Conversation, prices: dict[str, Any] | None) -> tuple[Any, Any]:
    """A conversation's ``CostTotals`` and ``Timing`` (None without timestamps)."""
    from ...formats.prices import conversation_cost
    from ...formats.timestamps import conversation_timing

    return conversation_cost(conversation, prices), conversation_timing(conversation)


def _with_refs(links: Any) -> Any:
    """``links`` with its call and result references made (here, off the UI thread).

    ``ToolLinks`` makes them (and its index by message) on first use, which is the first tree
    row drawn with a call:
    made then, on the UI thread, they would also miss ``keep_out_of_collections``.
    """
    with collections_paused():  # 100,000 refs, no cycles: collections would only walk them
        _ = links.calls, links.results
        # The message index of calls and results too: made on first use, that is on the UI
        # thread after every edit (twice a pass over the history at 100k messages).
        _ = links.calls_in(0), links.results_in(0)
    return links


_frozen_after_cleanup: int | None = None
"""How many objects were frozen after the last whole collection (or the first freeze)."""


COUNT_EVERY = 32
"""Freezes ``often`` between two counts of what is frozen (``keep_out_of_collections``)."""
_freezes_uncounted = 0


def keep_out_of_collections(freeze_count: int | None = None, *, often: bool = False) -> None:
    """Move what exists now (analyses just made) out of the collector's reach.

    The analyses of a 100,000-message history are some 140,000 objects (call and result
    references, per-turn usage) that live until the next edit. Left where the collector looks,
    every full collection walks them: Textual allocates enough while drawing to set one off
    every few key presses, and at 100k each took 120 ms against 25 ms at 1k, so a key cost
    more the longer the file. Frozen objects are still freed by reference counting when
    dropped (nothing in an analysis forms a cycle); the reader freezes the parsed messages
    the same way (formats/loading.py).

    Freezing takes whatever else lives then too, and what of it later dies in cycles (the
    widgets of the detail pane shown then, some thousands of objects) is never collected. So
    that edits, which store new analyses each time, do not leak that without end: once what is
    frozen has grown by a quarter since the last time, everything is collected once (about
    0.3 s at 100k messages) and frozen again. That is the collector's own rule for its oldest
    generation, and it keeps such garbage under a quarter of what lives.

    ``freeze_count``: ``gc.get_freeze_count()`` counted off the UI thread (it walks every
    frozen object); counted here when not given. ``often``: for what is made again and again
    with no analysis between (a long history's rows: left where the collector looks, their
    list of a million rows is walked by every full collection, 30-40 ms every few keys):
    what is frozen is counted only every ``COUNT_EVERY``-th time (at a million messages the
    count takes 0.35 s).
    """
    global _frozen_after_cleanup, _freezes_uncounted
    gc.collect(1)  # young garbage is not frozen
    _freezes_uncounted = _freezes_uncounted + 1 if often else 0
    if 0 < _freezes_uncounted < COUNT_EVERY:
        gc.freeze()
        return
    _freezes_uncounted = 0
    baseline = _frozen_after_cleanup
    if baseline is not None and freeze_count is None:
        freeze_count = gc.get_freeze_count()
    cleanup = baseline is not None and freeze_count is not None and freeze_count > baseline * 5 // 4
    if cleanup:
        gc.unfreeze()
        gc.collect()
    gc.freeze()
    if cleanup or baseline is None:
        _frozen_after_cleanup = gc.get_freeze_count()


@contextmanager
def made_to_last() -> Iterator[None]:
    """What the ``with`` block makes kept out of the collector's reach as soon as it is made:
    for a new version of a long history and the views spliced for it (a tuple of a million
    messages, the search index's tuple, the rows).

    Left young, each such container is walked by the next collections of the young
    generations, which Textual's drawing sets off within the key that made it: a walk of a
    million references that each point elsewhere in memory, some 40-95 ms each, two or three
    times an edit at a million messages. So the young garbage is collected first (what lives
    long is frozen already, so little is young), collections are paused in the block, and what
    it made is frozen after, with no collection to walk it. What is frozen is not counted here
    (0.35 s at a million messages): the analysis the edit starts counts it, off this thread,
    and collects once it has grown by a quarter (``keep_out_of_collections``).
    """
    gc.collect(1)
    with collections_paused():
        yield
    gc.freeze()


def _optional(module: str, name: str) -> Any:
    """A core function that may not be there in every version of the core."""
    import importlib

    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None
