"""What a diff compares: messages cut into units that mean the same in every format.

Formats spell one conversation differently. Anthropic and Claude Code put tool results in a
user message as blocks (several in one message), OpenAI gives each its own tool message; a
tool call is a ``tool_calls`` entry in one format and a ``tool_call`` block in another; a
string is one text block. So a message holding tool results becomes one unit per result (plus
one for any other blocks); everything else is one unit. Each unit has a fingerprint (role,
text, tool names) to align on, and a normal form (``Normal``) built only for the units that
need comparing in detail.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .blocks import Block, TextBlock, ToolCallBlock, ToolResultBlock
from .message import InvalidToolCall, Message, ToolCall
from .usage import Usage


class Unit:
    """One comparable part of a message: the whole message (``part`` None), its ``part``-th
    block when that is a tool result, or a run of its other blocks (``part`` = first index,
    ``end`` past the last) in a message that also holds results."""

    __slots__ = ("end", "id", "index", "message", "part", "role")

    def __init__(
        self, index: int, message: Message, part: int | None, end: int, id: str | None, role: str
    ) -> None:
        self.index = index
        self.message = message
        self.part = part
        self.end = end
        self.id = id
        self.role = role

    def __repr__(self) -> str:
        where = "" if self.part is None else f", part {self.part}"
        return f"Unit({self.index}{where}, {self.role})"


class Units:
    """The units of one history, in parallel lists (one pass, few objects: a history of
    100,000 messages makes 100,000 units): message index, ``Unit`` or None for a whole
    message, fingerprint, role, id."""

    __slots__ = ("ids", "index", "messages", "offset", "part", "prints", "roles")

    def __init__(self, messages: Any, offset: int = 0) -> None:
        """The units of ``messages``, whose first is message ``offset`` of its history."""
        self.messages = messages
        self.offset = offset
        index: list[int] = []
        part: list[Unit | None] = []
        prints: list[int] = []
        roles: list[str] = []
        ids: list[str | None] = []
        for i, m in enumerate(messages, offset):
            content = m.content
            if type(content) is str:
                index.append(i)
                part.append(None)
                prints.append(_print(m.role, content, m.tool_calls, ()))
                roles.append(m.role)
                ids.append(m.id)
            elif not any(type(b) is ToolResultBlock for b in content):
                index.append(i)
                part.append(None)
                prints.append(_print(m.role, m.text, m.tool_calls, content))
                roles.append(m.role)
                ids.append(m.id)
            else:
                for u in _split(i, m):
                    index.append(i)
                    part.append(u)
                    prints.append(fingerprint(u))
                    roles.append(u.role)
                    ids.append(u.id)
        self.index, self.part, self.prints, self.roles, self.ids = index, part, prints, roles, ids

    def unit(self, k: int) -> Unit:
        """The ``k``-th unit as a ``Unit``."""
        u = self.part[k]
        if u is None:
            i = self.index[k]
            m = self.messages[i - self.offset]
            return Unit(i, m, None, 0, m.id, m.role)
        return u


def _split(i: int, m: Message) -> list[Unit]:
    """A message holding tool results: one unit per result, one per run of other blocks."""
    content = m.content
    parts: list[tuple[int, int, str]] = []  # (first block, end, role)
    start = None
    for k, b in enumerate(content):
        if type(b) is ToolResultBlock:
            if start is not None:
                parts.append((start, k, m.role))
                start = None
            parts.append((k, k + 1, "tool"))
        elif start is None:
            start = k
    if start is not None:
        parts.append((start, len(content), m.role))
    ident = m.id if len(parts) == 1 else None  # a message id names one unit, not several
    return [Unit(i, m, first, end, ident, role) for first, end, role in parts]


_EDGE = 64  # characters of each end of a text in its fingerprint


def _print(role: str, text: str, calls: Any, blocks: Any) -> int:
    # A fingerprint only guides the alignment (paired units are then compared in full), so
    # it takes the length and both ends of the text rather than hashing all of it: a long
    # history's text is most of its bytes, and hashing it all took longer than the rest.
    names: tuple[str, ...] = ()
    if calls:
        names = tuple(c.name for c in calls)
    if blocks:
        names += tuple(b.name for b in blocks if type(b) is ToolCallBlock)
    if len(text) > 2 * _EDGE:
        return hash((role, len(text), text[:_EDGE], text[-_EDGE:], names))
    return hash((role, text, names))


def fingerprint(u: Unit) -> int:
    """What alignment matches on: role, text and tool names (equal units, equal prints)."""
    m = u.message
    if u.part is None:
        content = m.content
        if type(content) is str:
            return _print(u.role, content, m.tool_calls, ())
        return _print(u.role, m.text, m.tool_calls, content)
    blocks = m.content[u.part : u.end]  # type: ignore[index]
    if u.role == "tool":
        result = blocks[0].content
        return _print("tool", result if type(result) is str else _text(result), (), ())
    return _print(u.role, _text(blocks), (), blocks)


def _text(blocks: Any) -> str:
    return "".join(b.text for b in blocks if type(b) is TextBlock)


@dataclass(slots=True)
class Normal:
    """A unit as compared: content blocks with text runs joined and tool calls taken out."""

    role: str
    blocks: tuple[Block, ...]
    id: str | None = None
    name: str | None = None
    tool_call_id: str | None = None
    is_error: bool = False
    calls: tuple[ToolCall, ...] = ()
    invalid_calls: tuple[InvalidToolCall, ...] = ()
    usage: Usage | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    response_metadata: dict[str, Any] = field(default_factory=dict)
    artifacts: tuple[Any, ...] = ()


def normal(u: Unit) -> Normal:
    """The normal form of a unit."""
    m = u.message
    whole = u.part is None
    first = whole or u.part == 0  # message-level fields go with the message's first unit
    if u.role == "tool" and not whole:
        block = m.content[u.part]  # type: ignore[index]
        return Normal(
            "tool",
            joined(_as_blocks(block.content)),
            tool_call_id=block.tool_call_id,
            is_error=block.is_error,
            **_message_fields(m, first),
        )
    raw = m.blocks if whole else m.content[u.part : u.end]  # type: ignore[index]
    calls = [ToolCall(b.id, b.name, b.args, extra=b.extra) for b in raw if type(b) is ToolCallBlock]
    if first:
        calls.extend(m.tool_calls)
    return Normal(
        u.role,
        joined(tuple(b for b in raw if type(b) is not ToolCallBlock)),
        id=u.id,
        name=m.name,
        tool_call_id=m.tool_call_id,
        is_error=m.is_error,
        calls=tuple(calls),
        invalid_calls=m.invalid_tool_calls if first else (),
        **_message_fields(m, first),
    )


def _message_fields(m: Message, first: bool) -> dict[str, Any]:
    if not first:
        return {}
    return {
        "usage": m.usage,
        "metadata": m.metadata,
        "response_metadata": m.response_metadata,
        "artifacts": m.artifacts,
    }


def _as_blocks(content: Any) -> tuple[Block, ...]:
    if type(content) is str:
        return (TextBlock(content),) if content else ()
    return tuple(content)


def joined(blocks: tuple[Block, ...]) -> tuple[Block, ...]:
    """Adjacent text blocks as one (a format may split a text where another does not);
    empty texts left out."""
    out: list[Block] = []
    for b in blocks:
        if type(b) is TextBlock and not b.text and not b.citations:
            continue
        if type(b) is TextBlock and out and type(out[-1]) is TextBlock:
            prev: TextBlock = out[-1]  # type: ignore[assignment]
            out[-1] = TextBlock(
                prev.text + b.text, prev.citations + b.citations, extra={**prev.extra, **b.extra}
            )
        else:
            out.append(b)
    return tuple(out)


def is_synthetic(call: ToolCall | InvalidToolCall) -> bool:
    """A call id the reader made up (the format had none): not an id to compare."""
    return bool(call.extra.get("synthetic_id"))
