"""The quick way through the messages of a big Anthropic request body.

``read_messages`` builds messages straight from the shapes that make up nearly every large
history: ``{"role", "content"}`` with string content, or content blocks of the common kinds
(text, thinking, ``tool_use``, ``tool_result`` with string content) and no field beyond the
usual ones. A block of another kind or shape is read by ``AnthropicReader.block``, as
``AnthropicReader.content`` does; a message of any other shape goes to the careful
``read_message``. Both ways give equal messages and leave the reader in the same state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core._frozen import builder
from ...core.blocks import Block, ReasoningBlock, TextBlock, ToolCallBlock, ToolResultBlock
from ...core.message import Message, ToolCall
from ..shared.provider import place_tool_calls
from .read_content import AnthropicReader

# Builders for values already in their canonical form (roles, tuples, empty extras).
_message = builder(Message)
_text = builder(TextBlock)
_reasoning = builder(ReasoningBlock)
_tool_call = builder(ToolCall)
_tool_call_block = builder(ToolCallBlock)
_tool_result = builder(ToolResultBlock)

CarefulReader = Callable[[Any, AnthropicReader, str], Message]


def read_messages(
    items: list[Any], reader: AnthropicReader, path: str, careful: CarefulReader
) -> list[Message]:
    """Every message of ``items``: two-key messages here, the rest by ``careful``."""
    out: list[Message] = []
    append = out.append
    for i, m in reader.ctx.each(items):
        if type(m) is dict and len(m) == 2:
            role = m.get("role")
            content = m.get("content")
            if role == "user" or role == "assistant":
                role = "assistant" if role == "assistant" else "user"  # the code's own strings
                if type(content) is str:
                    append(_plain(role, content))
                    continue
                if type(content) is list:
                    append(_with_blocks(role, content, reader, path, i))
                    continue
        append(careful(m, reader, f"{path}[{i}]"))
    return out


def _plain(role: str, content: str) -> Message:
    """A message of just a role and text."""
    return _message(role, content, None, None, None, False, (), (), None, {}, (), {})


def _with_blocks(
    role: str, content: list[Any], reader: AnthropicReader, path: str, index: int
) -> Message:
    """Message ``index`` of ``path``, of a role and a list of blocks: ``AnthropicReader.content``,
    the common blocks built right in the loop (its calls taken out when it is the assistant's).

    A block is built here only when it has exactly the fields named (so no ``extra``);
    ``reader.block`` reads any other, or explains the error.
    """
    calls_out = role == "assistant"
    blocks: list[Block] = []
    calls: list[ToolCall] = []
    call_places: list[int] = []
    pending = reader.pending
    for i, raw in enumerate(content):
        if type(raw) is dict:
            kind = raw.get("type")
            n = len(raw)
            if kind == "text":
                text = raw.get("text")
                if n == 2 and type(text) is str:
                    blocks.append(_text(text, (), {}))
                    continue
            elif kind == "tool_use":
                call_id = raw.get("id")
                name = raw.get("name")
                args = raw.get("input")
                if n == 4 and type(call_id) is str and type(name) is str and type(args) is dict:
                    pending[call_id] = call_id
                    name = reader.names.setdefault(name, name)
                    if calls_out:
                        calls.append(_tool_call(call_id, name, args, {}))
                        call_places.append(i)
                    else:
                        blocks.append(_tool_call_block(call_id, name, args, {}))
                    continue
            elif kind == "thinking":
                text = raw.get("thinking")
                signature = raw.get("signature")
                if n == 3 and type(text) is str and type(signature) is str:
                    blocks.append(_reasoning(text, signature, False, None, {}))
                    continue
            elif kind == "tool_result":
                call_id = raw.get("tool_use_id")
                result = raw.get("content")
                if type(call_id) is str and type(result) is str:
                    call_id = pending.pop(call_id, call_id)
                    if n == 3:
                        blocks.append(_tool_result(call_id, result, False, {}))
                        continue
                    is_error = raw.get("is_error")
                    if n == 4 and type(is_error) is bool:
                        extra = {} if is_error else {"is_error": False}  # written back as is
                        blocks.append(_tool_result(call_id, result, is_error, extra))
                        continue
        block = reader.block(raw, f"{path}[{index}].content[{i}]")  # (paths made only here)
        if calls_out and type(block) is ToolCallBlock:
            calls.append(ToolCall(block.id, block.name, block.args, extra=block.extra))
            call_places.append(i)
        else:
            blocks.append(block)
    if calls and call_places[0] != len(blocks):  # a call with a block after it: note its place
        tool_calls = place_tool_calls(content, list(zip(call_places, calls, strict=True)))
    else:
        tool_calls = tuple(calls)
    return _message(role, tuple(blocks), None, None, None, False, tool_calls, (), None, {}, (), {})
