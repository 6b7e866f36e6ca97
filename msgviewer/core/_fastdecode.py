"""The fast path of native decoding, for histories of 10^5 messages.

It builds values straight from well-formed dicts with only the type checks that are cheap.
Anything unusual (an alias role, a field it does not expect, a wrong type) makes it give up on
that message, and the careful decoder in ``serialize`` builds it instead or explains exactly
where the data is wrong. Both produce equal values.
"""

from __future__ import annotations

from typing import Any

from .blocks import ReasoningBlock, TextBlock
from .message import ROLES, Message, ToolCall
from .usage import Usage


class Unusual(Exception):
    """Raised inside the fast path: let the careful decoder handle this message."""


_USAGE_KEYS = frozenset(
    {
        "input_tokens",
        "output_tokens",
        "total_tokens",
        "cache_read_tokens",
        "cache_write_tokens",
        "reasoning_tokens",
    }
)
_STR_OR_NONE = (str, type(None))


def _block(b: Any) -> Any:
    if type(b) is not dict:
        raise Unusual
    tag = b.get("type")
    if tag == "text":
        text = b.get("text")
        if len(b) == 2 and type(text) is str:
            return TextBlock(text)
    elif tag == "reasoning":
        text = b.get("text", "")
        signature = b.get("signature")
        n = 1 + ("text" in b) + ("signature" in b)
        if len(b) == n and type(text) is str and type(signature) in _STR_OR_NONE:
            return ReasoningBlock(text, signature)
    raise Unusual


def _tool_call(c: Any) -> ToolCall:
    if type(c) is not dict or len(c) != 3:
        raise Unusual
    call_id = c.get("id", 0)
    name = c.get("name")
    args = c.get("args")
    if type(call_id) not in _STR_OR_NONE or type(name) is not str or type(args) is not dict:
        raise Unusual
    return ToolCall(call_id, name, args)


def _usage(u: Any) -> Usage:
    if type(u) is not dict or not _USAGE_KEYS.issuperset(u):
        raise Unusual
    for v in u.values():
        if type(v) is not int:
            raise Unusual
    return Usage(**u)


def message(d: Any) -> Message:
    """A message from a well-formed dict, or ``Unusual``."""
    if type(d) is not dict:
        raise Unusual
    role = d.get("role")
    if role not in ROLES:
        raise Unusual
    content = d.get("content", "")
    if type(content) is list:
        content = tuple([_block(b) for b in content])
    elif type(content) is not str:
        raise Unusual
    if len(d) == 2 and "content" in d:
        return Message(role, content)
    kwargs: dict[str, Any] = {}
    for key, v in d.items():
        if key == "role" or key == "content":
            continue
        if key == "id" or key == "name" or key == "tool_call_id":
            if type(v) not in _STR_OR_NONE:
                raise Unusual
        elif key == "tool_calls":
            if type(v) is not list:
                raise Unusual
            v = tuple([_tool_call(c) for c in v])
        elif key == "usage":
            v = _usage(v)
        elif key == "response_metadata" or key == "metadata":
            if type(v) is not dict:
                raise Unusual
        elif key == "is_error":
            if type(v) is not bool:
                raise Unusual
        else:
            raise Unusual
        kwargs[key] = v
    return Message(role, content, **kwargs)
