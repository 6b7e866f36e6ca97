"""Reading a Claude Code session: its lines in chain order, each API response one message."""

from __future__ import annotations

from typing import Any

from ...core._frozen import builder
from ...core.blocks import Block, ToolCallBlock
from ...core.errors import FormatError
from ...core.message import Message, ToolCall
from ...core.usage import Usage
from ..anthropic.read_content import AnthropicReader, read_usage
from ..base import Context, Conversation
from ..io import RawLine
from ..shared.provider import (
    place_tool_calls,
)
from .chain import CHAIN_TYPES, Layout, Scan, Unit, layout, scan
from .detect import NAME, WEB_LINES
from .early import Early, read_early, restore
from .subagents import with_subagents

OTHER_LINES = "otherLines"
OUTSIDE_PARENTS = "outsideParents"
WEB_EXPORT = "webExport"
"""Metadata of a session read from a web export: its fields other than the lines."""
SPLIT_LINES = "splitLines"
_message = builder(Message)  # for the roles and content read below: already canonical
STR_OR_NONE = (str, type(None))
INNER_WRITTEN = frozenset({"id", "role", "content", "usage"})
"""Fields of a line's ``message`` the writer sets itself: kept metadata never replaces them."""
# Values repeated on many lines, read into one shared string each (the parser already shares
# those equal to the line before's: session id, cwd...; these alternate between lines).
_REPEATED_LINE_FIELDS = ("type",)
_REPEATED_RESPONSE_FIELDS = ("type", "model")
_NONE: Any = object()
_NO_RESPONSE: dict[str, Any] = {}
"""The response fields of every user line whose message is just its role and content: one
empty dict for them all (a message is a value no code changes in place)."""


class _Reader:
    def __init__(self, records: list[Any], ctx: Context) -> None:
        self.records = records
        self.ctx = ctx
        self.owned = ctx.owned
        # The responses whose usage is counted: message id -> the request id of its first
        # line (no tuple per line), and the other (message id, request id) pairs seen.
        self.counted: dict[str, str | None] = {}
        self.counted_more: set[tuple[str, str | None]] = set()
        self.shared: dict[str, str] = {}
        self._reader = AnthropicReader(ctx)  # one for all lines: only its record changes

    def reader(self, record: int) -> AnthropicReader:
        """The content reader, pointing its errors at line ``record``."""
        reader = self._reader
        reader.record = record
        return reader

    def message(self, unit: Unit) -> Message:
        """The message of ``unit``; a ``FormatError`` leaves its lines as they were."""
        indexes = unit.records
        single = len(indexes) == 1
        recs = [self.records[j] for j in indexes]
        first = recs[0]
        inner = first.get("message")
        bare = read_early(inner)  # (a user line's content alone)
        shared = self.shared
        kind = shared.setdefault(first["type"], first["type"])  # one "user" for all lines
        if kind != "system":  # (read before the line is taken apart below)
            role = "assistant" if kind == "assistant" else "user"
            if single:
                raw = inner if bare else inner.get("content")
                if type(raw) is tuple:  # read as the line was parsed (``early``)
                    content, calls = raw, ()
                elif type(raw) is Early:
                    content, calls = raw.blocks, raw.calls
                else:
                    reader = self._reader
                    reader.record = indexes[0]
                    content, calls = reader.content(
                        raw, "$.message.content", calls_out=role == "assistant"
                    )
                last = inner
            else:
                for rec in recs:
                    restore(rec)
                content, calls = self._merged_content(unit, recs)
                last = recs[-1]["message"]
            msg_id = last.get("id") if role == "assistant" else first.get("uuid")
            if bare:
                response, usage = _NO_RESPONSE, None
            else:
                response, usage = self._response(last, recs[-1], indexes[-1], single and self.owned)
        # The line, less what becomes the message, is its metadata: the line itself when it
        # was parsed for this read alone (a copy otherwise, or when split lines need it whole).
        meta = first if single and self.owned else dict(first)
        meta.pop("message", None)
        artifacts = (meta.pop("toolUseResult"),) if "toolUseResult" in meta else ()
        meta["type"] = kind
        if kind == "system":
            return self._system(meta, inner, artifacts)
        if not single:
            meta[SPLIT_LINES] = _split_lines(recs)
        if type(msg_id) is not str:
            msg_id = None
        return _message(
            role, content, msg_id, None, None, False, calls, (), usage, response, artifacts, meta
        )

    def _response(
        self, last: dict[str, Any], line: dict[str, Any], record: int, own: bool
    ) -> tuple[dict[str, Any], Usage | None]:
        """The response fields of a message (its last line's), and its usage if not counted.
        ``own``: ``last`` was parsed for this read alone, and becomes the response itself, less
        the fields the writer sets (no new dict, and no freed one left as a hole)."""
        usage = None
        raw_usage = last.get("usage")
        counted = False
        if raw_usage is not None:
            mid, request = last.get("id"), line.get("requestId")
            if type(mid) is not str or type(request) not in STR_OR_NONE:
                mid = None  # ids of other types never match another line's
            first = self.counted.get(mid, _NONE) if mid is not None else _NONE
            counted = first is not _NONE and (
                first == request or (mid, request) in self.counted_more
            )
            if not counted:
                usage = read_usage(raw_usage, self.reader(record), "$.message.usage")
                if first is _NONE:
                    if mid is not None:
                        self.counted[mid] = request
                else:
                    self.counted_more.add((mid, request))
        if own:  # (taken apart once nothing can fail: a line that fails stays as it was)
            response = last
            for k in INNER_WRITTEN:
                response.pop(k, None)
            if not response:
                response.clear()  # (its table freed: an empty dict holds none)
        else:
            response = {k: v for k, v in last.items() if k not in INNER_WRITTEN}
        shared = self.shared
        for name in _REPEATED_RESPONSE_FIELDS if response else ():
            v = response.get(name)
            if type(v) is str:
                response[name] = shared.setdefault(v, v)
        if counted:
            response["usage"] = raw_usage  # copied from a line already counted
        return response, usage

    def _system(self, meta: dict[str, Any], inner: Any, artifacts: tuple[Any, ...]) -> Message:
        content = meta.get("content", "")
        if isinstance(content, str):
            meta.pop("content", None)
        else:
            content = ""
        # a system line's message and tool result are not read: keep them
        if inner is not None:
            meta["message"] = inner
        if artifacts:
            meta["toolUseResult"] = artifacts[0]
        return _message("system", content, meta.get("uuid"), metadata=meta)

    def _merged_content(
        self, unit: Unit, recs: list[dict[str, Any]]
    ) -> tuple[tuple[Block, ...], tuple[ToolCall, ...]]:
        """The blocks of an API response written over several lines, calls in their place."""
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


