"""The quick way through the common items of a big Responses item list.

``read_items`` builds messages straight from the shapes that make up nearly every long
history: a user or system message whose content is a string or plain text and image parts; an
assistant message of the same kind; a ``reasoning`` item; a ``function_call`` whose arguments
are a JSON object; a ``function_call_output`` whose output is a string. Every other item, and
anything unusual in those shapes, goes to the careful reader (``ItemReader``), which also gives
the errors and warnings; the two give equal messages for the shapes handled here.

Assistant-side items are grouped into messages by ``ItemReader``'s rules. The open message
is built when something else begins, or handed to the careful reader as its open draft when
the next item is one the careful reader takes.
"""

from __future__ import annotations

from typing import Any

from ...core._frozen import builder
from ...core.blocks import Block, ImageBlock, TextBlock
from ...core.call_order import split_calls
from ...core.message import Message, ToolCall
from ..base import Context
from ..io import loads_object
from .read_items import Draft, ItemReader, reasoning_block

# Message's fields by position (quicker than by keyword): role, content, id, name,
# tool_call_id, is_error, tool_calls, invalid_tool_calls, usage, response_metadata, artifacts,
# metadata
_message = builder(Message)
_text = builder(TextBlock)
_call = builder(ToolCall)
# role -> the code's own string for it: one object for every message's role, not one each
_STANDALONE_ROLES = {"user": "user", "system": "system"}
_MESSAGE_KEYS = frozenset({"type", "role", "content", "id"})
_CALL_KEYS = frozenset({"type", "call_id", "name", "arguments"})
_OUTPUT_KEYS = frozenset({"type", "call_id", "output"})
_TEXT_KEYS = frozenset({"type", "text", "annotations"})
_IMAGE_KEYS = frozenset({"type", "image_url", "file_id"})


class _Group(Draft):
    """An assistant message of ours, handed to the careful reader as its open draft where it
    takes over."""

    __slots__ = ()

    def __init__(
        self,
        content: list[Block] | str,
        calls: list[ToolCall],
        msg_id: str | None,
        metadata: dict[str, Any] | None,
        has_text: bool,
    ) -> None:
        super().__init__("assistant", content)
        self.calls.extend(calls)
        self.id = msg_id
        self.metadata = {} if metadata is None else metadata
        self.has_text = has_text


def read_items(items: list[Any], ctx: Context, path: str) -> list[Message]:
    """The messages of ``items`` (at ``path``), equal to what ``ItemReader`` makes of them.

    The dispatch stays in this one loop, and our open assistant message is kept in its
    variables (``content`` None: none open): a function call, or an object, per item is a
    good part of the cost.
    """
    reader = ItemReader(ctx)
    out: list[Draft | Message] = reader.drafts  # the careful reader's drafts and ours, in order
    append = out.append
    # our assistant message open to function calls, as ``Draft`` holds one
    content: list[Block] | str | None = None
    calls: list[ToolCall] = []
    msg_id: str | None = None
    metadata: dict[str, Any] | None = None
    has_text = False
    noted = False  # a call of it has fields of its own (``split_calls`` may look at them)
    handed = False  # the careful reader's assistant message is open to them instead
    drafted = False  # the careful reader took an item: ``out`` holds drafts to build
    for i, item in ctx.each(items):
        if type(item) is dict:
            kind = item.get("type")
            if kind is None and "role" in item:
                kind = "message"  # (as the careful reader takes it)
            if kind == "function_call":
                # joins our open assistant message, or opens one of no content
                call = None if handed else function_call(item)
                if call is not None:
                    if content is None:
                        content, calls, msg_id, metadata, has_text = [], [], None, None, False
                        noted = False
                    calls.append(call)
                    if call.extra:
                        noted = True
                    continue
            elif kind == "function_call_output" or (
                kind == "message" and item.get("role") != "assistant"
            ):
                # stands alone: ends the open assistant message
                message = (
                    function_output(item) if kind == "function_call_output"
                    else user_or_system(item, item.get("role"))
                )  # fmt: skip
                if message is not None:
                    if content is not None:
                        append(_assistant(content, calls, msg_id, metadata, noted))
                        content = None
                    if handed:
                        reader.close_group()
                        handed = False
                    append(message)
                    continue
            elif kind == "message":
                if not handed and (text := assistant_message(item)) is not None:
                    body, text_id, meta = text
                    # joins ours unless that would lose the items' order (``takes_text``)
                    if (
                        content is None
                        or calls
                        or has_text
                        or type(content) is str
                        or (type(body) is str and content)
                    ):
                        if content is not None:
                            append(_assistant(content, calls, msg_id, metadata, noted))
                        content, calls, metadata, noted = [], [], None, False
                    msg_id = text_id
                    has_text = True
                    metadata = meta or None  # (the first text of ours: it had none)
                    if type(body) is str:
                        content = body
                    else:
                        content.extend(body)  # type: ignore[union-attr]
                    continue
            elif kind == "reasoning" and not handed:
                # (the careful reader's own block: the same block, or the same error)
                block = reasoning_block(item, ctx, f"{path}[{i}]")
                if content is None or calls or type(content) is str:  # (``takes_block``)
                    if content is not None:
                        append(_assistant(content, calls, msg_id, metadata, noted))
                    content, calls, msg_id, metadata, has_text = [], [], None, None, False
                    noted = False
                content.append(block)  # type: ignore[union-attr]
                continue
        if content is not None:
            reader.resume(_Group(content, calls, msg_id, metadata, has_text))
            content = None
        reader.add(item, f"{path}[{i}]")
        handed = reader.group_open()
        drafted = True
    if content is not None:
        append(_assistant(content, calls, msg_id, metadata, noted))
    if not drafted:
        return out  # type: ignore[return-value]
    return [d if type(d) is Message else d.build() for d in out]  # type: ignore[union-attr]


