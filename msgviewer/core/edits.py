"""The edits the app makes, as pure functions ``(list[Message]) -> list[Message]`` (headless).

Each builder returns a function for ``Document.edit``: the screen decides *what* to change
from the cursor, these say *how*, on the messages they are given. Message, block and call
positions are the ones of the history the edit is applied to (the app applies an edit right
after computing it, on the UI thread). Each says which messages it may change (``Spanned``),
so a Document looks for what changed there alone, not across a million messages.

Tool-call linkage: ``partners`` says which results answer a message's (or block's) calls and
which calls its results answer, so a delete can take them along; ``unit`` is the run of
messages a call message forms with the results that follow it, so a move can keep them together;
``rename_call`` changes a call's id and the result that answers it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, replace
from typing import Any

from .blocks import (
    ReasoningBlock,
    ServerToolCallBlock,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
)
from .call_order import call_places, with_calls
from .links import CallRef, ResultRef, ToolLinks
from .message import Message, ToolCall
from .spans import Spanned

EditFn = Callable[[list[Message]], list[Message]]

TEXT_BLOCKS = ("text", "reasoning", "tool_result", "error")
"""Blocks whose text the text editor edits (a tool result only when its content is text)."""


class EditRefused(Exception):
    """An edit that cannot apply here (the text of a message of several blocks...)."""


# -- one message ------------------------------------------------------------------------


def editable_text(message: Message, block: int | None) -> str:
    """The text the text editor shows for a message (``block`` None) or one of its blocks."""
    if block is None:
        content = message.content
        if type(content) is str:
            return content
        texts = [b for b in content if b.type == "text"]
        if len(content) == 1 and texts:
            return texts[0].text  # type: ignore[attr-defined]
        raise EditRefused("this message has several blocks: choose one (or edit it as JSON)")
    b = message.blocks[block]
    if b.type in ("text", "reasoning"):
        return b.text  # type: ignore[attr-defined]
    if b.type == "error":
        return b.message  # type: ignore[attr-defined]
    if b.type == "tool_result" and isinstance(b.content, str):  # type: ignore[attr-defined]
        return b.content  # type: ignore[attr-defined]
    raise EditRefused(f"a {b.type} block has no text to edit: edit it as JSON")


def with_text(message: Message, block: int | None, text: str) -> Message:
    """``message`` with the text of itself (``block`` None) or of one block replaced."""
    content = message.content
    if block is None or type(content) is str:
        if type(content) is str:
            return replace(message, content=text)
        block = next(i for i, b in enumerate(content) if b.type == "text")
    old = message.blocks[block]
    if old.type in ("text", "reasoning"):
        new: Any = replace(old, text=text)  # type: ignore[type-var]
    elif old.type == "error":
        new = replace(old, message=text)  # type: ignore[type-var]
    elif old.type == "tool_result":
        new = replace(old, content=text)  # type: ignore[type-var]
    else:
        raise EditRefused(f"a {old.type} block has no text to edit")
    return with_block(message, block, new)


def with_block(message: Message, index: int, block: Any) -> Message:
    """``message`` with content block ``index`` replaced by ``block``."""
    blocks = list(message.blocks)
    plain = type(block) is TextBlock and not block.extra and not block.citations
    if type(message.content) is str and plain:
        return replace(message, content=block.text)
    blocks[index] = block
    return replace(message, content=tuple(blocks))


def without_blocks(message: Message, indexes: Collection[int]) -> Message:
    """``message`` without the content blocks at ``indexes``."""
    if type(message.content) is str:
        return replace(message, content="") if 0 in indexes else message
    kept = tuple(b for i, b in enumerate(message.content) if i not in indexes)
    return replace(message, content=kept)


def with_call(message: Message, index: int, call: ToolCall) -> Message:
    """``message`` with ``tool_calls[index]`` replaced by ``call``."""
    calls = list(message.tool_calls)
    calls[index] = call
    return replace(message, tool_calls=tuple(calls))


def with_role(message: Message, role: str) -> Message:
    """``message`` with another role (a tool message keeps its call id; others drop it)."""
    if role == message.role:
        return message
    changes: dict[str, Any] = {"role": role}
    if role != "tool":
        changes["tool_call_id"] = None
        changes["is_error"] = False
    return replace(message, **changes)


def is_empty(message: Message) -> bool:
    """Nothing left: no content, no calls (what a delete of its last part leaves)."""
    if message.tool_calls or message.invalid_tool_calls:
        return False
    content = message.content
    return not content if type(content) is str else len(content) == 0


# -- the history ----------------------------------------------------------------------


def replace_message(index: int, message: Message) -> EditFn:
    """Put ``message`` at ``index``."""

    def edit(messages: list[Message]) -> list[Message]:
        messages[index] = message
        return messages

    return Spanned(index, index + 1, edit)


def update_message(index: int, change: Callable[[Message], Message]) -> EditFn:
    """Replace message ``index`` by ``change(message)``."""

    def edit(messages: list[Message]) -> list[Message]:
        messages[index] = change(messages[index])
        return messages

    return Spanned(index, index + 1, edit)


def insert_message(index: int, message: Message) -> EditFn:
    """Insert ``message`` so that it becomes message ``index``."""

    def edit(messages: list[Message]) -> list[Message]:
        messages.insert(index, message)
        return messages

    return Spanned(index, index, edit)


def duplicate_message(index: int) -> EditFn:
    """A copy of message ``index`` right after it, with fresh ids wherever ids must be unique:
    no message id (a writer makes one where its format needs it; two messages with one id
    read back as one), and its tool calls renamed (``ID_copy``...), so that no call id is
    used twice and the original's results still answer the original."""

    def edit(messages: list[Message]) -> list[Message]:
        original = messages[index]
        taken = _call_ids(messages)

        def fresh(call_id: str | None) -> str | None:
            if call_id is None:
                return None
            new, n = f"{call_id}_copy", 1
            while new in taken:
                n += 1
                new = f"{call_id}_copy{n}"
            taken.add(new)
            return new

        content = original.content
        if type(content) is tuple:
            content = tuple(
                replace(b, id=fresh(b.id)) if type(b) in _CALL_BLOCKS else b for b in content
            )
        copy = replace(
            original,
            id=None,
            content=content,
            tool_calls=tuple(replace(c, id=fresh(c.id)) for c in original.tool_calls),
            invalid_tool_calls=tuple(
                replace(c, id=fresh(c.id)) for c in original.invalid_tool_calls
            ),
        )
        messages.insert(index + 1, copy)
        return messages

    return Spanned(index + 1, index + 1, edit)


