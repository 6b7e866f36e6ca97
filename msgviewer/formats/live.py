"""Live objects as conversations and back: what ``msgviewer.view`` opens and returns.

A debugger, a notebook or an agent loop holds messages as objects, not files: msgviewer's own
``Message`` and ``Conversation``, LangChain messages, pydantic-ai messages, the OpenAI,
Anthropic and Gemini SDKs' pydantic models, or plain dicts in any readable format.
``to_conversations`` turns them into conversations (through the format readers, so they are
read exactly as a file of theirs would be) and says what kind they were; ``from_conversations``
gives the edited conversations back in that kind, where msgviewer can write it.

Third-party libraries are never imported here unless the objects came from them (their
classes are told apart by module name), so this module costs nothing to import.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from ..core.errors import MsgviewerError
from ..core.json_numbers import loads_whole
from ..core.message import Message
from .base import Conversation
from .loading import loads
from .writing import dumps

# SDK model classes, by the top of their module's name, and the format their dicts are in.
_SDK_FORMATS = (
    ("openai.types.responses", "openai-responses"),
    ("openai.", "openai-chat"),
    ("anthropic.", "anthropic"),
    ("google.genai.", "gemini"),
)
# The list a format's request body keeps its messages in.
_LIST_KEYS = {"openai-chat": "messages", "anthropic": "messages", "gemini": "contents"}


@dataclass(frozen=True)
class LiveKind:
    """What the objects were, so the edited ones go back the same way.

    ``kind``: "conversation", "conversations", "messages", "langchain", "pydantic-ai", "sdk"
    (SDK models: they come back as dicts of ``format``) or "dicts"; ``shape``: "list" when the
    input was a list of messages (the result is a list too), else "document".
    """

    kind: str
    format: str
    shape: str = "list"


def _module(obj: Any) -> str:
    return type(obj).__module__ + "."


def _items(objects: Any) -> list[Any]:
    if isinstance(objects, (list, tuple)):
        return list(objects)
    return [objects]


def to_conversations(objects: Any) -> tuple[list[Conversation], LiveKind]:
    """The conversations ``objects`` hold, and what kind of objects they were.

    Raises ``MsgviewerError`` (one line: what was given) for objects no format reads.
    """
    if isinstance(objects, Conversation):
        return [objects], LiveKind("conversation", objects.format, "document")
    items = _items(objects)
    if not items:
        raise MsgviewerError("view: nothing to show (an empty list)")
    first = items[0]
    if all(isinstance(i, Conversation) for i in items):
        return items, LiveKind("conversations", first.format, "document")
    if all(isinstance(i, Message) for i in items):
        return [Conversation(tuple(items), format="msgviewer")], LiveKind("messages", "msgviewer")
    # (request params are plain dicts beside the SDK's response models: the models tell)
    module = _module(next((i for i in items if not isinstance(i, dict)), first))
    if module.startswith("langchain_core."):
        from langchain_core.messages import messages_to_dict

        data = messages_to_dict(items)
        return loads(data, format="langchain"), LiveKind("langchain", "langchain")
    if module.startswith("pydantic_ai."):
        from pydantic_ai.messages import ModelMessagesTypeAdapter

        data = ModelMessagesTypeAdapter.dump_python(items, mode="json")
        return loads(data, format="pydantic-ai"), LiveKind("pydantic-ai", "pydantic-ai")
    for prefix, fmt in _SDK_FORMATS:
        if module.startswith(prefix):
            return _sdk(items, fmt, isinstance(objects, (list, tuple)))
    if isinstance(objects, (dict, list, tuple, str, bytes)):
        data = list(objects) if isinstance(objects, tuple) else objects
        try:
            convs = loads(data)
        except MsgviewerError as exc:
            raise MsgviewerError(f"view: {exc}") from None
        shape = "list" if isinstance(data, list) else "document"
        return convs, LiveKind("dicts", convs[0].format if convs else "", shape)
    raise MsgviewerError(
        f"view: cannot show {type(first).__module__}.{type(first).__qualname__} objects: give "
        "msgviewer Messages, LangChain or pydantic-ai messages, SDK models or dicts"
    )


def _sdk(items: list[Any], fmt: str, listed: bool) -> tuple[list[Conversation], LiveKind]:
    if len(items) == 1 and not listed and hasattr(items[0], "model_dump"):
        # one response object (a completion, an Anthropic message): read as a response
        data = items[0].model_dump(mode="json", exclude_none=True)
        return loads(data, format=fmt), LiveKind("sdk", fmt, "document")
    dicts = [_sdk_dict(i) for i in items]
    if fmt == "openai-responses":
        data: Any = {"input": dicts}
    elif fmt in _LIST_KEYS:
        data = {_LIST_KEYS[fmt]: dicts}
    else:
        data = dicts
    return loads(data, format=fmt), LiveKind("sdk", fmt, "list" if listed else "document")


def _sdk_dict(obj: Any) -> Any:
    if not hasattr(obj, "model_dump"):  # a plain dict among the models (a request param)
        return obj
    data = obj.model_dump(mode="json", exclude_none=True)
    # an Anthropic response in a list of messages: the message part of it
    if data.get("type") == "message" and "role" in data and _module(obj).startswith("anthropic."):
        return {"role": data["role"], "content": data.get("content", [])}
    return data


def from_conversations(convs: Sequence[Conversation], kind: LiveKind) -> Any:
    """``convs`` (edited) given back as ``kind`` says.

    msgviewer objects come back as they came (a list of ``Message``, a ``Conversation`` or a
    list of them); LangChain and pydantic-ai messages as objects of those libraries; SDK
    models and dicts as plain dicts of their format (a list of messages for a list).
    """
    if kind.kind == "conversation":
        return convs[0]
    if kind.kind == "conversations":
        return list(convs)
    messages = [m for c in convs for m in c.messages]
    if kind.kind == "messages":
        return messages
    data = _written(convs, kind.format)
    if kind.kind == "langchain":
        from langchain_core.messages import messages_from_dict

        return messages_from_dict(data)
    if kind.kind == "pydantic-ai":
        from pydantic_ai.messages import ModelMessagesTypeAdapter

        return ModelMessagesTypeAdapter.validate_python(data)
    if kind.shape == "list" and isinstance(data, dict):
        key = _LIST_KEYS.get(kind.format) or ("input" if kind.format == "openai-responses" else "")
        if set(data) == {key}:  # a bare list in, a bare list out
            return data[key]
    return data


def _written(convs: Sequence[Conversation], fmt: str) -> Any:
    payload: Any = convs[0] if len(convs) == 1 else list(convs)
    data = dumps(payload, format=fmt)
    try:
        return loads_whole(data)  # (integers past 64 bits given back as the integers they are)
    except orjson.JSONDecodeError:  # JSONL: one record a line
        return [loads_whole(line) for line in data.splitlines() if line.strip()]
