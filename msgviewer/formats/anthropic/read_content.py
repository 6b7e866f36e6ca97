"""Anthropic Messages content on the wire -> msgviewer blocks, tool calls and usage.

Shared by the ``anthropic`` and ``claude-code`` readers. Every field the model does not name
stays in the block's ``extra`` (``cache_control``, a document's ``context``...), and a mapped
field whose value the model cannot hold exactly (a null title, ``is_error: false``) stays there
verbatim too, so writing the same format gives back the same JSON.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from ...core._frozen import builder
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
from ...core.message import ToolCall
from ...core.usage import Usage
from ..base import Context
from ..shared.json_checks import json_type
from ..shared.provider import place_tool_calls

ORIGIN = {"format": "anthropic"}
"""``extra`` of an ``UnknownBlock`` read from Anthropic content: its ``data`` is a wire block."""

CITATION_FIELDS: dict[str, dict[str, str]] = {
    "char_location": {
        "document_title": "title",
        "start_char_index": "start",
        "end_char_index": "end",
    },
    "page_location": {
        "document_title": "title",
        "start_page_number": "start",
        "end_page_number": "end",
    },
    "content_block_location": {
        "document_title": "title",
        "start_block_index": "start",
        "end_block_index": "end",
    },
    "web_search_result_location": {"url": "url", "title": "title"},
    "search_result_location": {
        "source": "url",
        "title": "title",
        "start_block_index": "start",
        "end_block_index": "end",
    },
}
"""Wire key -> ``CitationBlock`` field, per citation type (``cited_text`` is common)."""

KNOWN_UNMODELLED = frozenset({"search_result", "container_upload", "tool_reference"})
"""Anthropic block types kept as ``UnknownBlock`` without a warning: known, not modelled."""

SERVER_CALL_TYPES = frozenset({"server_tool_use", "mcp_tool_use"})

_CITATION_FIELD_TYPES = {"url": str, "title": str, "cited_text": str, "start": int, "end": int}

# Builders for the blocks of the common path in ``content`` (values already canonical).
_text = builder(TextBlock)
_reasoning = builder(ReasoningBlock)
_tool_call = builder(ToolCall)
_tool_call_block = builder(ToolCallBlock)
_tool_result = builder(ToolResultBlock)
_usage = builder(Usage)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class AnthropicReader:
    """Reads content blocks; ``record`` is the JSONL record errors point at (claude-code)."""

    def __init__(self, ctx: Context, record: int | None = None) -> None:
        self.ctx = ctx
        self.record = record
        # Equal strings repeated block after block made one object (less memory, same values):
        # tool names, and a result's call id, which is the id of the call it answers.
        self.names: dict[str, str] = {}
        self.pending: dict[str, str] = {}
        """Ids of the calls read and not yet answered (each taken out by its result)."""

    def error(self, what: str, path: str) -> Exception:
        return self.ctx.error(what, path, record=self.record)

    def _str(self, d: dict[str, Any], key: str, path: str, *, optional: bool = False) -> Any:
        v = d.get(key)
        if v is None and optional:
            return None
        if not isinstance(v, str):
            what = "missing" if key not in d else f"must be a string, not {type(v).__name__}"
            raise self.error(f"{key!r} {what}", f"{path}.{key}")
        return v

    # -- messages -------------------------------------------------------------------------

    def content(
        self, content: Any, path: str, *, calls_out: bool
    ) -> tuple[str | tuple[Block, ...], tuple[ToolCall, ...]]:
        """A message's content, and (when ``calls_out``) its ``tool_use`` blocks as calls."""
        if isinstance(content, str):
            return content, ()
        if content is None:
            return "", ()
        if not isinstance(content, list):
            raise self.error(
                f"content must be a string or an array of blocks, not {type(content).__name__}",
                path,
            )
        blocks: list[Block] = []
        calls: list[tuple[int, ToolCall]] = []
        for i, raw in enumerate(content):
            block = _plain_block(raw, calls_out, self)
            if block is None:
                block = self.block(raw, f"{path}[{i}]")
                if calls_out and type(block) is ToolCallBlock:
                    block = ToolCall(block.id, block.name, block.args, extra=block.extra)
            if type(block) is ToolCall:
                calls.append((i, block))
            else:
                blocks.append(block)
        return tuple(blocks), place_tool_calls(content, calls) if calls else ()

    # -- blocks ---------------------------------------------------------------------------

    def block(self, d: Any, path: str) -> Block:
        """One wire content block."""
        if not isinstance(d, dict):
            raise self.error(f"a content block must be an object, not {type(d).__name__}", path)
        kind = d.get("type")
        if not isinstance(kind, str):
            raise self.error('a content block needs a string "type"', f"{path}.type")
        method = getattr(self, f"_b_{kind}", None)
        if method is not None:
            return method(d, path)
        if kind in SERVER_CALL_TYPES:
            return self._server_call(d, path)
        if kind.endswith("_tool_result"):
            return self._server_result(d, path)
        if kind not in KNOWN_UNMODELLED:
            self.ctx.warn(
                f"unknown content block type {kind!r} kept as is", path, record=self.record
            )
        return UnknownBlock(kind, d, extra=dict(ORIGIN))

    def _b_text(self, d: dict[str, Any], path: str) -> Block:
        text = self._str(d, "text", path)
        extra = {k: v for k, v in d.items() if k not in ("type", "text", "citations")}
        raw = d.get("citations")
        citations: tuple[CitationBlock, ...] = ()
        if isinstance(raw, list) and raw:
            citations = tuple(self.citation(c, f"{path}.citations[{i}]") for i, c in enumerate(raw))
        elif "citations" in d:
            if raw is not None and not isinstance(raw, list):
                raise self.error("citations must be an array", f"{path}.citations")
            extra["citations"] = raw
        return TextBlock(text, citations, extra=extra)

    def citation(self, c: Any, path: str) -> CitationBlock:
        """One citation of a text block."""
        if not isinstance(c, dict) or not isinstance(c.get("type"), str):
            raise self.error('a citation must be an object with a string "type"', path)
        mapping = {"cited_text": "cited_text", **CITATION_FIELDS.get(c["type"], {})}
        fields: dict[str, Any] = {}
        extra: dict[str, Any] = {}
        for key, v in c.items():
            name = mapping.get(key)
            ok = name is not None and (
                _is_int(v) if _CITATION_FIELD_TYPES[name] is int else isinstance(v, str)
            )
            if ok:
                fields[name] = v  # type: ignore[index]
            else:
                extra[key] = v  # the type, unmapped keys, and nulls, verbatim
        return CitationBlock(**fields, extra=extra)

    def _source(self, d: dict[str, Any], path: str) -> dict[str, Any]:
        source = d.get("source")
        if not isinstance(source, dict) or not isinstance(source.get("type"), str):
            raise self.error('"source" must be an object with a string "type"', f"{path}.source")
        return source

    def _media(self, d: dict[str, Any], path: str, cls: type) -> Block:
        source = self._source(d, path)
        spath = f"{path}.source"
        kind = source["type"]
        extra = {k: v for k, v in d.items() if k not in ("type", "source")}
        fields: dict[str, Any] = {}
        used = {"type"}
        if kind == "base64":
            fields["data"] = self._str(source, "data", spath)
            fields["mime_type"] = self._str(source, "media_type", spath, optional=True)
            used |= {"data", "media_type"}
        elif kind == "url":
            fields["url"] = self._str(source, "url", spath)
            used.add("url")
        elif kind == "file":
            fields["file_id"] = self._str(source, "file_id", spath)
            used.add("file_id")
        elif kind == "text" and cls is FileBlock:
            # plain text kept base64 like every other inline data; decoded again on write
            text = self._str(source, "data", spath)
            fields["data"] = base64.b64encode(text.encode()).decode()
            fields["mime_type"] = self._str(source, "media_type", spath, optional=True)
            used = {"data", "media_type"}
        elif kind == "content" and cls is FileBlock:
            used = set()
        else:
            self.ctx.warn(f"unknown {d['type']} source type {kind!r} kept as is", spath)
            return UnknownBlock(d["type"], d, extra=dict(ORIGIN))
        if fields.get("mime_type") is None:
            fields.pop("mime_type", None)
            used.discard("media_type")
        rest = {k: v for k, v in source.items() if k not in used}
        if rest:
            extra["source"] = rest
        if cls is FileBlock and isinstance(extra.get("title"), str):
            fields["filename"] = extra.pop("title")
        return cls(**fields, extra=extra)

    def _b_image(self, d: dict[str, Any], path: str) -> Block:
        return self._media(d, path, ImageBlock)

    def _b_document(self, d: dict[str, Any], path: str) -> Block:
        return self._media(d, path, FileBlock)

    def _b_thinking(self, d: dict[str, Any], path: str) -> Block:
        text = self._str(d, "thinking", path)
        signature = self._str(d, "signature", path, optional=True)
        extra = {k: v for k, v in d.items() if k not in ("type", "thinking", "signature")}
        if signature is None and "signature" in d:
            extra["signature"] = None
        return ReasoningBlock(text, signature, extra=extra)

    def _b_redacted_thinking(self, d: dict[str, Any], path: str) -> Block:
        data = self._str(d, "data", path)
        extra = {k: v for k, v in d.items() if k not in ("type", "data")}
        return ReasoningBlock(redacted=True, data=data, extra=extra)

    def _b_tool_use(self, d: dict[str, Any], path: str) -> Block:
        id_ = self._str(d, "id", path)
        name = self._str(d, "name", path)
        args = d.get("input")
        if not isinstance(args, dict):
            raise self.error("tool_use input must be an object", f"{path}.input")
        extra = {k: v for k, v in d.items() if k not in ("type", "id", "name", "input")}
        return ToolCallBlock(id_, name, args, extra=extra)

    def _b_tool_result(self, d: dict[str, Any], path: str) -> Block:
        id_ = self._str(d, "tool_use_id", path)
        extra = {k: v for k, v in d.items() if k not in ("type", "tool_use_id", "content")}
        is_error = extra.get("is_error") is True
        if is_error:
            del extra["is_error"]
        raw = d.get("content", ())
        if isinstance(raw, str):
            content: str | tuple[Block, ...] = raw
        elif isinstance(raw, (list, tuple)):
            content = tuple(self.block(b, f"{path}.content[{i}]") for i, b in enumerate(raw))
            if not content and "content" in d:
                extra["content"] = raw  # an explicit empty list
        else:
            raise self.error(
                "tool_result content must be a string or an array of blocks", f"{path}.content"
            )
        return ToolResultBlock(id_, content, is_error, extra=extra)

    def _server_call(self, d: dict[str, Any], path: str) -> Block:
        id_ = self._str(d, "id", path)
        name = self._str(d, "name", path)
        args = d.get("input")
        if not isinstance(args, dict):
            raise self.error(f"{d['type']} input must be an object", f"{path}.input")
        extra = {k: v for k, v in d.items() if k not in ("id", "name", "input")}
        return ServerToolCallBlock(id_, name, args, extra=extra)

    def _server_result(self, d: dict[str, Any], path: str) -> Block:
        id_ = self._str(d, "tool_use_id", path)
        content = d.get("content")
        failed = d.get("is_error") is True or (
            isinstance(content, dict) and str(content.get("type", "")).endswith("_error")
        )
        extra = {k: v for k, v in d.items() if k not in ("tool_use_id", "content")}
        return ServerToolResultBlock(id_, content, "error" if failed else "success", extra=extra)


