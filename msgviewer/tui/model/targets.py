"""What an edit key changes at a tree row, and how the edited text is checked (headless).

A ``Target`` is what the editor shows for a row (its text or JSON) and how to turn the checked
value into an edit (a function from ``core.edits``); a validator turns the editor's text into
that value or says, with a line number, why it will not do. ``delete_part`` is what the delete
key removes at a row. The screens ask the user; these decide what a row means.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import orjson

from ...core import edits
from ...core.errors import FormatError, MsgviewerError
from ...core.json_numbers import loads_exactly
from ...core.links import ToolLinks
from ...core.message import Message
from ...core.serialize import (
    _tool_call_from_dict,
    _tool_call_to_dict,
    block_from_dict,
    block_to_dict,
    message_from_dict,
    message_to_dict,
)
from .jsonpos import line_of
from .preview import full_json
from .rows import ARTIFACT, BLOCK, CALL, INVALID, LINE, MORE, MSG, Row

Focus = tuple[int, int, int, int]
"""(kind, conversation, message, index): where the cursor goes after an edit."""


class EditorError(Exception):
    """What is wrong with the text, and on which line (1-based) if known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


Validator = Callable[[str], Any]
"""Text -> the value the editor returns; raises ``EditorError`` when the text will not do."""


def json_validator(parse: Callable[[Any], Any]) -> Validator:
    """A validator for JSON text whose value ``parse`` turns into what the edit needs
    (``parse`` raises the core's ``FormatError`` with a JSON path for a wrong shape)."""

    def validate(text: str) -> Any:
        try:
            value = loads_exactly(text)  # (an integer past 64 bits stays the one typed)
        except orjson.JSONDecodeError as exc:
            raise EditorError(
                f"line {exc.lineno}, column {exc.colno}: not valid JSON: {exc.msg}", exc.lineno
            ) from None
        try:
            return parse(value)
        except FormatError as exc:
            path = exc.path or "$"
            line = line_of(text, path)
            raise EditorError(f"line {line}: {path}: {exc.what}", line) from None
        except (MsgviewerError, ValueError, TypeError) as exc:
            raise EditorError(str(exc)) from None

    return validate


@dataclass
class Target:
    """Something the editor can change: its text, how to check it, how to apply it."""

    conv: int
    title: str
    text: str
    make: Callable[[Any, ToolLinks], edits.EditFn]
    """(The checked value, the tool links as they are) -> the edit."""
    label: str
    focus: Focus
    validate: Any = None
    json: bool = False


def _json(value: Any) -> str:
    return full_json(value)  # any depth: orjson alone stops at 254 levels


def _args_object(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise FormatError("tool call arguments must be a JSON object", path="$")
    return value


def text_target(message: Message, row: Row) -> Target | None:
    """The text at ``row`` (of ``message``): a call's arguments, a message's or a block's
    text; None when the row has no text to edit as text."""
    kind, c, m, i = row[:4]
    if kind == CALL:
        call = message.tool_calls[i]

        def set_args(value: Any, links: ToolLinks) -> edits.EditFn:
            new_call = replace(call, args=value)
            return edits.update_message(m, lambda msg: edits.with_call(msg, i, new_call))

        return Target(
            c,
            f"Arguments of {call.name} (message {m})",
            _json(call.args),
            set_args,
            f"Edit arguments of {call.name}",
            (CALL, c, m, i),
            json_validator(_args_object),
            json=True,
        )
    if kind not in (MSG, BLOCK, LINE, MORE):
        return None
    block = None if kind == MSG else i
    try:
        text = edits.editable_text(message, block)
    except edits.EditRefused:
        return None
    what = "text" if block is None else f"{message.blocks[block].type} block {block}"

    def set_text(value: Any, links: ToolLinks) -> edits.EditFn:
        return edits.update_message(m, lambda msg: edits.with_text(msg, block, value))

    focus = (MSG, c, m, 0) if block is None else (BLOCK, c, m, block)
    return Target(
        c,
        f"{what.capitalize()} of {message.role} message {m}",
        text,
        set_text,
        f"Edit {what} of message {m}",
        focus,
    )


def json_target(message: Message, row: Row) -> Target:
    """The JSON at ``row`` (of ``message``): a tool call, a block, or the whole message."""
    kind, c, m, i = row[:4]
    if kind == CALL:
        call = message.tool_calls[i]

        def set_call(value: Any, links: ToolLinks) -> edits.EditFn:
            new = edits.with_call(message, i, value)
            return edits.replace_keeping_links(links, m, new)

        return Target(
            c,
            f"Tool call {call.name} (message {m}) as JSON",
            _json(_tool_call_to_dict(call)),
            set_call,
            f"Edit tool call {call.name}",
            (CALL, c, m, i),
            json_validator(lambda d: _tool_call_from_dict(d, "$")),
            json=True,
        )
    if kind in (BLOCK, LINE, MORE) and i < len(message.blocks):
        block = message.blocks[i]

        def set_block(value: Any, links: ToolLinks) -> edits.EditFn:
            new = edits.with_block(message, i, value)
            return edits.replace_keeping_links(links, m, new)

        return Target(
            c,
            f"{block.type} block {i} of message {m} as JSON",
            _json(block_to_dict(block)),
            set_block,
            f"Edit {block.type} block of message {m}",
            (BLOCK, c, m, i),
            json_validator(block_from_dict),
            json=True,
        )

    def set_message(value: Any, links: ToolLinks) -> edits.EditFn:
        return edits.replace_keeping_links(links, m, value)

    return Target(
        c,
        f"{message.role} message {m} as JSON",
        _json(message_to_dict(message)),
        set_message,
        f"Edit message {m}",
        (MSG, c, m, 0),
        json_validator(message_from_dict),
        json=True,
    )


def delete_part(message: Message, row: Row) -> edits.Part | None:
    """What deleting at ``row`` removes: a call, an invalid call, a block (when the message
    keeps others), or the whole message; None on an artifact (edited with the message's JSON)."""
    kind, _, m, i = row[:4]
    if kind == ARTIFACT:
        return None
    if kind == CALL:
        return edits.Part("call", m, i)
    if kind == INVALID:
        return edits.Part("invalid", m, i)
    if kind in (BLOCK, LINE, MORE) and type(message.content) is tuple and len(message.content) > 1:
        return edits.Part("block", m, i)
    return edits.Part("message", m)
