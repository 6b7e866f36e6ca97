"""Reading Responses API item lists, request bodies and Response objects into conversations."""

from __future__ import annotations

from typing import Any

from ...core.message import Message
from ..base import Context, Conversation
from ..shared.openai import expect, responses_usage_in
from .detect import NAME
from .quick import read_items
from .read_items import ItemReader

_RESPONSE_KEYS = ("id", "model", "status", "created_at")


def read(value: Any, ctx: Context) -> list[Conversation]:
    """A Response, a request body or an item list -> one conversation."""
    if isinstance(value, list):
        return [Conversation(tuple(read_items(value, ctx, "$")), NAME, {})]
    expect(ctx, value, dict, "a Responses file", "$")
    is_response = "output" in value and (value.get("object") == "response" or "input" not in value)
    key = "output" if is_response else "input"
    if key not in value:
        raise ctx.error('not a Responses file: expected "input", "output" or a list of items')
    meta = {k: v for k, v in value.items() if k != key}
    messages: list[Message] = []
    instructions = value.get("instructions")
    if isinstance(instructions, str):
        del meta["instructions"]
        messages.append(Message.system(instructions, metadata={"field": "instructions"}))
    raw = value[key]
    if isinstance(raw, str) and not is_response:
        messages.append(Message.user(raw))
        return [Conversation(tuple(messages), NAME, meta)]
    expect(ctx, raw, list, key, f"$.{key}")
    if not is_response:
        messages.extend(read_items(raw, ctx, f"$.{key}"))
        return [Conversation(tuple(messages), NAME, meta)]
    reader = ItemReader(ctx)
    for i, item in ctx.each(raw):
        reader.add(item, f"$.{key}[{i}]")
    response = {k: value[k] for k in _RESPONSE_KEYS if k in value}
    for draft in reader.drafts:
        if draft.role == "assistant":
            draft.kw["response_metadata"] = response
    last = reader.last_assistant()
    if value.get("usage") is not None and last is not None:
        last.kw["usage"] = responses_usage_in(value["usage"], ctx, "$.usage")
        del meta["usage"]
    messages.extend(reader.messages())
    return [Conversation(tuple(messages), NAME, meta)]
