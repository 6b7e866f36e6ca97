"""The native form: plain JSON data, versioned, lossless for every field and block.

``{"format": "msgviewer", "version": 1, "messages": [...]}``. A message dict has ``role`` and
``content`` (a string, or a list of block dicts each with ``"type"``) and only the optional
fields that are set. This is the form replay fixtures are kept in and the form the app's JSON
editor shows, so keys come out in a stable order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

from . import _fastdecode
from .blocks import BLOCK_TYPES, Block, CitationBlock, ToolResultBlock
from .errors import FormatError, UnsupportedVersionError, number_text
from .message import ROLE_ALIASES, ROLES, InvalidToolCall, Message, ToolCall
from .usage import Usage

FORMAT_NAME = "msgviewer"
VERSION = 1
SUPPORTED_VERSIONS = frozenset({1})

_USAGE_FIELDS = (
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "reasoning_tokens",
)
_MESSAGE_KEYS = frozenset(
    {
        "role",
        "content",
        "id",
        "name",
        "tool_call_id",
        "is_error",
        "tool_calls",
        "invalid_tool_calls",
        "usage",
        "response_metadata",
        "artifacts",
        "metadata",
    }
)

_MISSING = dataclasses.MISSING
# Block fields in output order, with their defaults (a field at its default is left out).
_BLOCK_FIELDS: dict[str, tuple[tuple[str, Any], ...]] = {
    tag: tuple((f.name, f.default) for f in dataclasses.fields(cls) if f.name != "extra")
    for tag, cls in BLOCK_TYPES.items()
}


# -- to plain data ----------------------------------------------------------------------


def block_to_dict(block: Block) -> dict[str, Any]:
    """One block as a plain dict with its ``type`` first."""
    out: dict[str, Any] = {"type": block.type}
    for name, default in _BLOCK_FIELDS[block.type]:
        v = getattr(block, name)
        if v is default or (v == default and type(v) is type(default)):
            continue
        if name == "citations":
            v = [block_to_dict(c) for c in v]
        elif name == "content" and type(v) is tuple and type(block) is ToolResultBlock:
            v = [block_to_dict(b) for b in v]
        out[name] = v
    if block.extra:
        out["extra"] = block.extra
    return out


def usage_to_dict(usage: Usage) -> dict[str, Any]:
    """Usage as a dict of its non-zero counts (and ``extra`` when set)."""
    out: dict[str, Any] = {name: getattr(usage, name) for name in _USAGE_FIELDS}
    out = {k: v for k, v in out.items() if v}
    if usage.extra:
        out["extra"] = usage.extra
    return out


def _tool_call_to_dict(call: ToolCall) -> dict[str, Any]:
    out = {"id": call.id, "name": call.name, "args": call.args}
    if call.extra:
        out["extra"] = call.extra
    return out


def _invalid_call_to_dict(call: InvalidToolCall) -> dict[str, Any]:
    out = {"id": call.id, "name": call.name, "args": call.args, "error": call.error}
    if call.extra:
        out["extra"] = call.extra
    return out


def message_to_dict(message: Message) -> dict[str, Any]:
    """One message in the native dict form (only the fields that are set)."""
    content = message.content
    out: dict[str, Any] = {
        "role": message.role,
        "content": content if type(content) is str else [block_to_dict(b) for b in content],
    }
    if message.id is not None:
        out["id"] = message.id
    if message.name is not None:
        out["name"] = message.name
    if message.tool_call_id is not None:
        out["tool_call_id"] = message.tool_call_id
    if message.is_error:
        out["is_error"] = True
    if message.tool_calls:
        out["tool_calls"] = [_tool_call_to_dict(c) for c in message.tool_calls]
    if message.invalid_tool_calls:
        out["invalid_tool_calls"] = [_invalid_call_to_dict(c) for c in message.invalid_tool_calls]
    if message.usage is not None:
        out["usage"] = usage_to_dict(message.usage)
    if message.response_metadata:
        out["response_metadata"] = message.response_metadata
    if message.artifacts:
        out["artifacts"] = list(message.artifacts)
    if message.metadata:
        out["metadata"] = message.metadata
    return out


def to_dict(
    messages: Iterable[Message],
    *,
    title: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A history in the versioned native form."""
    out: dict[str, Any] = {"format": FORMAT_NAME, "version": VERSION}
    if title is not None:
        out["title"] = title
    if metadata:
        out["metadata"] = metadata
    out["messages"] = [message_to_dict(m) for m in messages]
    return out


# -- from plain data --------------------------------------------------------------------


def _fail(what: str, path: str) -> FormatError:
    return FormatError(what, path=path)


def _expect(value: Any, types: type | tuple[type, ...], what: str, path: str) -> None:
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in _as_tuple(types)):
        names = " or ".join(_TYPE_NAMES.get(t, t.__name__) for t in _as_tuple(types))
        raise _fail(f"{what} must be {names}, not {_json_type(value)}", path)


def _as_tuple(types: type | tuple[type, ...]) -> tuple[type, ...]:
    return types if isinstance(types, tuple) else (types,)


