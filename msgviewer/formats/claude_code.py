"""``claude-code``: Claude Code session transcripts (``~/.claude/projects/*/<session>.jsonl``).

The whole file is one conversation. ``user``/``assistant``/``system`` lines are messages, in the
order of the uuid/parentUuid chain of the newest branch (see ``_claude_code_chain``); the lines
of one API response (same ``message.id``) become one message, with usage counted once. Each
message keeps its line's fields (``uuid``, ``parentUuid``, ``isSidechain``, ``isMeta``...) in
``metadata`` (``splitLines`` remembers how a merged response was split), and a tool result's
``toolUseResult`` is its artifact. Other lines (summary, file-history-snapshot,
queue-operation, other branches) are kept verbatim in ``Conversation.metadata["otherLines"]``
with the uuid they followed, so writing the session back gives the same lines.
"""

from __future__ import annotations

import uuid as uuidlib
from collections.abc import Sequence
from typing import Any

from ..core._frozen import builder
from ..core.blocks import Block, ToolCallBlock
from ..core.message import Message, ToolCall
from ._anthropic_read import AnthropicReader, read_usage
from ._anthropic_write import AnthropicWriter, write_usage
from ._claude_code_chain import CHAIN_TYPES, Unit, layout
from ._provider_common import (
    Losses,
    own_metadata,
    pair_tool_ids,
    place_tool_calls,
)
from .base import Context, Conversation, Format, add_kept, message_where
from .io import jsonl_bytes

NAME = "claude-code"
OTHER_LINES = "otherLines"
SPLIT_LINES = "splitLines"
_OTHER_TYPES = frozenset({"summary", "file-history-snapshot", "queue-operation"})
_FAMILY = frozenset({"anthropic", "claude-code"})
_message = builder(Message)  # for the roles and content read below: already canonical
_STR_OR_NONE = (str, type(None))
# Fields the writer sets itself, by level: kept metadata never replaces them.
_SYSTEM_WRITTEN = frozenset({"content"})
_LINE_WRITTEN = frozenset({"message", "toolUseResult"})
_INNER_WRITTEN = frozenset({"id", "role", "content", "usage"})


def sniff(value: Any) -> bool:
    """One line of a session log."""
    if not isinstance(value, dict):
        return False
    kind = value.get("type")
    if kind in ("user", "assistant"):
        return isinstance(value.get("message"), dict) and "uuid" in value and "sessionId" in value
    if kind == "system":
        return "uuid" in value and "parentUuid" in value and "sessionId" in value
    if kind == "summary":
        return "leafUuid" in value and "summary" in value
    if kind == "file-history-snapshot":
        return "snapshot" in value and "messageId" in value
    if kind == "queue-operation":
        return "operation" in value and "sessionId" in value
    return False


# -- reading ----------------------------------------------------------------------------


def _check(records: list[Any], ctx: Context) -> tuple[dict[str, int], list[int]]:
    """uuid -> record of each chain line, and the records whose uuid came earlier already."""
    chain: dict[str, int] = {}
    repeated: list[int] = []
    for j, rec in enumerate(records):
        if not isinstance(rec, dict):
            raise ctx.error("a line must be a JSON object", record=j)
        kind = rec.get("type")
        if not isinstance(kind, str):
            raise ctx.error('a line needs a string "type"', "$.type", record=j)
        if kind in CHAIN_TYPES:
            uid = rec.get("uuid")
            if not isinstance(uid, str):
                raise ctx.error(f"a {kind} line needs a string uuid", "$.uuid", record=j)
            if (
                type(rec.get("parentUuid")) not in _STR_OR_NONE
                or type(rec.get("logicalParentUuid")) not in _STR_OR_NONE
            ):
                for key in ("parentUuid", "logicalParentUuid"):
                    if not isinstance(rec.get(key), (str, type(None))):
                        raise ctx.error(f"{key} must be a string or null", f"$.{key}", record=j)
            if kind != "system" and not isinstance(rec.get("message"), dict):
                raise ctx.error(f"a {kind} line needs a message object", "$.message", record=j)
            if uid in chain:
                repeated.append(j)
            else:
                chain[uid] = j
        elif kind not in _OTHER_TYPES:
            ctx.warn(f"unknown line type {kind!r} kept as is", "$.type", record=j)
    return chain, repeated


