"""``diff(a, b)``: how two conversations differ, message by message.

The histories are cut into comparable units (``diff_units``), aligned on ids and content
fingerprints (``diff_align``), and each pair that is not identical is compared in detail
(``diff_details``). A message that holds several tool results (Anthropic's and Claude Code's
form) is compared as one unit per result where it differs from the other side, so several
changes may name the same index; an equal message is one ``same`` change.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from typing import Any, Literal

from ._frozen import value
from .diff_align import align
from .diff_details import Detail, Options, details
from .diff_units import Unit, Units, normal
from .gc_pause import collections_paused
from .message import Message

Op = Literal["same", "changed", "added", "removed"]
OPS: tuple[Op, ...] = ("same", "changed", "added", "removed")


@value
class Change:
    """One aligned step: a message on each side (``same``/``changed``) or on one side only
    (``removed``: only in ``a``; ``added``: only in ``b``). Indices are message positions."""

    op: Op
    a_index: int | None
    b_index: int | None
    details: tuple[Detail, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"op", "a", "b", "details"}``."""
        return {
            "op": self.op,
            "a": self.a_index,
            "b": self.b_index,
            "details": [_detail_dict(d) for d in self.details],
        }


def _detail_dict(d: Detail) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": d.kind, "path": d.path, "a": d.a, "b": d.b}
    if d.words:
        out["words"] = [list(w) for w in d.words]
    if d.delta is not None:
        out["delta"] = d.delta
    return out


