"""The quick way through the common Chat Completions messages of a big file.

``read_all`` builds messages straight from the shapes that make up nearly every large
history: a user, system or assistant message that is just ``role`` and string ``content``; a
``tool`` message of ``role``, ``tool_call_id`` and string ``content``; an assistant message
of ``role``, ``content`` (string or null) and well-formed function ``tool_calls`` whose
arguments are a JSON object. It returns None for anything else, or for anything unusual in
those shapes, and the careful reader (``read``) takes the message; the two give equal
messages for the shapes handled here. ``read_plain`` is the same on one message. The builders
below are shared with the typed decoding of ``typed``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ...core._frozen import builder
from ...core.message import Message, ToolCall
from ..io import loads_object

T = TypeVar("T")
_message = builder(Message)  # roles and content below are already canonical
_call = builder(ToolCall)
# role -> the code's own string for it: one object for every message's role, not one each
_PLAIN_ROLES = {role: role for role in ("user", "system", "assistant")}


def tool_result(content: str, call_id: str) -> Message:
    return _message("tool", content, None, None, call_id, False, (), (), None, {}, (), {})


def plain(role: str, content: str, metadata: dict[str, Any] | None = None) -> Message:
    """A user, system or assistant message of just text (``role`` one of those three)."""
    return _message(
        _PLAIN_ROLES[role], content, None, None, None, False, (), (), None, {}, (), metadata or {}
    )


def assistant_with_calls(
    content: str | None, calls: tuple[ToolCall, ...], metadata: dict[str, Any] | None = None
) -> Message:
    return _message(
        "assistant", content or "", None, None, None, False, calls, (), None, {}, (), metadata or {}
    )


def tool_call(call_id: str, name: str, arguments: str) -> ToolCall | None:
    """A call whose arguments are a JSON object orjson reads exactly; None for any other
    arguments (the usual way reads integers past 64 bits exactly)."""
    args = loads_object(arguments)
    return None if args is None else _call(call_id, name, args, {})


def read_plain(d: Any, unanswered: dict[str, str | None]) -> Message | None:
    """The message of a common-shaped dict, or None to leave it to the careful reader.

    ``unanswered`` is the reader's call id -> name of calls still waiting for a result: an
    assistant's calls join it, a tool message's result leaves it (as in the careful reader).
    """
    [message] = read_all([d], unanswered, lambda i, d: None)
    return message


def _calls(raw_calls: list[Any]) -> tuple[ToolCall, ...] | None:
    """Well-formed function calls whose arguments are a JSON object; None for anything else.

    Read by subscript, not ``get``: a missing key or a value of another type raises, and the
    careful reader takes the message.
    """
    calls = []
    try:
        for tc in raw_calls:
            fn = tc["function"]
            call_id = tc["id"]
            name = fn["name"]
            raw = fn["arguments"]
            if (
                len(tc) != 3
                or tc["type"] != "function"
                or len(fn) != 2
                or type(call_id) is not str
                or type(name) is not str
                or type(raw) is not str
                or (call := tool_call(call_id, name, raw)) is None
            ):
                return None
            calls.append(call)
    except (KeyError, TypeError, IndexError):
        return None
    return tuple(calls)


def read_all(
    items: list[Any],
    unanswered: dict[str, str | None],
    careful: Callable[[int, Any], T],
) -> list[Message | T]:
    """Every message of ``items``: the common shapes the quick way, the rest ``careful(i, d)``.

    The shapes are checked right in the loop, a function call each being a good part of
    their cost; the builders above make the messages.
    """
    out: list[Message | T] = []
    append = out.append
    answered = unanswered.pop
    for i, d in enumerate(items):
        if type(d) is dict:
            n = len(d)
            role = d.get("role")
            if role == "tool":
                if n == 3:
                    content = d.get("content")
                    call_id = d.get("tool_call_id")
                    if type(content) is str and type(call_id) is str:
                        answered(call_id, None)
                        append(tool_result(content, call_id))
                        continue
            elif n == 3 and role == "assistant" and "content" in d:
                # an assistant's calls (a third of a big agent run)
                content = d["content"]
                raw_calls = d.get("tool_calls")
                if type(raw_calls) is list and (content is None or type(content) is str):
                    calls = _calls(raw_calls)
                    if calls is not None:
                        for call in calls:
                            unanswered[call.id] = call.name  # type: ignore[index]
                        append(assistant_with_calls(content, calls))
                        continue
            elif n == 2 and (role == "user" or role == "assistant" or role == "system"):
                content = d.get("content")
                if type(content) is str:
                    append(plain(role, content))
                    continue
        append(careful(i, d))
    return out
