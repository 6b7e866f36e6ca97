"""Summaries of any other conversation file, from the conversations its reader makes.

Gemini CLI chats, Inspect logs and single-request files are one JSON document each (a zip for
``.eval``): parsing the document is most of the cost either way, so the reader is used as is.
"""

from __future__ import annotations

from typing import Any

from ..core.message import Message
from ..formats import Conversation
from ..formats.timestamps import message_times
from .costs import CostTally
from .summary import Summary, add_model, is_prompt, one_line

_START_KEYS = ("startTime", "started_at", "created")
_END_KEYS = ("lastUpdated", "completed_at", "updated")


def from_conversations(convs: list[Conversation], s: Summary) -> None:
    """Fill ``s`` from the conversations of its file."""
    s.conversations = len(convs)
    costs = CostTally(s.format)
    for conv in convs:
        s.messages += len(conv.messages)
        times = message_times(conv)
        for m, when in zip(conv.messages, times, strict=False):
            costs.add_usage(m.model, m.usage, when)
        _times(conv.metadata, s)
        add_model(s.models, conv.metadata.get("model"))
        has_usage = False
        for m in conv.messages:
            _message(m, s)
            has_usage = has_usage or m.usage is not None
        if not has_usage:
            _inspect_usage(conv.metadata.get("usage"), s)
    costs.into(s)
    if s.title is None and convs and convs[0].title:
        s.title = one_line(convs[0].title)


def _message(m: Message, s: Summary) -> None:
    add_model(s.models, m.response_metadata.get("model"))
    ts = m.metadata.get("timestamp")
    if isinstance(ts, str):
        s.started = ts if s.started is None or ts < s.started else s.started
        s.updated = ts if s.updated is None or ts > s.updated else s.updated
    if m.usage is not None:
        s.input_tokens += m.usage.input_tokens
        s.output_tokens += m.usage.output_tokens
    if s.title is None and m.role == "user" and not m.metadata.get("isMeta"):
        text = m.text
        if is_prompt(text):
            s.title = one_line(text)


def _times(meta: dict[str, Any], s: Summary) -> None:
    inspect = meta.get("inspect")
    if isinstance(inspect, dict):  # an Inspect log: the eval's own times
        log = inspect.get("log")
        stats = log.get("stats") if isinstance(log, dict) else None
        meta = stats if isinstance(stats, dict) else meta
    for key in _START_KEYS:
        v = meta.get(key)
        if isinstance(v, str) and (s.started is None or v < s.started):
            s.started = v
    for key in _END_KEYS:
        v = meta.get(key)
        if isinstance(v, str) and (s.updated is None or v > s.updated):
            s.updated = v


def _inspect_usage(usage: Any, s: Summary) -> None:
    """Inspect keeps usage by model on the sample: input, cache reads and writes, output."""
    if not isinstance(usage, dict):
        return
    for model, u in usage.items():
        if not isinstance(u, dict):
            continue
        add_model(s.models, model)
        for key in ("input_tokens", "input_tokens_cache_read", "input_tokens_cache_write"):
            v = u.get(key)
            s.input_tokens += v if type(v) is int else 0
        v = u.get("output_tokens")
        s.output_tokens += v if type(v) is int else 0