class _Reader:
    def __init__(self, records: list[Any], ctx: Context) -> None:
        self.records = records
        self.ctx = ctx
        self.counted: set[tuple[Any, Any]] = set()
        self._reader = AnthropicReader(ctx)  # one for all lines: only its record changes

    def reader(self, record: int) -> AnthropicReader:
        """The content reader, pointing its errors at line ``record``."""
        reader = self._reader
        reader.record = record
        return reader

    def message(self, unit: Unit) -> Message:
        indexes = unit.records
        recs = (
            [self.records[indexes[0]]] if len(indexes) == 1 else [self.records[j] for j in indexes]
        )
        first = recs[0]
        meta = dict(first)  # a copy, then deletes: quicker than a comprehension, same order
        meta.pop("message", None)
        meta.pop("toolUseResult", None)
        if first["type"] == "system":
            content = first.get("content", "")
            if isinstance(content, str):
                meta.pop("content", None)
            else:
                content = ""
            return _message("system", content, first["uuid"], metadata=meta)
        role = "assistant" if first["type"] == "assistant" else "user"
        content, calls = self._content(unit, recs, role)
        last = recs[-1]["message"]
        response = dict(last)
        for field in ("role", "content", "id", "usage"):
            response.pop(field, None)
        usage = None
        if last.get("usage") is not None:
            key = (last.get("id"), recs[-1].get("requestId"))
            if type(key[0]) not in _STR_OR_NONE or type(key[1]) not in _STR_OR_NONE:
                key = (None, None)  # ids of other types never match another line's
            if key[0] is not None and key in self.counted:
                response["usage"] = last["usage"]  # copied from a line already counted
            else:
                usage = read_usage(last["usage"], self.reader(indexes[-1]), "$.message.usage")
                self.counted.add(key)
        if len(recs) > 1:
            meta[SPLIT_LINES] = [
                {
                    "line": {
                        **r,
                        "message": {k: v for k, v in r["message"].items() if k != "content"},
                    },
                    "blocks": len(r["message"]["content"]),
                }
                for r in recs
            ]
        msg_id = last.get("id") if role == "assistant" else first["uuid"]
        return _message(
            role,
            content,
            msg_id if isinstance(msg_id, str) else None,
            tool_calls=calls,
            usage=usage,
            response_metadata=response,
            artifacts=(first["toolUseResult"],) if "toolUseResult" in first else (),
            metadata=meta,
        )

    def _content(
        self, unit: Unit, recs: list[dict[str, Any]], role: str
    ) -> tuple[str | tuple[Block, ...], tuple[ToolCall, ...]]:
        if len(recs) == 1:
            inner = recs[0]["message"]
            return self.reader(unit.records[0]).content(
                inner.get("content"), "$.message.content", calls_out=role == "assistant"
            )
        wire: list[Any] = []
        blocks: list[Block] = []
        calls: list[tuple[int, ToolCall]] = []
        for j, rec in zip(unit.records, recs, strict=True):
            reader = self.reader(j)
            for k, raw in enumerate(rec["message"]["content"]):
                b = reader.block(raw, f"$.message.content[{k}]")
                if type(b) is ToolCallBlock:
                    calls.append((len(wire), ToolCall(b.id, b.name, b.args, extra=b.extra)))
                else:
                    blocks.append(b)
                wire.append(raw)
        return tuple(blocks), place_tool_calls(wire, calls)


