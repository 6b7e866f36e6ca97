"""Native serialization: lossless round trips, refusal of unknown versions, precise errors."""

from __future__ import annotations

import copy
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings

from msgviewer.core import (
    AudioBlock,
    CitationBlock,
    ErrorBlock,
    FileBlock,
    FormatError,
    ImageBlock,
    InvalidToolCall,
    Message,
    ReasoningBlock,
    ServerToolCallBlock,
    ServerToolResultBlock,
    TextBlock,
    ToolCall,
    ToolCallBlock,
    ToolCallChunkBlock,
    ToolResultBlock,
    UnknownBlock,
    UnsupportedVersionError,
    Usage,
    VideoBlock,
    block_from_dict,
    block_to_dict,
    from_dict,
    message_from_dict,
    message_to_dict,
    to_dict,
)
from tests.strategies import blocks, histories

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _is_plain_json(value: Any) -> bool:
    if value is None or type(value) in (str, int, float, bool):
        return True
    if type(value) is list:
        return all(_is_plain_json(v) for v in value)
    if type(value) is dict:
        return all(type(k) is str and _is_plain_json(v) for k, v in value.items())
    return False


# -- round trips ------------------------------------------------------------------------


@SETTINGS
@given(histories())
def test_round_trip(history: list[Message]) -> None:
    doc = to_dict(history)
    assert _is_plain_json(doc)
    assert from_dict(doc) == history
    # The careful decoder (used where the fast path gives up) builds the same values.
    careful = [message_from_dict(d, f"$.messages[{i}]") for i, d in enumerate(doc["messages"])]
    assert careful == history


@SETTINGS
@given(histories())
def test_round_trip_through_orjson_bytes(history: list[Message]) -> None:
    data = orjson.dumps(to_dict(history))
    back = from_dict(orjson.loads(data))
    assert back == history
    # Writing what was read gives the same bytes: diffs of fixtures stay quiet.
    assert orjson.dumps(to_dict(back)) == data


@SETTINGS
@given(blocks())
def test_every_block_round_trips_alone(block: Any) -> None:
    d = orjson.loads(orjson.dumps(block_to_dict(block)))
    assert d["type"] == block.type
    assert block_from_dict(d) == block


EXAMPLES = [
    TextBlock(
        "Paris is the capital.",
        (CitationBlock(url="https://en.wikipedia.org/wiki/Paris", cited_text="capital", start=0),),
        extra={"cache_control": {"type": "ephemeral"}},
    ),
    ImageBlock(url="https://example.com/cat.png", extra={"detail": "high"}),
    ImageBlock(url="data:image/png;base64,iVBORw0KGgo="),
    AudioBlock(data="UklGRg==", mime_type="audio/wav"),
    VideoBlock(file_id="files/abc", mime_type="video/mp4"),
    FileBlock(data="JVBERi0=", mime_type="application/pdf", filename="report.pdf"),
    ReasoningBlock("Let me think.", signature="EqQBCkYIBxgC"),
    ReasoningBlock(redacted=True, data="EmwKAhgBEgy3va3pzix"),
    ReasoningBlock("summary", data="gAAAAABoencrypted"),
    CitationBlock(title="Doc", start=3, end=9, extra={"type": "char_location"}),
    ToolCallBlock("toolu_01", "get_weather", {"location": "Paris"}),
    ToolCallChunkBlock(None, None, '"Paris"}', 0),
    ServerToolCallBlock("srvtoolu_1", "web_search", {"query": "weather"}),
    ServerToolResultBlock("srvtoolu_1", [{"type": "web_search_result", "url": "u"}], "completed"),
    ServerToolResultBlock(None, None),
    ToolResultBlock("toolu_01", "18 C", is_error=False),
    ToolResultBlock("toolu_02", (TextBlock("oops"), ImageBlock(file_id="f")), is_error=True),
    ErrorBlock("Overloaded", code="overloaded_error"),
    UnknownBlock("executableCode", {"language": "PYTHON", "code": "print(1)"}),
    UnknownBlock("weird", [1, "two", None]),
    UnknownBlock("scalar", 3.5),
]