# JSON names of the Python types a field may hold, for error messages.
_TYPE_NAMES: dict[type, str] = {
    dict: "an object",
    list: "an array",
    str: "a string",
    bool: "a boolean",
    int: "an integer",
    float: "a number",
    type(None): "null",
}


def _json_type(value: Any) -> str:
    if type(value) in (int, float):
        return number_text(value, "an integer")  # "must be an integer, not 1.5"
    return _TYPE_NAMES.get(type(value), type(value).__name__)


_OPT_STR = (str, type(None))
_OPT_INT = (int, type(None))
# Expected JSON types of block fields, by field name (checked when the field is present).
_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "text": (str,),
    "url": _OPT_STR,
    "data": _OPT_STR,
    "file_id": _OPT_STR,
    "mime_type": _OPT_STR,
    "filename": _OPT_STR,
    "title": _OPT_STR,
    "cited_text": _OPT_STR,
    "start": _OPT_INT,
    "end": _OPT_INT,
    "signature": _OPT_STR,
    "redacted": (bool,),
    "id": _OPT_STR,
    "name": _OPT_STR,
    "index": _OPT_INT,
    "tool_call_id": _OPT_STR,
    "status": _OPT_STR,
    "is_error": (bool,),
    "message": (str,),
    "code": _OPT_STR,
    "kind": (str,),
    "citations": (list,),
    "extra": (dict,),
}


def block_from_dict(d: Any, path: str = "$") -> Block:
    """A block from its dict form; a clear ``FormatError`` naming ``path`` if it is not one."""
    _expect(d, dict, "a content block", path)
    tag = d.get("type")
    cls = BLOCK_TYPES.get(tag) if isinstance(tag, str) else None
    if cls is None:
        if not isinstance(tag, str):
            raise _fail('a content block needs a string "type"', path)
        raise _fail(
            f"unknown block type {tag!r} (known: {', '.join(BLOCK_TYPES)}; "
            'keep other data in an "unknown" block)',
            f"{path}.type",
        )
    allowed = {name for name, _ in _BLOCK_FIELDS[tag]}
    kwargs: dict[str, Any] = {}
    for key, v in d.items():
        if key == "type":
            continue
        if key != "extra" and key not in allowed:
            raise _fail(f"unknown field {key!r} in a {tag!r} block", f"{path}.{key}")
        # An unknown block's ``data`` is the original value verbatim: any JSON.
        types = None if tag == "unknown" and key == "data" else _FIELD_TYPES.get(key)
        if types is not None:
            _expect(v, types, f"{tag} block field {key!r}", f"{path}.{key}")
        kwargs[key] = v
    if tag == "text" and "citations" in kwargs:
        kwargs["citations"] = tuple(
            _citation(c, f"{path}.citations[{i}]") for i, c in enumerate(kwargs["citations"])
        )
    elif tag == "tool_result" and isinstance(kwargs.get("content"), list):
        kwargs["content"] = tuple(
            block_from_dict(b, f"{path}.content[{i}]") for i, b in enumerate(kwargs["content"])
        )
    elif tag == "tool_result" and not isinstance(kwargs.get("content"), str):
        raise _fail("tool_result content must be a string or an array of blocks", f"{path}.content")
    elif tag in ("tool_call", "server_tool_call") and not isinstance(kwargs.get("args"), dict):
        raise _fail(f"{tag} args must be an object", f"{path}.args")
    elif tag == "tool_call_chunk" and not isinstance(kwargs.get("args"), (str, type(None))):
        raise _fail("tool_call_chunk args must be a string", f"{path}.args")
    missing = [
        name for name, default in _BLOCK_FIELDS[tag] if default is _MISSING and name not in kwargs
    ]
    if missing:
        raise _fail(f"a {tag!r} block needs {', '.join(map(repr, missing))}", path)
    return cls(**kwargs)


def _citation(d: Any, path: str) -> CitationBlock:
    block = block_from_dict(d, path)
    if not isinstance(block, CitationBlock):
        raise _fail('citations must be blocks of type "citation"', path)
    return block


def usage_from_dict(d: Any, path: str = "$") -> Usage:
    """Usage from its dict form."""
    _expect(d, dict, "usage", path)
    kwargs: dict[str, Any] = {}
    for key, v in d.items():
        if key == "extra":
            _expect(v, dict, "usage extra", f"{path}.extra")
        elif key in _USAGE_FIELDS:
            _expect(v, int, f"usage {key!r}", f"{path}.{key}")
        else:
            raise _fail(f"unknown usage field {key!r}", f"{path}.{key}")
        kwargs[key] = v
    return Usage(**kwargs)


