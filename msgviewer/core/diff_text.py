"""A diff as text segments, for the command line and the app alike.

Each piece is ``(style, text)``: a style name the front end maps to colour (``removed``,
``added``, ``changed``, ``path``, ``dim``, or ``""``) and text with every character from a file
made visible (``safetext``), so it can be printed, or put in a rich ``Text``, as it is.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import orjson

from .diff_details import Detail
from .message import Message
from .safetext import one_line, visible

Segment = tuple[str, str]
"""(style name, text)."""

VALUE_WIDTH = 200  # characters of a value shown on a detail line before it is cut


def summary(message: Message) -> str:
    """A message in a few words: its text, else its tool calls, else its kinds of block."""
    if message.text.strip():
        return message.text
    calls = [c.name for c in message.tool_calls]
    calls += [b.name for b in message.blocks if b.type == "tool_call"]  # type: ignore[attr-defined]
    if calls:
        return "calls " + ", ".join(calls)
    return f"({', '.join(b.type for b in message.blocks) or 'empty'})"


def detail_segments(d: Detail, indent: str = "  ") -> Iterator[Segment]:
    """One detail: its path, then the words removed and added, or the two values."""
    yield "path", f"{indent}{visible(d.path)}: "
    if d.words:
        for op, text in d.words:
            shown = visible(text).replace("\n", "\n" + indent * 2)  # a text's lines under it
            if op == "=":
                yield "", shown
            elif op == "-":
                yield "removed", f"[-{shown}-]"
            else:
                yield "added", f"{{+{shown}+}}"
        yield "", "\n"
        return
    yield "removed", value_text(d.a)
    yield "", " -> "
    yield "added", value_text(d.b)
    if d.delta is not None:
        yield "dim", f" ({d.delta:+,})"
    yield "", "\n"


def value_text(value: Any) -> str:
    """A value on one line: JSON, cut to a readable length, its characters visible."""
    if value is None:
        return "(none)"
    try:
        text = orjson.dumps(value).decode()
    except TypeError:  # an integer past 64 bits, which orjson does not write
        text = json.dumps(value, ensure_ascii=False, default=str)
    return one_line(text, VALUE_WIDTH)
