"""Summaries of JSONL session logs read line by line, without building messages.

Listing a thousand sessions must cost little more than reading their bytes, so these scans
pick the few fields a summary needs from each line (``orjson`` per line) instead of reading
the file into ``Message`` objects: their counts follow the readers' rules (a Claude Code API
response written over several lines is one message; a Codex assistant turn of reasoning and
calls is one message), which the tests check against the readers on the samples.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from ..core.prices import database_counts
from .costs import CostTally
from .summary import Summary, add_model, is_prompt, one_line

# A line that holds only tool results (the bulk of a Claude Code log) needs no parse beyond
# this: it is one user message, and its timestamp is found by a search of its last bytes.
_BIG = 4096
_TIMESTAMP = re.compile(rb'"timestamp"\s*:\s*"([^"]{10,40})"')
_USER_RESULT = re.compile(rb'"type"\s*:\s*"tool_result"')


def lines(data: bytes) -> list[bytes]:
    """The lines of ``data`` (``split`` is the fastest cut; a blank line fails to parse and is
    passed over like any broken one)."""
    return data.split(b"\n")


def _loads(line: bytes) -> Any:
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        return None  # a broken line is the reader's to report; a summary passes over it


# -- Claude Code ------------------------------------------------------------------------


class ClaudeScan:
    """Accumulates one Claude Code session over its file and its sub-agent files."""

    def __init__(self, summary: Summary) -> None:
        self.s = summary
        self.responses: dict[Any, tuple[int, int]] = {}  # message id -> (input, output) tokens
        self.costs = CostTally(summary.format)
        # The reader's rule for usage: consecutive lines of one response (same message id and
        # requestId) are one message whose last line's usage counts, once per id and request.
        self.unit: tuple[Any, Any] | None = None  # the open response's (id, requestId)
        self.pending: tuple[Any, dict[str, Any], Any] | None = None  # (time, last, requestId)
        self.counted: set[tuple[Any, Any]] = set()

    def feed(self, data: bytes, main: bool = True) -> None:
        s = self.s
        self.counted = set()  # each file is read on its own
        for line in lines(data):
            if len(line) > _BIG and s.title is not None and _cheap_user_result(line):
                self._close()
                s.messages += 1
                stamp = _TIMESTAMP.search(line, max(0, len(line) - 400))
                if stamp and main:
                    self._stamp(stamp.group(1).decode("ascii", "replace"))
                continue
            if line:
                rec = _loads(line)
                if type(rec) is dict:
                    self._record(rec, main)
        self._close()

    def _stamp(self, ts: Any) -> None:
        if isinstance(ts, str):
            s = self.s
            if s.started is None or ts < s.started:
                s.started = ts
            if s.updated is None or ts > s.updated:
                s.updated = ts

    def _record(self, rec: dict[str, Any], main: bool) -> None:
        s = self.s
        kind = rec.get("type")
        if kind not in ("user", "assistant", "system") or "uuid" not in rec:
            return
        if main:
            self._stamp(rec.get("timestamp"))
            if s.project is None and isinstance(rec.get("cwd"), str):
                s.project = rec["cwd"]
        message = rec.get("message")
        if kind == "assistant" and isinstance(message, dict):
            self._response(rec, message)
            add_model(s.models, message.get("model"))
            key = message.get("id") or rec.get("uuid")
            if key not in self.responses:
                s.messages += 1
            usage = message.get("usage")
            if isinstance(usage, dict):  # each line of a response repeats its usage: the last
                self.responses[key] = _anthropic_tokens(usage)
            else:
                self.responses.setdefault(key, (0, 0))
            return
        self._close()
        s.messages += 1
        if kind == "user" and s.title is None and main and not rec.get("isMeta"):
            text = _text(message.get("content") if isinstance(message, dict) else None)
            if text is not None and is_prompt(text):
                s.title = one_line(text)

    def _response(self, rec: dict[str, Any], message: dict[str, Any]) -> None:
        mid, request = message.get("id"), rec.get("requestId")
        unit = (mid, request) if type(mid) is str and type(message.get("content")) is list else None
        if unit is not None and unit == self.unit and self.pending is not None:
            self.pending = (self.pending[0], message, request)  # the same response goes on
            return
        self._close()
        self.unit = unit
        self.pending = (rec.get("timestamp"), message, request)

    def _close(self) -> None:
        """Price the open response (its first line's time, its last line's usage)."""
        pending, self.pending, self.unit = self.pending, None, None
        if pending is None:
            return
        when, last, request = pending
        raw = last.get("usage")
        if not isinstance(raw, dict):
            return
        key = (last.get("id"), request)
        if type(key[0]) is not str or (key[1] is not None and type(key[1]) is not str):
            key = (None, None)
        if key[0] is not None and key in self.counted:
            return
        self.counted.add(key)
        self.costs.add(last.get("model"), _anthropic_counts(raw), when, raw)

    def finish(self) -> None:
        for i, o in self.responses.values():
            self.s.input_tokens += i
            self.s.output_tokens += o
        self.costs.into(self.s)


def _cheap_user_result(line: bytes) -> bool:
    head = line[:600]
    return (
        b'"tool_use_id"' in head
        and _USER_RESULT.search(head) is not None
        and (b'"type":"user"' in line or b'"type": "user"' in line)
    )


def _anthropic_tokens(usage: dict[str, Any]) -> tuple[int, int]:
    prompt = 0
    for key in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"):
        v = usage.get(key)
        prompt += v if type(v) is int else 0
    out = usage.get("output_tokens")
    return prompt, out if type(out) is int else 0


def _anthropic_counts(u: dict[str, Any]) -> dict[str, int] | None:
    """A response's usage as the reader normalises it, in the database's counts (None when a
    count is not a number)."""
    i, o = u.get("input_tokens", 0), u.get("output_tokens", 0)
    write, read = u.get("cache_creation_input_tokens", 0), u.get("cache_read_input_tokens", 0)
    if type(i) is not int or type(o) is not int or type(write) is not int or type(read) is not int:
        return None
    details = u.get("output_tokens_details")
    thinking = details.get("thinking_tokens") if isinstance(details, dict) else None
    thinking = thinking if type(thinking) is int else 0
    return database_counts(i + write + read, o, read, write, thinking, u)


def _text(content: Any) -> str | None:
    """The typed text of a user turn: a string, or its text blocks (None for tool results)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [
            b.get("text")
            for b in content
            if isinstance(b, dict) and b.get("type") in ("text", "input_text")
        ]
        texts = [t for t in texts if isinstance(t, str)]
        return "\n".join(texts) if texts else None
    return None


