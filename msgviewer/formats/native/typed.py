"""msgviewer files decoded straight into typed records.

``orjson.loads`` makes a dict for every message, block and call, and the reader then looks
each key up again; ``msgspec`` decoding into the records below costs a little under half that
parse (100,000 messages: load 1.06-1.18x of ``orjson.loads`` this way, 1.16-1.35x the usual way).
The records follow the native schema field for field, with the value types the careful
decoder in ``core.serialize`` accepts (or narrower): a value of another type, a field of no
record, an unknown block type, fails the decode and the file goes the usual way (``orjson``,
then ``native.read``), which says what is wrong and where. So this path never decides anything
the usual way would decide otherwise; a property test holds the two to equal results. (One
difference is known: of a free-form value given twice in one object, or held by a record given
twice, msgspec skips the first without checking it, where ``orjson`` would refuse a bad one.)

Free-form values (tool call arguments, metadata, ``extra``...) are kept as raw JSON and parsed
as the usual way parses a document (``io.loads_whole``), so every number and string in them
reads as it does there, integers past 64 bits exactly, with no search of the file for them. A
message of the common shapes is built straight from its record; any other goes to the careful
decoder as the dict the usual way would have made, and anything it refuses sends the file the
usual way.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from msgspec import UNSET, Meta, Raw, Struct, UnsetType

from ...core._frozen import builder
from ...core.blocks import AudioBlock, FileBlock, ImageBlock, ReasoningBlock, TextBlock, VideoBlock
from ...core.errors import MsgviewerError
from ...core.message import _ROLE_OBJECTS as _ROLE
from ...core.message import Message, ToolCall
from ...core.serialize import FORMAT_NAME, SUPPORTED_VERSIONS, message_from_dict
from ...core.usage import Usage
from ..base import Conversation
from ..io import loads_whole

# The records hold integers of 64 bits, signed: a file with a larger one where an integer is
# wanted goes the usual way, which reads it exactly and says whether it may be there.
_Int = Annotated[int, Meta(ge=-(2**63), le=2**63 - 1)]
_Str = str | None
_Json = Raw | UnsetType
"""A free-form value, parsed when it is read (``_json``)."""


class _Record(Struct, forbid_unknown_fields=True, gc=False):
    pass


class _Block(_Record, tag_field="type"):
    pass


class _Citation(_Block, tag="citation"):
    url: _Str = None
    title: _Str = None
    cited_text: _Str = None
    start: _Int | None = None
    end: _Int | None = None
    extra: _Json = UNSET


class _Text(_Block, tag="text"):
    text: str
    citations: list[_AnyBlock] = []  # (a lone tagged record would not need its tag)
    extra: _Json = UNSET


class _Media(_Block):
    url: _Str = None
    data: _Str = None
    file_id: _Str = None
    mime_type: _Str = None
    filename: _Str = None
    extra: _Json = UNSET


class _Image(_Media, tag="image"):
    pass


class _Audio(_Media, tag="audio"):
    pass


class _Video(_Media, tag="video"):
    pass


class _File(_Media, tag="file"):
    pass


class _Reasoning(_Block, tag="reasoning"):
    text: str = ""
    signature: _Str = None
    redacted: bool = False
    data: _Str = None
    extra: _Json = UNSET


class _Call(_Block):
    id: _Str
    name: str
    args: Raw
    extra: _Json = UNSET


class _ToolCallBlock(_Call, tag="tool_call"):
    pass


class _ToolCallChunk(_Block, tag="tool_call_chunk"):
    id: _Str = None
    name: _Str = None
    args: _Str = None
    index: _Int | None = None
    extra: _Json = UNSET


class _ServerToolCall(_Call, tag="server_tool_call"):
    pass


class _ServerToolResult(_Block, tag="server_tool_result"):
    tool_call_id: _Str
    content: Raw
    status: _Str = None
    extra: _Json = UNSET


class _ToolResult(_Block, tag="tool_result"):
    tool_call_id: _Str
    content: str | list[_AnyBlock]
    is_error: bool = False
    extra: _Json = UNSET


class _Error(_Block, tag="error"):
    message: str
    code: _Str = None
    extra: _Json = UNSET


class _Unknown(_Block, tag="unknown"):
    kind: str
    data: Raw
    extra: _Json = UNSET


_AnyBlock = (
    _Text
    | _Image
    | _Audio
    | _Video
    | _File
    | _Reasoning
    | _Citation
    | _ToolCallBlock
    | _ToolCallChunk
    | _ServerToolCall
    | _ServerToolResult
    | _ToolResult
    | _Error
    | _Unknown
)


class _ToolCall(_Record):
    name: str
    args: Raw
    id: _Str = None
    extra: _Json = UNSET


class _InvalidToolCall(_Record):
    id: _Str = None
    name: _Str = None
    args: _Str = None
    error: _Str = None
    extra: _Json = UNSET


class _Usage(_Record):
    input_tokens: _Int = 0
    output_tokens: _Int = 0
    total_tokens: _Int = 0
    cache_read_tokens: _Int = 0
    cache_write_tokens: _Int = 0
    reasoning_tokens: _Int = 0
    extra: _Json = UNSET


class _Message(_Record):
    role: str
    content: str | list[_AnyBlock] = ""
    id: _Str = None
    name: _Str = None
    tool_call_id: _Str = None
    is_error: bool = False
    tool_calls: list[_ToolCall] = []
    invalid_tool_calls: list[_InvalidToolCall] | UnsetType = UNSET
    usage: _Usage | UnsetType = UNSET  # (null is refused, as the careful decoder refuses it)
    response_metadata: _Json = UNSET
    artifacts: _Json = UNSET
    metadata: _Json = UNSET


class _Document(_Record):
    format: str
    version: _Int
    messages: list[_Message]
    title: _Str = None
    metadata: _Json = UNSET


_decoder = msgspec.json.Decoder(_Document)

_MAX_DEPTH = 1024
"""The deepest nesting ``orjson`` reads: a raw value is parsed alone, so its depth in the file
is checked here."""


class _Refused(Exception):
    """Something the usual way would read otherwise, or refuse: it decides."""


def _json(raw: Raw, enclosing: int) -> Any:
    """A raw value as the usual way reads it, ``enclosing`` containers deep in the file."""
    value = loads_whole(memoryview(raw))  # (JSONDecodeError: the usual way says where)
    if len(raw) > 2 * (_MAX_DEPTH - enclosing) and _depth(value) + enclosing > _MAX_DEPTH:
        raise _Refused  # (a value of depth d takes at least 2d bytes: short ones need no walk)
    return value


def _depth(value: Any) -> int:
    """How many containers deep ``value`` nests (without recursion)."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if type(node) is dict:
            node = node.values()
        elif type(node) is not list:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in node)
    return deepest


