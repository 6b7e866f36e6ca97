"""``msgviewer print``: a conversation as a readable transcript for the terminal.

One renderer produces (style, text) segments; plain output joins the text, colour output hands
the segments to rich as ``Text`` (never as markup), so content is shown exactly as it is.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import orjson

from ..core.blocks import (
    CitationBlock,
    ErrorBlock,
    ReasoningBlock,
    ServerToolCallBlock,
    ServerToolResultBlock,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
    UnknownBlock,
)
from ..core.message import Message
from ..core.safetext import visible
from ..formats import Conversation
from ..formats.io import json_bytes

Segment = tuple[str, str]  # (rich style, text)

ROLE_STYLES = {
    "system": "bold magenta",
    "user": "bold green",
    "assistant": "bold cyan",
    "tool": "bold yellow",
}
_PREVIEW = 2000  # characters of any one JSON value shown before it is cut


def _json(value: Any) -> str:
    try:
        text = orjson.dumps(value, option=orjson.OPT_INDENT_2, default=str).decode()
    except TypeError:  # an integer past 64 bits, which orjson does not write
        text = json_bytes(value, pretty=True).decode().rstrip("\n")
    if len(text) > _PREVIEW:
        text = text[:_PREVIEW] + f"\n… ({len(text) - _PREVIEW:,} more characters)"
    return text


def _indent(text: str, prefix: str = "  ") -> str:
    return "\n".join(prefix + line for line in visible(text).split("\n"))


def _media(block: Any) -> str:
    parts = [block.type]
    if block.mime_type:
        parts.append(block.mime_type)
    if block.data is not None:
        parts.append(f"{block.decoded_size:,} bytes inline")
    if block.url:
        parts.append(block.url)
    if block.file_id:
        parts.append(f"file {block.file_id}")
    if block.filename:
        parts.append(block.filename)
    return "[" + ", ".join(visible(p) for p in parts) + "]"


def _block(block: Any) -> Iterator[Segment]:
    if isinstance(block, TextBlock):
        yield "", visible(block.text) + "\n"
        for c in block.citations:
            yield "dim", f"  [cite: {visible(c.title or c.url or c.cited_text or '?')}]\n"
    elif isinstance(block, ReasoningBlock):
        flags = [
            f
            for f, on in (
                ("signed", block.signature),
                ("redacted", block.redacted),
                ("encrypted", block.data and not block.redacted),
            )
            if on
        ]
        yield "italic dim", f"reasoning{' (' + ', '.join(flags) + ')' if flags else ''}\n"
        if block.text:
            yield "italic dim", _indent(block.text, "  │ ") + "\n"
    elif isinstance(block, (ToolCallBlock, ServerToolCallBlock)):
        kind = "server tool call" if isinstance(block, ServerToolCallBlock) else "tool call"
        yield "bold", f"→ {kind} {visible(block.name)}"
        yield "dim", f"  id={visible(str(block.id))}\n"
        yield "", _indent(_json(block.args)) + "\n"
    elif isinstance(block, (ToolResultBlock, ServerToolResultBlock)):
        error = getattr(block, "is_error", False)
        yield ("bold red" if error else "bold"), f"← result{' (error)' if error else ''}"
        yield "dim", f"  for {visible(str(block.tool_call_id))}\n"
        content = block.content
        if isinstance(content, str):
            yield "", _indent(content) + "\n"
        elif isinstance(content, tuple):
            for inner in content:
                for style, text in _block(inner):
                    yield style, _indent(text.rstrip("\n")) + "\n"
        else:
            yield "", _indent(_json(content)) + "\n"
    elif isinstance(block, ErrorBlock):
        yield "bold red", f"error{' ' + visible(block.code) if block.code else ''}: "
        yield "red", visible(block.message) + "\n"
    elif isinstance(block, UnknownBlock):
        yield "dim", f"[unknown block {visible(block.kind)}]\n"
        yield "dim", _indent(_json(block.data)) + "\n"
    elif isinstance(block, CitationBlock):
        yield "dim", f"[cite: {visible(block.title or block.url or '?')}]\n"
    elif block.type in ("image", "audio", "video", "file"):
        yield "blue", _media(block) + "\n"
    else:
        yield "dim", f"[{visible(block.type)}]\n"


def _header(index: int, m: Message) -> Iterator[Segment]:
    yield ROLE_STYLES.get(m.role, "bold"), f"── #{index} {m.role}"
    details = []
    if m.name:
        details.append(m.name)
    if m.model:
        details.append(m.model)
    if m.tool_call_id:
        details.append(f"answers {m.tool_call_id}")
    if m.is_error:
        details.append("error")
    if m.usage is not None:
        details.append(f"{m.usage.input_tokens:,} in / {m.usage.output_tokens:,} out")
    if details:
        yield "dim", "  " + visible("  ·  ".join(details))
    yield "", "\n"


def segments(conversations: Sequence[Conversation]) -> Iterator[Segment]:
    """The transcript of ``conversations`` as styled segments."""
    for ci, conv in enumerate(conversations):
        if len(conversations) > 1:
            title = f"  {conv.title}" if conv.title else ""
            yield "bold reverse", f" conversation {ci + 1}{visible(title)} "
            yield "", "\n\n"
        for i, m in enumerate(conv.messages):
            yield from _header(i, m)
            for block in m.blocks:
                yield from _block(block)
            for call in m.tool_calls:
                yield from _block(ToolCallBlock(call.id, call.name, call.args))
            for bad in m.invalid_tool_calls:
                yield "bold red", f"→ invalid tool call {visible(str(bad.name))}: "
                yield "red", visible(str(bad.error)) + "\n"
                if bad.args is not None:  # (Inspect keeps none: its error quotes the text)
                    yield "", _indent(bad.args) + "\n"
            yield "", "\n"


def print_transcript(conversations: Sequence[Conversation], *, colour: bool) -> None:
    """Write the transcript to stdout, in colour or as plain text."""
    print_segments(segments(conversations), colour=colour)


def print_segments(segments: Iterable[Segment], *, colour: bool) -> None:
    """Write (rich style, text) segments to stdout, in colour or as plain text."""
    if not colour:
        out = sys.stdout
        for _, text in segments:
            out.write(text)
        out.flush()
        return
    from rich.console import Console
    from rich.text import Text

    # force_terminal: colour was asked for (``--color always``), even into a pipe or a pager.
    console = Console(
        highlight=False, markup=False, emoji=False, soft_wrap=True, force_terminal=True
    )
    text = Text()
    for style, chunk in segments:
        text.append(chunk, style=style or None)
    console.print(text, end="")
