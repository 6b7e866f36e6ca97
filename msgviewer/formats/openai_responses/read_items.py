"""Responses API items -> messages, shared by ``openai-responses`` and ``codex``.

Items are flat (a reasoning item, a message, a function call, its output...); messages group
them. A run of assistant-side items becomes one assistant message: reasoning, text and built-in
tool calls as blocks in item order, function calls in ``tool_calls``. A new message starts
whenever grouping would lose the order (content after a function call, a second message item),
so writing the message back (``write_items``) gives the same items in the same order.
"""

from __future__ import annotations

import dataclasses
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
    parse_data_uri,
)
from ...core.call_order import split_calls
from ...core.message import InvalidToolCall, Message, ToolCall
from ..base import Context
from ..shared.openai import OPT_STR, audio_mime, expect, json_type, parse_call
from .items import (
    APPROVAL_REQUEST,
    APPROVAL_RESPONSE,
    CLIENT_CALLS,
    CLIENT_OUTPUTS,
    PART_TYPES,
    PASSTHROUGH_CLIENT,
    PASSTHROUGH_MODEL,
    ROLES,
    SERVER_CALLS,
    SOURCE,
    named,
)


class Draft:
    """A message being built from items."""

    __slots__ = ("calls", "content", "has_text", "id", "kw", "metadata", "role")

    def __init__(self, role: str, content: list[Block] | str) -> None:
        self.role = role
        self.content = content
        self.id: str | None = None
        self.calls: list[ToolCall | InvalidToolCall] = []  # in item order, parsed or not
        self.metadata: dict[str, Any] = {}
        self.kw: dict[str, Any] = {}
        self.has_text = False

    def takes_text(self, content: str | list[Block]) -> bool:
        """Would an assistant message item's content join this message? Not where joining
        would lose the items' order: after calls, after another item's content, or text into
        blocks (or blocks into text)."""
        return not (
            self.calls
            or self.has_text
            or type(self.content) is str
            or (type(content) is str and self.content)
        )

    def add_text(
        self, content: str | list[Block], msg_id: str | None, meta: dict[str, Any]
    ) -> None:
        """An assistant message item's content, id and other fields joining this message."""
        self.id = msg_id
        self.has_text = True
        self.metadata.update(meta)
        if type(content) is str:
            self.content = content
        else:
            self.content.extend(content)  # type: ignore[union-attr]

    def build(self) -> Message:
        content = self.content if type(self.content) is str else tuple(self.content)
        calls, invalid = split_calls(self.calls)
        return Message(
            self.role,  # type: ignore[arg-type]
            content,
            id=self.id,
            tool_calls=calls,
            invalid_tool_calls=invalid,
            metadata=self.metadata,
            **self.kw,
        )