def _plain_block(raw: Any, calls_out: bool, reader: AnthropicReader) -> Block | ToolCall | None:
    """The common blocks, with no field beyond the usual ones, built the quick way.

    None for anything else: ``AnthropicReader.block`` then reads it (or explains the error).
    The values are those ``block`` builds; a ``tool_use`` is a ``ToolCall`` when ``calls_out``.
    """
    if type(raw) is not dict:
        return None
    kind = raw.get("type")
    n = len(raw)
    if kind == "text":
        text = raw.get("text")
        if n == 2 and type(text) is str:
            return _text(text, (), {})
    elif kind == "tool_result":
        call_id = raw.get("tool_use_id")
        content = raw.get("content")
        is_error = raw.get("is_error")
        if type(call_id) is str and type(content) is str:
            call_id = reader.pending.pop(call_id, call_id)
            if n == 3:
                return _tool_result(call_id, content, False, {})
            if n == 4 and type(is_error) is bool:  # false stays in extra: written back as is
                extra = {} if is_error else {"is_error": False}
                return _tool_result(call_id, content, is_error, extra)
    elif kind == "tool_use":
        call_id = raw.get("id")
        name = raw.get("name")
        args = raw.get("input")
        if n == 4 and type(call_id) is str and type(name) is str and type(args) is dict:
            reader.pending[call_id] = call_id
            name = reader.names.setdefault(name, name)
            return (_tool_call if calls_out else _tool_call_block)(call_id, name, args, {})
    elif kind == "thinking":
        text = raw.get("thinking")
        signature = raw.get("signature")
        if n == 3 and type(text) is str and type(signature) is str:
            return _reasoning(text, signature, False, None, {})
    return None


