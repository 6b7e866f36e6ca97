"""The quick way through the common requests and responses of a big pydantic-ai history.

``request`` and ``response`` build messages straight from the parsed dicts when every part of
the item has one of the shapes that make up nearly every agent run: a system or user prompt of
string content, a tool return of string content, a retry prompt naming its tool, text,
thinking (not redacted) and tool calls whose ``args`` is an object. They return None for
anything else, and the careful reader (``read``) takes the whole item: it says what is wrong,
warns about unknown kinds, and reads the rarer shapes. For the shapes handled here the two
give equal messages.
"""

from __future__ import annotations

from typing import Any

from ...core._frozen import builder
from ...core.blocks import Block, ReasoningBlock, TextBlock
from ...core.message import Message, ToolCall
from ...core.usage import Usage
from .content import REDACTED_ID, REQUEST_KEY

# (the roles and contents below are already canonical: the builders skip the checks)
_message = builder(Message)
_call = builder(ToolCall)
_text = builder(TextBlock)
_reasoning = builder(ReasoningBlock)
_usage = builder(Usage)

# Fields each part's message is made from; the part's other fields become its metadata.
_PROMPT_FIELDS = frozenset({"content", "part_kind"})
_RETURN_FIELDS = frozenset({"tool_name", "tool_call_id", "content", "metadata", "part_kind"})
_RETRY_FIELDS = frozenset({"tool_name", "tool_call_id", "content", "part_kind"})
_CALL_FIELDS = frozenset({"tool_name", "tool_call_id", "args", "part_kind"})
_THINKING_FIELDS = frozenset({"content", "signature", "part_kind"})
# An item's own fields: what is left of a request or a response
_NOT_REQUEST_FIELDS = frozenset({"kind", "parts"})
_NOT_RESPONSE_FIELDS = frozenset({"kind", "parts", "usage"})


def _rest(part: dict[str, Any], skip: frozenset[str]) -> dict[str, Any]:
    """The part's other fields, as the careful reader keeps them (``read._meta``).

    (A plain loop: a comprehension costs a function call more, on every part.)
    """
    if skip.issuperset(part):
        return {}  # the common case: a part of just the fields its message is made from
    rest = {}
    for k, v in part.items():
        if k not in skip and v is not None and not (k == "outcome" and v == "success"):
            rest[k] = v
    return rest


def messages(item: Any) -> list[Message] | None:
    """The messages of a request or a response of the common shapes; None for anything else."""
    if type(item) is not dict or type(parts := item.get("parts")) is not list:
        return None
    kind = item.get("kind")
    if kind == "request":
        return request(item, parts)
    if kind == "response" and (message := response(item, parts)) is not None:
        return [message]
    return None


def request(item: dict[str, Any], parts: list[Any]) -> list[Message] | None:
    """A request's messages, one per part; None unless every part has a common shape."""
    if not parts:
        return None  # (a placeholder message stands for it: the careful reader makes it)
    fields = {k: v for k, v in item.items() if k not in _NOT_REQUEST_FIELDS and v is not None}
    out = []
    for part in parts:
        message = _request_part(part, fields if not out else None)
        if message is None:
            return None
        out.append(message)
    return out


def _request_part(part: Any, request_fields: dict[str, Any] | None) -> Message | None:
    """The message of one request part; ``request_fields`` go into the first one's metadata."""
    if type(part) is not dict:
        return None
    kind = part.get("part_kind")
    content = part.get("content")
    if type(content) is not str:
        return None
    if kind == "tool-return":
        name = part.get("tool_name")
        call_id = part.get("tool_call_id")
        if type(name) is not str or type(call_id) is not str:
            return None
        outcome = part.get("outcome")
        artifact = part.get("metadata")
        return _message(
            "tool",
            content,
            None,
            name,
            call_id,
            isinstance(outcome, str) and outcome == "failed",
            (),
            (),
            None,
            {},
            () if artifact is None else (artifact,),
            _with_request(_rest(part, _RETURN_FIELDS), request_fields),
        )
    if kind == "user-prompt" or kind == "system-prompt":
        role = "user" if kind == "user-prompt" else "system"
        metadata = _with_request(_rest(part, _PROMPT_FIELDS), request_fields)
        return _message(role, content, None, None, None, False, (), (), None, {}, (), metadata)
    if kind == "retry-prompt":
        name = part.get("tool_name")
        call_id = part.get("tool_call_id")
        if type(name) is not str or not (call_id is None or type(call_id) is str):
            return None  # (one naming no tool is a user message: the careful reader's)
        metadata = _with_request(_rest(part, _RETRY_FIELDS), request_fields)
        return _message("tool", content, None, name, call_id, True, (), (), None, {}, (), metadata)
    return None


