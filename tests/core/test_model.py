"""The message model: constructors, role aliases, views, immutability, blocks and usage."""

from __future__ import annotations

import base64
import binascii
import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from msgviewer.core import (
    ROLE_ALIASES,
    AudioBlock,
    CitationBlock,
    FileBlock,
    ImageBlock,
    InvalidMessageError,
    Message,
    ReasoningBlock,
    TextBlock,
    ToolCall,
    ToolCallBlock,
    ToolResultBlock,
    Usage,
    VideoBlock,
    from_dict,
    message_from_dict,
    normalize_role,
    parse_data_uri,
)
from msgviewer.core.errors import FormatError, MsgviewerError
from tests.strategies import messages, usages

ALIASES = [
    ("human", "user"),
    ("ai", "assistant"),
    ("model", "assistant"),
    ("gpt", "assistant"),
    ("developer", "system"),
    ("function", "tool"),
]


# -- constructors -----------------------------------------------------------------------


def test_constructors_set_the_role_and_pass_fields_through() -> None:
    usage = Usage(input_tokens=12, output_tokens=5)
    call = ToolCall("call_1", "get_weather", {"location": "Paris"})
    system = Message.system("You are helpful.")
    user = Message.user("What is the weather in Paris?", name="bob")
    assistant = Message.assistant(tool_calls=[call], usage=usage, id="msg_1")
    tool = Message.tool('{"temp": 18}', tool_call_id="call_1", name="get_weather")

    assert [m.role for m in (system, user, assistant, tool)] == [
        "system",
        "user",
        "assistant",
        "tool",
    ]
    assert user.name == "bob"
    assert assistant.content == ""
    assert assistant.tool_calls == (call,)
    assert assistant.usage is usage
    assert assistant.id == "msg_1"
    assert (tool.tool_call_id, tool.name, tool.is_error) == ("call_1", "get_weather", False)


def test_defaults_of_a_bare_message() -> None:
    m = Message("user", "hi")
    assert m.id is None and m.name is None and m.tool_call_id is None
    assert m.is_error is False
    assert m.tool_calls == () and m.invalid_tool_calls == () and m.artifacts == ()
    assert m.usage is None
    assert m.response_metadata == {} and m.metadata == {}


def test_default_dicts_are_not_shared_between_messages() -> None:
    a, b = Message("user", "a"), Message("user", "b")
    assert a.metadata is not b.metadata
    assert a.response_metadata is not b.response_metadata


def test_lists_become_tuples() -> None:
    call = ToolCall("c1", "ls", {})
    m = Message("assistant", [TextBlock("a")], tool_calls=[call], artifacts=[{"x": 1}])
    assert m.content == (TextBlock("a"),)
    assert m.tool_calls == (call,)
    assert m.artifacts == ({"x": 1},)
    assert ToolResultBlock("c1", [TextBlock("out")]).content == (TextBlock("out"),)
    cite = CitationBlock(url="https://example.com")
    assert TextBlock("t", [cite]).citations == (cite,)


def test_none_content_is_an_empty_string() -> None:
    assert Message("assistant", None).content == ""  # type: ignore[arg-type]


@pytest.mark.parametrize("content", [42, 3.5, {"text": "x"}, b"bytes"])
def test_content_of_the_wrong_type_is_refused(content: object) -> None:
    with pytest.raises(InvalidMessageError, match="content must be a string or a list"):
        Message("user", content)  # type: ignore[arg-type]


# -- roles ------------------------------------------------------------------------------


@pytest.mark.parametrize(("alias", "role"), ALIASES)
def test_role_aliases_in_the_constructor(alias: str, role: str) -> None:
    assert Message(alias, "x").role == role  # type: ignore[arg-type]
    assert Message(alias.upper(), "x").role == role  # type: ignore[arg-type]
    assert normalize_role(alias) == role


def test_the_alias_table_is_the_documented_one() -> None:
    assert dict(ALIASES) == ROLE_ALIASES


@pytest.mark.parametrize(("alias", "role"), ALIASES)
def test_role_aliases_through_replace(alias: str, role: str) -> None:
    m = dataclasses.replace(Message("user", "x"), role=alias)
    assert m.role == role


@pytest.mark.parametrize(("alias", "role"), ALIASES)
def test_role_aliases_through_from_dict(alias: str, role: str) -> None:
    doc = {
        "format": "msgviewer",
        "version": 1,
        "messages": [{"role": alias, "content": "x"}, {"role": alias, "content": "y", "id": "m"}],
    }
    assert [m.role for m in from_dict(doc)] == [role, role]
    assert message_from_dict({"role": alias.title(), "content": "x"}).role == role


def test_developer_keeps_its_original_name_in_metadata() -> None:
    m = Message("developer", "Be brief.", metadata={"source": "request"})
    assert m.role == "system"
    assert m.metadata == {"role": "developer", "source": "request"}
    # A plain alias leaves metadata alone.
    assert Message("human", "hi").metadata == {}


