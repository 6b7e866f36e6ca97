"""The quick way through the common lines of a large rollout.

Nearly every line of a long session is one of a few shapes: a ``response_item`` holding a
function call, its output, or a message of text parts; a ``token_count`` event; another event
kept as it is. ``read_lines`` reads those straight, with no checks beyond the ones that tell
the shape, and gives every other line (or a common one with anything unusual in it) to the
careful reader (``Rollout.line``), which says what is wrong with it or keeps it. Both make
the same drafts from the same line, so the conversation is the same whichever way a line
went. ``build`` makes the messages of the drafts without the constructor's checks, for the
drafts whose fields are already in their canonical form.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core._frozen import builder
from ...core.blocks import Block, ReasoningBlock, TextBlock
from ...core.call_order import split_calls
from ...core.message import Message, ToolCall
from ...core.usage import Usage
from ..io import loads_object
from ..openai_responses.items import CLIENT_OUTPUTS
from ..openai_responses.read_items import Draft, ItemReader
from .events import EVENT_MESSAGES

if TYPE_CHECKING:
    from .read import Rollout

_message = builder(Message)
_text = builder(TextBlock)
_reasoning = builder(ReasoningBlock)
_call = builder(ToolCall)
_usage = builder(Usage)

# role -> the code's own string for it (the object ``Message`` keeps for every message)
_ROLES = {role: role for role in ("user", "assistant", "system", "tool")}
_MESSAGE_ROLES = {role: role for role in ("user", "assistant", "system")}
_TEXT_KINDS = ("input_text", "output_text", "text")
_FLAT_ITEMS = CLIENT_OUTPUTS | {"function_call"}
"""The items read the quick way only when every value in them is a string."""
_MESSAGE_KEYS = ("type", "role", "content", "id")
_REASONING_KEYS = ("type", "summary", "encrypted_content")
_BUILT_KW = frozenset({"response_metadata", "usage", "tool_call_id", "is_error"})
"""The ``Draft.kw`` keys ``build`` knows; a draft with others is built by ``Draft.build``."""


def read_lines(rollout: Rollout, records: list[Any]) -> None:
    """Read every line of ``records`` into ``rollout``: the common ones the quick way.

    A line of the common shapes is ``{"timestamp": <string>, "type", "payload": {...}}``,
    which needs none of the careful reader's checks of the line itself.

    Lines parsed for this read alone (``Context.owned``) that hold a call, an output or a
    message of text are let go once read: freed then, their memory holds the objects made of
    the lines after them, instead of being left as gaps among the messages once the whole file
    is read (0.4x the file). Only those: what they hold is strings and text parts, so the
    error of a line nested too deeply, which looks for the deepest of all lines, is the same
    without them.
    """
    owned = rollout.ctx.owned
    reader = rollout.reader
    drafts = reader.drafts
    careful = rollout.line
    place = rollout.place
    for r, rec in enumerate(records):
        if type(rec) is dict and len(rec) == 3:
            payload = rec.get("payload")
            ts = rec.get("timestamp")
            if type(payload) is dict and type(ts) is str:
                kind = rec.get("type")
                if kind == "response_item":
                    count = len(drafts)
                    done = reader.quick(payload, ts)
                    if done is not None:
                        if type(done) is Message:  # (made whole: only the lines before it kept)
                            rollout.keep_before(done)
                        else:
                            place(done, count)
                        if owned and _flat(payload):
                            records[r] = None  # (its memory taken by what the next lines make)
                        continue
                elif kind == "event_msg" and _event(rollout, payload, rec):
                    continue
        careful(r, rec)


def _flat(item: dict[str, Any]) -> bool:
    """Whether an item read the quick way holds nothing but strings and text parts: a call,
    an output, or a message of no more fields than its role, content and type or id."""
    if item.get("type") in _FLAT_ITEMS:
        return True
    n = len(item)
    return "role" in item and (n == 2 or (n == 3 and ("type" in item or "id" in item)))


def _event(rollout: Rollout, payload: dict[str, Any], rec: dict[str, Any]) -> bool:
    """Read an ``event_msg`` line that is kept as it is (with its usage, for a
    ``token_count``); False to leave it to the careful reader."""
    kind = payload.get("type")
    if kind == "token_count":
        return _token_count(rollout, payload, rec)
    if rollout.from_events and (type(kind) is not str or kind in EVENT_MESSAGES):
        return False  # (a message, or not clearly one)
    rollout.pending.append(rec)
    return True


def _token_count(rollout: Rollout, payload: dict[str, Any], rec: dict[str, Any]) -> bool:
    """A ``token_count`` line: its last call's usage added to the last assistant message."""
    info = payload.get("info")
    if info is not None:
        if type(info) is not dict:
            return False
        total = info.get("total_token_usage")
        last = info.get("last_token_usage")
        if last is not None and (total is None or total != rollout.seen_total):
            usage = _usage_of(last)
            if usage is None:
                return False
            target = rollout.reader.last_assistant()
            if target is not None:
                before = target.kw.get("usage")
                target.kw["usage"] = usage if before is None else before + usage
            rollout.seen_total = total
    rollout.pending.append(rec)
    return True


