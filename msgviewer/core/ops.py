"""Filtering and merging histories, with the semantics of LangChain's ``filter_messages`` and
``merge_message_runs`` (roles in place of message types).

Tool calls may be in ``Message.tool_calls`` or ``ToolCallBlock``s of an assistant message's
content; results may be tool messages or ``ToolResultBlock``s (in a user message): both shapes
are handled wherever tool calls matter.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import replace

from .blocks import Block, TextBlock, ToolCallBlock, ToolResultBlock
from .call_order import calls_in_order, split_calls
from .message import Message, normalize_role


def filter_messages(
    messages: Iterable[Message],
    *,
    include_roles: Collection[str] | str | None = None,
    exclude_roles: Collection[str] | str | None = None,
    include_names: Collection[str] | str | None = None,
    exclude_names: Collection[str] | str | None = None,
    include_ids: Collection[str] | str | None = None,
    exclude_ids: Collection[str] | str | None = None,
    exclude_tool_calls: Collection[str] | bool | None = None,
) -> list[Message]:
    """The messages that meet none of the ``exclude_*`` conditions and, when any
    ``include_*`` is given, at least one of them.

    Roles accept aliases (``"human"``, ``"ai"``...). ``exclude_*`` apply first, then
    ``exclude_tool_calls``, then the includes:

    - ``exclude_tool_calls=True`` drops every assistant message that calls a tool, every tool
      message, and the ``ToolResultBlock``s of other messages (a message left with no content
      goes);
    - a collection of call ids drops the tool messages answering them and their
      ``ToolResultBlock``s, and removes those calls from assistant messages (from
      ``tool_calls``, ``invalid_tool_calls`` and ``ToolCallBlock`` content); an assistant
      message left with no call at all goes, as in LangChain, even if it has text.
    """
    inc_roles = _roles(include_roles)
    exc_roles = _roles(exclude_roles)
    inc_names, exc_names = _as_set(include_names), _as_set(exclude_names)
    inc_ids, exc_ids = _as_set(include_ids), _as_set(exclude_ids)
    drop_all_calls = exclude_tool_calls is True
    drop_calls = (
        None
        if isinstance(exclude_tool_calls, bool) or exclude_tool_calls is None
        else _as_set(exclude_tool_calls)
    )
    any_include = bool(inc_roles or inc_names or inc_ids)
    out: list[Message] = []
    for msg in messages:
        if (
            (exc_names and msg.name in exc_names)
            or (exc_roles and msg.role in exc_roles)
            or (exc_ids and msg.id in exc_ids)
        ):
            continue
        new: Message | None = msg
        if drop_all_calls:
            new = _without_any_calls(msg)
        elif drop_calls is not None:
            new = _without_calls(msg, drop_calls)
        if new is None:
            continue
        if (
            not any_include
            or (inc_names and new.name in inc_names)
            or (inc_roles and new.role in inc_roles)
            or (inc_ids and new.id in inc_ids)
        ):
            out.append(new)
    return out


def _roles(spec: Collection[str] | str | None) -> frozenset[str]:
    if not spec:
        return frozenset()
    if isinstance(spec, str):
        return frozenset({normalize_role(spec)})
    return frozenset(normalize_role(r) for r in spec)


def _as_set(values: Collection[str] | str | None) -> frozenset[str]:
    # A lone string means that one value, not its characters.
    if not values:
        return frozenset()
    if isinstance(values, str):
        return frozenset({values})
    return frozenset(values)


def _has_calls(msg: Message) -> bool:
    if msg.tool_calls or msg.invalid_tool_calls:
        return True
    content = msg.content
    return type(content) is tuple and any(type(b) is ToolCallBlock for b in content)


def _without_any_calls(msg: Message) -> Message | None:
    """``msg`` with no tool call or result left, or None when the message goes."""
    if msg.role == "tool" or (msg.role == "assistant" and _has_calls(msg)):
        return None
    return _without_result_blocks(msg, None)


def _without_result_blocks(msg: Message, ids: frozenset[str] | None) -> Message | None:
    """``msg`` without its ``ToolResultBlock``s (those answering ``ids``, or all)."""
    content = msg.content
    if type(content) is str or not any(type(b) is ToolResultBlock for b in content):
        return msg
    kept = tuple(
        b
        for b in content
        if type(b) is not ToolResultBlock or (ids is not None and b.tool_call_id not in ids)
    )
    if len(kept) == len(content):
        return msg
    return replace(msg, content=kept) if kept else None


def _without_calls(msg: Message, ids: frozenset[str]) -> Message | None:
    """``msg`` without the tool calls and results whose id is in ``ids``; None if it goes."""
    if msg.role == "tool":
        return None if msg.tool_call_id in ids else msg
    if msg.role != "assistant" or not _has_calls(msg):
        return _without_result_blocks(msg, ids)
    calls = tuple(c for c in msg.tool_calls if c.id not in ids)
    invalid = tuple(c for c in msg.invalid_tool_calls if c.id not in ids)
    content = msg.content
    if type(content) is tuple:
        content = tuple(b for b in content if type(b) is not ToolCallBlock or b.id not in ids)
    left = (
        calls
        or invalid
        or (type(content) is tuple and any(type(b) is ToolCallBlock for b in content))
    )
    if not left:
        return None
    if (
        len(calls) == len(msg.tool_calls)
        and len(invalid) == len(msg.invalid_tool_calls)
        and len(content) == len(msg.content)
    ):
        return msg
    return replace(msg, content=content, tool_calls=calls, invalid_tool_calls=invalid)


def merge_runs(messages: Iterable[Message], *, separator: str = "\n") -> list[Message]:
    """Merge each run of consecutive messages of one role into one message.

    As LangChain's ``merge_message_runs``: tool messages never merge; two string contents are
    joined with ``separator`` when both are non-empty; string and block content give blocks
    (the string as a ``TextBlock``, empty strings left out); tool calls and invalid tool calls
    are concatenated, usage summed; the first message's id (the first that has one),
    ``response_metadata`` and ``metadata`` are kept. msgviewer also keeps the first name
    (LangChain drops names) and concatenates artifacts.
    """
    out: list[Message] = []
    run: list[Message] = []
    for msg in messages:
        if run and (msg.role != run[0].role or msg.role == "tool"):
            out.append(_merge(run, separator))
            run = []
        run.append(msg)
    if run:
        out.append(_merge(run, separator))
    return out


def _merge(run: list[Message], separator: str) -> Message:
    """One message from a run of same-role messages."""
    first = run[0]
    if len(run) == 1:
        return first
    content = _merge_content([m.content for m in run], separator)
    usages = [m.usage for m in run if m.usage is not None]
    tool_calls, invalid = split_calls(c for m in run for c in calls_in_order(m))
    return replace(
        first,
        content=content,
        id=next((m.id for m in run if m.id is not None), None),
        name=next((m.name for m in run if m.name is not None), None),
        tool_calls=tool_calls,
        invalid_tool_calls=invalid,
        usage=sum(usages[1:], usages[0]) if usages else None,
        artifacts=tuple(a for m in run for a in m.artifacts),
    )


def _merge_content(contents: list[str | tuple[Block, ...]], separator: str) -> str | tuple:
    """Contents folded left to right by LangChain's rules, in linear time."""
    parts: list[str] = []  # the string so far, while every content has been a string
    nonempty = False
    blocks: list[Block] | None = None
    for content in contents:
        if blocks is None:
            if type(content) is str:
                if nonempty and content:
                    parts.append(separator)
                parts.append(content)
                nonempty = nonempty or bool(content)
            else:
                text = "".join(parts)
                blocks = [TextBlock(text)] if text else []
                blocks.extend(content)
        elif type(content) is str:
            # LangChain appends the string to the list (or glues it to a string element);
            # a separate block keeps the two texts apart and counts the same.
            if content:
                blocks.append(TextBlock(content))
        else:
            blocks.extend(content)
    return "".join(parts) if blocks is None else tuple(blocks)


__all__ = ["filter_messages", "merge_runs"]
