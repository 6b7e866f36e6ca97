"""The repairs behind lint's fixes: pure functions ``(messages, targets) -> messages``.

Each fixer takes a batch of targets and re-finds them in the messages it is given, by call id
or by message identity, checking that the problem is still there.
So a fix made from one lint run stays correct after other edits, applying it twice is harmless,
and fixing every problem of one kind costs one pass (``lint.fix_all``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Sequence
from typing import Any

from .blocks import (
    Block,
    ServerToolCallBlock,
    ServerToolResultBlock,
    ToolCallBlock,
    ToolResultBlock,
)
from .call_order import calls_in_order, with_calls
from .links import CallRef, ResultRef, ToolLinks, link_tools
from .message import InvalidToolCall, Message, ToolCall
from .message_fixes import (
    drop_messages,
    find_messages,
    merge_into_previous,
    move_system_first,
    start_with_user,
)
from .repair_json import repair_json

PLACEHOLDER = "[no result recorded]"
"""Content of the result a fix inserts for a call that was never answered."""

Fixer = Callable[[list[Message], Collection[Any]], list[Message]]


# -- shape helpers ----------------------------------------------------------------------


def _is_result_only(m: Message) -> bool:
    """A user message whose content is nothing but tool results."""
    c = m.content
    return (
        m.role == "user"
        and type(c) is tuple
        and bool(c)
        and all(type(b) is ToolResultBlock for b in c)
    )


def _leading_results(blocks: Sequence[Block]) -> int:
    n = 0
    for b in blocks:
        if type(b) is not ToolResultBlock:
            break
        n += 1
    return n


def zone_end(messages: Sequence[Message], c: int) -> int:
    """First index after message ``c`` that is not a tool message or a results-only user
    message: where the results of ``c``'s calls end."""
    e = c + 1
    n = len(messages)
    while e < n and (messages[e].role == "tool" or _is_result_only(messages[e])):
        e += 1
    return e


def in_strict_zone(messages: Sequence[Message], call: CallRef, result: ResultRef) -> bool:
    """The result sits where every provider wants it: after its call's message, among the
    tool messages and leading tool_result blocks before any other content."""
    c, r = call.message_index, result.message_index
    if r <= c:
        return False
    e = zone_end(messages, c)
    if r < e:
        return True
    if r == e and result.block_index is not None:
        return result.block_index < _leading_results(messages[e].blocks)
    return False


def _result_shape(links: ToolLinks) -> bool | None:
    """True if the history answers calls with ToolResultBlocks, False if with tool
    messages (either wins over blocks), None if it has no client results yet."""
    shape = None
    for r in links.results:
        if not r.server:
            if r.block_index is None:
                return False
            shape = True
    return shape


class _Plan:
    """Edits gathered against the original indices, applied in one rebuild pass."""

    def __init__(self) -> None:
        self.drop_messages: set[int] = set()
        self.drop_blocks: dict[int, set[int]] = {}
        self.insert_before: dict[int, list[Message]] = {}
        self.lead_blocks: dict[int, list[Block]] = {}  # after the leading results of message i
        self.tail_blocks: dict[int, list[Block]] = {}
        self.block_after: dict[int, dict[int, list[Block]]] = {}
        self.replace: dict[int, Message] = {}
        # Per calling message, the end of its result zone: found once, not once per result
        # (a zone holds every result of a turn of parallel calls).
        self.zones: dict[int, int] = {}
        self.leading: dict[int, int] = {}  # leading tool results of a message, by index
        # Results-only user messages this plan makes, as their blocks (a message rebuilt per
        # added block was quadratic in the calls of one turn); made Messages in ``apply``.
        self.new_users: dict[int, list[Block]] = {}

    def remove_result(self, r: ResultRef) -> None:
        if r.block_index is None:
            self.drop_messages.add(r.message_index)
        else:
            self.drop_blocks.setdefault(r.message_index, set()).add(r.block_index)

    def place_result(
        self, messages: Sequence[Message], c: int, item: Message | ToolResultBlock
    ) -> None:
        """Put a result of message ``c``'s call at the end of that call's result zone."""
        e = self.zone_end(messages, c)
        if isinstance(item, Message):
            self.insert_before.setdefault(e, []).append(item)
        elif e < len(messages) and messages[e].role == "user":
            self.lead_blocks.setdefault(e, []).append(item)
        elif e - 1 > c and _is_result_only(messages[e - 1]):
            self.tail_blocks.setdefault(e - 1, []).append(item)
        else:
            new = self.insert_before.setdefault(e, [])
            if new and id(new[-1]) in self.new_users:  # (only tool messages are moved whole)
                self.new_users[id(new[-1])].append(item)
            else:
                new.append(Message.user((item,)))
                self.new_users[id(new[-1])] = [item]

    def zone_end(self, messages: Sequence[Message], c: int) -> int:
        e = self.zones.get(c)
        if e is None:
            e = self.zones[c] = zone_end(messages, c)
        return e

    def in_strict_zone(self, messages: Sequence[Message], call: CallRef, result: ResultRef) -> bool:
        """``in_strict_zone``, each zone's end and leading results counted once."""
        c, r = call.message_index, result.message_index
        if r <= c:
            return False
        e = self.zone_end(messages, c)
        if r < e:
            return True
        if r == e and result.block_index is not None:
            lead = self.leading.get(e)
            if lead is None:
                lead = self.leading[e] = _leading_results(messages[e].blocks)
            return result.block_index < lead
        return False

    def _inserted(self, i: int) -> list[Message]:
        new = self.insert_before.get(i, ())
        users = self.new_users
        return [
            dataclasses.replace(m, content=tuple(users[id(m)])) if id(m) in users else m
            for m in new
        ]

    def apply(self, messages: Sequence[Message]) -> list[Message]:
        out: list[Message] = []
        for i, m in enumerate(messages):
            if i in self.insert_before:
                out.extend(self._inserted(i))
            if i in self.drop_messages:
                continue
            m = self.replace.get(i, m)
            drop = self.drop_blocks.get(i)
            lead = self.lead_blocks.get(i)
            tail = self.tail_blocks.get(i)
            after = self.block_after.get(i)
            if drop or lead or tail or after:
                blocks: list[Block] = []
                for bi, b in enumerate(m.blocks):
                    if not drop or bi not in drop:
                        blocks.append(b)
                    if after and bi in after:
                        blocks.extend(after[bi])
                if lead:
                    k = _leading_results(blocks)
                    blocks[k:k] = lead
                if tail:
                    blocks.extend(tail)
                if not blocks and drop:
                    continue  # the message held only what was removed
                m = dataclasses.replace(m, content=tuple(blocks))
            out.append(m)
        out.extend(self._inserted(len(messages)))
        return out


