"""Reading a Codex rollout: its ``response_item`` lines as Responses items, usage from
``token_count`` events, every other line kept verbatim beside the message it precedes.

``read`` takes the common lines the quick way (``quick``) and every other line the careful
way (``Rollout.line``); ``read_carefully`` takes every line the careful way, and gives the
same conversation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.message import Message
from ...core.usage import Usage
from ..base import Context, Conversation
from ..openai_responses.items import named
from ..openai_responses.read_items import Draft
from ..shared.openai import expect, json_type
from .detect import LINE_TYPES, NAME
from .events import event_message
from .outputs import read_output
from .quick import QuickItems, build, read_lines

# Text Codex injects as user messages before the user's own words.
BOILERPLATE = ("<environment_context>", "<user_instructions>", "# AGENTS.md instructions")
_LINE_KEYS = ("timestamp", "type", "payload")
USAGE_KEYS = (
    "input_tokens",
    "cached_input_tokens",
    "output_tokens",
    "reasoning_output_tokens",
    "total_tokens",
)


def read(records: list[Any], ctx: Context) -> list[Conversation]:
    """All the lines of one rollout -> one conversation."""
    rollout = Rollout(records, ctx)
    read_lines(rollout, records)
    return [rollout.conversation()]


def read_carefully(records: list[Any], ctx: Context) -> list[Conversation]:
    """``read`` with every line read the careful way (the quick way is checked against it)."""
    rollout = Rollout(records, ctx)
    for r, rec in enumerate(records):
        rollout.line(r, rec)
    return [rollout.conversation(Draft.build)]


class Rollout:
    """A rollout being read: its messages so far, and what the lines read leave for the next."""

    def __init__(self, records: list[Any], ctx: Context) -> None:
        self.ctx = ctx
        self.lines = ctx.lines or []
        self.reader = QuickItems(ctx)
        self.pending: list[Any] = []
        """Lines read since the last item, kept before the next one."""
        self.meta: dict[str, Any] = {}
        self.model: str | None = None
        self.seen_total: Any = None
        self.from_events = not any(_is_message_item(rec) for rec in records)
        self.counts: dict[int, int] = {}
        """Items read into each draft (by id), to place kept lines."""

    def line(self, r: int, rec: Any) -> None:
        """Read line ``r``, checking everything."""
        ctx = self.ctx
        reader = self.reader
        ctx.line = self.lines[r] if r < len(self.lines) else None
        expect(ctx, rec, dict, "a rollout line", "$")
        kind = rec.get("type")
        payload = rec.get("payload")
        if not isinstance(kind, str) or kind not in LINE_TYPES:
            ctx.warn(f"unknown line type {kind!r}: kept as is", "$.type")
            self.pending.append(rec)
            return
        expect(ctx, payload, dict, "payload", "$.payload")
        ts = rec.get("timestamp")
        stamp = {"timestamp": ts} if isinstance(ts, str) else None
        envelope = {
            k: v
            for k, v in rec.items()
            if k not in _LINE_KEYS or (k == "timestamp" and not isinstance(v, str))
        }
        if envelope and kind == "response_item":
            stamp = {**(stamp or {}), "envelope": envelope}
        if kind == "response_item":
            count = len(reader.drafts)
            self.place(reader.add(payload, "$.payload", stamp), count)
            return
        made = None
        if kind == "compacted":
            summary = expect(ctx, payload.get("message"), str, "message", "$.payload.message")
            made = Draft("user", summary)
            made.metadata = {"meta": True, "record": rec}
        elif self.from_events and kind == "event_msg":
            made = event_message(payload, rec, ctx)
        if made is not None:
            if made.role == "assistant" and self.model is not None:
                made.kw["response_metadata"] = {"model": self.model}
            self.place(reader.append(made), None)
            return
        self.pending.append(rec)
        if kind == "session_meta":
            self.meta.setdefault("session_meta", payload)
        elif kind == "turn_context" and isinstance(payload.get("model"), str):
            self.model = payload["model"]
            self.meta.setdefault("model", self.model)
        elif kind == "event_msg" and payload.get("type") == "token_count":
            self.seen_total = _token_count(payload, reader, ctx, self.seen_total)

    def place(self, draft: Draft | Message, count: int | None) -> None:
        """Keep the lines read since the last item before the item just read into ``draft``:
        before the message when it is its first item, else before that item
        (``lines_within``: ``[item index, lines]`` pairs), so the writer puts every line back
        where it was. ``count``: the number of drafts before the item, when it was one (a
        draft it began is made ready; a message made whole is ready)."""
        if count is not None and len(self.reader.drafts) > count and type(draft) is Draft:
            _new_draft(draft, self.model)
        counts = self.counts
        k = counts.get(id(draft), 0)
        counts[id(draft)] = k + 1
        lines = self.pending
        if not lines:
            return
        self.pending = []
        if k == 0:
            draft.metadata["lines_before"] = lines
        else:
            draft.metadata.setdefault("lines_within", []).append([k, lines])

    def keep_before(self, message: Message) -> None:
        """``place`` for a message made whole from one item."""
        if self.pending:
            message.metadata["lines_before"] = self.pending
            self.pending = []

    def conversation(self, make: Callable[[Any], Message] = build) -> Conversation:
        """The conversation read, its messages made of the drafts by ``make``."""
        self.ctx.line = None
        meta = self.meta
        if self.pending:
            meta["trailing_lines"] = self.pending
        return Conversation(tuple([make(d) for d in self.reader.drafts]), NAME, meta)


def _is_message_item(rec: Any) -> bool:
    """A ``response_item`` user or assistant message: the rollout keeps its messages as items."""
    if not isinstance(rec, dict) or rec.get("type") != "response_item":
        return False
    payload = rec.get("payload")
    return isinstance(payload, dict) and named(payload.get("role"), ("user", "assistant"))


def _new_draft(draft: Draft, model: str | None) -> None:
    if draft.role == "assistant" and model is not None:
        draft.kw["response_metadata"] = {"model": model}
    elif draft.role == "user" and type(draft.content) is not str and draft.content:
        first = draft.content[0]
        if getattr(first, "text", "").lstrip().startswith(BOILERPLATE):
            draft.metadata["meta"] = True
    elif draft.role == "tool":
        read_output(draft)


def _token_count(payload: dict[str, Any], reader: Any, ctx: Context, seen: Any) -> Any:
    info = payload.get("info")
    if info is None:
        return seen
    expect(ctx, info, dict, "info", "$.payload.info")
    total = info.get("total_token_usage")
    last = info.get("last_token_usage")
    if last is None or (total is not None and total == seen):
        return seen  # the same call reported again
    path = "$.payload.info.last_token_usage"
    expect(ctx, last, dict, "last_token_usage", path)
    for key in USAGE_KEYS:
        v = last.get(key, 0)
        if not isinstance(v, int) or isinstance(v, bool):
            raise ctx.error(f"{key} must be an integer, not {json_type(v)}", f"{path}.{key}")
    usage = Usage(
        input_tokens=last.get("input_tokens", 0),
        output_tokens=last.get("output_tokens", 0),
        total_tokens=last.get("total_tokens", 0),
        cache_read_tokens=last.get("cached_input_tokens", 0),
        reasoning_tokens=last.get("reasoning_output_tokens", 0),
        extra=last,
    )
    target = reader.last_assistant()
    if target is not None:
        before = target.kw.get("usage")
        target.kw["usage"] = usage if before is None else before + usage
    return total