def _tool_call_from_dict(d: Any, path: str) -> ToolCall:
    _expect(d, dict, "a tool call", path)
    unknown = set(d) - {"id", "name", "args", "extra"}
    if unknown:
        raise _fail(f"unknown tool call field {sorted(unknown)[0]!r}", path)
    if "name" not in d or "args" not in d:
        raise _fail('a tool call needs "name" and "args"', path)
    _expect(d.get("id"), _OPT_STR, "tool call id", f"{path}.id")
    _expect(d["name"], str, "tool call name", f"{path}.name")
    _expect(d["args"], dict, "tool call args", f"{path}.args")
    _expect(d.get("extra", {}), dict, "tool call extra", f"{path}.extra")
    return ToolCall(d.get("id"), d["name"], d["args"], extra=d.get("extra", {}))


def _invalid_call_from_dict(d: Any, path: str) -> InvalidToolCall:
    _expect(d, dict, "an invalid tool call", path)
    unknown = set(d) - {"id", "name", "args", "error", "extra"}
    if unknown:
        raise _fail(f"unknown invalid tool call field {sorted(unknown)[0]!r}", path)
    for key in ("id", "name", "args", "error"):
        _expect(d.get(key), _OPT_STR, f"invalid tool call {key}", f"{path}.{key}")
    _expect(d.get("extra", {}), dict, "invalid tool call extra", f"{path}.extra")
    return InvalidToolCall(
        d.get("id"), d.get("name"), d.get("args"), d.get("error"), extra=d.get("extra", {})
    )


def message_from_dict(d: Any, path: str = "$") -> Message:
    """One message from its native dict form, or a ``FormatError`` naming ``path``."""
    _expect(d, dict, "a message", path)
    role = d.get("role")
    if not isinstance(role, str):
        raise _fail('a message needs a string "role"', f"{path}.role")
    if role not in ROLES and role.lower() not in ROLES and role.lower() not in ROLE_ALIASES:
        raise _fail(f"unknown role {role!r}", f"{path}.role")
    content = d.get("content", "")
    if type(content) is list:
        content = tuple(block_from_dict(b, f"{path}.content[{i}]") for i, b in enumerate(content))
    elif type(content) is not str:
        raise _fail(
            f"content must be a string or an array of blocks, not {_json_type(content)}",
            f"{path}.content",
        )
    if len(d) <= 2 and "content" in d:
        return Message(role, content)
    kwargs: dict[str, Any] = {}
    for key, v in d.items():
        if key in ("role", "content"):
            continue
        sub = f"{path}.{key}"
        if key not in _MESSAGE_KEYS:
            raise _fail(f"unknown message field {key!r}", sub)
        if key in ("id", "name", "tool_call_id"):
            _expect(v, _OPT_STR, key, sub)
        elif key == "is_error":
            _expect(v, bool, key, sub)
        elif key == "tool_calls":
            _expect(v, list, key, sub)
            v = tuple(_tool_call_from_dict(c, f"{sub}[{i}]") for i, c in enumerate(v))
        elif key == "invalid_tool_calls":
            _expect(v, list, key, sub)
            v = tuple(_invalid_call_from_dict(c, f"{sub}[{i}]") for i, c in enumerate(v))
        elif key == "usage":
            v = usage_from_dict(v, sub)
        elif key in ("response_metadata", "metadata"):
            _expect(v, dict, key, sub)
        elif key == "artifacts":
            _expect(v, list, key, sub)
            v = tuple(v)
        kwargs[key] = v
    return Message(role, content, **kwargs)


def messages_from_list(items: Any, path: str = "$") -> list[Message]:
    """Messages from a list of native message dicts."""
    _expect(items, list, "messages", path)
    out: list[Message] = []
    for i, m in enumerate(items):
        try:
            out.append(_fastdecode.message(m))
        except (_fastdecode.Unusual, TypeError):
            # TypeError: an unhashable value where the fast path looks a name up; the careful
            # decoder reports it with its path.
            out.append(message_from_dict(m, f"{path}[{i}]"))
    return out


def check_header(d: Any, path: str = "$") -> None:
    """Refuse data that is not the native form, or of a version this code does not know."""
    _expect(d, dict, "a msgviewer document", path)
    if d.get("format") != FORMAT_NAME:
        raise _fail(f'not a msgviewer document: "format" is {d.get("format")!r}', path)
    version = d.get("version")
    if type(version) is not int or version not in SUPPORTED_VERSIONS:
        raise UnsupportedVersionError(
            f"msgviewer format version {version!r} is not supported "
            f"(this version reads {', '.join(map(str, sorted(SUPPORTED_VERSIONS)))})",
            path=f"{path}.version",
        )


def from_dict(d: Any) -> list[Message]:
    """The messages of a native document; ``FormatError`` if it is not one."""
    check_header(d)
    return messages_from_list(d.get("messages"), "$.messages")


def blocks_to_list(blocks: Sequence[Block]) -> list[dict[str, Any]]:
    """Blocks as a list of dicts."""
    return [block_to_dict(b) for b in blocks]


__all__ = [
    "FORMAT_NAME",
    "VERSION",
    "block_from_dict",
    "block_to_dict",
    "blocks_to_list",
    "check_header",
    "from_dict",
    "message_from_dict",
    "message_to_dict",
    "messages_from_list",
    "to_dict",
    "usage_from_dict",
    "usage_to_dict",
]