_CALL_BLOCKS = (ToolCallBlock, ServerToolCallBlock)


def _call_ids(messages: Iterable[Message]) -> set[str]:
    """Every tool call id in ``messages``."""
    ids: set[str] = set()
    for m in messages:
        ids.update(c.id for c in (*m.tool_calls, *m.invalid_tool_calls) if c.id is not None)
        if type(m.content) is tuple:
            ids.update(b.id for b in m.content if type(b) in _CALL_BLOCKS and b.id is not None)
    return ids


def move_span(start: int, end: int, to: int) -> EditFn:
    """Move messages ``start:end`` so that they begin at ``to`` (an index of the result)."""

    def edit(messages: list[Message]) -> list[Message]:
        span = messages[start:end]
        rest = messages[:start] + messages[end:]
        return rest[:to] + span + rest[to:]

    return edit


# -- parts of messages, and what they are linked to ------------------------------------


@dataclass(frozen=True)
class Part:
    """A removable piece of a history: a whole message, one content block, or one call.

    ``kind`` is ``"message"``, ``"block"``, ``"call"`` (``tool_calls``) or ``"invalid"``
    (``invalid_tool_calls``); ``index`` is the block or call index (0 for a message).
    """

    kind: str
    message: int
    index: int = 0


def part_of_call(ref: CallRef) -> Part:
    if ref.block_index is not None:
        return Part("block", ref.message_index, ref.block_index)
    return Part("invalid" if ref.invalid else "call", ref.message_index, ref.call_index or 0)


def part_of_result(ref: ResultRef) -> Part:
    if ref.block_index is None:
        return Part("message", ref.message_index)
    return Part("block", ref.message_index, ref.block_index)