def read(records: Any, ctx: Context) -> list[Conversation]:
    """All lines of a session -> one conversation."""
    if not isinstance(records, list):
        records = [records]
    chain, repeated = _check(records, ctx)
    lay = layout(records, chain)
    reader = _Reader(records, ctx)
    messages = [reader.message(unit) for unit in lay.units]

    aside = sorted(set(lay.aside) | set(repeated))
    other: list[dict[str, Any]] = []
    anchor: str | None = None
    pending = iter(aside)
    next_aside = next(pending, None)
    for j, rec in enumerate(records if aside else ()):
        if j == next_aside:
            other.append({"after": anchor, "line": rec})
            next_aside = next(pending, None)
        if isinstance(rec.get("uuid"), str) and rec.get("type") in CHAIN_TYPES:
            anchor = rec["uuid"]
    title = next(
        (
            r["summary"]
            for r in records
            if r.get("type") == "summary" and isinstance(r.get("summary"), str)
        ),
        None,
    )
    meta = {OTHER_LINES: other} if other else {}
    return [Conversation(tuple(messages), NAME, meta, title)]


# -- writing ----------------------------------------------------------------------------


class _Writer:
    def __init__(self, conv: Conversation, ctx: Context) -> None:
        self.conv = conv
        self.own = conv.format == NAME
        self.losses = Losses(ctx)
        self.blocks = AnthropicWriter(self.losses, trusted=conv.format in _FAMILY)
        self.session = self._session()

    def _session(self) -> str:
        for m in self.conv.messages:
            sid = m.metadata.get("sessionId") if self.own else None
            if isinstance(sid, str):
                return sid
        seed = "".join(m.text[:64] for m in self.conv.messages[:4])
        return str(uuidlib.uuid5(uuidlib.NAMESPACE_URL, f"msgviewer-session:{seed}"))

    def lines(self, m: Message, i: int) -> list[dict[str, Any]]:
        where = message_where(i)
        meta = dict(m.metadata) if self.own else {}
        if own_metadata(m) and not self.own:
            self.losses.add("message metadata", where)
        if m.name is not None and m.role != "tool":
            self.losses.add("participant name", where)
        split = meta.pop(SPLIT_LINES, None)
        for key in ("parentUuid", "logicalParentUuid"):
            if not isinstance(meta.get(key), _STR_OR_NONE):  # the reader refuses other types
                self.losses.add(f"{key} that is not a string", where)
                del meta[key]
        if m.role == "system":
            if not self.own:
                self.losses.add("system prompt (written as a system note line)", where)
            line = add_kept({"type": "system"}, meta, self.losses.at(where), _SYSTEM_WRITTEN)
            line["content"] = m.text
            if not self.own:
                line.update(sessionId=self.session, isMeta=False, level="info")
            return [line]
        content = self.blocks.content(m, where)
        if m.role == "assistant":
            inner: dict[str, Any] = {} if m.id is None else {"id": m.id}
            if self.own:
                meta_fields = {k: v for k, v in m.response_metadata.items() if k != "usage"}
                add_kept(inner, meta_fields, self.losses.at(where), _INNER_WRITTEN)
            else:
                inner["type"] = "message"
                if m.model:
                    inner["model"] = m.model
                if set(m.response_metadata) - {"model", "model_name"}:
                    self.losses.add("response metadata", where)
            inner.update(role="assistant", content=content)
            if m.usage is not None:
                inner["usage"] = write_usage(m.usage)
            elif self.own and "usage" in m.response_metadata:
                inner["usage"] = m.response_metadata["usage"]
        else:
            inner = {"role": "user", "content": content}
            if self.own:
                add_kept(inner, m.response_metadata, self.losses.at(where))
        if isinstance(split, list) and isinstance(content, list):
            parts = _split(split, content)
            if parts is not None:
                return parts
        line = {"type": "assistant" if m.role == "assistant" else "user"}
        add_kept(line, meta, self.losses.at(where), _LINE_WRITTEN)
        line["message"] = inner
        if not self.own:
            line.update(isSidechain=False, userType="external", sessionId=self.session)
        if m.artifacts:
            line["toolUseResult"] = m.artifacts[0]
            if len(m.artifacts) > 1:
                self.losses.add("tool artifacts after the first", where)
        return [line]

    def _uuid(self, i: int, k: int) -> str:
        return str(uuidlib.uuid5(uuidlib.NAMESPACE_URL, f"msgviewer:{self.session}:{i}:{k}"))

    def write(self) -> bytes:
        messages, _ = pair_tool_ids(self.conv.messages)
        planned = [(m, self.lines(m, i)) for i, m in enumerate(messages)]
        other = self.conv.metadata.get(OTHER_LINES) if self.own else None
        other = (
            [e for e in other if isinstance(e, dict) and "line" in e]
            if isinstance(other, list)
            else []
        )
        if not self.own:
            for key in self.conv.metadata:
                self.losses.add(f"request field {key!r}", "the conversation")
        known = {line.get("uuid") for _, lines in planned for line in lines}
        known |= {e["line"].get("uuid") for e in other if isinstance(e["line"], dict)}
        prev = {False: None, True: None}
        for i, (m, lines) in enumerate(planned):
            side = m.metadata.get("isSidechain") is True and self.own
            for k, line in enumerate(lines):
                if not isinstance(line.get("uuid"), str):
                    line["uuid"] = self._uuid(i, k)
                    line["parentUuid"] = prev[side]
                elif line.get("parentUuid") is not None and line["parentUuid"] not in known:
                    line["parentUuid"] = prev[side]  # its parent was deleted: follow the one before
                prev[side] = line["uuid"]
        self.losses.flush()
        return jsonl_bytes(_emit([line for _, lines in planned for line in lines], other, known))


