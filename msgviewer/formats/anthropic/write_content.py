"""msgviewer messages -> Anthropic Messages content on the wire.

Shared by the ``anthropic`` and ``claude-code`` writers. Blocks that came from Anthropic
content (``trusted``) keep every ``extra`` field; blocks from other formats keep only the
fields Anthropic knows, and the rest is reported as lost.
"""

from __future__ import annotations

from typing import Any

from ...core.blocks import (
    Block,
    CitationBlock,
    FileBlock,
    ImageBlock,
    ReasoningBlock,
    ServerToolCallBlock,
    ServerToolResultBlock,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
    UnknownBlock,
)
from ...core.call_order import calls_in_order
from ...core.message import InvalidToolCall, Message, ToolCall
from ...core.usage import Usage
from ..shared.provider import CONTENT_INDEX, SYNTHETIC_ID, Losses, interleave_calls
from .read_content import CITATION_FIELDS, ORIGIN, SERVER_CALL_TYPES, text_of_base64

IMAGE_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})
_INTERNAL_KEYS = frozenset({CONTENT_INDEX, SYNTHETIC_ID})
# Block fields Anthropic knows, written even for blocks that came from another format. Not
# ``caller``: Anthropic's names one of its own server tools (a code execution block's id), and
# another format's caller (a Responses program's call id, say) has another shape and meaning.
_KNOWN_FIELDS = frozenset(
    {"cache_control", "citations", "context", "title", "toolset_name", "source"}
)