class ItemReader:
    """Feeds items one at a time (``add``) and gives the messages (``messages``).

    ``stamp`` (Codex: the line's timestamp) is kept with whatever the item became: in the
    block's or call's ``extra``, or the message's ``metadata``.
    """

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.drafts: list[Draft] = []
        self._group: Draft | None = None

    def messages(self) -> list[Message]:
        return [d.build() for d in self.drafts]

    def last_assistant(self) -> Draft | None:
        for d in reversed(self.drafts):
            if d.role == "assistant":
                return d
        return None

    # For a reader that builds some messages itself (``quick``) and hands this one the rest.

    def group_open(self) -> bool:
        """Is an assistant message open to the items that follow?"""
        return self._group is not None

    def close_group(self) -> None:
        """End the open assistant message (the next assistant-side item starts a new one)."""
        self._group = None

    def resume(self, draft: Draft) -> None:
        """Take ``draft`` as the last message and the open assistant message."""
        self.drafts.append(draft)
        self._group = draft

    # Every add returns the draft the item went into.

    def add(self, item: Any, path: str, stamp: dict[str, Any] | None = None) -> Draft:
        ctx = self.ctx
        expect(ctx, item, dict, "an item", path)
        kind = item.get("type")
        if kind is None and "role" in item:
            kind = "message"
        if not isinstance(kind, str):
            raise ctx.error('an item needs a string "type"', f"{path}.type")
        if kind == "message":
            return self._message(item, path, stamp)
        if kind == "reasoning":
            block = reasoning_block(item, ctx, path)
            return self._content(_stamped(block, stamp))
        if kind in CLIENT_CALLS or kind == APPROVAL_REQUEST:
            group = self._open(new=False)
            call = _client_call(item, kind, ctx, path)
            if stamp:
                call = _restamp(call, stamp)
            group.calls.append(call)
            return group
        if kind in CLIENT_OUTPUTS:
            return self._standalone(_output(item, kind, ctx, path), stamp)
        if kind == APPROVAL_RESPONSE:
            return self._standalone(_approval_response(item, ctx, path), stamp)
        if kind in SERVER_CALLS:
            call_block, result = _server_call(item, kind, ctx, path)
            draft = self._content(_stamped(call_block, stamp))
            if result is not None:
                draft.content.append(result)  # type: ignore[union-attr]
            return draft
        block = UnknownBlock(kind, item, extra={"format": SOURCE, "item": True})
        if kind in PASSTHROUGH_MODEL:
            return self._content(_stamped(block, stamp))
        if kind not in PASSTHROUGH_CLIENT:
            ctx.warn(f"unknown item type {kind!r}: kept as is", f"{path}.type")
        draft = Draft("user", [block])
        return self._standalone(draft, stamp)

    def _open(self, *, new: bool) -> Draft:
        group = self._group
        if group is None or new:
            group = Draft("assistant", [])
            self.drafts.append(group)
            self._group = group
        return group

    def _content(self, block: Block) -> Draft:
        group = self._group
        needs_new = group is None or group.calls or type(group.content) is str
        group = self._open(new=bool(needs_new))
        group.content.append(block)  # type: ignore[union-attr]
        return group

    def append(self, draft: Draft) -> Draft:
        """Add a message made outside the items (Codex: a compaction summary)."""
        return self._standalone(draft, None)

    def _standalone(self, draft: Draft, stamp: dict[str, Any] | None) -> Draft:
        if stamp:
            draft.metadata.update(stamp)
        self._group = None
        self.drafts.append(draft)
        return draft

    def _message(self, item: dict[str, Any], path: str, stamp: dict[str, Any] | None) -> Draft:
        ctx = self.ctx
        role = item.get("role")
        if not named(role, ROLES):
            what = f"unknown role {role!r}" if isinstance(role, str) else 'a message needs a "role"'
            raise ctx.error(what, f"{path}.role")
        msg_id = expect(ctx, item.get("id"), OPT_STR, "id", f"{path}.id")
        raw = item.get("content")
        content = read_content(raw, role, ctx, f"{path}.content")
        meta = {k: v for k, v in item.items() if k not in ("type", "role", "content", "id")}
        if stamp:
            meta.update(stamp)
        if role != "assistant":
            draft = Draft(role, content)
            draft.id = msg_id
            draft.metadata = meta
            if role == "developer":
                draft.metadata = {"role": "developer", **meta}
            return self._standalone(draft, None)
        group = self._group
        if content == "":
            # An empty assistant message only marks where one turn ends and the next begins.
            return self._open(new=True)
        if group is None or not group.takes_text(content):
            group = self._open(new=True)
        group.add_text(content, msg_id, meta)
        return group


def _stamped(block: Any, stamp: dict[str, Any] | None) -> Any:
    if not stamp:
        return block
    return dataclasses.replace(block, extra={**block.extra, **stamp})


def _restamp(call: ToolCall | InvalidToolCall, stamp: dict[str, Any]) -> ToolCall | InvalidToolCall:
    return dataclasses.replace(call, extra={**call.extra, **stamp})


def read_content(raw: Any, role: str, ctx: Context, path: str) -> str | list[Block]:
    """A message's (or an output's) content: a string, or parts as blocks."""
    if type(raw) is str:
        return raw
    if type(raw) is not list:
        raise ctx.error(
            f"content must be a string or an array of parts, not {json_type(raw)}", path
        )
    default = "output_text" if role == "assistant" else "input_text"
    return [_part(p, default, ctx, f"{path}[{i}]") for i, p in enumerate(raw)]


