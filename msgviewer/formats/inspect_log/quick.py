"""The quick way through the common messages of a big Inspect sample.

``message`` builds a message straight from the parsed dict when it has one of the shapes
that make up nearly every eval: any role, an ``id`` that is a string (or no ``id``), content
that is a string or a list of text and (not redacted) reasoning items, an assistant's
``tool_calls`` whose arguments are objects and its ``model`` a string, a tool message's
``tool_call_id`` and ``function`` strings. It returns None for anything else, and the careful
reader (``read_messages.Reader.message``) takes the message: it says what is wrong and reads
the rarer shapes. For the shapes handled here the two give equal messages, and resolve
``attachment://`` references in the same order (and, like it, only for a sample that has
attachments: the check costs a call on every text).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core._frozen import builder
from ...core.blocks import Block, ReasoningBlock, TextBlock
from ...core.message import Message, ToolCall

if TYPE_CHECKING:
    from .read_messages import Reader

# (the roles and contents below are already canonical: the builders skip the checks)
_message = builder(Message)
_call = builder(ToolCall)
_text = builder(TextBlock)
_reasoning = builder(ReasoningBlock)

# role -> the fields its message is made from (the careful reader's ``_MANAGED``); the
# message's other fields become its metadata. A tool's ``error`` is always kept there.
_MADE_FROM = {
    "system": frozenset({"id", "content", "role"}),
    "user": frozenset({"id", "content", "role"}),
    "assistant": frozenset({"id", "content", "role", "tool_calls", "model"}),
    "tool": frozenset({"id", "content", "role", "tool_call_id", "function"}),
}
# role -> the code's own string for it: every message shares one object, not the file's copy
_ROLES = {role: role for role in _MADE_FROM}
_TEXT_FIELDS = frozenset({"type", "text"})
_CALL_FIELDS = frozenset({"id", "function", "arguments"})


def _rest(d: dict[str, Any], skip: frozenset[str]) -> dict[str, Any]:
    """``d`` without the ``skip`` fields (a plain loop: a comprehension is a call more)."""
    if skip.issuperset(d):
        return {}
    rest = {}
    for k, v in d.items():
        if k not in skip:
            rest[k] = v
    return rest


def message(m: Any, reader: Reader) -> Message | None:
    """The message of a common-shaped dict, or None to leave it to the careful reader."""
    if type(m) is not dict:
        return None
    role = m.get("role")
    msg_id = m.get("id")
    if type(role) is not str or (role := _ROLES.get(role)) is None:
        return None
    if not ((msg_id is None and "id" not in m) or type(msg_id) is str):
        return None  # (an explicit null id is kept in metadata by the careful reader)
    content = _content(m.get("content"), reader)
    if content is None:
        return None
    metadata = _rest(m, _MADE_FROM[role])
    if role == "assistant":
        return _assistant(m, msg_id, content, metadata, reader)
    if role == "tool":
        return _tool(m, msg_id, content, metadata)
    return _message(role, content, msg_id, None, None, False, (), (), None, {}, (), metadata)


def _assistant(
    m: dict[str, Any],
    msg_id: str | None,
    content: str | tuple[Block, ...],
    metadata: dict[str, Any],
    reader: Reader,
) -> Message | None:
    model = m.get("model")
    raw_calls = m.get("tool_calls")
    if (model is None and "model" in m) or not (model is None or type(model) is str):
        return None
    calls: tuple[ToolCall, ...] = ()
    if raw_calls is not None:
        calls = _tool_calls(raw_calls)  # type: ignore[assignment]
        if calls is None:
            return None
    elif "tool_calls" in m:
        return None  # (an explicit null: kept in metadata by the careful reader)
    usage = reader.usage_by_id.get(msg_id) if msg_id is not None else None
    response = {"model": model} if model is not None else {}
    return _message(
        "assistant", content, msg_id, None, None, False, calls, (), usage, response, (), metadata
    )


def _tool(
    m: dict[str, Any], msg_id: str | None, content: str | tuple[Block, ...], metadata: Any
) -> Message | None:
    call_id = m.get("tool_call_id")
    name = m.get("function")
    if not ((call_id is None and "tool_call_id" not in m) or type(call_id) is str):
        return None
    if not ((name is None and "function" not in m) or type(name) is str):
        return None
    is_error = m.get("error") is not None
    return _message(
        "tool", content, msg_id, name, call_id, is_error, (), (), None, {}, (), metadata
    )


def _tool_calls(raw: Any) -> tuple[ToolCall, ...] | None:
    """Calls whose arguments are objects; None for anything else."""
    if type(raw) is not list:
        return None
    calls = []
    for call in raw:
        if type(call) is not dict:
            return None
        name = call.get("function")
        call_id = call.get("id")
        args = call.get("arguments")
        if type(name) is not str or type(args) is not dict:
            return None  # (arguments as JSON text: parsed, maybe invalid, by the careful reader)
        if not args and call.get("parse_error") is not None:
            return None  # (Inspect's own unparsable call: the careful reader's)
        if not (call_id is None or type(call_id) is str):
            return None
        calls.append(_call(call_id, name, args, _rest(call, _CALL_FIELDS)))
    return tuple(calls)


def _content(content: Any, reader: Reader) -> str | tuple[Block, ...] | None:
    """String content, or a list of text and reasoning items; None for anything else."""
    if type(content) is str:
        return reader.resolve(content) if reader.attachments else content
    if type(content) is not list:
        return None
    blocks: list[Block] = []
    for item in content:
        if type(item) is not dict:
            return None
        kind = item.get("type")
        if kind == "text":
            text = item.get("text")
            if type(text) is not str or isinstance(item.get("citations"), list):
                return None  # (citations: read into blocks of their own by the careful reader)
            if reader.attachments:
                text = reader.resolve(text)
            blocks.append(_text(text, (), _rest(item, _TEXT_FIELDS)))
        elif kind == "reasoning" and (block := _thinking(item, reader)) is not None:
            blocks.append(block)
        else:
            return None
    return tuple(blocks)


def _thinking(item: dict[str, Any], reader: Reader) -> ReasoningBlock | None:
    """Readable (not redacted) reasoning; None for anything else."""
    text = item.get("reasoning")
    signature = item.get("signature")
    if type(text) is not str or item.get("redacted", False) is not False:
        return None
    if signature is None:
        extra = _rest(item, _REASONING_FIELDS)
    elif type(signature) is str:
        extra = _rest(item, _SIGNED_REASONING_FIELDS)
    else:
        return None
    if reader.attachments:
        text = reader.resolve(text)
    return _reasoning(text, signature, False, None, extra)


_REASONING_FIELDS = frozenset({"type", "reasoning"})
_SIGNED_REASONING_FIELDS = frozenset({"type", "reasoning", "signature"})
