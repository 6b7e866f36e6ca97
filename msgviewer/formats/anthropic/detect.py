"""Recognising an Anthropic Messages file (a request body, a response, or a bare list of
messages), and the format's name.
"""

from __future__ import annotations

import re
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
    found = not need_blocks
    for m in messages:
        if not isinstance(m, dict) or m.get("role") not in ("user", "assistant"):
            return False
        if "tool_calls" in m or "tool_call_id" in m:
            return False
        content = m.get("content")
        if not found and isinstance(content, list):
            found = any(_is_anthropic_block(b) for b in content)
    return found


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