def _part(d: Any, default: str, ctx: Context, path: str) -> Block:
    expect(ctx, d, dict, "a content part", path)
    kind = d.get("type")
    if kind in ("input_text", "output_text", "text"):
        text = expect(ctx, d.get("text"), str, "text", f"{path}.text")
        extra = {k: v for k, v in d.items() if k not in ("type", "text", "annotations")}
        if kind != default:
            extra["type"] = kind
        citations = ()
        notes = d.get("annotations")
        if notes is not None:
            expect(ctx, notes, list, "annotations", f"{path}.annotations")
            citations = tuple(
                _citation(a, ctx, f"{path}.annotations[{i}]") for i, a in enumerate(notes)
            )
        return TextBlock(text, citations, extra=extra)
    if kind == "refusal":
        text = expect(ctx, d.get("refusal"), str, "refusal", f"{path}.refusal")
        extra = {k: v for k, v in d.items() if k != "refusal"}
        return TextBlock(text, extra=extra)
    if kind == "input_image":
        for key in ("image_url", "file_id"):
            expect(ctx, d.get(key), OPT_STR, key, f"{path}.{key}")
        extra = {k: v for k, v in d.items() if k not in ("type", "image_url", "file_id")}
        return ImageBlock(url=d.get("image_url"), file_id=d.get("file_id"), extra=extra)
    if kind == "input_file":
        for key in ("file_data", "file_id", "file_url", "filename"):
            expect(ctx, d.get(key), OPT_STR, key, f"{path}.{key}")
        extra = {
            k: v
            for k, v in d.items()
            if k not in ("type", "file_data", "file_id", "file_url", "filename")
        }
        data, mime = d.get("file_data"), None
        if data is not None:
            parsed = parse_data_uri(data)
            if parsed is None:
                extra["raw_file_data"] = True
            else:
                mime, data = parsed
        return FileBlock(
            url=d.get("file_url"), data=data, file_id=d.get("file_id"), mime_type=mime,
            filename=d.get("filename"), extra=extra,
        )  # fmt: skip
    if kind == "input_audio":
        inner = expect(ctx, d.get("input_audio"), dict, "input_audio", f"{path}.input_audio")
        data = expect(ctx, inner.get("data"), str, "audio data", f"{path}.input_audio.data")
        extra = {k: v for k, v in inner.items() if k != "data"}
        return AudioBlock(data=data, mime_type=audio_mime(inner.get("format")), extra=extra)
    if not isinstance(kind, str):
        raise ctx.error('a content part needs a string "type"', f"{path}.type")
    ctx.warn(f"unknown content part type {kind!r}: kept as is", f"{path}.type")
    return UnknownBlock(kind, d, extra={"format": SOURCE})


def _citation(a: Any, ctx: Context, path: str) -> CitationBlock:
    expect(ctx, a, dict, "an annotation", path)
    for key in ("url", "title"):
        expect(ctx, a.get(key), OPT_STR, key, f"{path}.{key}")
    for key in ("start_index", "end_index"):
        v = a.get(key)
        if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
            raise ctx.error(f"{key} must be an integer, not {json_type(v)}", f"{path}.{key}")
    known = ("url", "title", "start_index", "end_index")
    extra = {k: v for k, v in a.items() if k not in known}
    if extra.get("type") == "url_citation":
        del extra["type"]
    return CitationBlock(
        url=a.get("url"), title=a.get("title"), start=a.get("start_index"),
        end=a.get("end_index"), extra=extra,
    )  # fmt: skip


def reasoning_block(item: dict[str, Any], ctx: Context, path: str) -> ReasoningBlock:
    """The block of a ``reasoning`` item (its summary parts joined for display)."""
    summary = item.get("summary", [])
    expect(ctx, summary, list, "summary", f"{path}.summary")
    texts = []
    plain = True
    for i, s in enumerate(summary):
        expect(ctx, s, dict, "a summary part", f"{path}.summary[{i}]")
        texts.append(expect(ctx, s.get("text"), str, "text", f"{path}.summary[{i}].text"))
        plain = plain and s.keys() <= {"type", "text"} and s.get("type") == "summary_text"
    data = expect(ctx, item.get("encrypted_content"), OPT_STR, "encrypted_content", path)
    extra = {k: v for k, v in item.items() if k not in ("type", "summary", "encrypted_content")}
    if "encrypted_content" in item and data is None:
        extra["encrypted_content"] = None
    if not plain or len(summary) > 1 or "summary" not in item:
        # "\n\n" joins the parts for display; the parts come back as they were if unchanged.
        extra["summary"] = summary if "summary" in item else None
    return ReasoningBlock("\n\n".join(texts), data=data, extra=extra)