# -- Codex ------------------------------------------------------------------------------

_ASSISTANT_ITEMS = frozenset(
    {"reasoning", "function_call", "custom_tool_call", "local_shell_call", "web_search_call"}
)
_TOOL_OUTPUTS = frozenset({"function_call_output", "custom_tool_call_output"})


def scan_codex(data: bytes, s: Summary) -> None:
    """A Codex rollout: its meta line, turn contexts, response items and token counts."""
    in_turn = False  # an assistant message is open: reasoning and calls join it
    costs = CostTally(s.format)
    model: Any = None  # the model of the turn under way
    seen: Any = None  # the last running total: a token count repeating it is no new call
    for line in lines(data):
        rec = _loads(line) if line else None
        if type(rec) is not dict:
            continue
        ts = rec.get("timestamp")
        if isinstance(ts, str):
            if s.started is None:
                s.started = ts
            s.updated = ts
        kind, payload = rec.get("type"), rec.get("payload")
        if not isinstance(payload, dict):
            continue
        if kind == "response_item":
            item = payload.get("type")
            role = payload.get("role")
            if item == "message" and role == "assistant":
                s.messages += 0 if in_turn else 1
                in_turn = False  # the text closes the turn
            elif item in _ASSISTANT_ITEMS:
                s.messages += 0 if in_turn else 1
                in_turn = True
            elif item in _TOOL_OUTPUTS or (item == "message" and role == "user"):
                s.messages += 1
                in_turn = False
                if role == "user" and s.title is None:
                    text = _text(payload.get("content"))
                    if text is not None and is_prompt(text):
                        s.title = one_line(text)
        elif kind == "compacted":
            s.messages += 1
            in_turn = False
        elif kind == "session_meta":
            if isinstance(payload.get("cwd"), str) and s.project is None:
                s.project = payload["cwd"]
            if isinstance(payload.get("timestamp"), str):
                s.started = payload["timestamp"]
        elif kind == "turn_context":
            model = payload.get("model")
            add_model(s.models, model)
            if s.project is None and isinstance(payload.get("cwd"), str):
                s.project = payload["cwd"]
        elif kind == "event_msg" and payload.get("type") == "token_count":
            info = payload.get("info")
            total = info.get("total_token_usage") if isinstance(info, dict) else None
            if isinstance(total, dict):  # running totals: the last one is the session's
                i, o = total.get("input_tokens"), total.get("output_tokens")
                s.input_tokens = i if type(i) is int else s.input_tokens
                s.output_tokens = o if type(o) is int else s.output_tokens
            last = info.get("last_token_usage") if isinstance(info, dict) else None
            if isinstance(last, dict) and (total is None or total != seen):
                seen = total
                costs.add(model, _codex_counts(last), ts, last)
    costs.into(s)