def _plain(record: Any, enclosing: int) -> Any:
    """A record as the dict ``orjson`` would have made of it (keys in the records' order)."""
    if enclosing >= _MAX_DEPTH and (type(record) is list or isinstance(record, Struct)):
        raise _Refused  # (records nest as deep as msgspec may recurse: tool results, citations)
    if type(record) is list:
        return [_plain(item, enclosing + 1) for item in record]
    if type(record) is Raw:
        return _json(record, enclosing)
    if not isinstance(record, Struct):
        return record
    out: dict[str, Any] = {}
    tag = record.__struct_config__.tag
    if tag is not None:
        out["type"] = tag
    for name in record.__struct_fields__:
        value = getattr(record, name)
        if value is not UNSET:
            out[name] = _plain(value, enclosing + 1)
    return out


def read(data: Any, file: str | None) -> list[Conversation] | None:
    """The conversation of a msgviewer file, or None when the usual way must read it: not
    one document of the records above, or anything in it the careful decoder refuses."""
    try:
        doc = _decoder.decode(data)
    except (ValueError, TypeError, RecursionError):
        # DecodeError, ValidationError, UnicodeDecodeError; input msgspec does not take (a str
        # subclass); nesting past msgspec's depth: the usual way reads or reports them all
        return None
    if doc.format != FORMAT_NAME or doc.version not in SUPPORTED_VERSIONS:
        return None
    try:
        metadata = {} if doc.metadata is UNSET else _json(doc.metadata, 1) or {}
        if type(metadata) is not dict:
            return None
        title = doc.title
        records = doc.messages
        doc = None  # (the records are let go one by one below: nothing else may hold them)
        messages: list[Message] = []
        append = messages.append
        shared = _Shared()
        for i, m in enumerate(records):
            # Each record is freed as its message is built, so the messages take the place
            # of the records (the peak holds one of the two, and fewer holes are left).
            records[i] = None
            try:
                append(_common(m, shared))
            except _Careful:
                # (the message itself is in the document and its messages)
                append(message_from_dict(_plain(m, _IN_MESSAGE - 1)))
    except (_Refused, MsgviewerError, ValueError, TypeError, RecursionError):
        return None
    return [Conversation(tuple(messages), FORMAT_NAME, metadata, title)]


