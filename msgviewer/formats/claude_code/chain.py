"""Order the lines of a Claude Code session: the uuid/parentUuid chain, branches, sub-agents.

The file is append-only, so a later line is a newer one. The active conversation is the chain
from the newest main (non-sidechain) leaf back to its root; a compaction restarts the chain with
``parentUuid: null`` and points back through ``logicalParentUuid``, which is followed too.
Lines of other branches (rewinds) are not part of it and are kept aside; lines that form no
chain (no parent in the file and no child, or no uuid at all) are shown in file order.
Sub-agent lines (``isSidechain``) form chains of their own, placed after the tool result that
follows them in the file, so a call and its result stay next to each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.blocks import ToolResultBlock
from ..base import Context
from ..io import RawLine
from .early import Early, early_content, read_early

CHAIN_TYPES = frozenset({"user", "assistant", "system"})
OTHER_TYPES = frozenset({"summary", "file-history-snapshot", "queue-operation"})
_STR_OR_NONE = (str, type(None))
_BLOCK_LISTS = (list, tuple, Early)
"""A message's content of blocks: as parsed, or read as it was parsed (``early``)."""


@dataclass(slots=True)
class Unit:
    """The records (indexes) of one message: several for an API response split over lines."""

    records: list[int]
    sidechain: bool = False


@dataclass
class Layout:
    """The messages' records in conversation order, and the records kept aside."""

    units: list[Unit]
    aside: list[int] = field(default_factory=list)
    """Records that are not messages: other line types, and lines of inactive branches."""


@dataclass
class Scan:
    """What one pass over the lines finds: the chain lines by uuid, main and sub-agent."""

    chain: dict[str, int]
    """uuid -> record of each chain line (the first line with that uuid)."""
    repeated: list[int]
    """Records whose uuid came earlier already."""
    main: list[int]
    side: list[int]
    linear: bool
    """Every main line's parent is the main line before it: the chain is the file's order."""
    bad: list[int] = field(default_factory=list)
    """Records that cannot be read (reported, and kept aside as they were)."""
    bridge: dict[str, Any] = field(default_factory=dict)
    """uuid -> parent of the lines that cannot be read: the chain goes on through them."""
    outside: list[str] = field(default_factory=list)
    """The parent uuids of chain lines that no chain line has (an excerpt, a session continued
    from another), in the order the lines name them."""
    title: str | None = None
    """The text of the first ``summary`` line."""


def _refused(rec: Any) -> tuple[str, str] | None:
    """Why a line cannot be read (what, JSON path), or None for a good line."""
    if type(rec) is RawLine:
        return rec.error.what, "$"
    if not isinstance(rec, dict):
        return "a line must be a JSON object", "$"
    kind = rec.get("type")
    if not isinstance(kind, str):
        return 'a line needs a string "type"', "$.type"
    if kind not in CHAIN_TYPES:
        return None
    if type(rec.get("uuid")) not in _STR_OR_NONE:
        return f"a {kind} line's uuid must be a string", "$.uuid"
    for key in ("parentUuid", "logicalParentUuid"):
        if type(rec.get(key)) not in _STR_OR_NONE:
            return f"{key} must be a string or null", f"$.{key}"
    if kind != "system":
        message = rec.get("message")
        if read_early(message):
            return None  # (a user line's content alone, read early: of the common shapes)
        if type(message) is not dict:
            return f"a {kind} line needs a message object", "$.message"
        if "content" not in message:
            return f"a {kind} line's message has no content", "$.message.content"
    return None


def scan(records: list[Any], ctx: Context) -> Scan:
    """Check every line and index the chain lines, in one pass (10^5-line sessions).

    A line that cannot be read is reported (a ``FormatWarning`` naming its line) and kept
    aside as it was; a message line without a uuid is read, in file order.
    """
    chain: dict[str, int] = {}
    repeated: list[int] = []
    main: list[int] = []
    side: list[int] = []
    bad: list[int] = []
    bridge: dict[str, Any] = {}
    named: dict[str, None] = {}  # parents not among the chain lines before: maybe outside
    title = None
    linear = True
    previous: Any = None  # uuid of the last main line
    for j, rec in enumerate(records):
        kind = rec.get("type") if type(rec) is dict else None
        if type(kind) is str and kind not in CHAIN_TYPES:
            if kind not in OTHER_TYPES:
                ctx.warn(f"unknown line type {kind!r} kept as is", "$.type", record=j)
            elif kind == "summary" and title is None and isinstance(rec.get("summary"), str):
                title = rec["summary"]
            continue
        refused = _refused(rec)
        if refused is not None:
            ctx.warn(f"{refused[0]}; the line is kept as it is, not shown", refused[1], record=j)
            bad.append(j)
            if type(rec) is dict and type(rec.get("uuid")) is str:  # the chain goes through it
                bridge.setdefault(rec["uuid"], _parent(rec))
            continue
        uid = rec.get("uuid")
        parent = rec.get("parentUuid")
        logical = rec.get("logicalParentUuid")
        if uid is None:  # no place in a chain: shown where it is in the file
            linear = False
            (side if rec.get("isSidechain") is True else main).append(j)
            continue
        if uid in chain:
            repeated.append(j)
            linear = False
            continue
        chain[uid] = j
        if parent is not None and parent not in chain:
            named[parent] = None
        if logical is not None and logical not in chain:
            named[logical] = None
        if rec.get("isSidechain") is True:
            side.append(j)
            continue
        if parent is None:
            parent = logical
        if main:
            if parent != previous:
                linear = False
            elif parent is not previous:  # the line before's uuid: keep one string for both
                key = "parentUuid" if rec.get("parentUuid") is not None else "logicalParentUuid"
                rec[key] = previous
        main.append(j)
        previous = uid
    outside = [p for p in named if p not in chain]
    return Scan(chain, repeated, main, side, linear, bad, bridge, outside, title)