# -- fixers -----------------------------------------------------------------------------


def _lookup(call_ids: Collection[Any]) -> Collection[Any]:
    """The targets as a set: ``fix_all`` passes a list, and each call is looked up in it."""
    try:
        return frozenset(call_ids)
    except TypeError:  # something unhashable among them: compared one by one, as given
        return call_ids


def drop_orphans(messages: list[Message], call_ids: Collection[Any]) -> list[Message]:
    """Remove the results with these ids that answer no call."""
    call_ids = _lookup(call_ids)
    links = link_tools(messages)
    plan = _Plan()
    for r in links.orphan_results:
        if r.call_id in call_ids:
            plan.remove_result(r)
    return plan.apply(messages)


def add_placeholders(messages: list[Message], call_ids: Collection[Any]) -> list[Message]:
    """Answer the unanswered calls with these ids with an error result saying none was
    recorded, placed right after the call in the shape the history uses."""
    call_ids = _lookup(call_ids)
    links = link_tools(messages)
    shape = _result_shape(links)
    plan = _Plan()
    for call in links.unanswered_calls:
        if call.call_id not in call_ids:
            continue
        c = call.message_index
        if call.server:
            block = ServerToolResultBlock(call.call_id, PLACEHOLDER, status="error")
            plan.block_after.setdefault(c, {}).setdefault(call.block_index or 0, []).append(block)
        elif shape or (shape is None and call.block_index is not None):
            plan.place_result(messages, c, ToolResultBlock(call.call_id, PLACEHOLDER, True))
        else:
            tool = Message.tool(
                PLACEHOLDER, tool_call_id=call.call_id, name=call.name, is_error=True
            )
            plan.place_result(messages, c, tool)
    return plan.apply(messages)


def move_results(messages: list[Message], call_ids: Collection[Any]) -> list[Message]:
    """Move the results of the calls with these ids that are out of place (before the call,
    after a later turn, or after other content) to right after their call."""
    call_ids = _lookup(call_ids)
    links = link_tools(messages)
    plan = _Plan()
    for call, result in links.pairs:
        if call.call_id not in call_ids or call.server:
            continue
        if plan.in_strict_zone(messages, call, result):
            continue
        plan.remove_result(result)
        m = messages[result.message_index]
        if result.block_index is None:
            item: Message | ToolResultBlock = m
        else:
            item = m.content[result.block_index]  # type: ignore[assignment,index]
        plan.place_result(messages, call.message_index, item)
    return plan.apply(messages)