@value
class HistoryDiff:
    """The changes that turn history ``a`` into history ``b``, in order."""

    changes: tuple[Change, ...]

    @property
    def same(self) -> bool:
        """True when nothing was changed, added or removed."""
        return all(c.op == "same" for c in self.changes)

    @property
    def stat(self) -> dict[str, int]:
        """How many changes of each op: ``{"same", "changed", "added", "removed"}``."""
        counts = dict.fromkeys(OPS, 0)
        for c in self.changes:
            counts[c.op] += 1
        return counts

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"same", "stat", "changes"}`` (plain data)."""
        return {
            "same": self.same,
            "stat": self.stat,
            "changes": [c.to_dict() for c in self.changes],
        }


def diff(
    a: Any,
    b: Any,
    *,
    ignore_ids: bool = False,
    ignore_usage: bool = False,
    ignore_metadata: bool = False,
) -> HistoryDiff:
    """Compare two histories (sequences of ``Message``, or ``Conversation``\\ s).

    Messages are matched by id where both sides have ids (unless ``ignore_ids``), the rest by
    aligning content fingerprints, so an inserted message is one ``added`` change. A changed
    message's ``details`` say what differs. ``ignore_metadata`` also leaves out what one side
    never holds at all (reasoning, images, names, usage): what its format could not carry.
    """
    ma, mb = _messages(a), _messages(b)
    opts = Options(ignore_ids, ignore_usage, ignore_metadata, ma, mb)
    # A change per message, none of them in a cycle: with the collector running, making
    # 100,000 of them set it walking every message of both histories, several times.
    with collections_paused():
        return HistoryDiff(tuple(_changes(ma, mb, opts)))


def _changes(ma: Any, mb: Any, opts: Options) -> list[Change]:
    changes: list[Change] = []
    i = j = 0
    while True:
        i, j = _equal_run(ma, mb, i, j, changes)
        if i == len(ma) or j == len(mb):
            _region(ma, mb, i, len(ma), j, len(mb), opts, changes)
            break
        found = _resync(ma, mb, i, j)
        if found is None:  # nothing equal nearby: align all the rest
            _region(ma, mb, i, len(ma), j, len(mb), opts, changes)
            break
        _region(ma, mb, i, found[0], j, found[1], opts, changes)
        i, j = found
    return changes


# Most of two histories that mostly agree is equal messages, one after the other. Walking them
# in step (message ``==``) and aligning only the places where they part costs one comparison a
# message; fingerprints and alignment (``_region``) are for those places, or for all of two
# histories that are never equal message for message (two formats, ids ignored).

_WINDOW = 24  # how far past a difference the walk looks for the histories to agree again
_CONFIRM = 3  # equal messages in a row that make them agree again


def _equal_run(ma: Any, mb: Any, i: int, j: int, changes: list[Change]) -> tuple[int, int]:
    """Record the run of equal messages from ``(i, j)``; where it stops."""
    na, nb = len(ma), len(mb)
    start_i, start_j = i, j
    step = 64
    while i < na and j < nb:
        # slices compared in C a stretch at a time; message by message where they part
        n = min(step, na - i, nb - j)
        if ma[i : i + n] == mb[j : j + n]:
            i += n
            j += n
            continue
        while i < na and j < nb:
            m, o = ma[i], mb[j]
            if m is not o and m != o:
                break
            i += 1
            j += 1
        break
    # built by map in C: a Python frame per equal message cost a tenth of the whole diff
    changes.extend(map(Change, repeat("same"), range(start_i, i), range(start_j, j)))
    return i, j


def _resync(ma: Any, mb: Any, i: int, j: int) -> tuple[int, int] | None:
    """The nearest ``(i + p, j + q)`` after a difference where the histories agree again."""
    na, nb = len(ma), len(mb)
    for d in range(1, 2 * _WINDOW + 1):
        for p in range(max(0, d - _WINDOW), min(d, _WINDOW) + 1):
            x, y = i + p, j + d - p
            if x >= na or y >= nb:
                continue
            k = 0
            while k < _CONFIRM and x + k < na and y + k < nb and ma[x + k] == mb[y + k]:
                k += 1
            if k == _CONFIRM or (k and (x + k == na or y + k == nb)):
                return x, y
    return None


def _region(
    ma: Any, mb: Any, a0: int, a1: int, b0: int, b1: int, opts: Options, changes: list[Change]
) -> None:
    """Align ``ma[a0:a1]`` with ``mb[b0:b1]`` unit by unit and compare the pairs."""
    if a0 == a1 and b0 == b1:
        return
    ua, ub = Units(ma[a0:a1], a0), Units(mb[b0:b1], b0)
    anchors = () if opts.ignore_ids else _id_anchors(ua.ids, ub.ids)
    pairs = align(ua.prints, ub.prints, ua.roles, ub.roles, anchors)
    append = changes.append
    index_a, index_b, part_a, part_b = ua.index, ub.index, ua.part, ub.part
    for i, j in pairs:
        if j is None:
            append(Change("removed", index_a[i], None))  # type: ignore[index]
        elif i is None:
            append(Change("added", None, index_b[j]))
        elif part_a[i] is None and part_b[j] is None:
            x, y = index_a[i], index_b[j]
            m, n = ma[x], mb[y]
            if m is n or m == n:
                append(Change("same", x, y))
            else:
                append(_compare(ua.unit(i), ub.unit(j), opts))
        else:
            append(_compare(ua.unit(i), ub.unit(j), opts))


def _compare(u: Unit, v: Unit, opts: Options) -> Change:
    found = details(normal(u), normal(v), opts)
    return Change("changed" if found else "same", u.index, v.index, tuple(found))


def _messages(x: Any) -> Sequence[Message]:
    messages = getattr(x, "messages", x)  # a Conversation
    return messages if isinstance(messages, (list, tuple)) else list(messages)


def _id_anchors(ids_a: list[str | None], ids_b: list[str | None]) -> list[tuple[int, int]]:
    """(position in a, position in b) of the units whose id is on both sides, once each."""
    at_b = _unique_ids(ids_b)
    if not at_b:
        return []
    return [(i, at_b[ident]) for ident, i in _unique_ids(ids_a).items() if ident in at_b]


def _unique_ids(ids: list[str | None]) -> dict[str, int]:
    at: dict[str, int] = {}
    twice: set[str] = set()
    for k, ident in enumerate(ids):
        if ident:  # an empty id is no id
            if ident in at:
                twice.add(ident)
            at[ident] = k
    for ident in twice:
        del at[ident]
    return at