class AnthropicWriter:
    """Writes blocks and messages; ``trusted`` when they were read from Anthropic content."""

    def __init__(self, losses: Losses, *, trusted: bool, keep_nulls: bool = True) -> None:
        self.losses = losses
        self.trusted = trusted
        self.keep_nulls = keep_nulls
        """Write kept fields whose value is null (else they are reported and left out)."""

    def _extra(self, out: dict[str, Any], extra: dict[str, Any], where: str) -> dict[str, Any]:
        """``out`` with the ``extra`` fields added after it; the written fields win."""
        for k, v in extra.items():
            if k in _INTERNAL_KEYS:
                continue
            if v is None and not self.keep_nulls:
                self.losses.add(f"block field {k!r} (null)", where)
            elif k in out:
                if out[k] != v:
                    self.losses.add(f"block field {k!r} (it would replace a written one)", where)
            elif self.trusted or k in _KNOWN_FIELDS:
                out[k] = v
            else:
                self.losses.add(f"block field {k!r}", where)
        return out

    # -- blocks ---------------------------------------------------------------------------

    def block(self, b: Block, where: str) -> dict[str, Any] | None:
        """One block on the wire, or None (reported) when Anthropic has no place for it."""
        t = type(b)
        if t is TextBlock:
            out = self._extra({"type": "text", "text": b.text}, b.extra, where)
            if b.citations:
                cites = [c for c in (self.citation(c, where) for c in b.citations) if c]
                if cites:
                    out["citations"] = cites
            return out
        if t is ImageBlock or t is FileBlock:
            return self._media(b, where)
        if t is ReasoningBlock:
            return self._reasoning(b, where)
        if t is ToolCallBlock:
            return self.tool_use(b, where)
        if t is ToolResultBlock:
            return self.tool_result(b.tool_call_id, b.content, b.is_error, b.extra, where)
        if t is ServerToolCallBlock or t is ServerToolResultBlock:
            return self._server(b, where)
        if is_verbatim(b):
            return b.data  # type: ignore[union-attr]
        self.losses.add(f"{b.type} block" if t is not UnknownBlock else f"{b.kind!r} block", where)
        return None

    def _server(
        self, b: ServerToolCallBlock | ServerToolResultBlock, where: str
    ) -> dict[str, Any] | None:
        kind = b.extra.get("type")  # the wire type of a server block read from Anthropic
        if isinstance(kind, str):
            if type(b) is ServerToolCallBlock and kind in SERVER_CALL_TYPES and b.id is not None:
                return {**b.extra, "id": b.id, "name": b.name, "input": b.args}
            if (
                type(b) is ServerToolResultBlock
                and kind.endswith("_tool_result")
                and b.tool_call_id is not None
            ):
                return {**b.extra, "tool_use_id": b.tool_call_id, "content": b.content}
        self.losses.add(f"{b.type} block without an Anthropic type and id", where)
        return None

    def citation(self, c: CitationBlock, where: str) -> dict[str, Any] | None:
        kind = c.extra.get("type")
        known = CITATION_FIELDS.get(kind) if isinstance(kind, str) else None
        if known is None and not (self.trusted and isinstance(kind, str)):
            self.losses.add("citation without an Anthropic location", where)
            return None
        # A location type this version does not know, read from Anthropic content: its fields
        # are all in extra (only cited_text is common), so it goes back as it came.
        out = dict(c.extra)
        if c.cited_text is not None:
            out["cited_text"] = c.cited_text
        for key, name in (known or {}).items():
            v = getattr(c, name)
            if v is not None:
                out[key] = v
        if known is None and any(v is not None for v in (c.url, c.title, c.start, c.end)):
            self.losses.add(f"fields of a {kind!r} citation", where)
        return out

    def _media(self, b: ImageBlock | FileBlock, where: str) -> dict[str, Any] | None:
        extra = dict(b.extra)
        source: dict[str, Any] = dict(extra.pop("source", None) or {})
        kind = source.get("type")
        is_image = type(b) is ImageBlock
        if kind == "content":
            pass
        elif b.data is not None:
            if kind == "text" or (not is_image and (b.mime_type or "").startswith("text/")):
                text = text_of_base64(b.data)
                if text is None:
                    self.losses.add("document text that is not UTF-8", where)
                    return None
                source.update(type="text", media_type=b.mime_type or "text/plain", data=text)
            elif (is_image and b.mime_type in IMAGE_TYPES) or (
                not is_image and b.mime_type == "application/pdf"
            ):
                source.update(type="base64", media_type=b.mime_type, data=b.data)
            else:
                self.losses.add(f"inline {b.mime_type or 'untyped'} {b.type}", where)
                return None
        elif b.url is not None:
            source.update(type="url", url=b.url)
        elif b.file_id is not None:
            source.update(type="file", file_id=b.file_id)
        else:
            self.losses.add(f"{b.type} without data, url or file id", where)
            return None
        out = {"type": "image" if is_image else "document", "source": source}
        self._extra(out, extra, where)
        if not is_image and b.filename is not None:
            out["title"] = b.filename
        elif is_image and b.filename is not None:
            self.losses.add("image filename", where)
        return out

    def _reasoning(self, b: ReasoningBlock, where: str) -> dict[str, Any] | None:
        if b.redacted:
            if b.data is None:
                self.losses.add("redacted reasoning without its data", where)
                return None
            return self._extra({"type": "redacted_thinking", "data": b.data}, b.extra, where)
        if b.signature is None and not self.trusted:
            # Anthropic refuses thinking it did not sign: another provider's reasoning has no place
            self.losses.add("reasoning without an Anthropic signature", where)
            return None
        if b.data is not None:
            self.losses.add("opaque reasoning data", where)
        out: dict[str, Any] = {"type": "thinking", "thinking": b.text}
        if b.signature is not None:
            out["signature"] = b.signature
        return self._extra(out, b.extra, where)

    def tool_use(self, c: ToolCall | ToolCallBlock, where: str) -> dict[str, Any]:
        out = {"type": "tool_use", "id": c.id, "name": c.name, "input": c.args}
        return self._extra(out, c.extra, where)

    def tool_result(
        self,
        call_id: str | None,
        content: str | tuple[Block, ...],
        is_error: bool,
        extra: dict[str, Any],
        where: str,
    ) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id}
        if isinstance(content, str):
            out["content"] = content
        elif content:
            out["content"] = [x for x in (self.block(b, where) for b in content) if x]
        if is_error:
            out["is_error"] = True
        self._extra(out, extra, where)
        if not is_error and out.get("is_error") is True:  # an extra saying otherwise
            del out["is_error"]
            self.losses.add("block field 'is_error' (it would replace a written one)", where)
        return out

    # -- messages -------------------------------------------------------------------------

    def content(self, m: Message, where: str) -> str | list[dict[str, Any]]:
        """A message's content on the wire: its blocks, tool calls, or a tool message's result."""
        if m.role == "tool":
            extra: dict[str, Any] = {}
            return [self.tool_result(m.tool_call_id, m.content, m.is_error, extra, where)]
        if isinstance(m.content, str) and not m.tool_calls and not m.invalid_tool_calls:
            return m.content
        blocks: list[dict[str, Any]] = []
        if isinstance(m.content, str):
            if m.content:
                blocks.append({"type": "text", "text": m.content})
        else:
            for k, b in enumerate(m.content):
                wire = self.block(b, f"{where}, block {k}")
                if wire is not None:
                    blocks.append(wire)
        calls: list[tuple[ToolCall, Any]] = []
        for c in calls_in_order(m):
            if type(c) is not ToolCall:
                c = _as_call(c)
                self.losses.add("unparsable tool call arguments (written as {})", where)
            calls.append((c, self.tool_use(c, where)))
        return interleave_calls(blocks, calls)