def _codex_counts(u: dict[str, Any]) -> dict[str, int] | None:
    """A call's ``last_token_usage`` as the Codex reader reads it, in the database's counts."""
    keys = ("input_tokens", "output_tokens", "cached_input_tokens", "reasoning_output_tokens")
    i, o, read, reasoning = (u.get(k, 0) for k in keys)
    if not all(type(v) is int for v in (i, o, read, reasoning)):
        return None
    return database_counts(i, o, read, 0, reasoning, u)


# -- Gemini CLI -------------------------------------------------------------------------


def scan_gemini_cli(value: Any, s: Summary) -> bool:
    """A Gemini CLI chat (one JSON document): False when its shape is not the expected one."""
    messages = value.get("messages") if isinstance(value, dict) else None
    if not isinstance(messages, list):
        return False
    s.started = value.get("startTime") if isinstance(value.get("startTime"), str) else None
    s.updated = value.get("lastUpdated") if isinstance(value.get("lastUpdated"), str) else None
    costs = CostTally(s.format)
    for m in messages:
        if not isinstance(m, dict):
            return False
        kind = m.get("type")
        s.messages += 1
        calls = m.get("toolCalls")
        if kind == "gemini":
            add_model(s.models, m.get("model"))
            t = m.get("tokens")
            if isinstance(t, dict):
                for key, into in (("input", "input_tokens"), ("output", "output_tokens")):
                    v = t.get(key)
                    setattr(s, into, getattr(s, into) + (v if type(v) is int else 0))
                v = t.get("thoughts")  # generated tokens: reasoning counts as output
                s.output_tokens += v if type(v) is int else 0
                costs.add(m.get("model"), _gemini_counts(t), m.get("timestamp"), t)
            if isinstance(calls, list):
                s.messages += sum(1 for c in calls if isinstance(c, dict) and "result" in c)
        elif kind == "user" and s.title is None:
            text = _text(m.get("content"))
            if text is not None and is_prompt(text):
                s.title = one_line(text)
    costs.into(s)
    return True


def _gemini_counts(t: dict[str, Any]) -> dict[str, int] | None:
    """A Gemini CLI message's ``tokens`` as the reader reads them (thoughts are output), in the
    database's counts."""
    keys = ("input", "output", "thoughts", "cached", "total")
    i, o, thoughts, cached, total = (t.get(k) or 0 for k in keys)
    if not all(type(v) is int for v in (i, o, thoughts, cached, total)):
        return None
    return database_counts(i, o + thoughts, cached, 0, thoughts, t)