_build_message = builder(Message)
_build_text = builder(TextBlock)
_build_reasoning = builder(ReasoningBlock)
_build_call = builder(ToolCall)
_build_usage = builder(Usage)
_MEDIA = {_Image: ImageBlock, _Audio: AudioBlock, _Video: VideoBlock, _File: FileBlock}
_IN_MESSAGE = 3
"""Containers around a message's fields: the document, its messages, the message."""
_IN_CALL = 5
"""Containers around a tool call's fields: the message's, its calls, the call."""


class _Careful(Exception):
    """Not of the common shapes: the careful decoder builds this message."""


class _Shared:
    """One string object for the equal values a file repeats message after message.

    Tool names and model names are a handful of values written thousands of times; a result's
    call id is the id of the call it answers. The decoder makes a new string of each; sharing
    them saves their memory (about a tenth of a file of agent runs) and changes no value.
    """

    __slots__ = ("call_id", "name", "pending")

    def __init__(self) -> None:
        names: dict[str, str] = {}
        self.name = names.setdefault
        self.pending: dict[str | None, str] = {}
        """Ids of the calls not yet answered: each taken out by the result that answers it."""
        self.call_id = self.pending.pop

    def response(self, fields: dict[str, Any]) -> dict[str, Any]:
        """``fields`` with its repeated values (model, stop reason...) shared."""
        name = self.name
        for key in _REPEATED_RESPONSE_FIELDS:
            v = fields.get(key)
            if type(v) is str:
                fields[key] = name(v, v)
        return fields


_REPEATED_RESPONSE_FIELDS = ("model", "model_name", "finish_reason", "stop_reason")


def _common(m: _Message, shared: _Shared) -> Message:
    """A message of the common shapes, built as ``core._fastdecode`` builds it, or ``_Careful``."""
    role = _ROLE.get(m.role)
    if role is None or m.invalid_tool_calls is not UNSET or m.artifacts is not UNSET:
        raise _Careful
    content = m.content
    if type(content) is list:
        content = tuple([_block(b) for b in content])
    calls = m.tool_calls
    if calls:
        if any(c.extra is not UNSET for c in calls):
            raise _Careful
        calls = tuple([_call(c, shared) for c in calls])
    else:
        calls = ()
    usage = m.usage
    usage = None if usage is UNSET else _usage(usage)
    response_metadata = m.response_metadata
    metadata = m.metadata
    name = m.name
    call_id = m.tool_call_id
    if call_id is not None:
        call_id = shared.call_id(call_id, call_id)
        if name is not None:
            name = shared.name(name, name)
    return _build_message(
        role,
        content,
        m.id,
        name,
        call_id,
        m.is_error,
        calls,
        (),
        usage,
        {}
        if response_metadata is UNSET
        else shared.response(_object(response_metadata, _IN_MESSAGE)),
        (),
        {} if metadata is UNSET else _object(metadata, _IN_MESSAGE),
    )


def _call(c: _ToolCall, shared: _Shared) -> ToolCall:
    call_id = c.id
    if call_id is not None:
        shared.pending[call_id] = call_id
    return _build_call(call_id, shared.name(c.name, c.name), _object(c.args, _IN_CALL), {})


def _object(raw: Raw, enclosing: int) -> dict[str, Any]:
    """A raw value that must be an object (the careful decoder says what else it is)."""
    value = _json(raw, enclosing)
    if type(value) is not dict:
        raise _Careful
    return value


def _block(b: Any) -> Any:
    kind = type(b)
    if b.extra is not UNSET:
        raise _Careful
    if kind is _Text:
        if b.citations:
            raise _Careful
        return _build_text(b.text)
    if kind is _Reasoning:
        if b.redacted or b.data is not None:
            raise _Careful
        return _build_reasoning(b.text, b.signature)
    media = _MEDIA.get(kind)
    if media is None:
        raise _Careful
    # the class: a data URI url is split by __post_init__
    return media(
        url=b.url, data=b.data, file_id=b.file_id, mime_type=b.mime_type, filename=b.filename
    )


def _usage(u: _Usage) -> Usage:
    if u.extra is not UNSET:
        raise _Careful
    i = u.input_tokens
    o = u.output_tokens
    return _build_usage(
        i,
        o,
        u.total_tokens or i + o,  # as Usage.__post_init__ fills it in
        u.cache_read_tokens,
        u.cache_write_tokens,
        u.reasoning_tokens,
        {},
    )