def _split_lines(recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """How a response was split over lines: each line without its blocks, and their count."""
    return [
        {
            "line": {**r, "message": {k: v for k, v in r["message"].items() if k != "content"}},
            "blocks": len(r["message"]["content"]),
        }
        for r in recs
    ]


def read_lines(records: list[Any], ctx: Context) -> tuple[Scan, Layout, list[Message]]:
    """The messages of session lines, and what the scan and the layout found in them."""
    found = scan(records, ctx)
    lay = layout(records, found)
    reader = _Reader(records, ctx)
    messages: list[Message] = []
    for unit in lay.units:
        try:
            messages.append(reader.message(unit))
        except FormatError as exc:  # one line's content: report it, keep the line as it was
            ctx.warn(
                f"{exc.what}; the line is kept as it is, not shown",
                exc.path or "$",
                record=unit.records[0],
            )
            found.bad.extend(unit.records)
            lay.aside.extend(unit.records)
    return found, lay, messages


def _subagent_messages(records: list[Any], ctx: Context) -> list[Message]:
    return read_lines(records, ctx)[2]


def read(records: Any, ctx: Context) -> list[Conversation]:
    """All lines of a session -> one conversation (the lines of a web export too)."""
    if not isinstance(records, list):
        records = [records]
    web = None
    if len(records) == 1 and type(records[0]) is dict and WEB_LINES in records[0]:
        web = {k: v for k, v in records[0].items() if k != WEB_LINES}
        records = records[0][WEB_LINES]
        if not isinstance(records, list):
            raise ctx.error("loglines must be an array", f"$.{WEB_LINES}")
        ctx = Context(file=ctx.file, owned=ctx.owned)  # (no line numbers: one JSON document)
    found, lay, messages = read_lines(records, ctx)
    if web is None:
        messages = with_subagents(messages, ctx, found.chain, _subagent_messages)
    aside = sorted(set(lay.aside) | set(found.repeated))
    other: list[dict[str, Any]] = []
    anchor: str | None = None
    bad = set(found.bad)
    chain = found.chain
    pending = iter(aside)
    next_aside = next(pending, None)
    for j, rec in enumerate(records if aside else ()):
        if j == next_aside:
            if type(rec) is RawLine:  # not JSON: its text, to be written back as it was
                other.append({"after": anchor, "raw": rec.text})
            else:
                other.append({"after": anchor, "line": restore(rec)})
            next_aside = next(pending, None)
        # the first line of each uuid is the place the lines after it follow (not a repeat)
        if (
            j not in bad
            and type(rec) is dict
            and type(uid := rec.get("uuid")) is str
            and rec["type"] in CHAIN_TYPES
            and chain.get(uid) == j
        ):
            anchor = uid
    meta: dict[str, Any] = {OTHER_LINES: other} if other else {}
    if found.outside:  # (written back as they are, not taken for a deleted line's parent)
        meta[OUTSIDE_PARENTS] = found.outside
    if web is not None:
        meta[WEB_EXPORT] = web
    return [Conversation(tuple(messages), NAME, meta, found.title)]