@pytest.mark.parametrize("block", EXAMPLES, ids=lambda b: b.type)
def test_each_block_type_round_trips(block: Any) -> None:
    doc = to_dict([Message("assistant", (block,))])
    assert from_dict(orjson.loads(orjson.dumps(doc))) == [Message("assistant", (block,))]


def test_examples_cover_every_block_type() -> None:
    from msgviewer.core import BLOCK_TYPES

    assert {b.type for b in EXAMPLES} == set(BLOCK_TYPES)


def test_every_optional_message_field_round_trips() -> None:
    m = Message(
        "assistant",
        "Checking.",
        id="msg_1",
        name="planner",
        tool_calls=[ToolCall("call_1", "ls", {"path": "."}, extra={"type": "function"})],
        invalid_tool_calls=[InvalidToolCall("call_2", "ls", '{"pa', "unexpected end of data")],
        usage=Usage(100, 20, cache_read_tokens=80, extra={"prompt_tokens": 100}),
        response_metadata={"model": "gpt-4o", "finish_reason": "tool_calls"},
        metadata={"timestamp": "2025-01-01T00:00:00Z"},
    )
    tool = Message.tool(
        "boom", tool_call_id="call_1", name="ls", is_error=True, artifacts=[{"exit": 1}]
    )
    assert from_dict(to_dict([m, tool])) == [m, tool]


# -- shape and key order ----------------------------------------------------------------


def test_document_header_and_key_order() -> None:
    doc = to_dict([Message("user", "hi")], title="T", metadata={"model": "x"})
    assert list(doc) == ["format", "version", "title", "metadata", "messages"]
    assert (doc["format"], doc["version"]) == ("msgviewer", 1)
    assert list(to_dict([])) == ["format", "version", "messages"]


def test_message_keys_come_in_a_fixed_order_whatever_the_construction_order() -> None:
    kwargs: dict[str, Any] = {
        "metadata": {"k": 1},
        "artifacts": [1],
        "response_metadata": {"model": "m"},
        "usage": Usage(1, 1),
        "invalid_tool_calls": [InvalidToolCall(None, None, "x")],
        "tool_calls": [ToolCall("c", "n", {})],
        "is_error": True,
        "tool_call_id": "c0",
        "name": "n",
        "id": "i",
    }
    expected = ["role", "content", *reversed(list(kwargs))]
    forward = message_to_dict(Message("tool", "x", **kwargs))
    backward = message_to_dict(Message("tool", "x", **dict(reversed(list(kwargs.items())))))
    assert list(forward) == list(backward) == expected


def test_only_set_fields_are_written() -> None:
    assert message_to_dict(Message("user", "hi")) == {"role": "user", "content": "hi"}
    assert message_to_dict(Message("user", [TextBlock("hi")])) == {
        "role": "user",
        "content": [{"type": "text", "text": "hi"}],
    }


def test_block_keys_type_first_fields_in_order_extra_last() -> None:
    d = block_to_dict(
        ImageBlock(file_id="f", url="https://x", filename="a.png", extra={"detail": "low"})
    )
    assert list(d) == ["type", "url", "file_id", "filename", "extra"]
    d = block_to_dict(ReasoningBlock(data="x", signature="s", text="t", redacted=True))
    assert list(d) == ["type", "text", "signature", "redacted", "data"]


def test_defaults_are_left_out_of_blocks() -> None:
    assert block_to_dict(ReasoningBlock()) == {"type": "reasoning"}
    assert block_to_dict(ToolResultBlock("c", "ok")) == {
        "type": "tool_result",
        "tool_call_id": "c",
        "content": "ok",
    }
    # Required fields stay even when empty or null.
    assert block_to_dict(ToolCallBlock(None, "ls", {})) == {
        "type": "tool_call",
        "id": None,
        "name": "ls",
        "args": {},
    }


def test_developer_role_survives_a_round_trip() -> None:
    doc = {
        "format": "msgviewer",
        "version": 1,
        "messages": [{"role": "developer", "content": "Be brief."}],
    }
    (m,) = from_dict(doc)
    assert (m.role, m.metadata) == ("system", {"role": "developer"})
    assert from_dict(to_dict([m])) == [m]


