"""msgviewer messages and blocks -> Inspect AI ``ChatMessage`` dicts and content items (the
inverse of ``read_messages``; attachments put back where the log had them).
"""

from __future__ import annotations

from typing import Any

from ...core.blocks import (
    AudioBlock,
    Block,
    CitationBlock,
    FileBlock,
    ImageBlock,
    ReasoningBlock,
    ServerToolCallBlock,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
    UnknownBlock,
    VideoBlock,
)
from ...core.call_order import calls_in_order
from ...core.message import InvalidToolCall, Message, ToolCall
from ..base import Context, add_kept, message_where
from ..io import json_bytes, loads_exactly
from .read_messages import ATTACHMENT

# The fields Inspect's content items, tool calls and citations define (inspect_ai 0.3): extra
# fields of blocks read from other formats are written only when Inspect has a place for them.
_ITEM_FIELDS = {
    "text": {"internal", "refusal", "citations", "cache_breakpoint"},
    "reasoning": {"internal", "summary", "signature", "redacted"},
    "image": {"internal", "detail"},
    "audio": {"internal", "format"},
    "video": {"internal", "format"},
    "data": {"internal"},
    "tool_use": {"internal", "tool_type", "id", "name", "context", "arguments", "result", "error"},
    "document": {"internal", "filename", "mime_type", "citations"},
}
_CALL_FIELDS = {"parse_error", "view"}
_CALL_TYPES = {"function": "function", "custom": "custom", "custom_tool_call": "custom"}
_CITATION_FIELDS = {"cited_text", "title", "internal", "type", "url", "range"}
_CITATION_TYPES = {"content", "document", "url"}
# Marks msgviewer's readers put on values (an id made up, a call's place among blocks).
_MARKS = {"synthetic_id", "content_index"}
_AUDIO_FORMATS = {"audio/wav": "wav", "audio/x-wav": "wav", "audio/mpeg": "mp3", "audio/mp3": "mp3"}
_VIDEO_FORMATS = {"video/mp4": "mp4", "video/mpeg": "mpeg", "video/quicktime": "mov"}