def _covers(part: Part, other: Part) -> bool:
    return part.message == other.message and (part.kind == "message" or part == other)


def partners(links: ToolLinks, part: Part) -> list[Part]:
    """The results answering the calls in ``part`` and the calls its results answer,
    outside ``part`` itself, in history order."""
    m = part.message
    out: list[Part] = []
    for call in links.calls_in(m):
        if call.server or not _covers(part, part_of_call(call)):
            continue
        result = links.result_of(call)
        if result is not None and not _covers(part, part_of_result(result)):
            out.append(part_of_result(result))
    for result in links.results_in(m):
        if result.server or not _covers(part, part_of_result(result)):
            continue
        call = links.call_of(result)
        if call is not None and not _covers(part, part_of_call(call)):
            out.append(part_of_call(call))
    out = list(dict.fromkeys(out))
    out.sort(key=lambda p: (p.message, p.kind != "message", p.index))
    return out


def delete_parts(parts: Iterable[Part]) -> EditFn:
    """Remove every part; a message left with nothing in it (no content, no calls) goes too,
    unless it was emptied by removing only its text."""
    whole: set[int] = set()
    blocks: dict[int, set[int]] = {}
    calls: dict[int, set[int]] = {}
    invalid: dict[int, set[int]] = {}
    for p in parts:
        if p.kind == "message":
            whole.add(p.message)
        else:
            table = {"block": blocks, "call": calls, "invalid": invalid}[p.kind]
            table.setdefault(p.message, set()).add(p.index)
    touched = (set(blocks) | set(calls) | set(invalid)) - whole

    def edit(messages: list[Message]) -> list[Message]:
        # Only the touched messages are visited: a delete costs the same at any length.
        gone = set(whole)
        for i in sorted(touched):
            message = messages[i]
            had_calls = bool(message.tool_calls or message.invalid_tool_calls)
            if i in blocks:
                message = without_blocks(message, blocks[i])
            if i in calls or i in invalid:
                gone_calls = {(False, k) for k in calls.get(i, ())}
                gone_calls.update((True, k) for k in invalid.get(i, ()))
                kept = [p for p in call_places(message) if p not in gone_calls]
                both = (message.tool_calls, message.invalid_tool_calls)
                message = with_calls(message, [both[bad][k] for bad, k in kept])
            if is_empty(message) and (had_calls or _only_links(messages[i], blocks.get(i))):
                gone.add(i)
            messages[i] = message
        for i in sorted(gone, reverse=True):
            del messages[i]
        return messages

    return _within(whole | touched, edit)


def _only_links(message: Message, removed: set[int] | None) -> bool:
    """Whether the removed blocks were all the message had and were tool calls or results."""
    if not removed or type(message.content) is str:
        return False
    return all(type(message.content[i]) in (ToolCallBlock, ToolResultBlock) for i in removed)


# -- moving with partners -------------------------------------------------------------


def unit(links: ToolLinks, n: int, index: int) -> tuple[int, int]:
    """``(start, end)`` of the run of messages that moves as one with message ``index``:
    a message with calls and the messages right after it that only hold their results.
    A message outside such a run is a run of one."""
    start = index
    for result in links.results_in(index):
        call = links.call_of(result)
        if call is not None and call.message_index < index:
            start = min(start, call.message_index)
    end = start + 1
    answered = {p.message for p in partners(links, Part("message", start))}
    while end < n and end in answered and _only_answers(links, end, start):
        end += 1
    if end <= index:  # the results are not right after their call: move the message alone
        return index, index + 1
    return start, end


def _only_answers(links: ToolLinks, m: int, caller: int) -> bool:
    results = links.results_in(m)
    if not results or links.calls_in(m):
        return False
    for r in results:
        call = links.call_of(r)
        if call is None or call.message_index != caller:
            return False
    return True


def unit_destination(links: ToolLinks, n: int, span: tuple[int, int], step: int) -> int | None:
    """Where the first message of ``span`` lands when ``move_unit`` moves it past the whole
    unit before it (``step`` -1) or after it (+1); None at the edge."""
    start, end = span
    if step < 0:
        if start == 0:
            return None
        return unit(links, n, start - 1)[0]
    if end >= n:
        return None
    after = unit(links, n, end)
    return start + (after[1] - after[0])