def test_missing_content_reads_as_empty() -> None:
    assert message_from_dict({"role": "assistant", "tool_calls": []}).content == ""


# -- versions ---------------------------------------------------------------------------


@pytest.mark.parametrize("version", [2, 0, 99])
def test_unknown_versions_are_refused_clearly(version: int) -> None:
    doc = {"format": "msgviewer", "version": version, "messages": []}
    with pytest.raises(UnsupportedVersionError) as info:
        from_dict(doc)
    text = str(info.value)
    assert f"version {version} is not supported" in text
    assert "reads 1" in text
    assert info.value.path == "$.version"


@pytest.mark.parametrize("version", [None, "1", True, 1.5, [1], {"v": 1}])
def test_malformed_versions_are_refused(version: Any) -> None:
    doc = {"format": "msgviewer", "messages": []}
    if version is not None:
        doc["version"] = version
    with pytest.raises(UnsupportedVersionError, match="is not supported"):
        from_dict(doc)


@pytest.mark.parametrize("doc", [{"format": "other", "version": 1}, {"messages": []}, [], "x"])
def test_documents_of_another_kind_are_refused(doc: Any) -> None:
    with pytest.raises(FormatError) as info:
        from_dict(doc)
    assert info.value.path == "$"


# -- errors with JSON paths -------------------------------------------------------------

GOOD_MESSAGE: dict[str, Any] = {
    "role": "assistant",
    "content": [
        {
            "type": "text",
            "text": "Paris.",
            "citations": [{"type": "citation", "url": "https://x", "start": 0}],
        },
        {"type": "tool_result", "tool_call_id": "t", "content": [{"type": "text", "text": "ok"}]},
        {"type": "tool_call_chunk", "id": "c", "name": "ls", "args": "{", "index": 0},
        {"type": "reasoning", "text": "hm", "redacted": False},
        {"type": "image", "url": "https://x/a.png"},
    ],
    "id": "msg_1",
    "tool_calls": [{"id": "call_1", "name": "ls", "args": {}}],
    "invalid_tool_calls": [{"id": "call_2", "name": "ls", "args": "{", "error": "eof"}],
    "usage": {"input_tokens": 5, "output_tokens": 2, "extra": {}},
    "response_metadata": {"model": "gpt-4o"},
    "artifacts": [],
    "metadata": {},
}


def _set(obj: Any, path: list[Any], value: Any) -> None:
    for key in path[:-1]:
        obj = obj[key]
    if value is _DELETE:
        del obj[path[-1]]
    else:
        obj[path[-1]] = value


_DELETE = object()

