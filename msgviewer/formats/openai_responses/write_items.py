"""Messages -> Responses API items, shared by ``openai-responses`` and ``codex``.

The inverse of ``read_items``: an assistant message gives its content blocks as items in
order (runs of text as one message item), then its tool calls. Whatever has no item is reported
through ``Drops``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.blocks import (
    AudioBlock,
    Block,
    CitationBlock,
    FileBlock,
    ImageBlock,
    ReasoningBlock,
    ServerToolCallBlock,
    ServerToolResultBlock,
    TextBlock,
    UnknownBlock,
)
from ...core.call_order import calls_in_order
from ...core.message import Message, ToolCall
from ..base import message_where
from ..shared.openai import (
    CALL_EXTRA_SKIP,
    NO_TEXT_KEPT,
    Drops,
    audio_format,
    canonical,
    dump_args,
    fill,
)
from .items import (
    APPROVAL_REQUEST,
    APPROVAL_RESPONSE,
    CLIENT_CALLS,
    CLIENT_OUTPUTS,
    SERVER_CALLS,
    SOURCE,
    Grouping,
)
from .write_portable import portable_item

STAMP_KEYS = frozenset({"timestamp", "envelope"})
"""What Codex keeps of an item's line (its timestamp, other line fields) with the item."""


class ItemWriter:
    """Messages -> items. ``ids``: assistant text goes out as full output messages only when it
    has an item id (Responses); Codex writes full messages without ids."""

    def __init__(
        self, drops: Drops, *, same: bool, ids: bool, stamps: bool = False, portable: bool = False
    ) -> None:
        self.drops = drops
        self.same = same
        """The messages came from Responses items (this format or Codex): their extras fit."""
        self.portable = portable
        """Keep only what the Responses input types define (Codex items written as Responses)."""
        self.ids = ids
        self.stamps = stamps
        """Keep Codex line timestamps in the items (under "timestamp") for the caller."""
        self._grouping = Grouping()
        drop = frozenset() if stamps else STAMP_KEYS
        self._markers = _MARKERS | drop
        self._call_skip = CALL_EXTRA_SKIP | {"type", "id"} | drop

    def items(self, messages: Sequence[Message], *, start: int = 0) -> list[dict[str, Any]]:
        """The items of ``messages``; ``start``: index of the first one in the conversation
        (for the places named in lossy warnings)."""
        out: list[dict[str, Any]] = []
        for i, m in canonical(messages):
            self.message(start + i, m, out)
        return out

    def message(self, i: int, m: Message, out: list[dict[str, Any]]) -> None:
        start = len(out)
        if m.role == "tool":
            out.append(self._output(i, m))
        elif m.role == "assistant":
            self._assistant(i, m, out)
            if self.portable:
                self._make_portable(i, out, start)
            # A reader would merge this message into the one before: mark the boundary.
            if len(out) > start and not self._grouping.starts_new(out[start]):
                out.insert(start, {"role": "assistant", "content": ""})
        else:
            self._input_message(i, m, out)
        if self.portable and m.role != "assistant":
            self._make_portable(i, out, start)
        for k in range(start, len(out)):
            self._grouping.feed(out[k])
        if m.usage is not None:
            self.drops.add("usage (only a Response object has it)", f"message {i}")

    def _make_portable(self, i: int, out: list[dict[str, Any]], start: int) -> None:
        made = (portable_item(item, self.drops, message_where(i)) for item in out[start:])
        out[start:] = [item for item in made if item is not None]

    def _meta(self, m: Message, skip: frozenset[str] = frozenset()) -> dict[str, Any]:
        if not self.same:
            if any(k != "role" for k in m.metadata):
                self.drops.add("message metadata", "messages")
            return {}
        return {k: v for k, v in m.metadata.items() if k not in self._markers and k not in skip}

    def _input_message(self, i: int, m: Message, out: list[dict[str, Any]]) -> None:
        role = m.role
        if role == "system" and m.metadata.get("role") == "developer":
            role = "developer"
        passthrough = [
            b
            for b in m.blocks
            if type(b) is UnknownBlock and b.extra.get("item") and b.extra.get("format") == SOURCE
        ]
        if passthrough and len(passthrough) == len(m.blocks):
            stamp = self._stamp(m.metadata)
            out.extend({**b.data, **stamp} for b in passthrough)  # type: ignore[union-attr]
            return
        item: dict[str, Any] = {}
        if m.id is not None and self.same:
            item["id"] = m.id
        if type(m.content) is str:
            item.update(role=role, content=m.content)
        else:
            parts = [self._part(i, j, b, "input_text") for j, b in enumerate(m.content)]
            item.update(type="message", role=role, content=[p for p in parts if p])
        fill(item, self._meta(m))
        out.append(item)

    def _output(self, i: int, m: Message) -> dict[str, Any]:
        meta = self._meta(m)
        kind = meta.pop("type", None)
        if kind == APPROVAL_RESPONSE and isinstance(meta.get("approve"), bool):
            # the answer is the approve flag (the content only shows it)
            item = {"type": kind, "approval_request_id": m.tool_call_id or ""}
            return fill(item, meta)
        if not isinstance(kind, str) or kind not in CLIENT_OUTPUTS:
            kind = "function_call_output"
        item: dict[str, Any] = {"type": kind, "call_id": m.tool_call_id or ""}
        if meta.pop("no_output", False) and not m.content:
            pass
        elif type(m.content) is str:
            item["output"] = m.content
        elif len(m.content) == 1 and type(m.content[0]) is UnknownBlock and self.same:
            item["output"] = m.content[0].data
        else:
            parts = [self._part(i, j, b, "input_text") for j, b in enumerate(m.content)]
            item["output"] = [p for p in parts if p]
        if m.is_error:
            self.drops.add("a tool result's error flag", f"message {i}")
        if m.tool_call_id is None:
            self.drops.add("a tool result without a call id", f"message {i}")
        fill(item, meta)
        return item

    def _assistant(self, i: int, m: Message, out: list[dict[str, Any]]) -> None:
        content = m.content
        start = len(out)
        if type(content) is str:
            if content:
                item = {"role": "assistant", "content": content}
                if self.same:
                    fill(item, self._meta(m))
                out.append(item)
        else:
            self._assistant_blocks(i, m, content, out)
        if len(out) == start and not (m.tool_calls or m.invalid_tool_calls):
            out.append({"role": "assistant", "content": ""})  # keep the turn, empty as it was
        for c in calls_in_order(m):
            if type(c) is ToolCall:
                out.append(self._call(c))
                continue
            item = {"type": "function_call", "call_id": c.id or "", "name": c.name or ""}
            if self.same and c.extra.get("type") == APPROVAL_REQUEST:
                item = {"type": APPROVAL_REQUEST, "id": c.id or "", "name": c.name or ""}
            item["arguments"] = c.args or ""
            if c.args is None:
                self.drops.add(NO_TEXT_KEPT, message_where(i))
            if self.same:
                if isinstance(c.extra.get("id"), str):
                    item["id"] = c.extra["id"]
                fill(item, c.extra, self._call_skip)
            out.append(item)

    def _assistant_blocks(
        self, i: int, m: Message, content: tuple[Block, ...], out: list[dict[str, Any]]
    ) -> None:
        text: list[tuple[int, TextBlock]] = []
        first_text = True

        def flush() -> None:
            nonlocal first_text
            if text:
                out.append(self._text_item(i, m, text, first_text))
                first_text = False
                text.clear()

        j = 0
        while j < len(content):
            b = content[j]
            t = type(b)
            if t is TextBlock or (
                t is UnknownBlock and b.extra.get("format") == SOURCE and not b.extra.get("item")
            ):
                text.append((j, b))  # type: ignore[arg-type]  # an unknown part stays in its message
                j += 1
                continue
            flush()
            if t is ReasoningBlock:
                item = self._reasoning(i, j, b)  # type: ignore[arg-type]
                if item is not None:
                    out.append(item)
            elif t is ServerToolCallBlock and str(b.extra.get("type")) in SERVER_CALLS:
                item = self._server(b)  # type: ignore[arg-type]
                nxt = content[j + 1] if j + 1 < len(content) else None
                if type(nxt) is ServerToolResultBlock and nxt.tool_call_id == b.id:
                    if isinstance(nxt.content, dict) and nxt.extra.get("format") == SOURCE:
                        fill(item, nxt.content)
                    else:
                        self.drops.add("a server tool result", message_where(i, j + 1))
                    j += 1
                out.append(item)
            elif t is UnknownBlock and b.extra.get("item") and b.extra.get("format") == SOURCE:
                out.append({**b.data, **self._stamp(b.extra)})  # type: ignore[union-attr]
            else:
                kind = getattr(b, "kind", None) or b.type
                self.drops.add(f"{kind} blocks in an assistant message", message_where(i, j))
            j += 1
        flush()

    def _text_item(
        self, i: int, m: Message, text: list[tuple[int, TextBlock]], first: bool
    ) -> dict[str, Any]:
        full = self.same and (not self.ids or (m.id is not None and first))
        if not full:
            for j, b in text:
                if type(b) is not TextBlock:
                    self.drops.add(f"{b.kind} parts", message_where(i, j))  # type: ignore[union-attr]
                elif b.citations:
                    self.drops.add("citations", message_where(i, j))
            joined = "".join(b.text for _, b in text if type(b) is TextBlock)
            return {"role": "assistant", "content": joined}
        item: dict[str, Any] = {"type": "message"}
        if m.id is not None and first:
            item["id"] = m.id
        item["role"] = "assistant"
        parts = [self._part(i, j, b, "output_text") for j, b in text]
        item["content"] = [p for p in parts if p is not None]
        meta = self._meta(m) if first else {}
        if self.ids and not isinstance(meta.get("status"), str):
            meta["status"] = "completed"
        fill(item, meta)
        return item

    def _reasoning(self, i: int, j: int, b: ReasoningBlock) -> dict[str, Any] | None:
        extra = b.extra
        if not self.same or (self.ids and not isinstance(extra.get("id"), str)):
            what = "reasoning without an item id" if self.same else "reasoning of another provider"
            self.drops.add(what, message_where(i, j))
            return None
        item: dict[str, Any] = {"type": "reasoning"}
        fill(item, {k: v for k, v in extra.items() if k in self._keep(k)}, ("summary", "field"))
        parts = extra.get("summary", ...)
        if parts is None:  # the item had no summary at all
            pass
        elif _summary_text(parts) == b.text:
            item["summary"] = parts
        else:
            item["summary"] = [{"type": "summary_text", "text": b.text}] if b.text else []
        if b.data is not None:
            item["encrypted_content"] = b.data
        return item

    def _server(self, b: ServerToolCallBlock) -> dict[str, Any]:
        extra = b.extra
        item: dict[str, Any] = {"type": extra["type"]}
        if b.id is not None:
            item["id"] = b.id
        fill(item, {k: v for k, v in extra.items() if k in self._keep(k)})
        fill(item, b.args)
        return item

    def _stamp(self, where: dict[str, Any]) -> dict[str, Any]:
        if not self.stamps:
            return {}
        return {k: where[k] for k in STAMP_KEYS if k in where}

    def _keep(self, key: str) -> tuple[str, ...]:
        return () if key in STAMP_KEYS and not self.stamps else (key,)

    def _call(self, c: ToolCall) -> dict[str, Any]:
        extra = c.extra if self.same else {}
        kind = extra.get("type")
        if kind == APPROVAL_REQUEST:
            item = {"type": kind, "id": c.id or "", "name": c.name, "arguments": dump_args(c)}
            return fill(item, extra, self._call_skip)
        if not isinstance(kind, str) or kind not in CLIENT_CALLS:
            kind = "function_call"
        item: dict[str, Any] = {"type": kind}
        if isinstance(extra.get("id"), str):
            item["id"] = extra["id"]
        item["call_id"] = c.id or ""
        if kind == "function_call":
            item.update(name=c.name, arguments=dump_args(c))
        elif kind == "custom_tool_call":
            item.update(name=c.name, input=c.args.get("input", ""))
        else:
            fill(item, c.args)
        fill(item, extra, self._call_skip)
        return item

    def _part(self, i: int, j: int, b: Block, default: str) -> dict[str, Any] | None:
        t = type(b)
        if t is TextBlock:
            return self._text_part(i, j, b, default)  # type: ignore[arg-type]
        if t is UnknownBlock and b.extra.get("format") == SOURCE and not b.extra.get("item"):
            return b.data  # type: ignore[union-attr]
        extra = dict(b.extra) if self.same else {}
        if t is ImageBlock and default == "input_text":
            if b.extra.get("detail") in ("low", "high", "auto"):
                extra["detail"] = b.extra["detail"]  # the same meaning in Chat Completions
            part: dict[str, Any] = {"type": "input_image"}
            if b.url or b.data:  # type: ignore[union-attr]
                part["image_url"] = b.url or b.data_uri  # type: ignore[union-attr]
            if b.file_id:  # type: ignore[union-attr]
                part["file_id"] = b.file_id  # type: ignore[union-attr]
            if not self.same or self.portable:  # the input types require it; "auto" is
                extra.setdefault("detail", "auto")  # what the API assumes without it
            if len(part) > 1:
                return fill(part, extra)
        elif t is FileBlock and default == "input_text":
            raw = extra.pop("raw_file_data", False)
            part = {"type": "input_file"}
            for key, v in (
                ("file_id", b.file_id),  # type: ignore[union-attr]
                ("file_url", b.url),  # type: ignore[union-attr]
                ("filename", b.filename),  # type: ignore[union-attr]
                ("file_data", (b.data if raw else b.data_uri)),  # type: ignore[union-attr]
            ):
                if v is not None:
                    part[key] = v
            if part.keys() & {"file_id", "file_url", "file_data"}:
                return fill(part, extra)
        elif t is AudioBlock and default == "input_text" and self.same:
            fmt = extra.pop("format", None) or audio_format(b.mime_type)  # type: ignore[union-attr]
            if b.data is not None and fmt:  # type: ignore[union-attr]
                inner = fill({"data": b.data, "format": fmt}, extra)  # type: ignore[union-attr]
                return {"type": "input_audio", "input_audio": inner}
        kind = getattr(b, "kind", None) or b.type
        where = "an assistant message" if default == "output_text" else "this message"
        self.drops.add(f"{kind} blocks in {where}", message_where(i, j))
        return None

    def _text_part(self, i: int, j: int, b: TextBlock, default: str) -> dict[str, Any]:
        extra = (
            {k: v for k, v in b.extra.items() if k not in ("type", "field")} if self.same else {}
        )
        marked = b.extra.get("type")
        if default == "output_text" and "refusal" in (marked, b.extra.get("field")):
            return fill({"type": "refusal", "refusal": b.text}, extra)
        kind = marked if self.same and marked in ("input_text", "output_text", "text") else default
        part: dict[str, Any] = {"type": kind, "text": b.text}
        if kind == "output_text" and (self.ids or b.citations):
            # Responses requires the key; Codex leaves it out.
            notes = [self._annotation(i, j, c) for c in b.citations]
            part["annotations"] = [n for n in notes if n is not None]
        elif b.citations:
            self.drops.add("citations", message_where(i, j))
        fill(part, extra)
        return part

    def _annotation(self, i: int, j: int, c: CitationBlock) -> dict[str, Any] | None:
        extra = c.extra if self.same else {}
        kind = extra.get("type", "url_citation")
        if kind == "url_citation":
            if c.url is None:
                self.drops.add("citations without a url", message_where(i, j))
                return None
            note = {
                "type": "url_citation",
                "url": c.url,
                "title": c.title or "",
                "start_index": c.start or 0,
                "end_index": c.end or 0,
            }
            fill(note, extra)
            return note
        note = dict(extra)
        for key, v in (("url", c.url), ("title", c.title)):
            if v is not None:
                note[key] = v
        for key, v in (("start_index", c.start), ("end_index", c.end)):
            if v is not None:
                note[key] = v
        return note


_MARKERS = frozenset({"role", "field", "meta", "lines_before", "lines_within", "record"})


def _summary_text(parts: Any) -> str | None:
    """The display text of kept summary parts (None if they are not summary parts)."""
    if not isinstance(parts, list) or not all(isinstance(p, dict) for p in parts):
        return None
    texts = [p.get("text") for p in parts]
    if not all(isinstance(t, str) for t in texts):
        return None
    return "\n\n".join(texts)  # type: ignore[arg-type]