def _with_request(metadata: dict[str, Any], fields: dict[str, Any] | None) -> dict[str, Any]:
    return metadata if fields is None else {REQUEST_KEY: fields, **metadata}


def response(item: dict[str, Any], parts: list[Any]) -> Message | None:
    """A response's assistant message; None unless every part has a common shape."""
    usage = item.get("usage")
    if usage is not None:
        usage = _read_usage(usage)
        if usage is None:
            return None
    blocks: list[Block] = []
    calls: list[ToolCall] = []
    for part in parts:
        if type(part) is not dict:
            return None
        kind = part.get("part_kind")
        if kind == "tool-call":
            call = _tool_call(part)
            if call is None:
                return None
            calls.append(call)
            continue
        text = part.get("content")
        if type(text) is not str:
            return None
        if kind == "text":
            blocks.append(_text(text, (), _rest(part, _PROMPT_FIELDS)))
        elif kind == "thinking" and (thinking := _thinking(part, text)) is not None:
            blocks.append(thinking)
        else:
            return None
    content: str | tuple[Block, ...] = tuple(blocks)
    if len(blocks) == 1 and type(blocks[0]) is TextBlock and not blocks[0].extra:
        content = blocks[0].text
    metadata = {}
    for k, v in item.items():  # (a plain loop: a comprehension is a call more)
        if v is not None and k not in _NOT_RESPONSE_FIELDS:
            metadata[k] = v
    return _message(
        "assistant", content, None, None, None, False, tuple(calls), (), usage, metadata, (), {}
    )


def _tool_call(part: dict[str, Any]) -> ToolCall | None:
    """A call whose ``args`` is an object (or absent); None for any other call."""
    name = part.get("tool_name")
    call_id = part.get("tool_call_id")
    args = part.get("args")
    if args is None:
        args = {}
    elif type(args) is not dict:
        return None  # (JSON text: parsed, and perhaps invalid, by the careful reader)
    if type(name) is not str or not (call_id is None or type(call_id) is str):
        return None
    return _call(call_id, name, args, _rest(part, _CALL_FIELDS))


def _thinking(part: dict[str, Any], text: str) -> ReasoningBlock | None:
    """A readable thinking part as a block; None for redacted thinking or an odd signature."""
    signature = part.get("signature")
    if signature is not None and (type(signature) is not str or part.get("id") == REDACTED_ID):
        return None
    return _reasoning(text, signature, False, None, _rest(part, _THINKING_FIELDS))


def _read_usage(raw: Any) -> Usage | None:
    """``usage_in`` of the common usage dict: whole-number counts; None for anything else."""
    if type(raw) is not dict:
        return None
    get = raw.get
    inp = get("input_tokens") or 0
    out = get("output_tokens") or 0
    cache_read = get("cache_read_tokens") or 0
    cache_write = get("cache_write_tokens") or 0
    details = get("details") or {}
    if type(details) is not dict:
        return None
    reasoning = details.get("reasoning_tokens") or 0
    if not (
        type(inp) is type(out) is type(cache_read) is type(cache_write) is type(reasoning) is int
    ):
        return None
    return _usage(inp, out, inp + out, cache_read, cache_write, reasoning, raw)