def read_usage(u: Any, reader: AnthropicReader, path: str) -> Usage:
    """Normalised usage: input counts cache writes and reads; the raw dict stays in extra."""
    if not isinstance(u, dict):
        raise reader.error("usage must be an object", path)
    if "output_tokens_details" not in u:
        # The common case, without a closure per call; the same values as below.
        i = u.get("input_tokens", 0)
        o = u.get("output_tokens", 0)
        write = u.get("cache_creation_input_tokens", 0)
        read = u.get("cache_read_input_tokens", 0)
        if type(i) is int and type(o) is int and type(write) is int and type(read) is int:
            i += write + read
            return _usage(i, o, i + o, read, write, 0, u)

    def count(key: str) -> int:
        v = u.get(key)
        if v is None:
            return 0
        if not _is_int(v):
            what = f"usage {key!r} must be an integer, not {json_type(v)}"
            raise reader.error(what, f"{path}.{key}")
        return v

    write = count("cache_creation_input_tokens")
    read = count("cache_read_input_tokens")
    details = u.get("output_tokens_details")
    thinking = details.get("thinking_tokens") if isinstance(details, dict) else None
    return Usage(
        input_tokens=count("input_tokens") + write + read,
        output_tokens=count("output_tokens"),
        cache_read_tokens=read,
        cache_write_tokens=write,
        reasoning_tokens=thinking if _is_int(thinking) else 0,
        extra=u,
    )


def text_of_base64(data: str) -> str | None:
    """Inline base64 data as UTF-8 text, or None if it is not that."""
    try:
        return binascii.a2b_base64(data).decode()
    except (binascii.Error, ValueError):
        return None
