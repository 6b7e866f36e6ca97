"""Writing conversations as a Markdown transcript: headings, fences and code spans that text
from the file cannot break out of, links only for plain ``http(s)`` URLs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from ...core.blocks import (
    Block,
    CitationBlock,
    ErrorBlock,
    ReasoningBlock,
    ServerToolCallBlock,
    ServerToolResultBlock,
    TextBlock,
    ToolCallBlock,
    ToolCallChunkBlock,
    ToolResultBlock,
    UnknownBlock,
)
from ...core.call_order import calls_in_order
from ...core.errors import FormatError
from ...core.message import Message, ToolCall
from ...core.serialize import block_to_dict, usage_from_dict
from ...core.usage import Usage
from ..base import Context, Conversation, message_where

FORMAT_NAME = "markdown"

_BACKTICKS = re.compile(r"`+")
_FENCE_LINE = re.compile(r"^ {0,3}(`{3,}|~{3,})", re.MULTILINE)
_DATA_URI = re.compile(r"data:([\w.+-]+/[\w.+-]+)?(;[\w=.-]+)*;base64,[A-Za-z0-9+/=\s]+")
_BASE64 = re.compile(r"[A-Za-z0-9+/_-]{200,}={0,2}")
_SAFE_URL = re.compile(r"https?://[^\s<>`]+")
_MEDIA = frozenset({"image", "audio", "video", "file"})


# -- safe pieces ----------------------------------------------------------------------------


def fence(text: str, info: str = "") -> str:
    """``text`` in a fenced code block no line of it can close."""
    longest = max((len(m) for m in _BACKTICKS.findall(text)), default=0)
    ticks = "`" * max(3, longest + 1)
    body = text[:-1] if text.endswith("\n") else text
    return f"{ticks}{info}\n{body}\n{ticks}"


def code_span(text: str) -> str:
    """``text`` as inline code that no backtick inside can end early (one line)."""
    text = " ".join(text.splitlines())
    longest = max((len(m) for m in _BACKTICKS.findall(text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith(("`", " ")) or text.endswith(("`", " ")) else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _omit_data(text: str) -> str:
    """Text with inline base64 data URIs replaced by a short note."""

    def note(m: re.Match[str]) -> str:
        return f"[{m.group(1) or 'inline'} data, {len(m.group(0))} characters, not shown]"

    return _DATA_URI.sub(note, text) if "base64," in text else text


def _scrub(value: Any) -> Any:
    """A JSON value with inline data (data URIs, long base64 strings) replaced by notes."""
    if isinstance(value, str):
        if _BASE64.fullmatch(value):
            return f"[{len(value)} characters of base64, not shown]"
        return _omit_data(value)
    if isinstance(value, dict):
        return {k: _scrub(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_scrub(v) for v in value]
    return value


def _json_fence(value: Any) -> str:
    text = json.dumps(_scrub(value), indent=2, ensure_ascii=False, default=str)
    return fence(text, "json")


def _result_fence(text: str) -> str:
    """A tool result: pretty JSON when it is a JSON object or array, else text."""
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        try:
            return _json_fence(json.loads(stripped))
        except ValueError:
            pass
    return fence(_omit_data(text), "text")


def _link(url: str | None, label: str) -> str:
    if url and _SAFE_URL.fullmatch(url):
        return f"[{label}](<{url}>)"
    return f"{label} {code_span(url)}" if url else label


# -- transcript -----------------------------------------------------------------------------


class _Transcript:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.lost: dict[str, str] = {}

    def lossy(self, what: str, i: int, b: int | None = None) -> None:
        self.lost.setdefault(what, message_where(i, b))

    def conversation(self, conv: Conversation, n: int) -> str:
        title = " ".join((conv.title or f"Conversation {n + 1}").splitlines())
        parts = [f"# {title}"]
        about = []
        model = conv.metadata.get("model")
        if isinstance(model, str):
            about.append(f"model {code_span(model)}")
        about.append(f"format {code_span(conv.format)}")
        about.append(f"{len(conv.messages)} messages")
        parts.append(f"*{' · '.join(about)}*")
        parts.extend(_conversation_usage(conv.metadata.get("usage")))
        for i, msg in enumerate(conv.messages):
            parts.append(self.message(msg, i))
        for what, where in self.lost.items():
            self.ctx.lossy(what, where)
        self.lost = {}
        return "\n\n".join(parts)

    def message(self, msg: Message, i: int) -> str:
        heading = {"system": "System", "user": "User", "assistant": "Assistant"}.get(msg.role)
        bits = [heading or "Tool result"]
        if msg.name:
            bits.append(code_span(msg.name))
        if msg.model:
            bits.append(code_span(msg.model))
        if msg.role == "tool" and msg.tool_call_id:
            bits.append(f"call {code_span(msg.tool_call_id)}")
        if msg.is_error:
            bits.append("**error**")
        parts = [f"## {' · '.join(bits)}"]
        if msg.role == "tool":
            parts.append(self.result_content(msg.content, i))
        else:
            parts.extend(self.blocks(msg.blocks, i))
        for call in calls_in_order(msg):
            if type(call) is ToolCall:
                parts.append(self.call("Tool call", call.name, call.id, call.args))
                continue
            head = f"**Invalid tool call** {code_span(call.name or '?')}"
            said = [head]
            if call.error and "\n" not in call.error:
                said[0] += f" · {code_span(call.error)}"
            elif call.error:  # (Inspect's, holding the text over several lines)
                said.append(fence(call.error, "text"))
            if call.args is not None:  # (none kept: Inspect's error holds it)
                said.append(fence(_omit_data(call.args), "text"))
            parts.append("\n\n".join(said))
        if msg.usage is not None:
            parts.append(usage_line(msg.usage))
        if msg.metadata or msg.artifacts:
            self.lossy("message metadata and artifacts", i)
        return "\n\n".join(parts)

    def call(self, label: str, name: str, call_id: str | None, args: Any) -> str:
        head = f"**{label}** {code_span(name)}"
        if call_id:
            head += f" · id {code_span(call_id)}"
        return f"{head}\n\n{_json_fence(args)}"

    def result_content(self, content: str | tuple[Block, ...], i: int) -> str:
        if isinstance(content, str):
            return _result_fence(content)
        texts = [b.text for b in content if type(b) is TextBlock]
        others = [(b, block) for b, block in enumerate(content) if type(block) is not TextBlock]
        parts = [_result_fence("".join(texts))] if texts or not others else []
        for b, block in others:
            parts.append(self.block(block, i, b))
        return "\n\n".join(parts)

    def blocks(self, blocks: tuple[Block, ...], i: int) -> list[str]:
        return [self.block(block, i, b) for b, block in enumerate(blocks)]

    def block(self, block: Block, i: int, b: int) -> str:
        kind = type(block)
        if kind is TextBlock:
            return self.text(block)
        if kind is ReasoningBlock:
            return self.reasoning(block, i, b)
        if block.type in _MEDIA:
            return self.media(block, i, b)
        if kind is ToolCallBlock:
            return self.call("Tool call", block.name, block.id, block.args)
        if kind is ServerToolCallBlock:
            return self.call("Server tool call", block.name, block.id, block.args)
        if kind is ToolResultBlock:
            head = f"**Tool result** for {code_span(block.tool_call_id or '?')}"
            if block.is_error:
                head += " · **error**"
            return f"{head}\n\n{self.result_content(block.content, i)}"
        if kind is ServerToolResultBlock:
            head = f"**Server tool result** for {code_span(block.tool_call_id or '?')}"
            return f"{head}\n\n{_json_fence(block.content)}"
        if kind is ToolCallChunkBlock:
            head = f"**Tool call fragment** {code_span(block.name or '?')}"
            return f"{head}\n\n{fence(block.args or '', 'text')}"
        if kind is ErrorBlock:
            code = f" {code_span(block.code)}" if block.code else ""
            return f"**Error**{code}\n\n{fence(_omit_data(block.message), 'text')}"
        if kind is CitationBlock:
            return self.citation(block)
        if kind is UnknownBlock:
            return f"**{code_span(block.kind)} block**\n\n{_json_fence(block.data)}"
        return f"**{code_span(block.type)} block**\n\n{_json_fence(block_to_dict(block))}"

    def text(self, block: TextBlock) -> str:
        text = _omit_data(block.text)
        if len(_FENCE_LINE.findall(text)) % 2:
            text = fence(text, "text")  # an unclosed fence would swallow the rest
        cites = [self.citation(c) for c in block.citations]
        return "\n\n".join([text, *cites]) if cites else text

    def citation(self, c: CitationBlock) -> str:
        title = " ".join((c.title or "source").splitlines())
        line = f"- {_link(c.url, 'source')}: {code_span(title)}"
        if c.cited_text:
            line += f" — {code_span(c.cited_text)}"
        return line

    def reasoning(self, block: ReasoningBlock, i: int, b: int) -> str:
        lines = ["**Reasoning**" + (" (redacted)" if block.redacted else "")]
        if block.text:
            lines += ["", *block.text.splitlines()]
        if block.data is not None:
            lines += ["", f"*[{len(block.data)} characters of opaque reasoning data, not shown]*"]
            self.lossy("opaque reasoning data", i, b)
        if block.signature is not None:
            self.lossy("reasoning signatures", i, b)
        return "\n".join(f"> {line}" if line else ">" for line in lines)

    def media(self, block: Any, i: int, b: int) -> str:
        label = block.type
        name = f" {code_span(block.filename)}" if block.filename else ""
        if block.url and _SAFE_URL.fullmatch(block.url):
            link = f"[{label}](<{block.url}>)"
            return f"!{link}{name}" if block.type == "image" else f"{link}{name}"
        if block.data is not None:
            self.lossy("inline media data", i, b)
            size = block.decoded_size or 0
            mime = block.mime_type or "unknown type"
            return f"*[{label}{name}: {mime}, {size:,} bytes inline, not shown]*"
        if block.file_id is not None:
            return f"*[{label}{name}: provider file {code_span(block.file_id)}]*"
        if block.url:
            return f"*[{label}{name}: {code_span(_omit_data(block.url))}]*"
        return f"*[{label}{name}]*"


def _conversation_usage(usage: Any) -> list[str]:
    """Usage by model kept on the conversation (Inspect logs), one line each."""
    if not isinstance(usage, dict):
        return []
    lines = []
    for model, counts in usage.items():
        try:
            line = usage_line(usage_from_dict(counts))
        except FormatError:
            continue
        lines.append(f"{line[: -len('</sub>')]} · {code_span(str(model))}</sub>")
    return lines


def usage_line(usage: Usage) -> str:
    """A short line of token counts: input (cache), output (reasoning)."""
    inp = f"{usage.input_tokens:,} in"
    cache = []
    if usage.cache_read_tokens:
        cache.append(f"{usage.cache_read_tokens:,} cache read")
    if usage.cache_write_tokens:
        cache.append(f"{usage.cache_write_tokens:,} cache write")
    if cache:
        inp += f" ({', '.join(cache)})"
    out = f"{usage.output_tokens:,} out"
    if usage.reasoning_tokens:
        out += f" ({usage.reasoning_tokens:,} reasoning)"
    return f"<sub>tokens: {inp} · {out}</sub>"


def write(conversations: Sequence[Conversation], ctx: Context) -> bytes:
    """The transcript of each conversation, separated by rules."""
    transcript = _Transcript(ctx)
    pages = [transcript.conversation(c, n) for n, c in enumerate(conversations)]
    return ("\n\n---\n\n".join(pages) + "\n").encode()
