"""The quick way through the common contents of a big Gemini file.

``read_contents`` builds messages straight from the shapes that make up nearly every large
history: a ``model`` content of text, thought and ``functionCall`` (with its id) parts, the
calls last; a ``user`` content of text and ``functionResponse`` parts (with their id and a
``{"output"}`` or ``{"error"}`` text). Anything else, or anything unusual in those shapes,
goes whole to the careful reader (``_Reader.content``), which also explains errors; the two
give equal messages for the shapes handled here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core._frozen import builder
from ...core.blocks import Block, ReasoningBlock, TextBlock
from ...core.message import Message, ToolCall
from ...core.pending import PendingCalls

if TYPE_CHECKING:
    from .read import _Reader

# Builders for values already in their canonical form (roles, tuples, empty extras).
_message = builder(Message)
_text = builder(TextBlock)
_reasoning = builder(ReasoningBlock)
_call = builder(ToolCall)


def read_contents(contents: list[Any], reader: _Reader, path: str) -> list[Message]:
    """Every content's messages: the common shapes the quick way, the rest by ``reader``."""
    out: list[Message] = []
    pending = _LazyPending(reader)
    for i, c in reader.ctx.each(contents):
        if type(c) is dict and len(c) == 2:
            role = c.get("role")
            parts = c.get("parts")
            if type(parts) is list:
                if role == "model":
                    turn = _model(parts)
                    if turn is not None:
                        message, calls = turn
                        pending.new_turn(calls)
                        out.append(message)
                        continue
                elif role == "user":
                    answered = _user(parts, out)
                    if answered is not None:
                        pending.answered += answered
                        continue
        pending.settle()
        out.extend(reader.content(c, i, f"{path}[{i}]"))
    pending.settle()
    return out


def _model(parts: list[Any]) -> tuple[Message, tuple[ToolCall, ...]] | None:
    """A model turn of text, thoughts and calls with ids (after every other part), or None."""
    blocks: list[Block] = []
    calls: list[ToolCall] = []
    for p in parts:
        if type(p) is not dict:
            return None
        n = len(p)
        text = p.get("text")
        if type(text) is str:
            if calls:
                return None  # a part after a call: the careful reader notes the call's place
            if n == 1:
                blocks.append(_text(text, (), {}))
                continue
            if n == 2 and p.get("thought") is True:
                blocks.append(_reasoning(text, None, False, None, {}))
                continue
            return None
        fc = p.get("functionCall")
        if n != 1 or type(fc) is not dict or len(fc) != 3:
            return None
        call_id = fc.get("id")
        name = fc.get("name")
        args = fc.get("args")
        if type(call_id) is not str or type(name) is not str or type(args) is not dict:
            return None
        calls.append(_call(call_id, name, args, {}))
    tool_calls = tuple(calls)
    message = _message(
        "assistant", tuple(blocks), None, None, None, False, tool_calls, (), None, {}, (), {}
    )
    return message, tool_calls


def _user(parts: list[Any], out: list[Message]) -> list[str] | None:
    """A user turn of text and id'd results appended to ``out``; the ids it answers.

    None (``out`` untouched) for any other part: the careful reader takes the turn.
    """
    messages: list[Message] = []
    run: list[Block] = []
    answered: list[str] = []
    for p in parts:
        if type(p) is not dict or len(p) != 1:
            return None
        text = p.get("text")
        if type(text) is str:
            run.append(_text(text, (), {}))
            continue
        result = _result(p.get("functionResponse"))
        if result is None:
            return None
        if run:
            messages.append(_user_message(run))
            run = []
        messages.append(result)
        answered.append(result.tool_call_id)  # type: ignore[arg-type]
    if run or not messages:
        messages.append(_user_message(run))
    out += messages
    return answered


def _user_message(blocks: list[Block]) -> Message:
    return _message("user", tuple(blocks), None, None, None, False, (), (), None, {}, (), {})


def _result(fr: Any) -> Message | None:
    """The tool message of ``{"id", "name", "response": {"output" or "error": text}}``.

    None for any other response, and for a text that opens like a JSON object (which the
    careful reader may read as the object itself).
    """
    if type(fr) is not dict or len(fr) != 3:
        return None
    call_id = fr.get("id")
    name = fr.get("name")
    response = fr.get("response")
    if type(call_id) is not str or type(name) is not str:
        return None
    if type(response) is not dict or len(response) != 1:
        return None
    is_error = "error" in response
    text = response["error"] if is_error else response.get("output")
    if type(text) is not str or text.startswith("{"):
        return None
    return _message("tool", text, None, name, call_id, is_error, (), (), None, {}, (), {})


class _LazyPending:
    """The careful reader's calls waiting for a result, brought up to date only when needed.

    A model turn read here resets the reader's ``PendingCalls`` and a result answers one; the
    reader looks at them only to pair a result that has no id, which the quick way never
    reads. So the last turn's calls and the ids answered since are noted, and played into the
    reader's ``pending`` just before it reads a content (``settle``).
    """

    def __init__(self, reader: _Reader) -> None:
        self.reader = reader
        self.turn: tuple[ToolCall, ...] | None = None
        self.answered: list[str] = []

    def new_turn(self, calls: tuple[ToolCall, ...]) -> None:
        self.turn = calls
        self.answered = []  # answers before the turn no longer matter: it starts afresh

    def settle(self) -> None:
        if self.turn is not None:
            pending = self.reader.pending = PendingCalls()
            for call in self.turn:
                pending.add(call.id, call.name)
            self.turn = None
        for call_id in self.answered:
            self.reader.pending.drop_id(call_id)
        self.answered = []