def _parent(rec: dict[str, Any]) -> Any:
    parent = rec.get("parentUuid")
    return parent if parent is not None else rec.get("logicalParentUuid")


def _units(indexes: list[int], records: list[Any], sidechain: bool) -> list[Unit]:
    """Consecutive lines of one API response (same message.id and requestId) grouped."""
    units: list[Unit] = []
    last_key: tuple[Any, Any] | None = None
    for j in indexes:
        rec = records[j]
        key = None
        if rec["type"] == "assistant":  # only they continue a response (scan checked message)
            message = rec["message"]
            mid = message.get("id")
            if type(mid) is str and type(message.get("content")) in _BLOCK_LISTS:
                key = (mid, rec.get("requestId"))
                if key == last_key:
                    units[-1].records.append(j)
                    continue
        units.append(Unit([j], sidechain))
        last_key = key
    return units


def _answers_tools(rec: dict[str, Any]) -> bool:
    message = rec.get("message")
    content = message.get("content") if isinstance(message, dict) else message
    early = early_content(content)
    if early is not None:
        return rec.get("type") == "user" and any(type(b) is ToolResultBlock for b in early.blocks)
    return (
        rec.get("type") == "user"
        and isinstance(message, dict)
        and isinstance(content, list)
        and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content)
    )


def layout(records: list[Any], found: Scan) -> Layout:
    """Conversation order of ``records``, from what ``scan`` found in them."""
    chain, main, side = found.chain, found.main, found.side
    if found.linear:
        active = main  # the newest leaf is the last main line, and its chain is every one
    else:
        active = _active_branch(records, chain, main, found.bridge)
    units = _units(active, records, False)
    if side:
        _place_sidechains(records, chain, active, side, units)
    if len(active) + len(side) == len(records):
        return Layout(units)  # every line is a message: nothing aside
    placed = set(active) | set(side)
    return Layout(units, [j for j in range(len(records)) if j not in placed])


def _active_branch(
    records: list[Any], chain: dict[str, int], main: list[int], bridge: dict[str, Any]
) -> list[int]:
    """The records of the newest main leaf back to its root, oldest first; with the lines that
    form no chain (no parent in the file, no child) where they are in the file."""
    has_child = {_parent(records[j]) for j in main} | set(bridge.values())

    def up(parent: Any) -> int | None:
        """The line ``parent`` names, through lines that cannot be read."""
        hops = 0
        while parent in bridge and parent not in chain and hops < len(bridge):
            parent, hops = bridge[parent], hops + 1
        return chain.get(parent) if isinstance(parent, str) else None

    leaves = [j for j in main if (u := records[j].get("uuid")) is not None and u not in has_child]
    active: list[int] = []
    seen: set[int] = set()
    j = max(leaves) if leaves else None
    while j is not None and j not in seen:
        seen.add(j)
        active.append(j)
        j = up(_parent(records[j]))
        if j is not None and records[j].get("isSidechain") is True:
            j = None
    active.reverse()
    lone = [
        j
        for j in main
        if j not in seen
        and up(_parent(records[j])) is None
        and (records[j].get("uuid") is None or records[j]["uuid"] not in has_child)
    ]
    if not lone:
        return active
    out: list[int] = []
    rest = iter(lone)
    k = next(rest, None)
    for j in active:
        while k is not None and k < j:
            out.append(k)
            k = next(rest, None)
        out.append(j)
    if k is not None:
        out.append(k)
        out.extend(rest)
    return out


def _place_sidechains(
    records: list[Any],
    chain: dict[str, int],
    active: list[int],
    side: list[int],
    units: list[Unit],
) -> None:
    """Insert sub-agent runs into ``units``, each after the main message before it."""

    def root(j: int) -> int:
        hops: set[int] = set()
        while True:
            parent = _parent(records[j])
            k = chain.get(parent) if isinstance(parent, str) else None
            if k is None or k in hops or records[k].get("isSidechain") is not True:
                return j
            hops.add(j)
            j = k

    groups: dict[int, list[int]] = {}
    for j in sorted(side):
        groups.setdefault(root(j), []).append(j)
    position = {j: u for u, unit in enumerate(units) for j in unit.records}
    inserts: list[tuple[int, int, list[Unit]]] = []
    for first, group in sorted(groups.items(), key=lambda g: g[1][0]):
        before = [j for j in active if j < group[0]]
        at = position[max(before)] + 1 if before else 0
        while at < len(units) and _answers_tools(records[units[at].records[0]]):
            at += 1
        inserts.append((at, first, _units(group, records, True)))
    for at, _first, group_units in sorted(inserts, key=lambda x: (x[0], x[1]), reverse=True):
        units[at:at] = group_units