def _usage_of(last: Any) -> Usage | None:
    """The usage of a ``last_token_usage`` of integer counts, or None."""
    if type(last) is not dict:
        return None
    get = last.get
    input_tokens = get("input_tokens", 0)
    cached = get("cached_input_tokens", 0)
    output_tokens = get("output_tokens", 0)
    reasoning = get("reasoning_output_tokens", 0)
    total = get("total_tokens", 0)
    if not (
        type(input_tokens) is int
        and type(cached) is int
        and type(output_tokens) is int
        and type(reasoning) is int
        and type(total) is int
    ):
        return None
    # (``Usage`` fills in a total of 0 the same way)
    total = total or input_tokens + output_tokens
    return _usage(input_tokens, output_tokens, total, cached, 0, reasoning, last)


class QuickItems(ItemReader):
    """The Responses item reader, reading the common items the quick way (``quick``)."""

    def quick(self, item: dict[str, Any], ts: str) -> Draft | Message | None:
        """The draft a common item (stamped ``ts``) went into, or the message it made, or
        None (nothing read) to leave it to the careful ``add``. (``drafts`` then holds the
        message among the drafts: it is complete, no later item changes it.)"""
        kind = item.get("type")
        if kind == "function_call":
            return self._function_call(item, ts)
        if kind is None:
            return self._text_message(item, ts) if "role" in item else None
        if type(kind) is not str:
            return None
        if kind in CLIENT_OUTPUTS:
            return self._output(item, kind, ts)
        if kind == "message":
            return self._text_message(item, ts)
        if kind == "reasoning":
            return self._reasoning(item, ts)
        return None

    def _function_call(self, item: dict[str, Any], ts: str) -> Draft | None:
        if len(item) != 4:
            return None
        call_id = item.get("call_id")
        name = item.get("name")
        raw = item.get("arguments")
        if type(call_id) is not str or type(name) is not str or type(raw) is not str:
            return None
        args = _arguments(raw)
        if args is None:
            return None
        group = self._group
        if group is None:
            group = self._open(new=False)
        group.calls.append(_call(call_id, name, args, {"timestamp": ts}))
        return group

    def _reasoning(self, item: dict[str, Any], ts: str) -> Draft | None:
        """Reasoning of one summary part (or none), encrypted or not."""
        summary = item.get("summary")
        data = item.get("encrypted_content")
        if type(summary) is not list or len(summary) > 1:
            return None
        if type(data) is not str and (data is not None or "encrypted_content" in item):
            return None
        text = ""
        if summary:
            part = summary[0]
            if type(part) is not dict or len(part) != 2 or part.get("type") != "summary_text":
                return None
            text = part.get("text")
            if type(text) is not str:
                return None
        extra = {k: v for k, v in item.items() if k not in _REASONING_KEYS}
        extra["timestamp"] = ts
        group = self._group
        if group is None or group.calls or type(group.content) is str:
            group = self._open(new=True)
        group.content.append(_reasoning(text, None, False, data, extra))  # type: ignore[union-attr]
        return group

    def _output(self, item: dict[str, Any], kind: str, ts: str) -> Draft | Message | None:
        """A call's output; one that is plain text is its message already."""
        if len(item) != 3:
            return None
        call_id = item.get("call_id")
        output = item.get("output")
        if type(call_id) is not str or type(output) is not str:
            return None
        if kind == "function_call_output":
            meta = {"timestamp": ts}
        else:
            meta = {"type": kind, "timestamp": ts}
        done: Draft | Message
        if output.startswith('{"'):  # (maybe a shell output's JSON: read when placed)
            done = Draft("tool", output)
            done.kw["tool_call_id"] = call_id
            done.metadata = meta
        else:
            done = _message("tool", output, None, None, call_id, False, (), (), None, {}, (), meta)
        self._group = None
        self.drafts.append(done)  # type: ignore[arg-type]
        return done

    def _text_message(self, item: dict[str, Any], ts: str) -> Draft | None:
        role = item.get("role")
        role = _MESSAGE_ROLES.get(role) if type(role) is str else None
        msg_id = item.get("id")
        if role is None or (msg_id is not None and type(msg_id) is not str):
            return None
        content = _content(item.get("content"), role)
        if content is None or content == "":
            return None  # (an empty assistant message marks the end of a turn)
        if (len(item) == 3 and "type" in item) or len(item) == 2:
            meta = {"timestamp": ts}
        else:
            meta = {k: v for k, v in item.items() if k not in _MESSAGE_KEYS}
            meta["timestamp"] = ts
        if role != "assistant":
            draft = Draft(role, content)
            draft.id = msg_id
            draft.metadata = meta
            self._group = None
            self.drafts.append(draft)
            return draft
        return self._assistant_text(content, msg_id, meta)

    def _assistant_text(
        self, content: str | list[Block], msg_id: str | None, meta: dict[str, Any]
    ) -> Draft:
        """An assistant message item joins the reasoning before it; a new message begins
        where joining would lose the items' order (as in the careful ``add``)."""
        group = self._group
        if group is None or not group.takes_text(content):
            group = self._open(new=True)
        group.add_text(content, msg_id, meta)
        return group


