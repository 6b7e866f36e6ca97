"""The quick way through the common records of a big Gemini CLI session.

``read_record`` builds messages straight from the shapes that make up nearly every large
session: a ``user`` record of ``id`` and string ``content``; a ``gemini`` record of ``id``,
string ``content``, thoughts, integer ``tokens``, ``model`` and tool calls (each with an id, a
name, object ``args`` and maybe a ``result``). It returns None for anything else, or for
anything unusual in those shapes, and the careful reader (``read._record``) takes the record;
the two give equal messages for the shapes handled here.
"""

from __future__ import annotations

from typing import Any

from ...core._frozen import builder
from ...core.blocks import Block, ReasoningBlock, TextBlock
from ...core.message import Message, ToolCall
from ...core.usage import Usage
from .detect import RESULT_KEY

# Builders for values already in their canonical form (roles, tuples, empty extras).
_message = builder(Message)
_text = builder(TextBlock)
_reasoning = builder(ReasoningBlock)
_call = builder(ToolCall)
_usage = builder(Usage)

_GEMINI_KEYS = frozenset({"id", "type", "content", "thoughts", "tokens", "model", "toolCalls"})
"""A ``gemini`` record's fields the quick way reads (all of them known to the reader)."""


def read_record(record: Any, result_text: Any) -> list[Message] | None:
    """The messages of a common record, or None to leave it to the careful reader.

    ``result_text`` is the reader's own reading of a call's ``result`` as tool message text.
    """
    if type(record) is not dict:
        return None
    kind = record.get("type")
    msg_id = record.get("id")
    content = record.get("content")
    if type(msg_id) is not str or type(content) is not str:
        return None
    if kind == "user":
        if len(record) != 3:
            return None
        return [_message("user", content, msg_id, None, None, False, (), (), None, {}, (), {})]
    if kind != "gemini" or not _GEMINI_KEYS.issuperset(record):
        return None
    return _gemini(record, msg_id, content, result_text)


def _gemini(
    record: dict[str, Any], msg_id: str, text: str, result_text: Any
) -> list[Message] | None:
    """An assistant turn (thoughts first, then its text) and its calls' results."""
    thoughts = _thoughts(record.get("thoughts"))
    tokens = record.get("tokens")
    usage = _tokens(tokens) if tokens is not None else None
    model = record.get("model")
    raw_calls = record.get("toolCalls")
    calls = _calls(raw_calls, result_text) if raw_calls is not None else ((), [])
    if thoughts is None or calls is None or (tokens is not None and usage is None):
        return None
    if ("thoughts" in record and not thoughts) or ("toolCalls" in record and not calls[0]):
        return None  # kept in metadata by the careful reader
    if "tokens" in record and tokens is None:
        return None
    content: str | tuple[Block, ...] = text
    if thoughts:
        content = (*thoughts, _text(text, (), {})) if text else thoughts
    response_metadata = {"model": model} if model is not None else {}
    tool_calls, results = calls
    fields = (msg_id, None, None, False, tool_calls, (), usage, response_metadata, (), {})
    return [_message("assistant", content, *fields), *results]


def _thoughts(value: Any) -> tuple[Block, ...] | None:
    """Reasoning blocks of thoughts with a string ``description``; None for anything else."""
    if value is None:
        return ()
    if type(value) is not list:
        return None
    out: list[Block] = []
    for thought in value:
        if type(thought) is not dict or type(text := thought.get("description")) is not str:
            return None
        extra = dict(thought)  # (a copy less one key: quicker than a comprehension)
        del extra["description"]
        out.append(_reasoning(text, None, False, None, extra))
    return tuple(out)


def _tokens(tokens: Any) -> Usage | None:
    """Usage of integer counts (a missing or falsy one counts 0, as the careful reader has it);
    None for any other."""
    if type(tokens) is not dict:
        return None
    get = tokens.get
    prompt = get("input") or 0
    output = get("output") or 0
    total = get("total") or 0
    cached = get("cached") or 0
    thoughts = get("thoughts") or 0
    if not (
        type(prompt) is int
        and type(output) is int
        and type(total) is int
        and type(cached) is int
        and type(thoughts) is int
    ):
        return None
    # input is promptTokenCount (cache included); thoughts are not inside output.
    output += thoughts
    return _usage(prompt, output, total or prompt + output, cached, 0, thoughts, tokens)


def _calls(value: Any, result_text: Any) -> tuple[tuple[ToolCall, ...], list[Message]] | None:
    """Calls with an id, a name and object args, and a tool message for each result."""
    if type(value) is not list:
        return None
    calls: list[ToolCall] = []
    results: list[Message] = []
    for call in value:
        if type(call) is not dict:
            return None
        call_id = call.get("id")
        name = call.get("name")
        args = call.get("args")
        if type(call_id) is not str or type(name) is not str or type(args) is not dict:
            return None
        extra = dict(call)  # the fields besides the four read (a copy less those: quicker)
        del extra["id"], extra["name"], extra["args"]
        has_result = "result" in extra
        raw = extra.pop("result", None)
        calls.append(_call(call_id, name, args, extra))
        if has_result:
            text = result_text(raw, call_id, name)
            is_error = call.get("status") == "error"
            meta = {RESULT_KEY: raw}
            results.append(
                _message("tool", text, None, name, call_id, is_error, (), (), None, {}, (), meta)
            )
    return tuple(calls), results
