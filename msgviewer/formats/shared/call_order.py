"""The order of a message's calls when some of them could not be parsed.

``Message`` keeps the calls whose arguments parse (``tool_calls``) apart from those that do not
(``invalid_tool_calls``), as LangChain does. Formats that write them in one list (OpenAI's
``tool_calls``, Inspect's, ShareGPT's, pydantic-ai's parts, Responses items, Gemini's parts)
would then write ``[valid, invalid, valid]`` back as ``[valid, valid, invalid]``. A reader
splits the calls with ``split_calls``, which notes an invalid call's place (``CALL_INDEX``)
when a valid one follows it; a writer puts them back with ``calls_in_order``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from ...core.message import InvalidToolCall, Message, ToolCall
from .placing import insert_each

CALL_INDEX = "call_index"
"""``InvalidToolCall.extra`` key: the call's place among its message's calls, set only when a
valid call came after it (an invalid call at the end needs no note)."""


def split_calls(
    calls: Iterable[ToolCall | InvalidToolCall],
) -> tuple[tuple[ToolCall, ...], tuple[InvalidToolCall, ...]]:
    """A message's calls in their order on the wire, as ``tool_calls`` and
    ``invalid_tool_calls``, each invalid call followed by a valid one remembering its place."""
    calls = tuple(calls)
    for call in calls:
        if type(call) is not ToolCall:
            break
    else:
        return calls, ()  # type: ignore[return-value]  # (the usual message: all parsed)
    valid: list[ToolCall] = []
    invalid: list[tuple[int, InvalidToolCall]] = []
    for index, call in enumerate(calls):
        if type(call) is ToolCall:
            valid.append(call)
        else:
            invalid.append((index, call))  # type: ignore[arg-type]
    if not invalid:
        return tuple(valid), ()
    last = len(valid) + len(invalid) - 1
    if all(index > last - len(invalid) for index, _ in invalid):  # all at the end
        return tuple(valid), tuple(call for _, call in invalid)
    return tuple(valid), tuple(
        dataclasses.replace(call, extra={**call.extra, CALL_INDEX: index})
        for index, call in invalid
    )


def calls_in_order(message: Message) -> list[ToolCall | InvalidToolCall]:
    """The message's calls in the order it was read in: the valid ones, each invalid call put
    back at its noted place (the rest after them)."""
    valid, invalid = message.tool_calls, message.invalid_tool_calls
    if not invalid:
        return list(valid)
    return [invalid[k] if bad else valid[k] for bad, k in call_places(message)]


def call_places(message: Message) -> list[tuple[bool, int]]:
    """Where each call is, in the order ``calls_in_order`` gives them: (unparsable, its index
    in ``invalid_tool_calls`` if so, else in ``tool_calls``)."""
    valid = [(False, k) for k in range(len(message.tool_calls))]
    invalid = message.invalid_tool_calls
    if not invalid:
        return valid
    placed = sorted(
        ((c.extra[CALL_INDEX], (True, j)) for j, c in enumerate(invalid) if _has_index(c)),
        key=lambda x: x[0],
    )
    out = insert_each(valid, placed)
    out.extend((True, j) for j, c in enumerate(invalid) if not _has_index(c))
    return out


def _has_index(call: InvalidToolCall) -> bool:
    index = call.extra.get(CALL_INDEX)
    return type(index) is int and index >= 0


def without_call_index(extra: dict[str, Any]) -> dict[str, Any]:
    """A call's ``extra`` without the note ``split_calls`` adds, for a writer that writes a
    call's every other field."""
    return {k: v for k, v in extra.items() if k != CALL_INDEX} if CALL_INDEX in extra else extra
