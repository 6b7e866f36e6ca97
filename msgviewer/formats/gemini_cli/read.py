"""Reading a Gemini CLI chat session into one conversation."""

from __future__ import annotations

import json
from typing import Any

from ...core.blocks import Block, ReasoningBlock, TextBlock, UnknownBlock
from ...core.message import Message, ToolCall
from ...core.usage import Usage
from ..base import Context, Conversation
from ..shared.json_checks import want_dict, want_int, want_list, want_str
from .detect import NAME, NOTE_TYPES, PARTS_KEY, RECORD_TYPES, RESULT_KEY, TYPE_KEY
from .quick import read_record

_THOUGHT_TEXT = "description"
_CALL_KEYS = ("id", "name", "args", "result")


def read(value: Any, ctx: Context) -> list[Conversation]:
    """The session's messages; its own fields (``sessionId``, ``startTime``...) as metadata."""
    session = want_dict(value, "a Gemini CLI session", ctx, "$")
    records = want_list(session.get("messages"), "messages", ctx, "$.messages")
    messages: list[Message] = []
    for i, record in ctx.each(records):
        quick = read_record(record, result_text)
        messages.extend(quick if quick is not None else _record(record, ctx, f"$.messages[{i}]"))
    metadata = {k: v for k, v in session.items() if k != "messages"}
    title = session.get("summary") if isinstance(session.get("summary"), str) else None
    return [Conversation(tuple(messages), NAME, metadata, title=title)]


def _record(record: Any, ctx: Context, path: str) -> list[Message]:
    record = want_dict(record, "a session message", ctx, path)
    kind = record.get("type")
    if type(kind) is not str or kind not in RECORD_TYPES:
        raise ctx.error(
            f"unknown message type {kind!r} (expected one of {', '.join(sorted(RECORD_TYPES))})",
            f"{path}.type",
        )
    msg_id = want_str(record.get("id"), "id", ctx, f"{path}.id", optional=True)
    known = ("id", "type", "content", "thoughts", "tokens", "model", "toolCalls")
    metadata = {k: v for k, v in record.items() if k not in known}
    content = _content(record.get("content", ""), ctx, f"{path}.content", metadata)
    if kind != "gemini":
        if kind in NOTE_TYPES:
            metadata[TYPE_KEY] = kind
        role = "user" if kind == "user" else "system"
        return [Message(role, content, id=msg_id, metadata=metadata)]  # type: ignore[arg-type]
    blocks = _thoughts(record.get("thoughts"), ctx, f"{path}.thoughts")
    if "thoughts" in record and not blocks:
        metadata["thoughts"] = record["thoughts"]  # an empty list: kept to write it back
    if blocks:
        text = (TextBlock(content),) if type(content) is str and content else ()
        content = (*blocks, *(content if type(content) is tuple else text))
    kw: dict[str, Any] = {}
    if record.get("tokens") is not None:
        kw["usage"] = _usage(record["tokens"], ctx, f"{path}.tokens")
    elif "tokens" in record:
        metadata["tokens"] = None
    if record.get("model") is not None:
        kw["response_metadata"] = {"model": record["model"]}
    calls, results = _tool_calls(record.get("toolCalls"), ctx, f"{path}.toolCalls")
    if "toolCalls" in record and not calls:
        metadata["toolCalls"] = record["toolCalls"]
    assistant = Message("assistant", content, id=msg_id, tool_calls=calls, metadata=metadata, **kw)
    return [assistant, *results]


def _content(value: Any, ctx: Context, path: str, metadata: dict[str, Any]) -> str | tuple:
    """A string, or a list of parts (text parts become text; others are kept verbatim)."""
    if type(value) is str:
        return value
    metadata[PARTS_KEY] = True
    parts = value if isinstance(value, list) else [value]
    out: list[Block] = []
    for i, part in enumerate(parts):
        if type(part) is str:
            out.append(TextBlock(part, extra={"bare": True}))
        elif isinstance(part, dict) and set(part) == {"text"} and type(part["text"]) is str:
            out.append(TextBlock(part["text"]))
        else:
            ctx.warn("a content part that is not text; kept as is", f"{path}[{i}]")
            out.append(UnknownBlock("part", part))
    if not isinstance(value, list):
        metadata[PARTS_KEY] = "single"
    return tuple(out)


def _thoughts(value: Any, ctx: Context, path: str) -> tuple[Block, ...]:
    if value is None:
        return ()
    out: list[Block] = []
    for i, thought in enumerate(want_list(value, "thoughts", ctx, path)):
        thought = want_dict(thought, "a thought", ctx, f"{path}[{i}]")
        text = want_str(thought.get(_THOUGHT_TEXT, ""), "description", ctx, f"{path}[{i}]")
        extra = {k: v for k, v in thought.items() if k != _THOUGHT_TEXT}
        out.append(ReasoningBlock(text, extra=extra))
    return tuple(out)


def _usage(value: Any, ctx: Context, path: str) -> Usage:
    tokens = want_dict(value, "tokens", ctx, path)

    def count(key: str) -> int:
        return want_int(tokens.get(key) or 0, key, ctx, f"{path}.{key}")

    # input is promptTokenCount (cache included); thoughts are not inside output.
    return Usage(
        input_tokens=count("input"),
        output_tokens=count("output") + count("thoughts"),
        total_tokens=count("total"),
        cache_read_tokens=count("cached"),
        reasoning_tokens=count("thoughts"),
        extra=tokens,
    )


def _tool_calls(value: Any, ctx: Context, path: str) -> tuple[tuple[ToolCall, ...], list]:
    if value is None:
        return (), []
    calls: list[ToolCall] = []
    results: list[Message] = []
    for i, call in enumerate(want_list(value, "toolCalls", ctx, path)):
        sub = f"{path}[{i}]"
        call = want_dict(call, "a tool call", ctx, sub)
        call_id = want_str(call.get("id"), "tool call id", ctx, f"{sub}.id", optional=True)
        name = want_str(call.get("name"), "tool call name", ctx, f"{sub}.name")
        args = want_dict(call.get("args", {}), "tool call args", ctx, f"{sub}.args")
        extra = {k: v for k, v in call.items() if k not in _CALL_KEYS}
        calls.append(ToolCall(call_id, name, args, extra=extra))
        if "result" in call:
            results.append(_result(call, call_id, name, ctx, f"{sub}.result"))
    return tuple(calls), results


def _result(call: dict[str, Any], call_id: str | None, name: str, ctx: Context, path: str):
    raw = call["result"]
    return Message.tool(
        result_text(raw, call_id, name),
        tool_call_id=call_id,
        name=name,
        is_error=call.get("status") == "error",
        metadata={RESULT_KEY: raw},
    )


def result_text(raw: Any, call_id: str | None, name: str) -> str:
    """What a call's ``result`` says: the ``output`` (or ``error``) of its one
    ``functionResponse`` for this call, else the result as JSON text."""
    part = raw[0] if isinstance(raw, list) and len(raw) == 1 else raw
    if isinstance(part, dict) and len(part) == 1 and "functionResponse" in part:
        fr = part["functionResponse"]
        response = fr.get("response") if isinstance(fr, dict) else None
        # (with "response" present, three keys two of which match are the three named)
        if (
            isinstance(response, dict)
            and len(response) == 1
            and len(fr) == 3
            and fr.get("id") == call_id
            and fr.get("name") == name
            and "id" in fr
            and "name" in fr
        ):
            ((key, text),) = response.items()
            if key in ("output", "error") and type(text) is str:
                return text
    if type(raw) is str:
        return raw
    return json.dumps(raw, ensure_ascii=False)