def _split(split: list[Any], content: list[Any]) -> list[dict[str, Any]] | None:
    """The lines of a merged response again, each with its own blocks (None if edited)."""
    try:
        counts = [int(s["blocks"]) for s in split]
        lines = [dict(s["line"]) for s in split]
    except (KeyError, TypeError, ValueError):
        return None
    if sum(counts) != len(content):
        return None
    out = []
    offset = 0
    for line, n in zip(lines, counts, strict=True):
        message = dict(line.get("message") or {})
        message["content"] = content[offset : offset + n]
        offset += n
        line["message"] = message
        out.append(line)
    return out


def _emit(
    lines: list[dict[str, Any]], other: list[dict[str, Any]], known: set[Any]
) -> list[dict[str, Any]]:
    """Message lines in order, each kept-aside line right after the line it followed.

    A kept line whose parent is gone (its message was deleted) hangs off the line before it.
    """
    after: dict[Any, list[Any]] = {}
    for e in other:
        after.setdefault(e.get("after"), []).append(e["line"])
    out: list[Any] = []
    mine = {id(line) for line in lines}
    stack = list(reversed(after.pop(None, []) + lines))
    last = None
    while stack:
        line = stack.pop()
        if isinstance(line, dict):
            if id(line) not in mine and line.get("parentUuid") not in known | {None}:
                line = {**line, "parentUuid": last}
            uid = line.get("uuid")
            if isinstance(uid, str):
                last = uid
                stack.extend(reversed(after.pop(uid, [])))
        out.append(line)
    for rest in after.values():  # what they followed was deleted: keep them at the end
        for line in rest:
            if isinstance(line, dict) and line.get("parentUuid") not in known | {None}:
                line = {**line, "parentUuid": last}
            out.append(line)
            if isinstance(line, dict) and isinstance(line.get("uuid"), str):
                last = line["uuid"]
    return out


def write(conversations: Sequence[Conversation], ctx: Context) -> bytes:
    """One conversation as session lines (uuids made up for messages that have none)."""
    return _Writer(conversations[0], ctx).write()


FORMAT = Format(
    name=NAME,
    description="Claude Code session transcript (JSONL)",
    sniff=sniff,
    read=read,
    write=write,
    stream=True,
    cannot_carry=(
        "system prompts (written as system note lines), participant names, request fields "
        "(model, tools...), and whatever Anthropic content cannot carry"
    ),
)