def test_canonical_roles_pass_through_unchanged() -> None:
    for role in ("system", "user", "assistant", "tool"):
        m = Message(role, "x")  # type: ignore[arg-type]
        assert m.role == role and m.metadata == {}


@pytest.mark.parametrize("role", ["robot", "", "users", None, 3, ["user"]])
def test_unknown_roles_are_refused_with_the_choices(role: object) -> None:
    with pytest.raises(InvalidMessageError, match="unknown role") as info:
        Message(role, "x")  # type: ignore[arg-type]
    assert "system, user, assistant, tool" in str(info.value)
    assert isinstance(info.value, MsgviewerError) and isinstance(info.value, ValueError)


def test_unknown_role_in_a_dict_names_the_path() -> None:
    with pytest.raises(FormatError) as info:
        from_dict(
            {
                "format": "msgviewer",
                "version": 1,
                "messages": [{"role": "user", "content": "a"}, {"role": "robot", "content": "b"}],
            }
        )
    assert info.value.path == "$.messages[1].role"
    assert "robot" in str(info.value)


# -- views ------------------------------------------------------------------------------


def test_text_of_string_content() -> None:
    assert Message("user", "hello").text == "hello"
    assert Message("user", "").text == ""


def test_text_joins_only_text_blocks() -> None:
    m = Message(
        "assistant",
        (
            ReasoningBlock("thinking hard"),
            TextBlock("Hello, "),
            ImageBlock(url="https://example.com/cat.png"),
            ToolCallBlock("toolu_1", "ls", {}),
            TextBlock("world."),
        ),
    )
    assert m.text == "Hello, world."


def test_blocks_view() -> None:
    assert Message("user", "hi").blocks == (TextBlock("hi"),)
    assert Message("user", "").blocks == ()
    content = (TextBlock("a"), ImageBlock(file_id="file-1"))
    assert Message("user", content).blocks is content


@pytest.mark.parametrize(
    ("meta", "model"),
    [
        ({"model_name": "gpt-4o", "model": "other"}, "gpt-4o"),
        ({"model": "claude-sonnet-4-5"}, "claude-sonnet-4-5"),
        ({"model": 3}, None),
        ({}, None),
    ],
)
def test_model_comes_from_response_metadata(meta: dict, model: str | None) -> None:
    assert Message("assistant", "x", response_metadata=meta).model == model


# -- immutability -----------------------------------------------------------------------


def test_messages_and_blocks_are_frozen() -> None:
    m = Message("user", "hi")
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.content = "changed"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        TextBlock("a").text = "b"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Usage(1, 2).input_tokens = 5  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        m.colour = "red"  # type: ignore[attr-defined]


def test_replace_makes_a_new_value_and_leaves_the_old_one() -> None:
    old = Message("user", "hi", id="m1")
    new = dataclasses.replace(old, content=[TextBlock("bye")])
    assert old.content == "hi"
    assert new.content == (TextBlock("bye"),)  # lists become tuples through replace too
    assert new.id == "m1"
    assert new != old


@settings(max_examples=60, deadline=None)
@given(messages())
def test_replace_with_no_change_is_equal(m: Message) -> None:
    assert dataclasses.replace(m) == m


# -- blocks -----------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [ImageBlock, AudioBlock, VideoBlock, FileBlock])
def test_data_uri_url_is_parsed_into_mime_type_and_data(cls: type) -> None:
    payload = base64.b64encode(b"\x89PNG\r\n\x1a\n fake").decode()
    block = cls(url=f"data:image/png;base64,{payload}")
    assert block.url is None
    assert block.data == payload
    assert block.mime_type == "image/png"
    assert block.decoded() == b"\x89PNG\r\n\x1a\n fake"
    assert block.data_uri == f"data:image/png;base64,{payload}"


def test_data_uri_keeps_a_given_mime_type() -> None:
    block = ImageBlock(url="data:image/png;base64,AAAA", mime_type="image/webp")
    assert (block.mime_type, block.data, block.url) == ("image/webp", "AAAA", None)


def test_data_uri_without_a_mime_type() -> None:
    block = FileBlock(url="data:;base64,aGk=")
    assert (block.mime_type, block.data) == (None, "aGk=")
    assert block.data_uri == "data:application/octet-stream;base64,aGk="


@pytest.mark.parametrize(
    "url",
    ["https://example.com/a.png", "data:text/plain,hello", "data:image/png;base64"],
)
def test_urls_that_are_not_base64_data_stay_urls(url: str) -> None:
    block = ImageBlock(url=url)
    assert block.url == url and block.data is None and block.data_uri is None


def test_parse_data_uri() -> None:
    assert parse_data_uri("data:audio/wav;base64,UklGRg==") == ("audio/wav", "UklGRg==")
    assert parse_data_uri("https://x") is None
    assert parse_data_uri("data:text/plain,hi") is None


