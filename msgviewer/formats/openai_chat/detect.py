"""Recognising a Chat Completions file (messages, a request body, a completion, a line of
fine-tuning JSONL) and not another vendor's look-alike, and the format's name.
"""

from __future__ import annotations

from typing import Any

NAME = "openai-chat"


ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
PART_TYPES = frozenset({"text", "image_url", "input_audio", "file", "refusal"})


# Keys of other vendors' request bodies that a Chat Completions body never has.
_FOREIGN_KEYS = frozenset({"system", "anthropic_version", "stop_sequences", "contents"})

# Message keys of type-tagged formats (LangChain, Responses items) and Gemini contents.
_NOT_CHAT = frozenset({"type", "parts"})


def _named(value: Any, names: frozenset[str]) -> bool:
    """``value`` is a string in ``names`` (an unhashable value is simply not)."""
    return type(value) is str and value in names


def _looks_like_messages(items: Any) -> bool:
    if not isinstance(items, list) or not items:
        return False
    for d in items[:10]:
        if not isinstance(d, dict) or not _named(d.get("role"), ROLES) or d.keys() & _NOT_CHAT:
            return False
        content = d.get("content")
        if isinstance(content, list):
            for part in content[:10]:
                if not isinstance(part, dict) or _foreign_part(part):
                    return False
        elif content is not None and not isinstance(content, str):
            return False
    return True


# Content parts of other formats' messages (Anthropic, Responses); other unknown parts are
# read as unknown blocks, so they do not stop detection.
_FOREIGN_PARTS = frozenset(
    {
        "tool_use",
        "tool_result",
        "thinking",
        "redacted_thinking",
        "document",
        "server_tool_use",
        "search_result",
        "input_text",
        "output_text",
        "input_image",
        "input_file",
    }
)


def _foreign_part(part: dict[str, Any]) -> bool:
    kind = part.get("type")
    if _named(kind, PART_TYPES):
        return False
    return (
        not isinstance(kind, str)
        or kind in _FOREIGN_PARTS
        or kind.endswith("_tool_result")
        or "source" in part
    )


DATASET_KEY = "dataset_array"
"""``Conversation.metadata`` key: the conversation was one record of a JSON array of
``{"messages": [...], "images": [...]}`` records (a dataset file), written back as one."""
ARRAY_KEY = "messages_array"
"""``Conversation.metadata`` key: the file was a bare JSON array of messages, not a request
body, and is written back as one."""
SHAPE_KEYS = frozenset({ARRAY_KEY, DATASET_KEY})
"""The metadata keys that only record the file's shape (``Format.shape_keys``)."""


def is_dataset(value: list[Any]) -> bool:
    """A JSON array of ``{"messages": [...], ...}`` records (LLaMA-Factory, fine-tuning sets)."""
    return bool(value) and all(
        isinstance(d, dict)
        and not _FOREIGN_KEYS & d.keys()
        and "format" not in d
        and _looks_like_messages(d.get("messages"))
        for d in value[:10]
    )


def sniff(value: Any) -> bool:
    """A list of chat messages, a request body, a fine-tuning record, a completion, or a JSON
    array of fine-tuning records."""
    if isinstance(value, list):
        return _looks_like_messages(value) or is_dataset(value)
    if not isinstance(value, dict) or "format" in value:
        return False
    choices = value.get("choices")
    if isinstance(choices, list):
        if value.get("object") == "chat.completion":
            return True
        first = choices[0] if choices else None
        return isinstance(first, dict) and isinstance(first.get("message"), dict)
    if _FOREIGN_KEYS & value.keys():
        return False
    tools = value.get("tools")
    if isinstance(tools, list) and any(isinstance(t, dict) and "input_schema" in t for t in tools):
        return False
    return _looks_like_messages(value.get("messages"))


ROLE_WITHIN = 1 << 16
"""Bytes at the start of a file in which its first message names its role, for the typed
decoding to try it loosely (a first message holding more before its role goes the usual way)."""


def names_a_role(data: Any) -> bool:
    """Whether the start of JSON text (str or bytes-like) names a ``"role"``."""
    head = data[:ROLE_WITHIN]
    if type(head) is str:
        return '"role"' in head
    return b'"role"' in bytes(head)  # (a view's ``in`` would look for one byte)
