"""Reading an Anthropic request body, response or message list into a conversation."""

from __future__ import annotations

from typing import Any

from ...core._frozen import builder
from ...core.message import Message
from ..base import Context, Conversation
from .detect import NAME
from .quick import read_messages
from .read_content import AnthropicReader, read_usage

_message = builder(Message)  # for the roles and content read below: already canonical


def read_message(m: Any, reader: AnthropicReader, path: str) -> Message:
    """One wire message (``{"role", "content", ...}``) of a request body."""
    if not isinstance(m, dict):
        raise reader.error("a message must be an object", path)
    role = m.get("role")
    if role not in ("user", "assistant"):
        raise reader.error(f"role must be 'user' or 'assistant', not {role!r}", f"{path}.role")
    if "content" not in m:
        raise reader.error('a message needs "content"', path)
    role = "assistant" if role == "assistant" else "user"  # the code's strings: one object each
    content, calls = reader.content(m["content"], f"{path}.content", calls_out=role == "assistant")
    rest = {k: v for k, v in m.items() if k not in ("role", "content")} if len(m) > 2 else {}
    return _message(role, content, None, None, None, False, calls, (), None, {}, (), rest)


def _read_response(value: dict[str, Any], reader: AnthropicReader) -> Conversation:
    content, calls = reader.content(value.get("content"), "$.content", calls_out=True)
    id_ = value.get("id")
    if id_ is not None and not isinstance(id_, str):
        raise reader.error("id must be a string", "$.id")
    raw_usage = value.get("usage")
    usage = read_usage(raw_usage, reader, "$.usage") if raw_usage is not None else None
    skip = ("id", "type", "role", "content") + (("usage",) if usage is not None else ())
    meta = {k: v for k, v in value.items() if k not in skip}
    message = Message(
        "assistant", content, id=id_, tool_calls=calls, usage=usage, response_metadata=meta
    )
    return Conversation((message,), NAME, {"type": "message"})


def read(value: Any, ctx: Context) -> list[Conversation]:
    """A request body, a response, or a list of messages -> one conversation."""
    reader = AnthropicReader(ctx)
    if isinstance(value, list):
        messages = read_messages(value, reader, "$", read_message)
        return [Conversation(tuple(messages), NAME)]
    if not isinstance(value, dict):
        raise ctx.error("not an Anthropic request body or response")
    if value.get("type") == "message":
        return [_read_response(value, reader)]
    raw = value.get("messages")
    if not isinstance(raw, list):
        raise ctx.error('"messages" must be an array', "$.messages")
    out: list[Message] = []
    system = value.get("system")
    if system is not None:
        if not isinstance(system, (str, list)):
            raise ctx.error("system must be a string or an array of text blocks", "$.system")
        content, _ = reader.content(system, "$.system", calls_out=False)
        out.append(Message("system", content))
    out.extend(read_messages(raw, reader, "$.messages", read_message))
    meta = {k: v for k, v in value.items() if k != "messages" and (k != "system" or v is None)}
    return [Conversation(tuple(out), NAME, meta)]
