"""The JSON path of a tree node in its file's own structure (headless): what ``yp`` copies.

``$.messages[3].content[1]`` for a block in an OpenAI or Anthropic request body,
``$.contents[2].parts[0]`` in Gemini's, ``$[41].message.content[0]`` in a Claude Code JSONL
file (``$[N]`` is line N + 1). The path is found by writing the conversation twice in its
format, up to the node and up to just before it, and walking the two JSON values to where
they differ: whatever a format does with messages (a system prompt apart, results merged into
one user turn, a record a line), the writer knows and the walk follows it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import orjson

from ...core.json_numbers import loads_whole
from ...core.message import Message
from ...formats import Conversation, dumps, get_format
from .rows import ARTIFACT, BLOCK, CALL, CONV, INVALID, LINE, MORE, MSG, Row

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_MISSING = object()


class PathError(Exception):
    """Why a node has no path to copy (its format cannot be written, say)."""


def node_path(convs: list[Conversation], row: Row) -> str:
    """The JSON path of ``row``'s node in the file ``convs`` (the file's conversations, in
    order) are written to."""
    kind, c, m, i = row[0], row[1], row[2], row[3]
    conv = convs[c]
    name = conv.format
    try:
        fmt = get_format(name)
    except Exception as exc:
        raise PathError(str(exc)) from None
    if not fmt.can_write:
        raise PathError(f"the {name} format can be read but not written: no path to give")
    if kind == CONV:
        return "$" if len(convs) == 1 else f"$[{c}]"
    before = conv.messages[:m]
    message = conv.messages[m]
    if kind == MSG:
        shorter, longer = before, (*before, message)
    else:
        short, full = _cut(message, kind, i)
        shorter, longer = (*before, short), (*before, full)
    a = written(convs, c, shorter, name)
    b = written(convs, c, longer, name)
    return _where(a, b, "$", last=kind != MSG)


def _cut(message: Message, kind: int, i: int) -> tuple[Message, Message]:
    """The message with its part ``i`` of that kind left out, and with it (the parts after
    it left out of both)."""
    if kind in (BLOCK, LINE, MORE):
        blocks = message.blocks
        return (
            replace(message, content=tuple(blocks[:i])),
            replace(message, content=blocks[: i + 1]),
        )
    if kind == CALL:
        calls = message.tool_calls
        return (replace(message, tool_calls=calls[:i]), replace(message, tool_calls=calls[: i + 1]))
    if kind == INVALID:
        calls = message.invalid_tool_calls
        return (
            replace(message, invalid_tool_calls=calls[:i]),
            replace(message, invalid_tool_calls=calls[: i + 1]),
        )
    if kind == ARTIFACT:
        items = message.artifacts
        return (replace(message, artifacts=items[:i]), replace(message, artifacts=items[: i + 1]))
    return message, message


def written(convs: list[Conversation], c: int, messages: tuple[Message, ...], name: str) -> Any:
    conv = replace(convs[c], messages=messages)
    payload: Any = conv if len(convs) == 1 else [*convs[:c], conv]
    data = dumps(payload, format=name)
    try:
        return loads_whole(data)  # (as the reader read the arguments: long integers exactly)
    except orjson.JSONDecodeError:  # JSONL: the records, one a line
        return [loads_whole(line) for line in data.splitlines() if line.strip()]


def key_step(key: str) -> str:
    return f".{key}" if _NAME.match(key) else f"[{orjson.dumps(key).decode()}]"


def _where(a: Any, b: Any, path: str, *, last: bool = False) -> str:
    """The path of what ``b`` has that ``a`` has not: the deepest place they differ.

    ``last``: the node is the last part of its message (the parts after it are cut from
    both), so where ``b`` holds several new records (Claude Code writes a message a block a
    line, the message's stop fields on its last line) the node is the last of them.
    """
    if isinstance(a, dict) and isinstance(b, dict):
        keys = [k for k in {**a, **b} if a.get(k, _MISSING) != b.get(k, _MISSING)]
        if len(keys) != 1:
            return path
        key = keys[0]
        if key not in a:  # a new member; a list holding just the new node names the node
            value = b[key]
            one = isinstance(value, list) and len(value) == 1
            return path + key_step(key) + ("[0]" if one else "")
        if key not in b:
            return path + key_step(key)
        return _where(a[key], b[key], path + key_step(key), last=last)
    if isinstance(a, list) and isinstance(b, list):
        same = 0
        while same < min(len(a), len(b)) and a[same] == b[same]:
            same += 1
        if len(b) == len(a) + 1 and a[same:] == b[same + 1 :]:
            return f"{path}[{same}]"  # one item more: the node itself
        if len(b) > len(a):  # several (a message written as several records)
            if not last:
                return f"{path}[{same}]"  # the message: its first record
            tail = 0  # (the conversations after this one, in a file of several)
            while tail < len(a) - same and a[len(a) - 1 - tail] == b[len(b) - 1 - tail]:
                tail += 1
            return f"{path}[{len(b) - 1 - tail}]"
        if len(b) == len(a) and same < len(a) and a[same + 1 :] == b[same + 1 :]:
            return _where(a[same], b[same], f"{path}[{same}]", last=last)
        return path
    return path