def is_verbatim(b: Block) -> bool:
    """An unknown block read from Anthropic content: its data is a wire block, kept as is."""
    return (
        type(b) is UnknownBlock
        and b.extra.get("format") == ORIGIN["format"]
        and isinstance(b.data, dict)
    )


def _as_call(bad: InvalidToolCall) -> ToolCall:
    return ToolCall(bad.id, bad.name or "unknown", {})


def write_usage(u: Usage) -> dict[str, Any]:
    """Anthropic usage: the raw dict when it still matches the counts, else rebuilt."""
    raw = u.extra
    if isinstance(raw, dict) and "output_tokens" in raw:
        try:
            inp = sum(
                int(raw.get(k) or 0)
                for k in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
            )
            if inp == u.input_tokens and int(raw.get("output_tokens") or 0) == u.output_tokens:
                return raw
        except (TypeError, ValueError):
            pass
    out: dict[str, Any] = {
        "input_tokens": max(0, u.input_tokens - u.cache_read_tokens - u.cache_write_tokens),
        "output_tokens": u.output_tokens,
    }
    if u.cache_write_tokens:
        out["cache_creation_input_tokens"] = u.cache_write_tokens
    if u.cache_read_tokens:
        out["cache_read_input_tokens"] = u.cache_read_tokens
    return out


def merge_turns(turns: list[tuple[str, Any]]) -> list[dict[str, Any]]:
    """Wire messages from (role, content) turns: consecutive same-role turns become one, and
    in a user turn the tool results come first."""
    out: list[dict[str, Any]] = []
    merged = False  # the last turn's content is a list made here: extend it in place (a new
    # list per merged turn was quadratic in the tool results of one turn)
    for role, content in turns:
        if out and out[-1]["role"] == role:
            prev = out[-1]
            if merged:
                prev["content"].extend(_as_blocks(content))
            else:
                prev["content"] = _as_blocks(prev["content"]) + _as_blocks(content)
                merged = True
        else:
            out.append({"role": role, "content": content})
            merged = False
    for msg in out:
        content = msg["content"]
        if msg["role"] == "user" and isinstance(content, list):
            results = [b for b in content if b.get("type") == "tool_result"]
            if results and len(results) != len(content):
                msg["content"] = results + [b for b in content if b.get("type") != "tool_result"]
    return out


def _as_blocks(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    return list(content)
