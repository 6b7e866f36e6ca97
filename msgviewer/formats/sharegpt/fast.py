"""The quick way through the common turns of a big ShareGPT record.

``read_turns`` builds messages straight from the turns that make up nearly every large
dataset: exactly ``from``/``value`` (or ``role``/``content``) with the writer's own tag for
the style and a string value. A ``function_call`` turn is taken when its value is the JSON
text the writer itself would give (one ``{"name", "arguments"}`` object or a list of them,
arguments an object, each maybe with its ``id`` first); an observation whatever its text.
Any other turn, or anything unusual in those, goes to the careful reader
(``read._Turns.turn``), which also gives every warning and error; the two give equal
messages for the turns taken here.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Iterator
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any

import orjson

from ...core._frozen import builder
from ...core.message import Message, ToolCall
from .calls import DEFAULT_TAGS, MANY_BRACKETS, split_parallel

_message = builder(Message)  # roles and content below are already canonical
_call = builder(ToolCall)
_JSONDecodeError = orjson.JSONDecodeError
# What the careful reader compares a function_call value with (``calls.format_calls`` gives
# the same text for the calls taken here): ``json.dumps(..., ensure_ascii=False)``. Its C
# encoder is made once: ``JSONEncoder.encode`` makes a new one for every value, which cost
# more than the encoding of a call. (Parsed JSON holds no cycles to look out for.)
_encoder = json.JSONEncoder(ensure_ascii=False)
if c_make_encoder is not None:
    _encode = c_make_encoder(
        None, _encoder.default, encode_basestring, None, ": ", ", ", False, False, True
    )

    def _as_written(value: Any) -> str:
        return "".join(_encode(value, 0))

else:  # (a Python without the json module's C part)
    _as_written = _encoder.encode


def _kinds(style: str) -> dict[str, str]:
    """Tag -> role for the writer's own tags of a turn style ("call": a function_call turn)."""
    return {tag: kind for kind, tag in DEFAULT_TAGS[style].items()}


# The keys of a common turn, in their usual order -> (tag key, value key, tag -> role)
_SHAPES = {
    ("from", "value"): ("from", "value", _kinds("from")),
    ("role", "content"): ("role", "content", _kinds("role")),
}

# The keys of a call as the writer gives them: without an id ShareGPT has none, so one is
# made up (``synthetic_id``); a file's own id comes first
_NAME_ARGS = ("name", "arguments")
_ID_NAME_ARGS = ("id", "name", "arguments")

Pending = deque[tuple[str | None, str | None]]
"""(id, name) of the calls not yet answered, oldest first (the careful reader's too)."""
Careful = Callable[[int, Any, list[Any], list[Message]], None]
"""The careful reader of turn ``t``: ``careful(t, turn, turns, out)`` adds its messages."""


def read_turns(
    turns: list[Any],
    pending: Pending,
    out: list[Message],
    careful: Careful,
    each: Iterator[tuple[int, Any]],
) -> None:
    """The messages of every turn added to ``out``: the common shapes the quick way, the rest
    by ``careful``. ``pending`` is shared with ``careful``: calls join it, results leave it.
    ``each``: the turns as ``Context.each`` gives them (``turns`` is for looking ahead).

    The shapes are checked right in the loop: a function call each would be a good part of
    their cost.
    """
    append = out.append
    last = len(turns) - 1
    for t, turn in each:
        shape = _SHAPES.get(tuple(turn)) if type(turn) is dict else None
        if shape is not None:
            tag_key, value_key, kinds = shape
            tag = turn[tag_key]
            value = turn[value_key]
            kind = kinds.get(tag) if type(tag) is str else None
            if kind is not None and type(value) is str:
                if kind == "tool":
                    if len(pending) < 2 or value[:1] != "[":  # (not a parallel call's results)
                        call_id, name = pending.popleft() if pending else (None, None)
                        append(_tool(value, call_id, name, {}))
                    else:
                        following = turns[t + 1] if t < last else None
                        out.extend(_results(value, pending, following))
                    continue
                if kind != "call":
                    pending.clear()
                    append(_message(kind, value, None, None, None, False, (), (), None, {}, (), {}))
                    continue
                message = _call_turn(value, t)
                if message is not None:
                    pending.clear()
                    pending.extend((c.id, c.name) for c in message.tool_calls)
                    append(message)
                    continue
        careful(t, turn, turns, out)


def _call_turn(value: str, t: int) -> Message | None:
    """The assistant message of function_call turn ``t``; None unless ``value`` is just what
    the writer would give for its calls."""
    if len(value) > MANY_BRACKETS and value.count("{") + value.count("[") > MANY_BRACKETS:
        return None  # (maybe nested deep enough that the careful reader's parse gives up)
    try:
        parsed = orjson.loads(value)
    except _JSONDecodeError:
        return None
    listed = type(parsed) is list
    items = parsed if listed else [parsed]
    calls = []
    for k, item in enumerate(items):
        keys = tuple(item) if type(item) is dict else None
        if keys == _NAME_ARGS:
            call_id: Any = f"sharegpt_{t}_{k}"
            extra: dict[str, Any] = {"synthetic_id": True}
        elif keys == _ID_NAME_ARGS and type(call_id := item["id"]) is str:
            extra = {}
        else:
            return None
        name = item["name"]
        args = item["arguments"]
        if type(name) is not str or type(args) is not dict:
            return None
        calls.append(_call(call_id, name, args, extra))
    # Written back from the calls, the value must come out as it is: then the standard
    # library reads it as orjson did, and the careful reader keeps no copy of the text
    if not calls or _as_written(parsed) != value:
        return None
    metadata = {"list": True} if listed and len(calls) == 1 else {}
    return _message(
        "assistant", "", None, None, None, False, tuple(calls), (), None, {}, (), metadata
    )


def _results(value: str, pending: Pending, following: Any) -> list[Message]:
    """The tool messages of an observation: one per call for a parallel call's JSON array of
    results, else one answering the oldest call still waiting (if any)."""
    parts = split_parallel(value, len(pending), following)
    if parts is None:
        call_id, name = pending.popleft() if pending else (None, None)
        return [_tool(value, call_id, name, {})]
    out = []
    for k, part in enumerate(parts):
        call_id, name = pending.popleft()
        out.append(_tool(part, call_id, name, {"observation_part": k} if k else {}))
    return out


def _tool(content: str, call_id: str | None, name: str | None, metadata: dict) -> Message:
    return _message("tool", content, None, name, call_id, False, (), (), None, {}, (), metadata)