def _arguments(raw: str) -> dict[str, Any] | None:
    """Call arguments that are a JSON object orjson reads exactly, or None (no arguments: the
    careful reader keeps the text; integers past 64 bits: it reads them exactly)."""
    return loads_object(raw) if raw else None


def _content(raw: Any, role: str) -> str | list[Block] | None:
    """A message's content of text alone (a string, or text parts), or None."""
    if type(raw) is str:
        return raw
    if type(raw) is not list:
        return None
    default = "output_text" if role == "assistant" else "input_text"
    blocks: list[Block] = []
    for part in raw:
        if type(part) is not dict or len(part) != 2:
            return None
        kind = part.get("type")
        text = part.get("text")
        if type(text) is not str:
            return None
        if kind == default:
            extra = {}
        elif kind in _TEXT_KINDS:
            extra = {"type": kind}
        else:
            return None
        blocks.append(_text(text, (), extra))
    return blocks


def build(draft: Draft | Message) -> Message:
    """The message of ``draft``, as ``Draft.build`` makes it (a message: itself)."""
    if type(draft) is Message:
        return draft
    role = _ROLES.get(draft.role)
    kw = draft.kw
    if role is None or not kw.keys() <= _BUILT_KW:
        return draft.build()  # (a role to normalise, or fields named here not)
    content = draft.content
    calls, invalid = split_calls(draft.calls)
    return _message(
        role,
        content if type(content) is str else tuple(content),
        draft.id,
        None,
        kw.get("tool_call_id"),
        kw.get("is_error", False),
        calls,
        invalid,
        kw.get("usage"),
        kw.get("response_metadata", {}),
        (),
        draft.metadata,
    )
