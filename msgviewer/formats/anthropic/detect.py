"""Recognising an Anthropic Messages file (a request body, a response, or a bare list of
messages), and the format's name.
"""

from __future__ import annotations

import re
from itertools import repeat
from typing import Any

NAME = "anthropic"


_ONLY_BLOCKS = frozenset(
    {
        "tool_use",
        "tool_result",
        "thinking",
        "redacted_thinking",
        "server_tool_use",
        "mcp_tool_use",
        "document",
        "search_result",
        "container_upload",
    }
)
_REQUEST_MARKERS = ("system", "anthropic_version", "anthropic_beta", "stop_sequences", "thinking")


def _is_anthropic_block(b: Any) -> bool:
    if not isinstance(b, dict):
        return False
    kind = b.get("type")
    if not isinstance(kind, str):
        return False
    if kind in _ONLY_BLOCKS or kind.endswith("_tool_result"):
        return True
    return (kind == "image" and isinstance(b.get("source"), dict)) or "cache_control" in b


def _messages_look_anthropic(messages: list[Any], *, need_blocks: bool) -> bool:
    """Only user/assistant roles, and (when ``need_blocks``) an Anthropic-only block."""
    if not need_blocks:
        return _plain_messages(messages)
    for i, m in enumerate(messages):
        if not _plain_message(m):
            return False
        content = m.get("content")
        if isinstance(content, list) and any(_is_anthropic_block(b) for b in content):
            return _plain_messages(messages[i + 1 :])
    return False


def _plain_message(m: Any) -> bool:
    """A user or assistant message without Chat Completions call fields."""
    if not isinstance(m, dict) or m.get("role") not in ("user", "assistant"):
        return False
    return "tool_calls" not in m and "tool_call_id" not in m


_ROLES = frozenset({"user", "assistant"})


def _plain_messages(messages: list[Any]) -> bool:
    """``_plain_message`` of every message: for a list of plain dicts (nearly every file) in
    passes the interpreter makes in C, several times quicker over 100,000 messages."""
    if set(map(type, messages)) <= {dict}:
        try:
            roles = set(map(dict.get, messages, repeat("role")))
        except TypeError:
            pass  # a role that cannot be hashed: the loop below says no
        else:
            return (
                roles <= _ROLES
                and not any(map(dict.__contains__, messages, repeat("tool_calls")))
                and not any(map(dict.__contains__, messages, repeat("tool_call_id")))
            )
    return all(map(_plain_message, messages))


def tools_look_anthropic(tools: Any) -> bool:
    return isinstance(tools, list) and any(
        isinstance(t, dict) and ("input_schema" in t or re.search(r"_\d{8}$", str(t.get("type"))))
        for t in tools
    )


def sniff(value: Any) -> bool:
    """A Messages request body, a Message response, or a bare list of Anthropic messages.

    A plain ``{"model", "messages": [{"role", "content": str}]}`` is OpenAI's: it needs a
    marker only Anthropic has (top-level system, Anthropic blocks, tools with input_schema,
    a claude model with max_tokens...).
    """
    if isinstance(value, list):
        return bool(value) and _messages_look_anthropic(value, need_blocks=True)
    if not isinstance(value, dict):
        return False
    if value.get("type") == "message":
        return (
            value.get("role") == "assistant"
            and isinstance(value.get("content"), list)
            and "model" in value
            and "stop_reason" in value
        )
    messages = value.get("messages")
    if not isinstance(messages, list):
        return False
    marked = (
        any(k in value for k in _REQUEST_MARKERS)
        or tools_look_anthropic(value.get("tools"))
        or (str(value.get("model", "")).startswith("claude") and "max_tokens" in value)
    )
    return _messages_look_anthropic(messages, need_blocks=not marked)