def move_unit(links: ToolLinks, n: int, span: tuple[int, int], step: int) -> EditFn | None:
    """Move ``span`` past the whole unit before it (``step`` -1) or after it (+1); None at
    the edge."""
    to = unit_destination(links, n, span, step)
    return None if to is None else move_span(span[0], span[1], to)


# -- call ids ----------------------------------------------------------------------------


def rename_call(call: CallRef, result: ResultRef | None, new_id: str) -> EditFn:
    """Give a call the id ``new_id``, and the result that answers it too."""

    def edit(messages: list[Message]) -> list[Message]:
        m = messages[call.message_index]
        if call.block_index is not None:
            block = m.blocks[call.block_index]
            m = with_block(m, call.block_index, replace(block, id=new_id))  # type: ignore[type-var]
        elif call.invalid:
            bad = list(m.invalid_tool_calls)
            bad[call.call_index or 0] = replace(bad[call.call_index or 0], id=new_id)
            m = replace(m, invalid_tool_calls=tuple(bad))
        else:
            k = call.call_index or 0
            m = with_call(m, k, replace(m.tool_calls[k], id=new_id))
        messages[call.message_index] = m
        if result is not None:
            r = result.message_index
            messages[r] = _with_result_id(messages[r], result.block_index, new_id)
        return messages

    changed = {call.message_index} | ({result.message_index} if result is not None else set())
    return _within(changed, edit)


def call_ref(links: ToolLinks, message: int, block: int | None, call: int | None) -> CallRef | None:
    """The call at a block (or ``tool_calls`` index) of a message."""
    for ref in links.calls_in(message):
        if ref.invalid:
            continue
        if block is not None and ref.block_index == block:
            return ref
        if call is not None and ref.block_index is None and ref.call_index == call:
            return ref
    return None


def new_message(role: str, text: str) -> Message:
    """A message of ``role`` holding ``text`` (a tool message answers no call yet)."""
    return Message(role, text)  # type: ignore[arg-type]


def block_is_text(block: Any) -> bool:
    """Whether the text editor can edit this block."""
    if type(block) in (TextBlock, ReasoningBlock) or block.type == "error":
        return True
    return type(block) is ToolResultBlock and isinstance(block.content, str)


def _call_id_at(message: Message, ref: CallRef) -> str | None:
    """The id of the call now at ``ref``'s place in ``message`` (None if none is there)."""
    if ref.block_index is not None:
        blocks = message.blocks
        if ref.block_index < len(blocks) and type(blocks[ref.block_index]) is ToolCallBlock:
            return blocks[ref.block_index].id  # type: ignore[attr-defined]
        return None
    k = ref.call_index or 0
    return message.tool_calls[k].id if k < len(message.tool_calls) else None


def _with_result_id(message: Message, block: int | None, new_id: str) -> Message:
    if block is None:
        return replace(message, tool_call_id=new_id)
    old = message.blocks[block]
    return with_block(message, block, replace(old, tool_call_id=new_id))  # type: ignore[type-var]


def replace_keeping_links(links: ToolLinks, index: int, new: Message) -> EditFn:
    """Put ``new`` at ``index``; a call whose id it changed takes its result along (the
    result answering the old id gets the new one)."""
    renames: list[tuple[ResultRef, str]] = []
    for ref in links.calls_in(index):
        if ref.server or ref.invalid:
            continue
        new_id = _call_id_at(new, ref)
        if new_id is not None and new_id != ref.call_id:
            result = links.result_of(ref)
            if result is not None and result.message_index != index:
                renames.append((result, new_id))

    def edit(messages: list[Message]) -> list[Message]:
        messages[index] = new
        for result, new_id in renames:
            r = result.message_index
            messages[r] = _with_result_id(messages[r], result.block_index, new_id)
        return messages

    return _within({index, *(result.message_index for result, _ in renames)}, edit)


def _within(indexes: Collection[int], edit: EditFn) -> EditFn:
    """``edit``, saying it changes no message outside ``indexes`` (or any, given none)."""
    return Spanned(min(indexes), max(indexes) + 1, edit) if indexes else edit
