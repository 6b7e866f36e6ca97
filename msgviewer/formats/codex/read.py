"""Reading a Codex rollout: its ``response_item`` lines as Responses items, usage from
``token_count`` events, every other line kept verbatim beside the message it precedes.
"""

from __future__ import annotations

from typing import Any

from ...core.usage import Usage
from ..base import Context, Conversation
from ..openai_responses.items import named
from ..openai_responses.read_items import Draft, ItemReader
from ..shared.openai import expect, json_type
from .detect import LINE_TYPES, NAME
from .events import event_message
from .outputs import read_output

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
    lines = ctx.lines or []
    reader = ItemReader(ctx)
    pending: list[Any] = []
    meta: dict[str, Any] = {}
    model = None
    seen_total: Any = None
    from_events = not any(_is_message_item(rec) for rec in records)
    counts: dict[int, int] = {}  # items read into each draft (by id), to place kept lines
    for r, rec in enumerate(records):
        ctx.line = lines[r] if r < len(lines) else None
        expect(ctx, rec, dict, "a rollout line", "$")
        kind = rec.get("type")
        payload = rec.get("payload")
        if not isinstance(kind, str) or kind not in LINE_TYPES:
            ctx.warn(f"unknown line type {kind!r}: kept as is", "$.type")
            pending.append(rec)
            continue
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
            draft = reader.add(payload, "$.payload", stamp)
            if len(reader.drafts) > count:
                _new_draft(draft, model)
            _place(draft, pending, counts)
            pending = []
            continue
        made = None
        if kind == "compacted":
            summary = expect(ctx, payload.get("message"), str, "message", "$.payload.message")
            made = Draft("user", summary)
            made.metadata = {"meta": True, "record": rec}
        elif from_events and kind == "event_msg":
            made = event_message(payload, rec, ctx)
        if made is not None:
            if made.role == "assistant" and model is not None:
                made.kw["response_metadata"] = {"model": model}
            _place(reader.append(made), pending, counts)
            pending = []
            continue
        pending.append(rec)
        if kind == "session_meta":
            meta.setdefault("session_meta", payload)
        elif kind == "turn_context" and isinstance(payload.get("model"), str):
            model = payload["model"]
            meta.setdefault("model", model)
        elif kind == "event_msg" and payload.get("type") == "token_count":
            seen_total = _token_count(payload, reader, ctx, seen_total)
    ctx.line = None
    if pending:
        meta["trailing_lines"] = pending
    return [Conversation(tuple(reader.messages()), NAME, meta)]


def _is_message_item(rec: Any) -> bool:
    """A ``response_item`` user or assistant message: the rollout keeps its messages as items."""
    if not isinstance(rec, dict) or rec.get("type") != "response_item":
        return False
    payload = rec.get("payload")
    return isinstance(payload, dict) and named(payload.get("role"), ("user", "assistant"))


def _place(draft: Draft, lines: list[Any], counts: dict[int, int]) -> None:
    """Keep ``lines`` (read since the last item) before the item just read into ``draft``:
    before the message when it is its first item, else before that item (``lines_within``:
    ``[item index, lines]`` pairs), so the writer puts every line back where it was."""
    k = counts.get(id(draft), 0)
    counts[id(draft)] = k + 1
    if not lines:
        return
    if k == 0:
        draft.metadata["lines_before"] = lines
    else:
        draft.metadata.setdefault("lines_within", []).append([k, lines])


def _new_draft(draft: Draft, model: str | None) -> None:
    if draft.role == "assistant" and model is not None:
        draft.kw["response_metadata"] = {"model": model}
    elif draft.role == "user" and type(draft.content) is not str and draft.content:
        first = draft.content[0]
        if getattr(first, "text", "").lstrip().startswith(BOILERPLATE):
            draft.metadata["meta"] = True
    elif draft.role == "tool":
        read_output(draft)


def _token_count(payload: dict[str, Any], reader: ItemReader, ctx: Context, seen: Any) -> Any:
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
