"""Approximate token counts: LangChain's ``count_tokens_approximately`` over msgviewer messages.

Per message, a number of characters is summed and turned into tokens as
``ceil(chars / chars_per_token) + extra_tokens_per_message``; the total is rounded up once
more at the end. The characters are:

- string content: its length;
- block content, block by block:

  - ``TextBlock``: ``len(text)``;
  - ``ImageBlock``: no characters, ``tokens_per_image`` tokens instead (inline data is never
    measured);
  - ``UnknownBlock``: the provider's original dict is measured as LangChain would measure it
    (``"text"`` blocks by their text, ``"image"``/``"image_url"`` blocks by
    ``tokens_per_image``, anything else by ``len(repr(data))``);
  - every other block (reasoning, audio/video/file, tool call and result blocks, citations,
    errors...): ``len(repr(d))`` where ``d`` is the block's native dict form
    (``serialize.block_to_dict``), the stable textual form LangChain's ``repr(block)`` stands
    for. For a block whose keys match LangChain's standard block (``tool_call``: type, id, name,
    args) the count is LangChain's exactly; base64 in audio, video and file blocks is measured,
    as LangChain does;

- an assistant message's ``tool_calls``: ``len(repr([...]))`` of the calls as LangChain holds
  them (``{'name', 'args', 'id', 'type': 'tool_call'}``), for string content exactly as
  LangChain. With block content LangChain counts no tool calls, assuming they are also
  ``tool_use`` blocks of the content; msgviewer keeps calls out of the content, so it counts
  the calls that have no ``ToolCallBlock`` with the same id in the content;
- a tool message's ``tool_call_id``: its length;
- the role: ``len(role)`` ("system", "user", "assistant", "tool"; "developer" for a system
  message read from a developer message, as LangChain's OpenAI role says);
- the name, when ``count_name``: its length.

``invalid_tool_calls`` are not counted (LangChain does not count them either).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ._reprlen import dict_repr_len, str_repr_len
from .blocks import ImageBlock, ReasoningBlock, TextBlock, ToolCallBlock, UnknownBlock
from .message import Message
from .serialize import block_to_dict

_LC_IMAGE_TYPES = frozenset({"image", "image_url"})


def count_tokens_approximately(
    messages: Iterable[Message],
    *,
    chars_per_token: float = 4.0,
    extra_tokens_per_message: float = 3.0,
    count_name: bool = True,
    tokens_per_image: int = 85,
) -> int:
    """Approximate the number of tokens of ``messages`` (LangChain's formula; see module doc)."""
    total = 0.0
    for message in messages:
        total = accumulate(
            total, message, chars_per_token, extra_tokens_per_message, count_name, tokens_per_image
        )
    return math.ceil(total)


def accumulate(
    total: float,
    message: Message,
    chars_per_token: float,
    extra_tokens_per_message: float,
    count_name: bool,
    tokens_per_image: int,
) -> float:
    """``total`` plus one message's tokens, added in the same order LangChain adds them.

    The order matters only for float parameters (rounding of float sums): keeping it makes a
    running total over a list equal, bit for bit, to counting each of its prefixes.
    """
    content = message.content
    role = message.role
    call_blocks: set[str | None] | None = None  # ids of ToolCallBlocks in the content
    if type(content) is str:
        chars = len(content)
    else:
        chars = 0
        for block in content:
            kind = type(block)
            if kind is TextBlock:
                chars += len(block.text)  # type: ignore[union-attr]
            elif kind is ImageBlock:
                total += tokens_per_image
            elif (
                kind is ReasoningBlock
                and type(block.text) is str  # type: ignore[union-attr]
                and block.text  # type: ignore[union-attr]
                and block.redacted is False  # type: ignore[union-attr]
                and block.data is None  # type: ignore[union-attr]
                and not block.extra
            ):
                # The common reasoning block, measured as its dict {'type': 'reasoning',
                # 'text': ..., 'signature': ...} without building it: 31 characters of
                # braces, separators, keys and type; 15 more with a signature key.
                chars += 31 + str_repr_len(block.text)  # type: ignore[union-attr]
                signature = block.signature  # type: ignore[union-attr]
                if type(signature) is str:
                    chars += 15 + str_repr_len(signature)
                elif signature is not None:
                    chars += 15 + repr_len(signature)
            elif kind is UnknownBlock:
                data = block.data  # type: ignore[union-attr]
                lc_type = data.get("type") if isinstance(data, dict) else None
                if not isinstance(lc_type, str):  # any JSON may sit under "type"
                    lc_type = None
                if lc_type in _LC_IMAGE_TYPES:
                    total += tokens_per_image
                elif lc_type == "text":
                    text = data.get("text", "")
                    chars += len(text) if isinstance(text, str) else repr_len(text)
                else:
                    chars += repr_len(data)
            elif kind is ToolCallBlock:
                chars += repr_len(block_to_dict(block))  # type: ignore[arg-type]
                if call_blocks is None:
                    call_blocks = set()
                call_blocks.add(block.id)  # type: ignore[union-attr]
            else:
                chars += repr_len(block_to_dict(block))  # type: ignore[arg-type]
    if role == "assistant":
        calls = message.tool_calls
        if calls:
            if call_blocks is not None:
                calls = tuple(c for c in calls if c.id not in call_blocks)
            if calls:
                chars += _tool_calls_chars(calls)
    elif role == "tool":
        call_id = message.tool_call_id
        if call_id:
            chars += len(call_id)
    elif role == "system" and message.metadata.get("role") == "developer":
        role = "developer"
    chars += len(role)
    if count_name:
        name = message.name
        if name:
            chars += len(name)
    total += math.ceil(chars / chars_per_token)
    total += extra_tokens_per_message
    return total


# len(repr({'name': N, 'args': A, 'id': I, 'type': 'tool_call'})) less the reprs of N, A and I
# (49), plus the 2 characters of the ", " that joins it to the next call in the list, or of the
# list's brackets for the last one.
_CALL_CHARS = 51


def _tool_calls_chars(calls: tuple[Any, ...]) -> int:
    """``len(repr([...]))`` of ``calls`` as LangChain holds them (see ``_lc_tool_call``),
    summed from the reprs of their fields: the same number, without building the dicts."""
    n = _CALL_CHARS * len(calls)
    try:
        for c in calls:
            n += len(repr(c.name)) + len(repr(c.args)) + len(repr(c.id))
    except RecursionError:  # arguments nested too deep for repr
        return walked_repr_len([_lc_tool_call(c) for c in calls])
    return n


def repr_len(value: Any) -> int:
    """``len(repr(value))``, also for values too deep for ``repr`` (a file may nest 1,000 deep)."""
    try:
        if type(value) is dict:  # a block's dict: its long texts measured without a repr
            return dict_repr_len(value)
        return len(repr(value))
    except RecursionError:
        return walked_repr_len(value)


def walked_repr_len(value: Any) -> int:
    """``len(repr(value))`` of JSON-like data worked out without recursion."""
    total = 0
    stack = [value]
    while stack:  # the same count, without recursion: brackets, ", " and ": " separators
        v = stack.pop()
        if isinstance(v, dict):
            total += 2 + 4 * len(v) - (2 if v else 0)
            for key, item in v.items():
                stack.append(key)
                stack.append(item)
        elif isinstance(v, (list, tuple)):
            total += 2 + 2 * len(v) - (2 if v else 0)
            total += 1 if isinstance(v, tuple) and len(v) == 1 else 0
            stack.extend(v)
        else:
            total += len(repr(v))
    return total


def _lc_tool_call(call: Any) -> dict[str, Any]:
    # The key order of LangChain's ToolCall dict, so the repr has the same length.
    return {"name": call.name, "args": call.args, "id": call.id, "type": "tool_call"}


__all__ = ["count_tokens_approximately"]
