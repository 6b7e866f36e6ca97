"""The fast path of native decoding, for histories of 10^5 messages.

It builds values straight from well-formed dicts with only the type checks that are cheap,
through the builders of ``_frozen`` (no ``__post_init__``: the values it passes are already
canonical). Anything unusual (an alias role, a field it does not expect, a wrong type) makes it
give up on that message, and the careful decoder in ``serialize`` builds it instead or explains
exactly where the data is wrong. Both produce equal values.
"""

from __future__ import annotations

from typing import Any

from ._frozen import builder
from .blocks import AudioBlock, FileBlock, ImageBlock, ReasoningBlock, TextBlock, VideoBlock
from .message import _ROLE_OBJECTS as _ROLE
from .message import Message, ToolCall
from .usage import Usage


class Unusual(Exception):
    """Raised inside the fast path: let the careful decoder handle this message."""


_message = builder(Message)
_text = builder(TextBlock)
_reasoning = builder(ReasoningBlock)
_tool_call = builder(ToolCall)
_usage = builder(Usage)

_MESSAGE_KEYS = frozenset(
    {
        "role",
        "content",
        "id",
        "name",
        "tool_call_id",
        "is_error",
        "tool_calls",
        "usage",
        "response_metadata",
        "metadata",
    }
)
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
_MEDIA = {"image": ImageBlock, "audio": AudioBlock, "video": VideoBlock, "file": FileBlock}
_MEDIA_KEYS = frozenset({"type", "url", "data", "file_id", "mime_type", "filename"})
_STR_OR_NONE = (str, type(None))


def _block(b: Any) -> Any:
    if type(b) is not dict:
        raise Unusual
    tag = b.get("type")
    if tag == "text":
        text = b.get("text")
        if len(b) == 2 and type(text) is str:
            return _text(text)
    elif tag == "reasoning":
        text = b.get("text", "")
        signature = b.get("signature")
        n = 1 + ("text" in b) + ("signature" in b)
        if len(b) == n and type(text) is str and type(signature) in _STR_OR_NONE:
            return _reasoning(text, signature)
    elif tag in _MEDIA and _MEDIA_KEYS.issuperset(b):
        fields = {k: v for k, v in b.items() if k != "type"}
        for v in fields.values():
            if type(v) not in _STR_OR_NONE:
                raise Unusual
        return _MEDIA[tag](**fields)  # the class: a data URI url is split by __post_init__
    raise Unusual


def _call(c: Any) -> ToolCall:
    if type(c) is not dict or len(c) != 3:
        raise Unusual
    call_id = c.get("id", 0)
    name = c.get("name")
    args = c.get("args")
    if type(call_id) not in _STR_OR_NONE or type(name) is not str or type(args) is not dict:
        raise Unusual
    return _tool_call(call_id, name, args, {})


def _usage_of(u: Any) -> Usage:
    if type(u) is not dict or not _USAGE_KEYS.issuperset(u):
        raise Unusual
    for v in u.values():
        if type(v) is not int:
            raise Unusual
    i = u.get("input_tokens", 0)
    o = u.get("output_tokens", 0)
    return _usage(
        i,
        o,
        u.get("total_tokens", 0) or i + o,  # as Usage.__post_init__ fills it in
        u.get("cache_read_tokens", 0),
        u.get("cache_write_tokens", 0),
        u.get("reasoning_tokens", 0),
        {},
    )


def message(d: Any) -> Message:
    """A message from a well-formed dict, or ``Unusual``."""
    if type(d) is not dict or not _MESSAGE_KEYS.issuperset(d):
        raise Unusual
    role = _ROLE.get(d.get("role"))  # (TypeError for an unhashable role: the caller's fallback)
    if role is None:
        raise Unusual
    content = d.get("content", "")
    if type(content) is list:
        content = tuple([_block(b) for b in content])
    elif type(content) is not str:
        raise Unusual
    n = len(d)
    if n == 2 and "content" in d:
        return _message(role, content, None, None, None, False, (), (), None, {}, (), {})
    if role == "tool" and (n == 3 or n == 4) and "content" in d:
        # The common tool result: role, content, tool_call_id and maybe the tool's name.
        call_id = d.get("tool_call_id")
        name = d.get("name")
        if type(call_id) is str and (type(name) is str if n == 4 else name is None):
            return _message("tool", content, None, name, call_id, False, (), (), None, {}, (), {})
    mid = d.get("id")
    name = d.get("name")
    call_id = d.get("tool_call_id")
    is_error = d.get("is_error", False)
    calls = d.get("tool_calls", ())
    usage = d.get("usage")
    response_metadata = d.get("response_metadata", {})
    metadata = d.get("metadata", {})
    if (
        type(mid) not in _STR_OR_NONE
        or type(name) not in _STR_OR_NONE
        or type(call_id) not in _STR_OR_NONE
        or type(is_error) is not bool
        or type(response_metadata) is not dict
        or type(metadata) is not dict
    ):
        raise Unusual
    if type(calls) is list:
        calls = tuple([_call(c) for c in calls])
    elif calls != ():
        raise Unusual
    if usage is not None:
        usage = _usage_of(usage)
    elif "usage" in d:
        raise Unusual  # "usage": null is refused by the careful decoder, with its path
    return _message(
        role,
        content,
        mid,
        name,
        call_id,
        is_error,
        calls,
        (),
        usage,
        response_metadata,
        (),
        metadata,
    )
