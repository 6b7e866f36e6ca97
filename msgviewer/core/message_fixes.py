"""The repairs of lint's fixes that act on whole messages: drop, reorder, merge, and put a
user message first. Each takes the target messages by identity (see ``fixes``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from typing import Any

from .blocks import Block, TextBlock
from .call_order import calls_in_order, split_calls
from .message import Message

START_PLACEHOLDER = "[start of conversation]"
"""Content of the user message a fix puts before a history that starts with the assistant."""


def find_messages(messages: Sequence[Message], targets: Collection[Any]) -> set[int]:
    """Indices of the target messages, by identity: a message replaced since lint ran is not
    this problem's any more (lint again)."""
    wanted = {id(t) for t in targets if isinstance(t, Message)}
    return {i for i, m in enumerate(messages) if id(m) in wanted}


def drop_messages(messages: list[Message], targets: Collection[Any]) -> list[Message]:
    """Remove these messages."""
    where = find_messages(messages, targets)
    return [m for i, m in enumerate(messages) if i not in where]


def move_system_first(messages: list[Message], targets: Collection[Any]) -> list[Message]:
    """Move these system messages to the end of the leading run of system messages."""
    where = {i for i in find_messages(messages, targets) if messages[i].role == "system"}
    lead = 0
    while lead < len(messages) and messages[lead].role == "system":
        lead += 1
    moved = [messages[i] for i in sorted(where) if i >= lead]
    rest = [m for i, m in enumerate(messages) if i >= lead and i not in where]
    return [*messages[:lead], *moved, *rest]


def merge_message(a: Message, b: Message) -> Message:
    """``b`` appended to ``a``: contents joined (strings by a newline), tool calls
    concatenated, usage summed; ``a``'s id and metadata kept."""
    if type(a.content) is str and type(b.content) is str:
        content: str | tuple[Block, ...] = (
            f"{a.content}\n{b.content}" if a.content and b.content else a.content + b.content
        )
    else:
        content = (*a.blocks, *b.blocks)
    if a.usage is not None and b.usage is not None:
        usage = a.usage + b.usage
    else:
        usage = a.usage or b.usage
    tool_calls, invalid = split_calls((*calls_in_order(a), *calls_in_order(b)))
    return dataclasses.replace(
        a,
        content=content,
        tool_calls=tool_calls,
        invalid_tool_calls=invalid,
        usage=usage,
        artifacts=(*a.artifacts, *b.artifacts),
    )


def merge_run(run: Sequence[Message]) -> Message:
    """``merge_message`` folded over ``run`` (its first message first), in one pass: merging
    one at a time copies the growing content again for each message of the run."""
    first = run[0]
    if len(run) == 1:
        return first
    texts: list[str] | None = [first.content] if type(first.content) is str else None  # type: ignore[list-item]
    blocks: list[Block] = [] if texts is not None else list(first.content)
    usage = first.usage
    calls = calls_in_order(first)
    artifacts = list(first.artifacts)
    for m in run[1:]:
        content = m.content
        if texts is not None and type(content) is str:
            texts.append(content)
        else:
            if texts is not None:  # the text so far becomes blocks, as ``Message.blocks`` does
                joined = "\n".join(t for t in texts if t)
                blocks = [TextBlock(joined)] if joined else []
                texts = None
            blocks.extend(m.blocks)
        if usage is not None and m.usage is not None:
            usage = usage + m.usage
        else:
            usage = usage or m.usage
        calls.extend(calls_in_order(m))
        artifacts.extend(m.artifacts)
    tool_calls, invalid = split_calls(calls)
    return dataclasses.replace(
        first,
        content="\n".join(t for t in texts if t) if texts is not None else tuple(blocks),
        tool_calls=tool_calls,
        invalid_tool_calls=invalid,
        usage=usage,
        artifacts=tuple(artifacts),
    )


def merge_into_previous(messages: list[Message], targets: Collection[Any]) -> list[Message]:
    """Merge each of these messages into the message before it when both have its role."""
    where = find_messages(messages, targets)
    runs: list[list[Message]] = []
    for i, m in enumerate(messages):
        if i in where and runs and runs[-1][0].role == m.role and m.role in ("user", "assistant"):
            runs[-1].append(m)
        else:
            runs.append([m])
    return [merge_run(run) for run in runs]


def start_with_user(messages: list[Message], targets: Collection[Any]) -> list[Message]:
    """Put a short user message before the first non-system message if that is not a user's."""
    for i, m in enumerate(messages):
        if m.role == "system":
            continue
        if m.role == "user":
            return list(messages)
        return [*messages[:i], Message.user(START_PLACEHOLDER), *messages[i:]]
    return list(messages)
