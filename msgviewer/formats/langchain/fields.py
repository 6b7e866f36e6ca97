"""The LangChain message vocabulary reading and writing share: the format's name, message
types and their roles, the data fields that map to ``Message`` fields, and the metadata keys
that keep a file's shape.
"""

from __future__ import annotations

NAME = "langchain"

# Message type -> role (None: the role is in the message's own "role" field).
TYPE_ROLES: dict[str, str | None] = {
    "human": "user",
    "ai": "assistant",
    "system": "system",
    "tool": "tool",
    "function": "tool",
    "chat": None,
    "HumanMessageChunk": "user",
    "AIMessageChunk": "assistant",
    "SystemMessageChunk": "system",
    "ToolMessageChunk": "tool",
    "FunctionMessageChunk": "tool",
    "ChatMessageChunk": None,
}
DEFAULT_TYPE = {"user": "human", "assistant": "ai", "system": "system", "tool": "tool"}
# Spellings LangChain's convert_to_messages also takes for plain dicts.
PLAIN_ALIASES = {"user": "human", "assistant": "ai"}
AI_TYPES = frozenset({"ai", "AIMessageChunk"})
TOOL_TYPES = frozenset({"tool", "ToolMessageChunk"})
CHAT_TYPES = frozenset({"chat", "ChatMessageChunk"})

# Fields of a message's data that map to Message fields (everything else -> metadata).
MAPPED = frozenset(
    {
        "content",
        "type",
        "id",
        "name",
        "additional_kwargs",
        "response_metadata",
        "tool_calls",
        "invalid_tool_calls",
        "usage_metadata",
        "tool_call_id",
        "artifact",
        "status",
    }
)
# Every field a LangChain message dict can have: a plain dict with other keys is not one.
PLAIN_KEYS = MAPPED | {"role", "example", "tool_call_chunks", "chunk_position", "lc_version"}
# Metadata keys that are LangChain message fields, written back whatever the source format.
LC_METADATA = frozenset({"example", "tool_call_chunks", "chunk_position", "role"})

CONVERSATION_KEY = "langchain"
"""``Conversation.metadata`` key recording the file's shape (plain dicts, ``messages`` object)."""
SHAPE_KEYS = frozenset({CONVERSATION_KEY})
"""The metadata keys that only record the file's shape (``Format.shape_keys``)."""

ITEM_KEY = "langchain_item"
"""``Message.metadata`` key holding the fields of a ``messages_to_dict`` item beside ``type``
and ``data`` (none in LangChain's own output, kept for files that have them)."""

# LangChain's own serialisation (``dumpd``, LangChain JS, LangGraph checkpoints):
# ``{"lc": 1, "type": "constructor", "id": [..., "HumanMessage"], "kwargs": {...}}``.
LC_CLASSES: dict[str, str] = {
    "HumanMessage": "human",
    "AIMessage": "ai",
    "SystemMessage": "system",
    "ToolMessage": "tool",
    "FunctionMessage": "function",
    "ChatMessage": "chat",
    "RemoveMessage": "remove",
    **{kind: kind for kind in TYPE_ROLES if kind.endswith("Chunk")},
}
LC_CLASS_OF = {kind: cls for cls, kind in LC_CLASSES.items()}
LC_PREFIX = ["langchain", "schema", "messages"]
"""The ``id`` path before the class name that Python's ``dumpd`` writes."""
LC_WRAPPER = frozenset({"lc", "type", "id", "kwargs"})
LC_ID_KEY = "langchain_lc_id"
"""``Message.metadata`` key: a message's ``lc`` id path when it differs from the file's."""

TOOL_USE_KEY = "langchain_tool_use"
"""``ToolCall.extra`` key: the call was also an Anthropic ``tool_use`` block of the content;
holds its position (``index``) and the block's other fields (``fields``)."""


def is_lc_message(item: object) -> bool:
    """A LangChain ``lc`` constructor dict of a message class."""
    if not isinstance(item, dict) or item.get("lc") != 1 or item.get("type") != "constructor":
        return False
    path = item.get("id")
    return (
        isinstance(path, list)
        and bool(path)
        and path[-1] in LC_CLASSES
        and isinstance(item.get("kwargs"), dict)
    )