def rename_duplicates(messages: list[Message], call_ids: Collection[Any]) -> list[Message]:
    """Give every call after the first with one of these ids a new unique id, and the result
    that answers it the same new id."""
    call_ids = _lookup(call_ids)
    links = link_tools(messages)
    used = {c.call_id for c in links.calls} | {r.call_id for r in links.results}
    seen: dict[tuple[bool, str], int] = {}
    renames: dict[int, list[tuple[CallRef | ResultRef, str]]] = {}
    for call, result in links:
        if call.call_id is None or call.call_id not in call_ids:
            continue
        key = (call.server, call.call_id)
        n = seen.get(key, 0) + 1
        seen[key] = n
        if n == 1:
            continue
        k = n
        new_id = f"{call.call_id}_{k}"
        while new_id in used:
            k += 1
            new_id = f"{call.call_id}_{k}"
        used.add(new_id)
        renames.setdefault(call.message_index, []).append((call, new_id))
        if result is not None:
            renames.setdefault(result.message_index, []).append((result, new_id))
    plan = _Plan()
    for i, edits in renames.items():
        plan.replace[i] = _renamed(messages[i], edits)
    return plan.apply(messages)


def _renamed(m: Message, edits: list[tuple[CallRef | ResultRef, str]]) -> Message:
    blocks = list(m.blocks) if type(m.content) is tuple else None
    tool_calls = list(m.tool_calls)
    invalid = list(m.invalid_tool_calls)
    tool_call_id = m.tool_call_id
    for ref, new_id in edits:
        if ref.block_index is not None and blocks is not None:
            b = blocks[ref.block_index]
            field = "tool_call_id" if isinstance(ref, ResultRef) else "id"
            blocks[ref.block_index] = dataclasses.replace(b, **{field: new_id})  # type: ignore[arg-type]
        elif isinstance(ref, ResultRef):
            tool_call_id = new_id
        elif ref.invalid:
            invalid[ref.call_index] = dataclasses.replace(invalid[ref.call_index], id=new_id)  # type: ignore[index]
        else:
            tool_calls[ref.call_index] = dataclasses.replace(tool_calls[ref.call_index], id=new_id)  # type: ignore[index]
    return dataclasses.replace(
        m,
        content=tuple(blocks) if blocks is not None else m.content,
        tool_calls=tuple(tool_calls),
        invalid_tool_calls=tuple(invalid),
        tool_call_id=tool_call_id,
    )


def repair_arguments(messages: list[Message], call_ids: Collection[Any]) -> list[Message]:
    """Turn the invalid tool calls with these ids into calls: arguments completed when the
    JSON was only cut off, else an empty object."""
    call_ids = _lookup(call_ids)
    out = []
    for m in messages:
        if m.invalid_tool_calls and any(c.id in call_ids for c in m.invalid_tool_calls):
            m = with_calls(  # (each repaired call where the unparsable one was)
                m,
                [
                    ToolCall(c.id, c.name or "", repair_json(c.args) or {}, extra=dict(c.extra))
                    if type(c) is InvalidToolCall and c.id in call_ids
                    else c
                    for c in calls_in_order(m)
                ],
            )
        out.append(m)
    return out


def assign_ids(messages: list[Message], targets: Collection[Any]) -> list[Message]:
    """Give the tool calls without an id in these messages a fresh unique id."""
    where = find_messages(messages, targets)
    if not where:
        return list(messages)
    links = link_tools(messages)
    used = {c.call_id for c in links.calls}
    counter = 0

    def fresh() -> str:
        nonlocal counter
        while True:
            counter += 1
            new_id = f"call_{counter}"
            if new_id not in used:
                used.add(new_id)
                return new_id

    out = list(messages)
    for i in sorted(where):
        m = out[i]
        content = m.content
        if type(content) is tuple:
            content = tuple(
                dataclasses.replace(b, id=fresh())
                if type(b) in (ToolCallBlock, ServerToolCallBlock) and b.id is None  # type: ignore[union-attr]
                else b
                for b in content
            )
        out[i] = dataclasses.replace(
            m,
            content=content,
            tool_calls=tuple(
                dataclasses.replace(c, id=fresh()) if c.id is None else c for c in m.tool_calls
            ),
            invalid_tool_calls=tuple(
                dataclasses.replace(c, id=fresh()) if c.id is None else c
                for c in m.invalid_tool_calls
            ),
        )
    return out


FIXERS: dict[str, Fixer] = {
    "assign-ids": assign_ids,
    "rename-duplicates": rename_duplicates,
    "repair-arguments": repair_arguments,
    "move-results": move_results,
    "drop-orphans": drop_orphans,
    "add-placeholders": add_placeholders,
    "drop-messages": drop_messages,
    "move-system-first": move_system_first,
    "merge-into-previous": merge_into_previous,
    "start-with-user": start_with_user,
}
"""Fixer by name, in the order ``fix_all`` applies them: ids first, so that the pairing the
later fixers rely on is sound; placeholders after moves, so a moved result is not doubled."""