class Writer:
    """Writes messages as Inspect ``ChatMessage`` dicts.

    ``native`` says the conversation was read from an Inspect log: its metadata then holds
    Inspect's own message fields, written back at the top level of each message. Fields of
    other formats go into the message's ``metadata`` object instead, so nothing is lost.
    """

    def __init__(
        self,
        ctx: Context,
        *,
        native: bool,
        attachments: Any = None,
        referenced: Any = None,
    ) -> None:
        """``referenced``: the attachment keys the sample's messages referred to when read;
        text equal to one of those attachments is written as that reference again (other text,
        the events' attachments among it, is written inline as the log had it)."""
        self.ctx = ctx
        self.native = native
        self.condense: dict[str, str] = {}
        if native and isinstance(attachments, dict) and isinstance(referenced, list):
            self.condense = {
                attachments[k]: ATTACHMENT + k
                for k in referenced
                if isinstance(k, str) and isinstance(attachments.get(k), str)
            }

    def text(self, text: str) -> str:
        return self.condense.get(text, text) if self.condense else text

    def messages(self, messages: tuple[Message, ...]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for i, msg in enumerate(messages):
            out.extend(self.message(msg, i))
        return out

    def message(self, msg: Message, i: int) -> list[dict[str, Any]]:
        """One message as one Inspect message, or several when tool results sit in content."""
        ctx = self.ctx
        results = [b for b in msg.blocks if type(b) is ToolResultBlock]
        calls = [b for b in msg.blocks if type(b) is ToolCallBlock]
        blocks = msg.content
        if (results or calls) and isinstance(blocks, tuple):
            blocks = tuple(b for b in blocks if type(b) not in (ToolResultBlock, ToolCallBlock))
        before = [self.result_block(b, i) for b in results]
        if results and not blocks:
            return before  # a user turn that only carried tool results
        out: dict[str, Any] = {}
        if msg.id is not None:
            out["id"] = msg.id
        out["content"] = self.content(blocks, i)
        extra_meta: dict[str, Any] = {}
        if self.native:
            # Inspect's own fields; the role-specific ones set below take precedence.
            for key, v in msg.metadata.items():
                if key not in out and key != "role":
                    out[key] = v
        else:
            extra_meta.update(msg.metadata)
        if msg.name is not None and msg.role != "tool":
            extra_meta["name"] = msg.name
        response = {
            k: v for k, v in msg.response_metadata.items() if k not in ("model", "model_name")
        }
        if response:
            extra_meta["response_metadata"] = response
        if msg.artifacts:
            ctx.lossy("tool artifacts", message_where(i))
        if extra_meta:
            if self.native:
                ctx.lossy(f"message fields {', '.join(sorted(extra_meta))}", message_where(i))
            else:
                own = out.get("metadata")
                out["metadata"] = {**own, **extra_meta} if isinstance(own, dict) else extra_meta
        out["role"] = msg.role
        if msg.role == "assistant":
            self.assistant_fields(out, msg, calls, i)
        elif msg.role == "tool":
            self.tool_fields(out, msg, i)
        elif msg.tool_calls or calls:
            ctx.lossy(f"tool calls on a {msg.role} message", message_where(i))
        return [*before, out]

    def assistant_fields(
        self, out: dict[str, Any], msg: Message, blocks: list[ToolCallBlock], i: int
    ) -> None:
        calls = [
            self.tool_call(c.id, c.name, c.args, c.extra, i)
            if type(c) is ToolCall
            else self.invalid_call(c, i)
            for c in calls_in_order(msg)
        ]
        calls += [self.tool_call(b.id, b.name, b.args, b.extra, i) for b in blocks]
        if calls:
            out["tool_calls"] = calls
        model = msg.model
        if model is not None:
            out["model"] = model

    def tool_call(
        self, call_id: str | None, name: str, args: dict[str, Any], extra: dict[str, Any], i: int
    ) -> dict[str, Any]:
        extra = self.own_call_fields(extra, i)
        raw = extra.get("arguments")
        keep_raw = isinstance(raw, str) and _parses_to(raw, args)
        out: dict[str, Any] = {
            "id": call_id,
            "function": name,
            "arguments": raw if keep_raw else args,
        }
        out.update((k, v) for k, v in extra.items() if k not in ("id", "function", "arguments"))
        if not args and isinstance(out.get("parse_error"), str):
            out["parse_error"] = None  # (a repaired call: with its error, it reads back unparsable)
        return out

    def invalid_call(self, bad: InvalidToolCall, i: int) -> dict[str, Any]:
        out: dict[str, Any] = {"id": bad.id, "function": bad.name or ""}
        if self.native and bad.args is not None:
            out["arguments"] = bad.args  # read from this very log as text: give it back
        else:
            out["arguments"] = {}
            if bad.args:
                self.ctx.lossy("the raw text of unparsable tool arguments", message_where(i))
        out.update((k, v) for k, v in self.own_call_fields(bad.extra, i).items() if k not in out)
        if bad.error is not None and "parse_error" not in out:
            out["parse_error"] = bad.error
        return out

    def own_call_fields(self, extra: dict[str, Any], i: int) -> dict[str, Any]:
        """A call's extra fields that go into an Inspect tool call: all of them for a call
        read from an Inspect log; otherwise those Inspect defines (a Responses custom tool
        call becoming a ``custom`` one), the rest reported as not carried."""
        if self.native:
            return extra
        kept: dict[str, Any] = {}
        for key, value in extra.items():
            if key == "type":
                if isinstance(value, str) and value in _CALL_TYPES:  # (extra may hold anything)
                    kept[key] = _CALL_TYPES[value]
                else:
                    self.ctx.lossy(f"the tool call type {value!r}", message_where(i))
            elif key in _CALL_FIELDS or key == "arguments":
                kept[key] = value
            elif key not in _MARKS:
                self.ctx.lossy(f"tool call field {key!r}", message_where(i))
        return kept

    def tool_fields(self, out: dict[str, Any], msg: Message, i: int) -> None:
        out["tool_call_id"] = msg.tool_call_id
        if msg.name is not None or "function" not in out:
            out["function"] = msg.name
        error = msg.metadata.get("error") if self.native else None
        if msg.is_error:
            out["error"] = error if error is not None else {"type": "unknown", "message": msg.text}
        elif error is not None:
            out.pop("error", None)  # the flag was cleared: the error goes with it

    def result_block(self, block: ToolResultBlock, i: int) -> dict[str, Any]:
        """A tool result from a user message's content, as its own tool message."""
        out: dict[str, Any] = {
            "content": self.content(block.content, i),
            "role": "tool",
            "tool_call_id": block.tool_call_id,
            "function": block.extra.get("name")
            if isinstance(block.extra.get("name"), str)
            else None,
        }
        if block.is_error:
            text = block.content if isinstance(block.content, str) else ""
            out["error"] = {"type": "unknown", "message": text}
        return out

    # -- content ----------------------------------------------------------------------

    def content(self, content: str | tuple[Block, ...], i: int) -> str | list[dict[str, Any]]:
        if isinstance(content, str):
            return self.text(content)
        items: list[dict[str, Any]] = []
        for b, block in enumerate(content):
            item = self.block(block, i, b)
            if item is not None:
                items.append(item)
        return items

    def block(self, block: Block, i: int, b: int) -> dict[str, Any] | None:
        kind = type(block)
        if kind is TextBlock:
            out: dict[str, Any] = {"type": "text", "text": self.text(block.text)}
            self._add(out, block.extra, i, b)
            if block.citations:
                out["citations"] = [self.citation(c, i, b) for c in block.citations]
            return out
        if kind is ReasoningBlock:
            return self.reasoning(block, i, b)
        if kind in (ImageBlock, AudioBlock, VideoBlock, FileBlock):
            return self.media(block, i, b)
        if kind is ServerToolCallBlock and "tool_type" in block.extra:
            raw = block.extra.get("arguments")
            out = {"type": "tool_use", "id": block.id, "name": block.name}
            self._add(out, block.extra, i, b)
            if not (isinstance(raw, str) and _parses_to(raw, block.args)):
                out["arguments"] = json_bytes(block.args).decode()
            return out
        if kind is UnknownBlock and self.native:
            data = block.data
            if isinstance(data, dict) and isinstance(data.get("type"), str):
                return data  # a content item read from a log, as it was
            # Anything else rides in a data item (Inspect's place for opaque provider data).
            return {"type": "data", "data": {"kind": block.kind, "value": data}}
        self.ctx.lossy(f"{block.type} block", message_where(i, b))
        return None

    def _add(self, out: dict[str, Any], extra: dict[str, Any], i: int, b: int) -> None:
        """The ``extra`` fields after ``out``'s own; a written field is never replaced. For
        a block read from another format, only the fields Inspect's item defines."""
        where = message_where(i, b)
        if not self.native:
            extra = self.own_item_fields(out["type"], extra, where)
        add_kept(out, extra, lambda what: self.ctx.lossy(what, where))

    def own_item_fields(self, kind: str, extra: dict[str, Any], where: str) -> dict[str, Any]:
        known = _ITEM_FIELDS.get(kind, set())
        kept = {}
        for key, value in extra.items():
            if key in known and not (key == "citations" and not isinstance(value, list)):
                kept[key] = value
            elif key not in _MARKS:
                self.ctx.lossy(f"{kind} field {key!r}", where)
        return kept

    def reasoning(self, block: ReasoningBlock, i: int, b: int) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "reasoning"}
        if block.redacted or block.data is not None:
            out["reasoning"] = self.text(block.data or "")
            if block.text:
                out["summary"] = block.text
            out["redacted"] = True
        else:
            out["reasoning"] = self.text(block.text)
        if block.signature is not None:
            out["signature"] = block.signature
        extra = block.extra
        if not self.native:
            extra = self.own_item_fields("reasoning", extra, message_where(i, b))
        out.update((k, v) for k, v in extra.items() if k not in out)
        return out

    def media(self, block: Any, i: int, b: int) -> dict[str, Any] | None:
        source = block.data_uri if block.data is not None else block.url
        if source is None:
            self.ctx.lossy(f"a {block.type} given only by provider file id", message_where(i, b))
            return None
        kind = {"image": "image", "audio": "audio", "video": "video", "file": "document"}[
            block.type
        ]
        out: dict[str, Any] = {"type": kind, kind: self.text(source)}
        if kind == "audio" and "format" not in block.extra:
            out["format"] = _AUDIO_FORMATS.get(block.mime_type or "", "wav")
        elif kind == "video" and "format" not in block.extra:
            out["format"] = _VIDEO_FORMATS.get(block.mime_type or "", "mp4")
        elif kind == "document":
            if block.filename is not None:
                out["filename"] = block.filename
            if block.mime_type is not None:
                out["mime_type"] = block.mime_type
        elif block.filename is not None:
            self.ctx.lossy(f"the file name of a {block.type}", message_where(i, b))
        self._add(out, block.extra, i, b)
        return out

    def citation(self, c: CitationBlock, i: int, b: int) -> dict[str, Any]:
        """An Inspect citation: from a log, as it was; from another format (an Anthropic
        location, say), a ``url`` or ``content`` citation with the fields Inspect defines."""
        out: dict[str, Any] = dict(c.extra)
        if not self.native:
            if out.get("type") not in _CITATION_TYPES:
                out.pop("type", None)
            lost = sorted(k for k in out if k not in _CITATION_FIELDS)
            if lost:
                self.ctx.lossy(f"citation fields {', '.join(lost)}", message_where(i, b))
            out = {k: v for k, v in out.items() if k in _CITATION_FIELDS}
        return _citation(c, out)


def _citation(c: CitationBlock, out: dict[str, Any]) -> dict[str, Any]:
    out.setdefault("type", "url" if c.url else "content")
    for key in ("url", "title", "cited_text"):
        value = getattr(c, key)
        if value is not None:
            out[key] = value
    return out


def _parses_to(raw: str, args: Any) -> bool:
    try:
        return loads_exactly(raw) == args
    except ValueError:
        return False