def test_url_and_data_both_given_are_kept() -> None:
    block = ImageBlock(url="data:image/png;base64,AAAA", data="BBBB")
    assert block.url == "data:image/png;base64,AAAA" and block.data == "BBBB"


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=300), st.sampled_from([None, 76, 64]))
def test_decoded_size_matches_the_decoded_bytes(raw: bytes, line: int | None) -> None:
    text = base64.b64encode(raw).decode()
    if line:  # MIME-style line breaks, as some files store attachments
        text = "\r\n".join(text[i : i + line] for i in range(0, len(text), line)) + "\n"
    block = ImageBlock(data=text, mime_type="image/png")
    assert block.decoded() == raw
    assert block.decoded_size == len(raw)


@settings(max_examples=50, deadline=None)
@given(st.binary(min_size=1, max_size=100))
def test_decoded_size_of_unpadded_base64(raw: bytes) -> None:
    text = base64.b64encode(raw).decode().rstrip("=")
    assert AudioBlock(data=text).decoded_size == len(raw)
    assert len(binascii.a2b_base64(text + "==")) == len(raw)


def test_media_without_data() -> None:
    block = VideoBlock(url="https://example.com/v.mp4")
    assert block.decoded() is None and block.decoded_size is None and block.data_uri is None


def test_decoded_of_data_that_is_not_base64() -> None:
    assert ImageBlock(data="abc").decoded() is None  # incorrect padding


def test_blocks_have_their_type_tags() -> None:
    assert TextBlock("a").type == "text"
    assert ReasoningBlock().type == "reasoning"
    assert ToolResultBlock("c", "ok").type == "tool_result"
    assert "type" not in [f.name for f in dataclasses.fields(TextBlock)]


# -- usage ------------------------------------------------------------------------------


def test_total_defaults_to_input_plus_output() -> None:
    assert Usage(input_tokens=100, output_tokens=20).total_tokens == 120
    assert Usage(input_tokens=100, output_tokens=20, total_tokens=150).total_tokens == 150
    assert Usage().total_tokens == 0
    assert Usage(cache_read_tokens=5).total_tokens == 0


def test_usage_addition_sums_every_count_and_the_provider_numbers() -> None:
    a = Usage(
        100,
        20,
        cache_read_tokens=60,
        reasoning_tokens=5,
        extra={"input_tokens": 40, "cache_read_input_tokens": 60, "service_tier": "standard"},
    )
    b = Usage(
        200,
        30,
        cache_write_tokens=10,
        extra={"input_tokens": 190, "cache_read_input_tokens": 0, "service_tier": "priority"},
    )
    c = a + b
    assert (c.input_tokens, c.output_tokens, c.total_tokens) == (300, 50, 350)
    assert (c.cache_read_tokens, c.cache_write_tokens, c.reasoning_tokens) == (60, 10, 5)
    assert c.extra == {
        "input_tokens": 230,
        "cache_read_input_tokens": 60,
        "service_tier": "priority",
    }
    assert a.extra["input_tokens"] == 40  # operands unchanged


def test_usage_extra_nested_dicts_add() -> None:
    a = Usage(1, 1, extra={"prompt_tokens_details": {"cached_tokens": 3}, "flag": True})
    b = Usage(1, 1, extra={"prompt_tokens_details": {"cached_tokens": 4, "audio_tokens": 1}})
    assert (a + b).extra == {
        "prompt_tokens_details": {"cached_tokens": 7, "audio_tokens": 1},
        "flag": True,
    }


def test_sum_of_usages() -> None:
    usages_ = [Usage(10, 1), Usage(20, 2), Usage(30, 3, total_tokens=40)]
    total = sum(usages_)
    assert isinstance(total, Usage)
    assert (total.input_tokens, total.output_tokens, total.total_tokens) == (60, 6, 73)
    assert sum([], Usage()) == Usage()


def test_adding_something_else_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        Usage(1, 1) + 5  # type: ignore[operator]
    with pytest.raises(TypeError):
        5 + Usage(1, 1)  # type: ignore[operator]


@settings(max_examples=60, deadline=None)
@given(usages(), usages(), usages())
def test_usage_addition_is_associative_on_counts(a: Usage, b: Usage, c: Usage) -> None:
    left, right = (a + b) + c, a + (b + c)
    for f in ("input_tokens", "output_tokens", "total_tokens", "cache_read_tokens"):
        assert getattr(left, f) == getattr(right, f) == sum(getattr(u, f) for u in (a, b, c))
    assert Usage() + a == a + Usage()


def test_is_empty() -> None:
    assert Usage().is_empty()
    assert not Usage(extra={"x": 0}).is_empty()
    assert not Usage(reasoning_tokens=1).is_empty()
