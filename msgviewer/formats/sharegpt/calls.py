"""ShareGPT role tags, the JSON text of ``function_call`` turns (for reading and writing) and
of observations answering parallel calls (for reading)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import orjson

from ...core.blocks import ToolCallBlock
from ...core.call_order import split_calls
from ...core.message import InvalidToolCall, ToolCall

FORMAT_NAME = "sharegpt"
SHAPE_KEYS = frozenset({FORMAT_NAME})
"""The metadata keys that only record the file's shape (``Format.shape_keys``): turn keys,
tags, where the system prompt was."""

ROLE_OF_TAG = {
    "human": "user",
    "user": "user",
    "gpt": "assistant",
    "assistant": "assistant",
    "chatgpt": "assistant",
    "bard": "assistant",
    "bing": "assistant",
    "model": "assistant",
    "system": "system",
    "function_call": "call",
    "tool_call": "call",
    "observation": "tool",
    "tool": "tool",
    "function": "tool",
    "function_response": "tool",
    "tool_response": "tool",
}
"""Role tags seen in ShareGPT-style datasets; "call" is an assistant turn of tool calls."""

DEFAULT_TAGS = {
    "from": {
        "system": "system",
        "user": "human",
        "assistant": "gpt",
        "call": "function_call",
        "tool": "observation",
    },
    "role": {
        "system": "system",
        "user": "user",
        "assistant": "assistant",
        "call": "function_call",
        "tool": "observation",
    },
}
"""The tag the writer uses for each kind of turn, by turn style (``from``/``value`` or
``role``/``content``); a tag read from a file is kept only when it differs."""


def parse_calls(value: Any, t: int) -> tuple[list[ToolCall] | None, list[InvalidToolCall]]:
    """Tool calls from a function_call value; (None, [the text as an invalid call]) if the
    value is not one."""
    parsed = value
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError:
            parsed = None
    items = parsed if isinstance(parsed, list) else [parsed]
    read: list[ToolCall | InvalidToolCall] = []
    for k, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raw = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            bad = InvalidToolCall(
                f"sharegpt_{t}_0", None, raw, "not a JSON tool call", extra={"synthetic_id": True}
            )
            return None, [bad]
        call_id = item.get("id")
        extra: dict[str, Any] = {
            k2: v for k2, v in item.items() if k2 not in ("id", "name", "arguments")
        }
        if not isinstance(call_id, str):
            call_id = f"sharegpt_{t}_{k}"
            extra["synthetic_id"] = True
        args = item.get("arguments", {})
        if isinstance(args, str):
            try:
                decoded = json.loads(args)
            except ValueError:
                decoded = None
            if not isinstance(decoded, dict):
                error = "arguments are not a JSON object"
                read.append(InvalidToolCall(call_id, item["name"], args, error, extra=extra))
                continue
            args = decoded
            extra["arguments_json"] = True  # the arguments were JSON text inside the JSON
        elif not isinstance(args, dict):
            error = "arguments are not an object"
            text = json.dumps(args, ensure_ascii=False)
            read.append(InvalidToolCall(call_id, item["name"], text, error, extra=extra))
            continue
        read.append(ToolCall(call_id, item["name"], args, extra=extra))
    calls, invalid = split_calls(read)
    return list(calls), list(invalid)


def format_calls(calls: Sequence[ToolCall], *, list_form: bool) -> str:
    """Tool calls as a function_call value: JSON text of one call or of a list of them."""
    items = [call_item(c, keep_id=True) for c in calls]
    return json.dumps(items if list_form or len(items) != 1 else items[0], ensure_ascii=False)


def call_item(call: ToolCall | ToolCallBlock, *, keep_id: bool) -> dict[str, Any]:
    """One call as ShareGPT's ``{"name", "arguments"}``; a synthesized id is never written."""
    extra = call.extra
    item: dict[str, Any] = {}
    if keep_id and call.id is not None and not extra.get("synthetic_id"):
        item["id"] = call.id
    item["name"] = call.name
    args: Any = call.args
    if extra.get("arguments_json"):
        args = json.dumps(args, ensure_ascii=False)
    item["arguments"] = args
    item.update((k, v) for k, v in extra.items() if k not in _MARKERS and k not in item)
    return item


def invalid_item(call: InvalidToolCall) -> dict[str, Any]:
    """A call whose arguments did not parse: its text goes back as it was."""
    item: dict[str, Any] = {"name": call.name, "arguments": call.args}
    item.update((k, v) for k, v in call.extra.items() if k not in _MARKERS and k not in item)
    return item


def same_calls(raw: str, calls: Sequence[ToolCall], invalid: Sequence[InvalidToolCall]) -> bool:
    """Whether ``raw`` (a function_call value) holds exactly these calls."""
    parsed, bad = parse_calls(raw, 0)
    if parsed is None:
        return not calls and [b.args for b in invalid] == [raw]
    return [(c.name, c.args) for c in parsed] == [(c.name, c.args) for c in calls] and [
        (b.name, b.args) for b in bad
    ] == [(b.name, b.args) for b in invalid]


def split_parallel(value: Any, pending: int, following: Any) -> list[str] | None:
    """The results of a parallel call written as one observation holding a JSON array
    (``following``: the next turn, None at the end)."""
    if pending < 2 or not isinstance(value, str) or not value.startswith("["):
        return None
    if (
        isinstance(following, dict)
        and ROLE_OF_TAG.get(str(following.get("from", following.get("role"))).lower()) == "tool"
    ):
        return None  # the results come one observation each
    # Only a list of strings splits: it nests one level, where orjson reads what the standard
    # library reads. What orjson refuses, the standard library may still read as one (a lone
    # surrogate); anything nested deeper is no list of strings, however deep (no error).
    try:
        parts = orjson.loads(value)
    except orjson.JSONDecodeError:
        try:
            parts = json.loads(value)
        except (ValueError, RecursionError):
            return None
    if isinstance(parts, list) and len(parts) == pending and all(isinstance(p, str) for p in parts):
        return parts
    return None


MANY_BRACKETS = 256
"""More brackets than this in a JSON text inside a turn: read by the standard library, as
the careful reader does. Nesting near a thousand deep makes its parser raise
``RecursionError`` where orjson copes; the count bounds the depth (a bracket inside a string
counts too: a few more texts the slow way)."""


_MARKERS = frozenset({"synthetic_id", "arguments_json"})
"""``extra`` keys msgviewer adds itself: never written into a file."""
