"""A nesting carried over an edit, worked out as it is asked (headless).

An edit shows at once, its results still under their calls, while the analysis worker links
the edited history again. Making every place again for that costs a pass over every call and
result (half a second of the key at a million messages). ``carried`` makes none: its lookups
renumber the key back to the nesting before the edit, ask that one, and renumber the answer.
Only what the edit changes beyond numbers is worked out at once, from the edited messages
alone: the results of the calls it removed (their messages get their rows back) and the
calls that lose every result (they no longer open by default).

What it answers is what ``nest_results`` gives for the same pairs: every pair touching the
edited messages dropped, every other one renumbered (``tests/tui/model/test_nested_view.py``
compares them).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Any

from ...core.message import Message
from .result_nesting import CallKey, ResultNesting, Spot, call_keys


@dataclass(frozen=True)
class _Shift:
    """Messages ``start:end`` became ``end - start + delta`` others."""

    start: int
    end: int
    delta: int

    def old(self, m: int) -> int | None:
        """The number before the edit of message ``m`` (None: new with the edit)."""
        if m < self.start:
            return m
        m -= self.delta
        return m if m >= self.end else None

    def new(self, m: int) -> int | None:
        """The number after the edit of message ``m`` (None: the edit replaced it)."""
        if m < self.start:
            return m
        return m + self.delta if m >= self.end else None

    def spots(self, cm: int, spots: list[Spot]) -> list[Spot]:
        """The spots of a call of message ``cm`` (outside the edit) after it: those in the
        edit dropped, those past it counted again (a call after the edit has every result
        after it too, so none of its spots changes)."""
        if cm >= self.end:
            return spots
        reach = self.start - cm  # (the offset of the first message edited)
        if all(off < reach for _, off, _ in spots):
            return spots
        gone = reach + self.end - self.start
        return [
            (k, off if off < reach else off + self.delta, b)
            for k, off, b in spots
            if not reach <= off < gone
        ]


class _View(Mapping[Any, Any]):
    """A mapping read through ``get``, whose None is a key that is not there."""

    def __getitem__(self, key: Any) -> Any:
        value = self.get(key)
        if value is None:
            raise KeyError(key)
        return value

    def __contains__(self, key: object) -> bool:
        return self.get(key) is not None

    def __len__(self) -> int:
        return sum(1 for _ in self)  # (comparisons and tests only: a walk)


class _Under(_View):
    def __init__(self, before: Mapping[CallKey, list[Spot]], shift: _Shift, size: int) -> None:
        self._before, self._shift, self._size = before, shift, size
        self.depth: int = getattr(before, "depth", 0) + 1
        """Edits carried over since the places were last made (each asks the one before)."""

    def get(self, key: CallKey, default: Any = None) -> Any:
        kind, cm, i = key
        old = self._shift.old(cm)
        spots = None if old is None else self._before.get((kind, old, i))
        if spots is None:
            return default
        return self._shift.spots(old, spots) or default  # type: ignore[arg-type]

    def __iter__(self) -> Iterator[CallKey]:
        shift = self._shift
        for (kind, cm, i), spots in self._before.items():
            new = shift.new(cm)
            if new is not None and shift.spots(cm, spots):
                yield (kind, new, i)

    def __len__(self) -> int:
        return self._size  # (counted as it was made: a nesting is asked whether it is empty)


class _Home(_View):
    def __init__(self, before: Mapping[tuple[int, int], CallKey], shift: _Shift) -> None:
        self._before, self._shift = before, shift

    def get(self, key: tuple[int, int], default: Any = None) -> Any:
        rm, b = key
        old = self._shift.old(rm)
        call = None if old is None else self._before.get((old, b))
        if call is None:
            return default
        kind, cm, i = call
        new = self._shift.new(cm)  # (None: the call was edited, so the pair is dropped)
        return default if new is None else (kind, new, i)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        shift = self._shift
        for (rm, b), (_, cm, _) in self._before.items():
            new = shift.new(rm)
            if new is not None and shift.new(cm) is not None:
                yield (new, b)


class _ByMessage(_View):
    """``hidden`` or ``moved``: by message, those the edit touched worked out anew."""

    def __init__(self, before: Mapping[int, Any], shift: _Shift, anew: dict[int, Any]) -> None:
        self._before, self._shift, self._anew = before, shift, anew

    def get(self, m: int, default: Any = None) -> Any:
        old = self._shift.old(m)
        if old is None:
            return default
        value = self._anew[old] if old in self._anew else self._before.get(old)
        return default if value is None else value

    def __iter__(self) -> Iterator[int]:
        shift, anew = self._shift, self._anew
        for m in self._before:
            new = shift.new(m)
            if new is not None and m not in anew:
                yield new
        for m, value in anew.items():
            if value is not None:
                yield shift.new(m)  # type: ignore[misc]


class _Openers(Set[int]):
    def __init__(self, before: Set[int], shift: _Shift, lost: set[int]) -> None:
        self._before, self._shift, self._lost = before, shift, lost

    @classmethod
    def _from_iterable(cls, items: Iterable[int]) -> frozenset[int]:
        return frozenset(items)  # (what ``|``, ``&`` and ``-`` give)

    def __contains__(self, m: object) -> bool:
        old = self._shift.old(m)  # type: ignore[arg-type]
        return old is not None and old not in self._lost and old in self._before

    def __iter__(self) -> Iterator[int]:
        shift, lost = self._shift, self._lost
        for m in self._before:
            new = shift.new(m)
            if new is not None and m not in lost:
                yield new

    def __len__(self) -> int:
        return sum(1 for _ in self)


MAX_DEPTH = 4
"""Edits carried over, each asking the one before, before the places are made into plain dicts
(edits made faster than the links are made again: at a million messages, a pass over every
call and result once every few edits, where each lookup would otherwise grow slower)."""


def _made(nest: ResultNesting) -> ResultNesting:
    """``nest`` as plain dicts, asking nothing of the nestings before it."""
    return ResultNesting(
        nest.links,
        dict(nest.under.items()),
        dict(nest.home.items()),
        dict(nest.hidden.items()),
        dict(nest.moved.items()),
        frozenset(nest.openers),
    )


def carried(
    before: ResultNesting,
    start: int,
    replaced: Sequence[Message],
    new_count: int,
    messages: Sequence[Message],
) -> ResultNesting:
    """``before`` after messages ``start:start+len(replaced)`` (``replaced``) became
    ``new_count`` others (``messages``: the conversation's messages after the edit)."""
    if getattr(before.under, "depth", 0) >= MAX_DEPTH:
        before = _made(before)
    end = start + len(replaced)
    shift = _Shift(start, end, new_count - len(replaced))
    dropped: set[CallKey] = set()
    answered: set[int] = set()  # (old numbers) messages holding results of edited calls
    for m, message in enumerate(replaced, start):
        for key in call_keys(m, message):
            spots = before.under.get(key)
            if spots is not None:
                dropped.add(key)
                answered.update(m + off for _, off, _ in spots)
    # Calls before the edit with results in it: a call left with none is dropped, and its
    # message no longer opens by default if it has no other call left with a result.
    callers: set[int] = set()
    for m, message in enumerate(replaced, start):
        for b in range(-1, len(message.blocks)):
            key = before.home.get((m, b))
            if (
                key is not None
                and key[1] < start
                and key not in dropped
                and not shift.spots(key[1], before.under[key])
            ):
                dropped.add(key)
                callers.add(key[1])
    under = _Under(before.under, shift, len(before.under) - len(dropped))

    def still_calls(cm: int) -> bool:
        return any(key in under for key in call_keys(cm, messages[cm]))

    lost = {cm for cm in callers if not still_calls(cm)}
    openers = _Openers(before.openers, shift, lost)
    home = _Home(before.home, shift)
    hidden: dict[int, int | None] = {}
    moved: dict[int, frozenset[int] | None] = {}
    for rm in answered:
        new = shift.new(rm)
        if new is None:
            continue  # (edited itself: its numbers are new ones)
        blocks = range(len(messages[new].blocks))
        stay = [b for b in blocks if (new, b) in home]
        had = sum(1 for b in blocks if (rm, b) in before.home)
        hidden[rm] = -1 if (new, -1) in home else None
        moved[rm] = None
        # (as ``nest_results`` decides: a message keeps its row when it holds calls with
        # results, kept it before, or lost a result that moved)
        if stay and (new in openers or rm in before.moved or len(stay) < had):
            moved[rm] = frozenset(stay)
        elif stay:
            hidden[rm] = min(stay)
    return ResultNesting(
        None,
        under,
        home,
        _ByMessage(before.hidden, shift, hidden),
        _ByMessage(before.moved, shift, moved),
        openers,
    )