def _assistant(
    content: list[Block] | str,
    calls: list[ToolCall],
    msg_id: str | None,
    metadata: dict[str, Any] | None,
    noted: bool,
) -> Message:
    """Our assistant message, as ``Draft.build`` makes it."""
    if noted:  # (a call's fields of its own may note where an invalid call was)
        valid, invalid = split_calls(calls)
    else:
        valid, invalid = tuple(calls), ()
    return _message(
        "assistant", content if type(content) is str else tuple(content), msg_id, None, None,
        False, valid, invalid, None, {}, (), {} if metadata is None else metadata,
    )  # fmt: skip


def function_call(item: dict[str, Any]) -> ToolCall | None:
    """A ``function_call`` whose arguments are a JSON object; None for any other."""
    try:  # (by subscript: quicker than get, and a missing key is rare)
        call_id = item["call_id"]
        name = item["name"]
        raw = item["arguments"]
    except KeyError:
        return None
    if type(call_id) is not str or type(name) is not str or type(raw) is not str:
        return None
    # (not JSON, "", or maybe an integer past 64 bits: the careful reader's, which reads them
    # exactly)
    args = loads_object(raw)
    if args is None:
        return None
    extra = {k: v for k, v in item.items() if k not in _CALL_KEYS} if len(item) > 4 else {}
    return _call(call_id, name, args, extra)


def function_output(item: dict[str, Any]) -> Message | None:
    """The tool message of a ``function_call_output`` with a string output; None otherwise."""
    try:
        call_id = item["call_id"]
        output = item["output"]
    except KeyError:
        return None
    if type(call_id) is not str or type(output) is not str:
        return None
    meta = {k: v for k, v in item.items() if k not in _OUTPUT_KEYS} if len(item) > 3 else {}
    return _message("tool", output, None, None, call_id, False, (), (), None, {}, (), meta)


def user_or_system(item: dict[str, Any], role: Any) -> Message | None:
    """A user or system message of common content; None for anything else."""
    if type(role) is not str or role not in _STANDALONE_ROLES:
        return None
    msg_id = item.get("id")
    content = _content(item.get("content"), "input_text")
    if content is None or (msg_id is not None and type(msg_id) is not str):
        return None
    meta = _message_metadata(item)
    role = _STANDALONE_ROLES[role]
    if type(content) is list:
        content = tuple(content)
    return _message(role, content, msg_id, None, None, False, (), (), None, {}, (), meta)


def assistant_message(
    item: dict[str, Any],
) -> tuple[str | list[Block], str | None, dict[str, Any]] | None:
    """Content, id and metadata of an assistant message of common, non-empty content; None
    otherwise. (An empty string marks where one turn ends: the careful reader takes it.)"""
    msg_id = item.get("id")
    content = _content(item.get("content"), "output_text")
    if content is None or content == "" or (msg_id is not None and type(msg_id) is not str):
        return None
    return content, msg_id, _message_metadata(item)


def _message_metadata(item: dict[str, Any]) -> dict[str, Any]:
    if item.keys() <= _MESSAGE_KEYS:
        return {}  # (the usual case, without going through the keys)
    return {k: v for k, v in item.items() if k not in _MESSAGE_KEYS}


def _content(raw: Any, default: str) -> str | list[Block] | None:
    """A string, or plain text and image parts as blocks; None for anything else."""
    if type(raw) is str:
        return raw
    if type(raw) is not list:
        return None
    blocks = []
    for part in raw:
        block = _part(part, default) if type(part) is dict else None
        if block is None:
            return None
        blocks.append(block)
    return blocks


def _part(d: dict[str, Any], default: str) -> Block | None:
    kind = d.get("type")
    if kind == default:
        text = d.get("text")
        notes = d.get("annotations")
        if type(text) is not str or not (notes is None or (type(notes) is list and not notes)):
            return None  # (citations: the careful reader's)
        extra = {k: v for k, v in d.items() if k not in _TEXT_KEYS} if len(d) > 2 else {}
        return _text(text, (), extra)
    if kind == "input_image":
        url = d.get("image_url")
        file_id = d.get("file_id")
        if (url is not None and type(url) is not str) or (
            file_id is not None and type(file_id) is not str
        ):
            return None
        extra = {k: v for k, v in d.items() if k not in _IMAGE_KEYS}
        return ImageBlock(url=url, file_id=file_id, extra=extra)  # (which reads a data URI)
    return None
