"""A line's content read as soon as the line is parsed, while the file is read piece by piece.

Read at the end, a line's block objects (each a dict with its keys), its content list and its
message dict are freed once the messages are built: they leave holes among what the messages
keep, which no later object fills. Read as the line is parsed, they are freed while the rest of
the file is parsed into their place. The line's ``message.content`` then holds an ``Early``:
the blocks and calls the reader would make of it (the tuple of blocks alone when there are no
calls and the key order is the usual one); a user line whose message is just its role and
content holds it in place of its ``message``. Only content of the common shapes is read
early (blocks of the usual keys in the usual orders, calls last), so ``wire`` gives back the
content exactly as parsed, for the lines that are not messages (written back as they were) and
for the responses split over lines (read from their lines together).
"""

from __future__ import annotations

from typing import Any

from ...core._frozen import builder
from ...core.blocks import ReasoningBlock, TextBlock, ToolCallBlock, ToolResultBlock
from ...core.message import ToolCall

_text = builder(TextBlock)
_reasoning = builder(ReasoningBlock)
_tool_call = builder(ToolCall)
_tool_call_block = builder(ToolCallBlock)
_tool_result = builder(ToolResultBlock)

_NONE: dict[str, Any] = {}
"""The ``extra`` of every block read early (they have none): one empty dict for them all, as
blocks are values no code changes in place (a dict of 64 bytes less per block, 0.06x the file
in a long session)."""
_TEXT = ("type", "text")
_THINKING = ("type", "thinking", "signature")
_TOOL_USE = ("type", "id", "name", "input")
_USER_KEYS = ("role", "content")
"""A user line's ``message`` of these keys alone (and role "user") is replaced by its content
read early: the message a user line keeps has no response fields (one empty dict for all,
where each line kept the emptied dict it was parsed into: 0.02x the file in a long session)."""
_RESULT_ORDERS = (("type", "tool_use_id", "content"), ("tool_use_id", "type", "content"))
"""The key orders of a ``tool_result`` read early: this writer's, and Claude Code's own."""


class Early:
    """A line's content as the reader makes it: blocks, and (on an assistant line) calls."""

    __slots__ = ("blocks", "calls", "order")

    def __init__(self, blocks: tuple[Any, ...], calls: tuple[ToolCall, ...], order: int) -> None:
        self.blocks = blocks
        self.calls = calls
        self.order = order
        """Index in ``_RESULT_ORDERS`` of the key order of the line's tool results."""


class Preparer:
    """Reads the content of each line given to it (``Format.prepare`` of ``claude-code``):
    one per file, sharing tool names and the ids of calls with their results."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self.pending: dict[str, str] = {}
        self.shared: dict[str, str] = {}

    def __call__(self, record: Any) -> None:
        if type(record) is not dict:
            return
        kind = record.get("type")
        if kind != "user" and kind != "assistant":
            return
        # one object for all lines' type and model (the copies freed now, parsed into)
        share = self.shared.setdefault
        record["type"] = share(kind, kind)
        inner = record.get("message")
        if type(inner) is not dict:
            return
        model = inner.get("model")
        if type(model) is str:
            inner["model"] = share(model, model)
        content = inner.get("content")
        if type(content) is not list or not content:
            return
        early = self.read(content, kind == "assistant")
        if early is not None:
            # blocks alone, in the tuple the message keeps, when that is all there is to say
            plain = not early.calls and early.order == 0
            read = early.blocks if plain else early
            if kind == "user" and tuple(inner) == _USER_KEYS and inner["role"] == "user":
                # the message is its content alone: its dict freed now, parsed into
                record["message"] = read
            else:
                inner["content"] = read

    def read(self, content: list[Any], calls_out: bool) -> Early | None:
        """The blocks and calls of ``content``, or None when it is not of the common shapes."""
        blocks: list[Any] = []
        calls: list[ToolCall] = []
        order = 0
        results = 0
        for raw in content:
            if type(raw) is not dict:
                return None
            kind = raw.get("type")
            if calls and kind != "tool_use":
                return None  # content after a call: the reader notes its place
            if kind == "text":
                text = raw["text"] if tuple(raw) == _TEXT else None
                if type(text) is not str:
                    return None
                blocks.append(_text(text, (), _NONE))
            elif kind == "tool_result":
                keys = tuple(raw)
                this = 0 if keys == _RESULT_ORDERS[0] else 1 if keys == _RESULT_ORDERS[1] else -1
                if this == -1 or (results and this != order):
                    return None
                call_id = raw["tool_use_id"]
                text = raw["content"]
                if type(call_id) is not str or type(text) is not str:
                    return None
                order = this
                results += 1
                blocks.append(_tool_result(self.pending.pop(call_id, call_id), text, False, _NONE))
            elif kind == "tool_use":
                if tuple(raw) != _TOOL_USE:
                    return None
                call_id = raw["id"]
                name = raw["name"]
                args = raw["input"]
                if type(call_id) is not str or type(name) is not str or type(args) is not dict:
                    return None
                self.pending[call_id] = call_id
                name = self.names.setdefault(name, name)
                if calls_out:
                    calls.append(_tool_call(call_id, name, args, _NONE))
                else:
                    blocks.append(_tool_call_block(call_id, name, args, _NONE))
            elif kind == "thinking":
                if tuple(raw) != _THINKING:
                    return None
                text = raw["thinking"]
                signature = raw["signature"]
                if type(text) is not str or type(signature) is not str:
                    return None
                blocks.append(_reasoning(text, signature, False, None, _NONE))
            else:
                return None
        return Early(tuple(blocks), tuple(calls), order)


def wire(early: Early) -> list[dict[str, Any]]:
    """The content ``early`` was read from, as it was parsed."""
    out: list[dict[str, Any]] = []
    for b in early.blocks:
        kind = type(b)
        if kind is TextBlock:
            out.append({"type": "text", "text": b.text})
        elif kind is ToolResultBlock:
            if early.order == 0:
                out.append(
                    {"type": "tool_result", "tool_use_id": b.tool_call_id, "content": b.content}
                )
            else:
                out.append(
                    {"tool_use_id": b.tool_call_id, "type": "tool_result", "content": b.content}
                )
        elif kind is ReasoningBlock:
            out.append({"type": "thinking", "thinking": b.text, "signature": b.signature})
        else:  # a call block (a user line's)
            out.append({"type": "tool_use", "id": b.id, "name": b.name, "input": b.args})
    for c in early.calls:
        out.append({"type": "tool_use", "id": c.id, "name": c.name, "input": c.args})
    return out


def read_early(value: Any) -> bool:
    """Whether ``value`` (a line's ``message.content``, or a user line's ``message``) was read
    early: parsed JSON is never a tuple (blocks alone) nor an ``Early``."""
    kind = type(value)
    return kind is tuple or kind is Early


def early_content(content: Any) -> Early | None:
    """What a line's ``message.content`` (or a user line's ``message``) holds, if it was read
    early: parsed JSON is never a tuple (blocks alone) nor an ``Early``."""
    kind = type(content)
    if kind is Early:
        return content  # type: ignore[no-any-return]
    if kind is tuple:
        return Early(content, (), 0)
    return None


def restore(record: Any) -> Any:
    """``record`` with its content as parsed again, if it was read early (in place)."""
    if type(record) is dict:
        inner = record.get("message")
        early = early_content(inner)
        if early is not None:  # a user line's message, kept as its content alone
            record["message"] = {"role": "user", "content": wire(early)}
        elif type(inner) is dict:
            early = early_content(inner.get("content"))
            if early is not None:
                inner["content"] = wire(early)
    return record