BAD = [
    # (where in the message, bad value, expected path suffix, words the message must contain)
    (["role"], 5, ".role", "string"),
    (["role"], ["user"], ".role", "string"),
    (["content"], 42, ".content", "string or an array of blocks, not an integer"),
    (["content"], {"text": "x"}, ".content", "not an object"),
    (["content", 0], "text", ".content[0]", "must be an object, not a string"),
    (["content", 0, "type"], _DELETE, ".content[0]", '"type"'),
    (["content", 0, "type"], "txt", ".content[0].type", "unknown block type 'txt'"),
    (["content", 0, "text"], 7, ".content[0].text", "must be a string, not an integer"),
    (["content", 0, "text"], _DELETE, ".content[0]", "needs 'text'"),
    (["content", 0, "colour"], "red", ".content[0].colour", "unknown field 'colour'"),
    (["content", 0, "extra"], [], ".content[0].extra", "must be an object, not an array"),
    (["content", 0, "citations"], {}, ".content[0].citations", "must be an array"),
    (["content", 0, "citations", 0, "start"], "0", ".content[0].citations[0].start", "integer"),
    (
        ["content", 0, "citations", 0],
        {"type": "text", "text": "x"},
        ".content[0].citations[0]",
        'of type "citation"',
    ),
    (["content", 1, "content"], 3, ".content[1].content", "string or an array of blocks"),
    (["content", 1, "content", 0, "text"], None, ".content[1].content[0].text", "null"),
    (["content", 1, "is_error"], "yes", ".content[1].is_error", "must be a boolean"),
    (["content", 2, "args"], {}, ".content[2].args", "must be a string"),
    (["content", 2, "name"], 3, ".content[2].name", "string or null, not an integer"),
    (["content", 2, "index"], "0", ".content[2].index", "integer or null, not a string"),
    (["content", 2, "index"], True, ".content[2].index", "not a boolean"),
    (["content", 3, "redacted"], "no", ".content[3].redacted", "must be a boolean"),
    (["content", 4, "url"], 1, ".content[4].url", "string or null"),
    (["id"], 12, ".id", "id must be a string or null, not an integer"),
    (["is_error"], "true", ".is_error", "boolean"),
    (["tool_calls"], {}, ".tool_calls", "must be an array"),
    (["tool_calls", 0], "ls()", ".tool_calls[0]", "must be an object"),
    (["tool_calls", 0, "args"], "{}", ".tool_calls[0].args", "must be an object, not a string"),
    (["tool_calls", 0, "name"], _DELETE, ".tool_calls[0]", '"name"'),
    (["tool_calls", 0, "id"], 1, ".tool_calls[0].id", "string or null"),
    (["tool_calls", 0, "extra"], [], ".tool_calls[0].extra", "object"),
    (["invalid_tool_calls", 0, "args"], {}, ".invalid_tool_calls[0].args", "string or null"),
    (["invalid_tool_calls", 0, "extra"], 1, ".invalid_tool_calls[0].extra", "object"),
    (["usage"], [], ".usage", "usage must be an object"),
    (["usage", "input_tokens"], "5", ".usage.input_tokens", "must be an integer, not a string"),
    (["usage", "output_tokens"], 2.5, ".usage.output_tokens", "must be an integer, not 2.5"),
    (["usage", "output_tokens"], True, ".usage.output_tokens", "not a boolean"),
    (["usage", "cost"], 1, ".usage.cost", "unknown usage field 'cost'"),
    (["usage", "extra"], "x", ".usage.extra", "object"),
    (["response_metadata"], [], ".response_metadata", "must be an object"),
    (["metadata"], "x", ".metadata", "must be an object"),
    (["artifacts"], {}, ".artifacts", "must be an array"),
    (["parent"], "x", ".parent", "unknown message field 'parent'"),
]


@pytest.mark.parametrize(("where", "bad", "suffix", "words"), BAD, ids=lambda v: repr(v)[:40])
def test_wrong_types_name_their_json_path(where: list, bad: Any, suffix: str, words: str) -> None:
    message = copy.deepcopy(GOOD_MESSAGE)
    good_doc = {"format": "msgviewer", "version": 1, "messages": [{"role": "user", "content": ""}]}
    good_doc["messages"].append(copy.deepcopy(message))
    assert len(from_dict(good_doc)) == 2  # the unmodified document is fine

    _set(message, where, bad)
    doc = {"format": "msgviewer", "version": 1, "messages": [{"role": "user", "content": ""}]}
    doc["messages"].append(message)
    with pytest.raises(FormatError) as info:
        from_dict(doc)
    path = "$.messages[1]" + suffix
    assert info.value.path == path
    assert str(info.value).startswith(f"{path}: ")
    assert words in str(info.value)


def test_messages_must_be_a_list() -> None:
    with pytest.raises(FormatError) as info:
        from_dict({"format": "msgviewer", "version": 1, "messages": {"0": {}}})
    assert info.value.path == "$.messages"
    assert "messages must be an array, not an object" in str(info.value)


def test_a_message_that_is_not_an_object() -> None:
    with pytest.raises(FormatError) as info:
        from_dict({"format": "msgviewer", "version": 1, "messages": ["hello"]})
    assert info.value.path == "$.messages[0]"


def test_block_from_dict_uses_the_given_path() -> None:
    with pytest.raises(FormatError) as info:
        block_from_dict({"type": "tool_call", "id": "x", "name": "ls", "args": []}, "$.b[2]")
    assert info.value.path == "$.b[2].args"
