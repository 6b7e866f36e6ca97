"""The order of a message's calls when some of them could not be parsed.

``Message`` keeps the calls whose arguments parse (``tool_calls``) apart from those that do not
(``invalid_tool_calls``), as LangChain does. Formats that write them in one list (OpenAI's
``tool_calls``, Inspect's, ShareGPT's, pydantic-ai's parts, Responses items, Gemini's parts)
would then write ``[valid, invalid, valid]`` back as ``[valid, valid, invalid]``. So a reader
splits the calls with ``split_calls``, which notes an invalid call's place (``CALL_INDEX``)
when a valid one follows it, and a writer puts them back with ``calls_in_order``. Whatever
regroups a message's calls (merging messages, deleting or repairing a call) goes through the
same two, so the notes always match the calls they sit among.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any, TypeVar

from .message import InvalidToolCall, Message, ToolCall

CALL_INDEX = "msgviewer_call_index"
"""``InvalidToolCall.extra`` key: the call's place among its message's calls, set only when a
valid call comes after it (an invalid call at the end needs no note). Never written into a
provider's file (``calls_in_order`` takes it off); the native format keeps it."""

Call = TypeVar("Call", ToolCall, InvalidToolCall)


def split_calls(
    calls: Iterable[ToolCall | InvalidToolCall],
) -> tuple[tuple[ToolCall, ...], tuple[InvalidToolCall, ...]]:
    """A message's calls in their order, as ``tool_calls`` and ``invalid_tool_calls``: each
    invalid call followed by a valid one notes its place (a note from before is replaced)."""
    calls = tuple(calls)
    for call in calls:
        if type(call) is not ToolCall or CALL_INDEX in call.extra:
            break
    else:
        return calls, ()  # type: ignore[return-value]  # (the usual message: all parsed)
    valid: list[ToolCall] = []
    invalid: list[tuple[int, InvalidToolCall]] = []
    for index, call in enumerate(calls):
        call = _unnoted(call)
        if type(call) is ToolCall:
            valid.append(call)
        else:
            invalid.append((index, call))  # type: ignore[arg-type]
    if not invalid or all(index >= len(valid) for index, _ in invalid):  # all at the end
        return tuple(valid), tuple(call for _, call in invalid)
    return tuple(valid), tuple(
        dataclasses.replace(call, extra={**call.extra, CALL_INDEX: index})
        for index, call in invalid
    )


def calls_in_order(message: Message) -> list[ToolCall | InvalidToolCall]:
    """The message's calls in the order it was read in: the valid ones, each invalid call put
    back at its noted place (the rest after them), the notes taken off. Writers take the calls
    from here, so none of them has to leave the note out itself."""
    valid, invalid = message.tool_calls, message.invalid_tool_calls
    if not invalid:
        return list(valid)
    return [_unnoted(invalid[k]) if bad else valid[k] for bad, k in call_places(message)]


def call_places(message: Message) -> list[tuple[bool, int]]:
    """Where each call is, in the order ``calls_in_order`` gives them: (unparsable, its index
    in ``invalid_tool_calls`` if so, else in ``tool_calls``)."""
    out = [(False, k) for k in range(len(message.tool_calls))]
    invalid = message.invalid_tool_calls
    if not invalid:
        return out
    noted = sorted((_place(c), j) for j, c in enumerate(invalid) if _place(c) is not None)
    for index, j in noted:  # (a few calls: one insert each)
        out.insert(min(index, len(out)), (True, j))  # type: ignore[arg-type]
    out.extend((True, j) for j, c in enumerate(invalid) if _place(c) is None)
    return out


def with_calls(message: Message, calls: Iterable[ToolCall | InvalidToolCall]) -> Message:
    """``message`` holding ``calls``, in this order."""
    valid, invalid = split_calls(calls)
    return dataclasses.replace(message, tool_calls=valid, invalid_tool_calls=invalid)


def without_call_index(extra: dict[str, Any]) -> dict[str, Any]:
    """A call's ``extra`` without the note ``split_calls`` adds, for a writer that writes a
    call's every other field."""
    return {k: v for k, v in extra.items() if k != CALL_INDEX} if CALL_INDEX in extra else extra


def _unnoted(call: Call) -> Call:
    if CALL_INDEX not in call.extra:
        return call
    return dataclasses.replace(call, extra=without_call_index(call.extra))


def _place(call: InvalidToolCall) -> int | None:
    index = call.extra.get(CALL_INDEX)
    return index if type(index) is int and index >= 0 else None