def _client_call(
    item: dict[str, Any], kind: str, ctx: Context, path: str
) -> ToolCall | InvalidToolCall:
    if kind == APPROVAL_REQUEST:  # its own id is what the answer names
        req_id = item.get("id")
        if not isinstance(req_id, str):
            raise ctx.error(f'a {kind} needs a string "id"', f"{path}.id")
        name = expect(ctx, item.get("name"), str, "name", f"{path}.name")
        extra = {k: v for k, v in item.items() if k not in ("id", "name", "arguments")}
        return parse_call(req_id, name, item.get("arguments"), extra)
    call_id = item.get("call_id")
    if not isinstance(call_id, str):
        raise ctx.error(f'a {kind} needs a string "call_id"', f"{path}.call_id")
    if kind == "function_call":
        name = expect(ctx, item.get("name"), str, "name", f"{path}.name")
        extra = {k: v for k, v in item.items() if k not in ("type", "call_id", "name", "arguments")}
        return parse_call(call_id, name, item.get("arguments"), extra)
    if kind == "custom_tool_call":
        name = expect(ctx, item.get("name"), str, "name", f"{path}.name")
        extra = {k: v for k, v in item.items() if k not in ("call_id", "name", "input")}
        return ToolCall(call_id, name, {"input": item.get("input")}, extra=extra)
    meta = ("type", "id", "call_id", "status")
    extra = {k: item[k] for k in meta if k in item and k != "call_id"}
    args = {k: v for k, v in item.items() if k not in meta}
    return ToolCall(call_id, kind.removesuffix("_call"), args, extra=extra)


def _output(item: dict[str, Any], kind: str, ctx: Context, path: str) -> Draft:
    call_id = item.get("call_id")
    if not isinstance(call_id, str):
        raise ctx.error(f'a {kind} needs a string "call_id"', f"{path}.call_id")
    meta = {k: v for k, v in item.items() if k not in ("type", "call_id", "output")}
    if kind != "function_call_output":
        meta["type"] = kind
    raw = item.get("output")
    content: str | list[Block]
    if "output" not in item:
        content = ""
        meta["no_output"] = True
    elif type(raw) is str:
        content = raw
    elif type(raw) is list and all(
        isinstance(p, dict) and named(p.get("type"), PART_TYPES) for p in raw
    ):
        content = read_content(raw, "tool", ctx, f"{path}.output")
    else:
        content = [UnknownBlock("output", raw, extra={"format": SOURCE})]
    draft = Draft("tool", content)
    draft.kw["tool_call_id"] = call_id
    draft.metadata = meta
    return draft


def _approval_response(item: dict[str, Any], ctx: Context, path: str) -> Draft:
    """The user's answer to an approval request: a result of that call, "approved" or
    "denied" (a denial is an answer, not a failed call)."""
    req_id = item.get("approval_request_id")
    if not isinstance(req_id, str):
        where = f"{path}.approval_request_id"
        raise ctx.error(f'a {APPROVAL_RESPONSE} needs a string "approval_request_id"', where)
    approve = expect(ctx, item.get("approve"), bool, "approve", f"{path}.approve")
    meta = {k: v for k, v in item.items() if k != "approval_request_id"}
    draft = Draft("tool", "approved" if approve else "denied")
    draft.kw["tool_call_id"] = req_id
    draft.metadata = meta
    return draft


def _server_call(
    item: dict[str, Any], kind: str, ctx: Context, path: str
) -> tuple[ServerToolCallBlock, ServerToolResultBlock | None]:
    item_id = expect(ctx, item.get("id"), OPT_STR, "id", f"{path}.id")
    result_keys = SERVER_CALLS[kind]
    args = {
        k: v
        for k, v in item.items()
        if k not in ("type", "id", "status", "name") and k not in result_keys
    }
    extra: dict[str, Any] = {"type": kind}
    if "status" in item:
        extra["status"] = item["status"]
    if "name" in item:
        extra["name"] = item["name"]
    name = kind.removesuffix("_call")
    call = ServerToolCallBlock(item_id, name, args, extra=extra)
    present = {k: item[k] for k in result_keys if k in item}
    if not present:
        return call, None
    status = item.get("status") if isinstance(item.get("status"), str) else None
    return call, ServerToolResultBlock(item_id, present, status, extra={"format": SOURCE})
