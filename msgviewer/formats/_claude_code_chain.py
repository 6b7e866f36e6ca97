"""Order the lines of a Claude Code session: the uuid/parentUuid chain, branches, sub-agents.

The file is append-only, so a later line is a newer one. The active conversation is the chain
from the newest main (non-sidechain) leaf back to its root; a compaction restarts the chain with
``parentUuid: null`` and points back through ``logicalParentUuid``, which is followed too.
Lines of other branches (rewinds) are not part of it and are kept aside. Sub-agent lines
(``isSidechain``) form chains of their own, placed after the tool result that follows them in
the file, so a call and its result stay next to each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CHAIN_TYPES = frozenset({"user", "assistant", "system"})


@dataclass
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


def _parent(rec: dict[str, Any]) -> Any:
    parent = rec.get("parentUuid")
    return parent if parent is not None else rec.get("logicalParentUuid")


def _response_key(rec: dict[str, Any]) -> tuple[Any, Any] | None:
    message = rec.get("message")
    if rec.get("type") != "assistant" or not isinstance(message, dict):
        return None
    if not isinstance(message.get("id"), str) or not isinstance(message.get("content"), list):
        return None
    return (message["id"], rec.get("requestId"))


def _units(indexes: list[int], records: list[Any], sidechain: bool) -> list[Unit]:
    """Consecutive lines of one API response (same message.id and requestId) grouped."""
    units: list[Unit] = []
    last_key: tuple[Any, Any] | None = None
    for j in indexes:
        rec = records[j]
        # only assistant lines can continue a response (the test _response_key makes first)
        key = _response_key(rec) if rec.get("type") == "assistant" else None
        if key is not None and key == last_key:
            units[-1].records.append(j)
        else:
            units.append(Unit([j], sidechain))
        last_key = key
    return units


def _answers_tools(rec: dict[str, Any]) -> bool:
    message = rec.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    return (
        rec.get("type") == "user"
        and isinstance(content, list)
        and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content)
    )


def layout(records: list[Any], chain: dict[str, int]) -> Layout:
    """Conversation order of ``records``; ``chain`` maps each chain line's uuid to its index."""
    main: list[int] = []
    side: list[int] = []
    has_child: set[Any] = set()  # parents of main lines
    for j in chain.values():  # one pass: this runs over every line of 10^5-line sessions
        rec = records[j]
        if rec.get("isSidechain") is True:
            side.append(j)
        else:
            main.append(j)
            parent = rec.get("parentUuid")
            has_child.add(parent if parent is not None else rec.get("logicalParentUuid"))

    # the active branch: newest main leaf back to its root
    leaves = [j for j in main if records[j]["uuid"] not in has_child]
    active: list[int] = []
    seen: set[int] = set()
    j = max(leaves) if leaves else (max(main) if main else None)
    while j is not None and j not in seen:
        seen.add(j)
        active.append(j)
        parent = _parent(records[j])
        j = chain.get(parent) if isinstance(parent, str) else None
        if j is not None and records[j].get("isSidechain") is True:
            j = None
    active.reverse()
    units = _units(active, records, False)

    # sub-agent chains: grouped by root, each placed after the main message before it
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
    position = {j: u for u, unit in enumerate(units) for j in unit.records} if groups else {}
    inserts: list[tuple[int, int, list[Unit]]] = []
    for first, group in sorted(groups.items(), key=lambda g: g[1][0]):
        before = [j for j in active if j < group[0]]
        at = position[max(before)] + 1 if before else 0
        while at < len(units) and _answers_tools(records[units[at].records[0]]):
            at += 1
        inserts.append((at, first, _units(group, records, True)))
    for at, _first, group_units in sorted(inserts, key=lambda x: (x[0], x[1]), reverse=True):
        units[at:at] = group_units

    placed = set(active) | set(side)
    if len(placed) == len(records):  # every line is a message: nothing aside
        return Layout(units)
    return Layout(units, [j for j in range(len(records)) if j not in placed])
