"""A readable plain-text rendering of a history, in the style of LangChain's ``pretty_repr``.

Each message gets a title line (``=== User Message ===`` centred in 80 columns), its name,
its content, then its tool calls with their arguments. Blocks other than text are summarised
on one line (``[image: image/png, 12.0 KB inline]``); inline base64 data is never printed,
nor are long base64-looking strings inside arguments or unknown blocks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from .blocks import (
    AudioBlock,
    Block,
    CitationBlock,
    ErrorBlock,
    FileBlock,
    ImageBlock,
    ReasoningBlock,
    ServerToolCallBlock,
    ServerToolResultBlock,
    TextBlock,
    ToolCallBlock,
    ToolCallChunkBlock,
    ToolResultBlock,
    UnknownBlock,
    VideoBlock,
)
from .message import Message

_WIDTH = 80
_LONG = 200
_BASE64 = re.compile(r"[A-Za-z0-9+/=_-]{64,}")


def pretty_print(messages: Iterable[Message]) -> str:
    """The messages as readable text, one titled section per message (returns the string)."""
    return "\n\n".join(_message(m) for m in messages)


def title_line(title: str) -> str:
    """``title`` centred in a line of ``=`` 80 columns wide, as LangChain draws it."""
    padded = f" {title} "
    side = (_WIDTH - len(padded)) // 2
    return "=" * side + padded + "=" * (side + len(padded) % 2)


def _message(message: Message) -> str:
    head = [title_line(f"{message.role.title()} Message")]
    if message.name is not None:
        head.append(f"Name: {message.name}")
    if message.role == "tool" and message.tool_call_id is not None:
        head.append(f"Call ID: {message.tool_call_id}")
    if message.is_error:
        head.append("Status: error")
    body = _content(message.content)
    lines: list[str] = []
    if message.tool_calls:
        lines.append("Tool Calls:")
        for call in message.tool_calls:
            lines.extend(_call(call.name, call.id, call.args))
    if message.invalid_tool_calls:
        lines.append("Invalid Tool Calls:")
        for bad in message.invalid_tool_calls:
            lines.extend(_call(bad.name, bad.id, bad.args, error=bad.error))
    text = "\n".join(head) + "\n\n" + body
    if lines:
        text = text.rstrip() + "\n" + "\n".join(lines)
    return text.rstrip()


def _call(name: str | None, call_id: str | None, args: Any, error: str | None = None) -> list[str]:
    """A tool call the way LangChain lists it: name (id), call id, args one per line."""
    lines = [f"  {name or 'Tool'} ({call_id})", f" Call ID: {call_id}"]
    if error:
        lines.append(f"  Error: {error}")
    lines.append("  Args:")
    if isinstance(args, dict):
        lines.extend(f"    {key}: {_safe(value)}" for key, value in args.items())
    elif args is not None:
        lines.append(f"    {_safe(args)}")
    return lines


def _content(content: str | tuple[Block, ...]) -> str:
    if type(content) is str:
        return content
    return "\n".join(_block(b) for b in content)


def _block(block: Block) -> str:
    """One block as text: text as itself, anything else as a short bracketed summary."""
    kind = type(block)
    if kind is TextBlock:
        lines = [block.text]
        lines.extend(f"  {_citation(c)}" for c in block.citations)
        return "\n".join(lines)
    if kind in (ImageBlock, AudioBlock, VideoBlock, FileBlock):
        return _media(block)  # type: ignore[arg-type]
    if kind is ReasoningBlock:
        return _reasoning(block)  # type: ignore[arg-type]
    if kind is ToolCallBlock:
        return "\n".join(["[tool call]", *_call(block.name, block.id, block.args)])
    if kind is ServerToolCallBlock:
        return "\n".join(["[server tool call]", *_call(block.name, block.id, block.args)])
    if kind is ToolCallChunkBlock:
        return (
            f"[tool call chunk #{block.index}] {block.name or ''} ({block.id}): "
            f"{_safe(block.args or '')}"
        )
    if kind is ToolResultBlock:
        status = ", error" if block.is_error else ""
        inner = _content(block.content)
        return f"[tool result for {block.tool_call_id}{status}]\n" + _indent(inner)
    if kind is ServerToolResultBlock:
        status = f", {block.status}" if block.status else ""
        return (
            f"[server tool result for {block.tool_call_id}{status}] {_safe(block.content, _LONG)}"
        )
    if kind is CitationBlock:
        return _citation(block)  # type: ignore[arg-type]
    if kind is ErrorBlock:
        code = f" {block.code}" if block.code else ""
        return f"[error{code}] {block.message}"
    if kind is UnknownBlock:
        return f"[{block.kind}] {_safe(block.data, _LONG)}"
    return f"[{getattr(block, 'type', kind.__name__)}]"


def _media(block: ImageBlock | AudioBlock | VideoBlock | FileBlock) -> str:
    facts: list[str] = []
    if block.mime_type:
        facts.append(block.mime_type)
    if block.filename:
        facts.append(block.filename)
    if block.data is not None:
        facts.append(f"{_size(block.decoded_size or 0)} inline")
    if block.url:
        facts.append(_safe(block.url))
    if block.file_id:
        facts.append(f"file {block.file_id}")
    return f"[{block.type}: {', '.join(facts)}]" if facts else f"[{block.type}]"


def _reasoning(block: ReasoningBlock) -> str:
    if block.redacted:
        size = f", {len(block.data)} chars of opaque data" if block.data else ""
        return f"[reasoning: redacted{size}]"
    head = "[reasoning]" if block.data is None else "[reasoning, with encrypted data]"
    return f"{head}\n{_indent(block.text)}" if block.text else head


def _citation(citation: CitationBlock) -> str:
    parts = [p for p in (citation.title, f"<{citation.url}>" if citation.url else None) if p]
    text = f"[citation: {' '.join(parts)}]" if parts else "[citation]"
    if citation.cited_text:
        text += f' "{_shorten(citation.cited_text)}"'
    return text


def _indent(text: str) -> str:
    return "\n".join(f"  {line}" for line in text.split("\n"))


def _size(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / (1024 * 1024):.1f} MB"


def _shorten(text: str, limit: int | None = _LONG) -> str:
    """Base64-looking strings replaced by their length; others cut at ``limit`` characters."""
    if len(text) >= 64 and _BASE64.fullmatch(text) and _looks_random(text):
        return f"<{len(text)} chars of base64>"
    if text.startswith("data:") and ";base64," in text[:100]:
        return f"<data URI, {len(text)} chars>"
    if limit is not None and len(text) > limit:
        return f"{text[:limit]}… ({len(text)} chars)"
    return text


def _looks_random(text: str) -> bool:
    # Encoded binary mixes upper case, lower case and digits; a long word or hex digest does not.
    return (
        any(c.isupper() for c in text)
        and any(c.islower() for c in text)
        and any(c.isdigit() for c in text)
    )


def _scrub(value: Any, limit: int | None) -> Any:
    if isinstance(value, str):
        return _shorten(value, limit)
    if isinstance(value, dict):
        return {k: _scrub(v, limit) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_scrub(v, limit) for v in value]
    return value


def _safe(value: Any, limit: int | None = None) -> str:
    """``value`` as display text, base64 inside it elided and strings cut at ``limit``."""
    scrubbed = _scrub(value, limit)
    return scrubbed if isinstance(scrubbed, str) else str(scrubbed)


__all__ = ["pretty_print", "title_line"]
