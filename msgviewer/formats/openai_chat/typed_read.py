"""Messages made straight from the typed records of a Chat Completions file (``typed``).

The common shapes are built here as the careful reader would build them; every other message
goes to the careful reader as the dict the usual way would have made of it (``as_dict``), and
a record whose keys' order in the file would be kept (which the records do not have) gives the
file up to the usual way.
"""

from __future__ import annotations

from typing import Any

from msgspec import UNSET

from ...core.blocks import ReasoningBlock, TextBlock
from ...core.message import Message, ToolCall
from ..base import Context, Conversation
from .detect import ARRAY_KEY, NAME
from .fast import assistant_with_calls, plain, tool_call, tool_result
from .read import Links, read_message
from .records import CallRecord, MessageRecord
from .typed import Document, Item, as_dict, keeps_order


def _response_fields(m: MessageRecord) -> dict[str, Any] | None:
    """The metadata the careful reader makes of an assistant's empty annotations and null
    refusal (None for a refusal, which it reads into the content)."""
    refusal = m.refusal
    annotations = m.annotations
    if refusal is UNSET and annotations is UNSET:
        return {}
    if refusal is not UNSET and refusal is not None:
        return None
    kept: dict[str, Any] = {}
    if annotations is not UNSET:
        kept["annotations"] = []  # (kept as an unknown key: before the refusal it adds)
    if refusal is None:
        kept["refusal"] = None
    return kept


def _calls(records: list[CallRecord]) -> tuple[ToolCall, ...] | None:
    """Function calls whose arguments are a JSON object; None for any other call."""
    calls = []
    for c in records:
        fn = c.function
        call = tool_call(c.id, fn.name, fn.arguments) if c.type == "function" else None
        if call is None:
            return None
        calls.append(call)
    return tuple(calls)


def _logged(m: MessageRecord) -> Message | None:
    """An assistant message with its own reasoning or usage (or both), as the careful reader
    reads it: the reasoning a block before the text, the usage kept in the metadata. None for
    any other shape of it."""
    content = m.content
    if (
        m.name is not UNSET
        or m.tool_call_id is not UNSET
        or m.refusal is not UNSET
        or m.annotations is not UNSET
        or not (content is None or type(content) is str)
    ):
        return None
    calls: tuple[ToolCall, ...] = ()
    if m.tool_calls is not UNSET:
        if type(m.tool_calls) is not list or (found := _calls(m.tool_calls)) is None:
            return None
        calls = found
    elif content is None and m.reasoning_content is UNSET:
        return None
    metadata = {} if m.usage is UNSET else {"usage": m.usage}
    if m.reasoning_content is UNSET:
        return assistant_with_calls(content, calls, metadata)
    blocks: tuple[Any, ...] = (ReasoningBlock(m.reasoning_content, extra={"field": REASONING}),)
    if content:
        blocks += (TextBlock(content),)
    return assistant_with_calls(blocks, calls, metadata)  # type: ignore[arg-type]


REASONING = "reasoning_content"


def _declined(items: list[Item]) -> bool:
    """Whether ``read`` will give up on a record (see there), found before it reads any: a
    record whose keys the careful reader does not read are more than one, or hold calls."""
    for m in items:
        if type(m) is dict:
            continue
        role = m.role
        if role == "assistant":  # (it reads calls, refusals and reasoning)
            kept = m.tool_call_id is not UNSET
            kept += (m.annotations is not UNSET) + (m.usage is not UNSET)
            if kept > 1:
                return True
            continue
        if m.tool_calls is not UNSET:
            return True
        kept = (m.refusal is not UNSET) + (m.annotations is not UNSET)
        kept += (m.reasoning_content is not UNSET) + (m.usage is not UNSET)
        if role != "tool" and role != "function":
            kept += m.tool_call_id is not UNSET
        if kept > 1:
            return True
    return False


def read(doc: Document, ctx: Context) -> list[Conversation] | None:
    """The conversation of a decoded file; what is not of the common shapes goes to the
    careful reader as the dict it would have had. None when a message would keep more than one
    key in its metadata, or its tool calls: their order in the file (which writing keeps) is not
    in the records."""
    if type(doc) is list:
        items, path, meta = doc, "$", {ARRAY_KEY: True}
    else:
        items, path, meta = doc.messages, "$.messages", doc.meta
    if any(type(m) is dict for m in items) and _declined(items):
        return None  # (before the careful reader has warned of anything it reads)
    links = Links(lambda: [as_dict(m) for m in items])
    careful = read_message
    unanswered = links.unanswered
    answered = unanswered.pop
    out: list[Message] = []
    append = out.append
    for i, m in enumerate(items):
        if type(m) is dict:  # off the common shapes: parsed whole, keys in the file's order
            append(careful(m, ctx, f"{path}[{i}]", links))
            continue
        role = m.role
        content = m.content
        if m.reasoning_content is not UNSET or m.usage is not UNSET:
            if role == "assistant" and (logged := _logged(m)) is not None:
                for call in logged.tool_calls:
                    unanswered[call.id] = call.name
                append(logged)
                continue
        elif m.name is UNSET:
            if role == "tool":
                call_id = m.tool_call_id
                if (
                    type(content) is str
                    and type(call_id) is str
                    and m.tool_calls is UNSET
                    and m.refusal is UNSET
                    and m.annotations is UNSET
                ):
                    answered(call_id, None)
                    append(tool_result(content, call_id))
                    continue
            elif role == "assistant" and (response := _response_fields(m)) is not None:
                if type(m.tool_calls) is list:
                    if (
                        content is not UNSET
                        and type(content) is not list
                        and m.tool_call_id is UNSET
                        and (calls := _calls(m.tool_calls)) is not None
                    ):
                        for call in calls:
                            unanswered[call.id] = call.name
                        append(assistant_with_calls(content, calls, response))
                        continue
                elif type(content) is str and m.tool_calls is UNSET and m.tool_call_id is UNSET:
                    append(plain(role, content, response))
                    continue
            elif (
                type(content) is str
                and m.tool_calls is UNSET
                and m.tool_call_id is UNSET
                and m.refusal is UNSET
                and m.annotations is UNSET
                and (role == "user" or role == "system")
            ):
                append(plain(role, content))
                continue
        d = as_dict(m)
        if not keeps_order(d):
            return None
        append(careful(d, ctx, f"{path}[{i}]", links))
    return [Conversation(tuple(out), NAME, meta)]
