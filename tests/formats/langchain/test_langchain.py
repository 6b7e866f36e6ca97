"""The langchain format: messages_to_dict output and plain LangChain message dicts."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    ChatMessage,
    FunctionMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
    messages_from_dict,
    messages_to_dict,
)

from msgviewer.core.blocks import (
    AudioBlock,
    CitationBlock,
    FileBlock,
    ImageBlock,
    ReasoningBlock,
    ServerToolCallBlock,
    ServerToolResultBlock,
    TextBlock,
    ToolCallBlock,
    ToolCallChunkBlock,
    ToolResultBlock,
    UnknownBlock,
    VideoBlock,
)
from msgviewer.core.message import Message, ToolCall
from msgviewer.core.usage import Usage
from msgviewer.formats import (
    FORMATS,
    Conversation,
    FormatError,
    FormatWarning,
    LossyConversionWarning,
    detect,
    dumps,
    get_format,
    loads,
)

from ..format_checks import links_survive

SAMPLES = Path(__file__).resolve().parents[3] / "msgviewer" / "samples"
SAMPLE = SAMPLES / "langchain-agent.json"
OWN = {"langchain-agent.json"}


def _load(data: Any) -> Conversation:
    (conv,) = loads(json.dumps(data), format="langchain")
    return conv


def _round_trip_json(data: Any) -> Any:
    """``data`` read and written back as LangChain, as parsed JSON."""
    return json.loads(dumps(_load(data), format="langchain"))


# -- the sample ----------------------------------------------------------------------------


def test_sample_is_detected() -> None:
    assert detect(SAMPLE.read_bytes()) == "langchain"


def test_sample_reads_every_field() -> None:
    conv = _load(json.loads(SAMPLE.read_text()))
    roles = [m.role for m in conv.messages]
    first_turn = ["system", "user", "assistant", "tool", "tool"]
    assert roles == [*first_turn, "assistant", "tool", "tool", "assistant"]
    human = conv.messages[1]
    image = human.blocks[1]
    assert isinstance(image, ImageBlock) and image.mime_type == "image/png"
    assert image.decoded() is not None and image.decoded().startswith(b"\x89PNG")
    ai = conv.messages[2]
    reasoning = ai.blocks[0]
    assert isinstance(reasoning, ReasoningBlock)
    assert (
        reasoning.signature == "EqQBCkYIBxgCKkDx9yZfm2lQ" and reasoning.extra["id"] == "rs_0a91c2"
    )
    assert [c.id for c in ai.tool_calls] == ["call_wx_01", "call_tt_02"]
    assert ai.tool_calls[0].args == {"city": "Paris", "hours": 6}
    assert ai.usage is not None
    assert (ai.usage.input_tokens, ai.usage.output_tokens, ai.usage.total_tokens) == (
        1342,
        161,
        1503,
    )
    assert ai.usage.cache_read_tokens == 1024 and ai.usage.reasoning_tokens == 96
    assert ai.model == "gpt-5-mini-2025-08-07"
    assert ai.response_metadata["finish_reason"] == "tool_calls"
    failed = conv.messages[4]
    assert failed.is_error and failed.tool_call_id == "call_tt_02" and failed.name == "train_times"
    assert failed.artifacts == (
        {
            "http_status": 504,
            "endpoint": "https://api.example-rail.test/v2/journeys",
            "elapsed_ms": 10012,
        },
    )
    assert not conv.messages[3].is_error
    second = conv.messages[5]
    assert [c.id for c in second.invalid_tool_calls] == ["call_wx_04"]
    assert second.invalid_tool_calls[0].args == '{"city": "Paris", "hours": '
    final = conv.messages[8].blocks[0]
    assert isinstance(final, TextBlock)
    assert final.citations[0].url == "https://www.sncf-connect.com/en-en/train/6612"
    assert (final.citations[0].start, final.citations[0].end) == (0, 64)


def test_sample_round_trip_is_exact() -> None:
    original = json.loads(SAMPLE.read_text())
    conv = _load(original)
    written = dumps(conv, format="langchain")
    assert json.loads(written) == original
    assert loads(written, format="langchain")[0] == conv


def test_written_file_is_accepted_by_langchain() -> None:
    original = json.loads(SAMPLE.read_text())
    written = json.loads(dumps(_load(original), format="langchain"))
    assert messages_from_dict(written) == messages_from_dict(original)


def test_foreign_history_written_for_langchain_keeps_content_calls_and_usage() -> None:
    # Anthropic-shaped: tool results inside a user message; a call as a content block.
    usage = Usage(input_tokens=120, output_tokens=30, cache_read_tokens=100, reasoning_tokens=12)
    history = [
        Message.system("Be brief."),
        Message.user("Weather in Oslo and Rome?"),
        Message.assistant(
            (
                ReasoningBlock("two cities", signature="sig-1"),
                TextBlock("Checking."),
                ToolCallBlock("tu_2", "weather", {"city": "Rome"}),
            ),
            tool_calls=(ToolCall("tu_1", "weather", {"city": "Oslo"}),),
            usage=usage,
            response_metadata={"model": "claude-sonnet-4-5"},
        ),
        Message.user(
            (
                ToolResultBlock("tu_1", "-3C snow"),
                ToolResultBlock("tu_2", "upstream timeout", is_error=True),
                TextBlock("Also, is it windy?"),
            )
        ),
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error", LossyConversionWarning)
        written = json.loads(dumps(Conversation(tuple(history), "anthropic"), format="langchain"))
    lc = messages_from_dict(written)
    assert [type(m) for m in lc] == [
        SystemMessage,
        HumanMessage,
        AIMessage,
        ToolMessage,
        ToolMessage,
        HumanMessage,
    ]
    ai = lc[2]
    assert [c["id"] for c in ai.tool_calls] == ["tu_1", "tu_2"]
    assert ai.tool_calls[1]["args"] == {"city": "Rome"}
    assert ai.usage_metadata["input_tokens"] == 120
    assert ai.usage_metadata["input_token_details"] == {"cache_read": 100}
    assert ai.usage_metadata["output_token_details"] == {"reasoning": 12}
    assert ai.response_metadata["model_name"] == "claude-sonnet-4-5"
    assert ai.content[0] == {
        "type": "reasoning",
        "reasoning": "two cities",
        "extras": {"signature": "sig-1"},
    }
    assert (lc[3].tool_call_id, lc[3].status, lc[3].name) == ("tu_1", "success", "weather")
    assert (lc[4].tool_call_id, lc[4].status, lc[4].content) == (
        "tu_2",
        "error",
        "upstream timeout",
    )
    assert lc[5].content == [{"type": "text", "text": "Also, is it windy?"}]


# -- every block kind ----------------------------------------------------------------------

ALL_BLOCKS = [
    {
        "type": "text",
        "text": "See [1].",
        "id": "lc_t1",
        "annotations": [
            {
                "type": "citation",
                "url": "https://a.test",
                "title": "A",
                "start_index": 4,
                "end_index": 7,
                "cited_text": "x",
            },
            {
                "type": "non_standard_annotation",
                "value": {"kind": "file_citation", "file_id": "f1"},
            },
        ],
    },
    {"type": "reasoning", "reasoning": "hmm", "extras": {"signature": "s1", "item": 3}},
    {"type": "reasoning", "extras": {"encrypted_content": "gAAAA"}},
    {"type": "reasoning", "extras": {"redacted_content": "RED"}},
    {"type": "image", "url": "https://img.test/a.png"},
    {"type": "image", "base64": "iVBORw0KGgo=", "mime_type": "image/png", "id": "lc_i"},
    {"type": "image", "file_id": "file-abc"},
    {"type": "audio", "base64": "UklGRg==", "mime_type": "audio/wav"},
    {"type": "video", "url": "https://v.test/a.mp4", "mime_type": "video/mp4"},
    {
        "type": "file",
        "file_id": "file-pdf",
        "mime_type": "application/pdf",
        "extras": {"filename": "r.pdf"},
    },
    {"type": "image", "source_type": "base64", "data": "R0lGOD==", "mime_type": "image/gif"},
    {"type": "file", "source_type": "url", "url": "https://d.test/x.pdf"},
    {"type": "image_url", "image_url": {"url": "https://img.test/b.jpg", "detail": "high"}},
    {"type": "thinking", "thinking": "native", "signature": "sig"},
    {"type": "redacted_thinking", "data": "opaque"},
    {"type": "tool_call", "id": "c1", "name": "f", "args": {"a": 1}},
    {"type": "tool_call_chunk", "id": "c2", "name": "g", "args": '{"b"', "index": 0},
    {"type": "server_tool_call", "id": "s1", "name": "web_search", "args": {"query": "q"}},
    {
        "type": "server_tool_result",
        "tool_call_id": "s1",
        "status": "success",
        "output": [{"url": "u"}],
    },
    {"type": "citation", "url": "https://c.test", "title": "C"},
    {"type": "non_standard", "value": {"type": "compaction", "summary": "..."}},
    {"type": "invalid_tool_call", "id": "c3", "name": "h", "args": "{", "error": "bad"},
    {"type": "text-plain", "mime_type": "text/plain", "text": "notes"},
    "a bare string",
]


def test_every_block_kind_is_read_as_its_block() -> None:
    conv = _load([{"type": "ai", "data": {"content": ALL_BLOCKS, "tool_calls": []}}])
    blocks = conv.messages[0].blocks
    expected = [
        TextBlock,
        ReasoningBlock,
        ReasoningBlock,
        ReasoningBlock,
        ImageBlock,
        ImageBlock,
        ImageBlock,
        AudioBlock,
        VideoBlock,
        FileBlock,
        ImageBlock,
        FileBlock,
        ImageBlock,
        ReasoningBlock,
        ReasoningBlock,
        ToolCallBlock,
        ToolCallChunkBlock,
        ServerToolCallBlock,
        ServerToolResultBlock,
        CitationBlock,
        UnknownBlock,
        UnknownBlock,
        UnknownBlock,
        TextBlock,
    ]
    assert [type(b) for b in blocks] == expected
    text = blocks[0]
    assert text.citations[0] == CitationBlock("https://a.test", "A", "x", 4, 7)
    assert text.extra == {"id": "lc_t1"}
    assert blocks[1].signature == "s1" and blocks[1].extra == {"extras": {"item": 3}}
    assert blocks[2].data == "gAAAA" and not blocks[2].redacted
    assert blocks[3].data == "RED" and blocks[3].redacted
    assert blocks[5].data == "iVBORw0KGgo=" and blocks[5].mime_type == "image/png"
    assert blocks[6].file_id == "file-abc"
    assert blocks[9].filename == "r.pdf"
    assert blocks[10].data == "R0lGOD==" and blocks[10].mime_type == "image/gif"
    assert blocks[12].url == "https://img.test/b.jpg" and blocks[12].extra["detail"] == "high"
    assert blocks[13].text == "native" and blocks[13].signature == "sig"
    assert blocks[14].redacted and blocks[14].data == "opaque"
    assert blocks[15] == ToolCallBlock("c1", "f", {"a": 1})
    assert blocks[16] == ToolCallChunkBlock("c2", "g", '{"b"', 0)
    assert blocks[17] == ServerToolCallBlock("s1", "web_search", {"query": "q"})
    assert blocks[18] == ServerToolResultBlock("s1", [{"url": "u"}], "success")
    assert blocks[20].kind == "non_standard" and blocks[20].data == ALL_BLOCKS[20]
    assert blocks[23] == TextBlock("a bare string")


def test_every_block_kind_round_trips() -> None:
    # LangChain keeps a content tool_call block in tool_calls as well.
    call = {"name": "f", "args": {"a": 1}, "id": "c1", "type": "tool_call"}
    data = [{"type": "ai", "data": {"content": ALL_BLOCKS, "tool_calls": [call]}}]
    conv = _load(data)
    written = json.loads(dumps(conv, format="langchain"))
    # Everything comes back as it was, except the bare string (now a text block).
    assert written[0]["data"]["content"][:-1] == ALL_BLOCKS[:-1]
    assert written[0]["data"]["content"][-1] == {"type": "text", "text": "a bare string"}
    assert _load(written) == conv


def test_provider_block_is_kept_verbatim_with_a_warning() -> None:
    document = {
        "type": "document",
        "source": {"type": "text", "media_type": "text/plain", "data": "Q3 revenue rose 4%."},
        "title": "q3.txt",
    }
    with pytest.warns(FormatWarning, match=r"\$\[0\]\.data\.content\[1\]: .*'document'"):
        conv = _load(
            [{"type": "human", "data": {"content": [{"type": "text", "text": "x"}, document]}}]
        )
    block = conv.messages[0].blocks[1]
    assert block == UnknownBlock("document", document)
    with pytest.warns(FormatWarning):
        written = _round_trip_json([{"type": "human", "data": {"content": ["x", document]}}])
    assert written[0]["data"]["content"][1] == document


# -- message kinds and shapes --------------------------------------------------------------


def test_chunks_chat_and_function_messages_round_trip_through_langchain() -> None:
    lc = [
        ChatMessage(content="Looks right to me.", role="critic"),
        FunctionMessage(content="42", name="answer"),
        AIMessageChunk(
            content="partial",
            tool_call_chunks=[{"name": "f", "args": '{"a": 1}', "id": "c9", "index": 0}],
        ),
        HumanMessage(content="hi", name="ann", additional_kwargs={"trace": "t1"}),
    ]
    original = messages_to_dict(lc)
    conv = _load(original)
    chat, func, chunk, human = conv.messages
    assert chat.role == "user" and chat.metadata == {"role": "critic", "type": "chat"}
    assert func.role == "tool" and func.name == "answer" and func.tool_call_id is None
    assert chunk.role == "assistant" and chunk.tool_calls == (ToolCall("c9", "f", {"a": 1}),)
    assert chunk.metadata["tool_call_chunks"][0]["args"] == '{"a": 1}'
    assert human.name == "ann" and human.metadata == {"additional_kwargs": {"trace": "t1"}}
    written = json.loads(dumps(conv, format="langchain"))
    assert written == original
    assert messages_from_dict(written) == lc


def test_plain_dicts_and_messages_wrapper_keep_their_shape() -> None:
    plain = [
        {"type": "system", "content": "Be terse."},
        {"type": "human", "content": "2+2?", "id": "h1"},
        {
            "type": "ai",
            "content": "",
            "tool_calls": [{"name": "calc", "args": {"e": "2+2"}, "id": "k1"}],
        },
        {"type": "tool", "content": "4", "tool_call_id": "k1", "status": "success"},
    ]
    assert detect(json.dumps(plain)) == "langchain"
    conv = _load(plain)
    assert [m.role for m in conv.messages] == ["system", "user", "assistant", "tool"]
    written = json.loads(dumps(conv, format="langchain"))
    assert all("data" not in item and "content" in item for item in written)
    assert [m["type"] for m in written] == ["system", "human", "ai", "tool"]
    assert _load(written) == conv

    state = {"messages": messages_to_dict([HumanMessage("hi"), AIMessage("hello")]), "step": 3}
    assert detect(json.dumps(state)) == "langchain"
    conv = _load(state)
    assert conv.metadata["step"] == 3
    written = json.loads(dumps(conv, format="langchain"))
    assert written == state


def test_several_conversations_in_jsonl() -> None:
    lines = [
        json.dumps({"messages": messages_to_dict([HumanMessage("one")])}),
        json.dumps({"messages": messages_to_dict([HumanMessage("two"), AIMessage("2")])}),
    ]
    convs = loads("\n".join(lines) + "\n")
    assert [len(c.messages) for c in convs] == [1, 2]
    assert convs[1].messages[1].text == "2"


def test_openai_dicts_are_not_langchain_and_langchain_is_not_openai() -> None:
    openai_msgs = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]
    lc_format = get_format("langchain")
    assert not lc_format.sniff(openai_msgs)
    assert not lc_format.sniff({"model": "gpt-4o", "messages": openai_msgs})
    # Session-log lines carry a "type" too; they are not LangChain messages.
    assert not lc_format.sniff({"type": "system", "content": "x", "uuid": "u", "parentUuid": None})
    sample = json.loads(SAMPLE.read_text())
    for name in FORMATS:
        fmt = get_format(name)
        if name != "langchain" and fmt.sniff is not None:
            assert not fmt.sniff(sample), f"{name} claims the LangChain sample"


@pytest.mark.parametrize(
    "path", sorted(p.name for p in SAMPLES.iterdir() if p.is_file() and p.name not in OWN)
)
def test_no_false_positive_on_other_samples(path: str) -> None:
    try:
        name = detect((SAMPLES / path).read_bytes())
    except FormatError:
        return
    assert name != "langchain"


# -- bad input -----------------------------------------------------------------------------

_CALL = {"name": "f", "args": {}, "id": "c1", "type": "tool_call"}
_USAGE = {"input_tokens": 9, "output_tokens": 2, "total_tokens": 11}


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ([{"type": "human", "data": "hi"}], "$[0].data"),
        ([{"type": "robot", "data": {"content": "x"}}], "$[0].type"),
        ([{"type": "human", "data": {"id": "x"}}], "$[0].data"),
        ([{"type": "human", "data": {"content": 5}}], "$[0].data.content"),
        ([{"type": "human", "data": {"content": [{"text": "x"}]}}], "$[0].data.content[0].type"),
        (
            [{"type": "human", "data": {"content": [{"type": "text", "text": 3}]}}],
            "$[0].data.content[0].text",
        ),
        (
            [{"type": "ai", "data": {"content": "", "tool_calls": [{"name": "f", "args": "{}"}]}}],
            "$[0].data.tool_calls[0].args",
        ),
        (
            [{"type": "ai", "data": {"content": "", "usage_metadata": {"input_tokens": "9"}}}],
            "$[0].data.usage_metadata.input_tokens",
        ),
        (
            [{"type": "tool", "data": {"content": "x", "tool_call_id": "a", "status": "boom"}}],
            "$[0].data.status",
        ),
        ({"messages": [{"type": "human", "data": {"content": "a"}}, 7]}, "$.messages[1]"),
        ([{"type": "human", "data": {"content": "a"}}, 7], "$[1]"),
        ([{"type": "human", "data": {"content": "a", "id": 7}}], "$[0].data.id"),
        ([{"type": "human", "data": {"content": "a", "name": ["n"]}}], "$[0].data.name"),
        (
            [{"type": "human", "data": {"content": "a", "additional_kwargs": [1]}}],
            "$[0].data.additional_kwargs",
        ),
        (
            [{"type": "ai", "data": {"content": "a", "response_metadata": "gpt"}}],
            "$[0].data.response_metadata",
        ),
        (  # the usual four keys, one of the wrong type
            [{"type": "ai", "data": {"content": "", "tool_calls": [_CALL | {"id": 3}]}}],
            "$[0].data.tool_calls[0].id",
        ),
        (
            [{"type": "ai", "data": {"content": "", "tool_calls": [_CALL, "call"]}}],
            "$[0].data.tool_calls[1]",
        ),
        (
            [
                {
                    "type": "ai",
                    "data": {
                        "content": "",
                        "usage_metadata": _USAGE | {"input_token_details": [1]},
                    },
                }
            ],
            "$[0].data.usage_metadata.input_token_details",
        ),
        (
            [
                {
                    "type": "ai",
                    "data": {
                        "content": "",
                        "usage_metadata": _USAGE | {"output_token_details": {"reasoning": "5"}},
                    },
                }
            ],
            "$[0].data.usage_metadata.output_token_details.reasoning",
        ),
        (
            [
                {
                    "type": "ai",
                    "data": {"content": "", "usage_metadata": _USAGE | {"total_tokens": True}},
                }
            ],
            "$[0].data.usage_metadata.total_tokens",
        ),
        (
            [{"type": "ai", "data": {"content": [{"type": "reasoning", "reasoning": 1}]}}],
            "$[0].data.content[0].reasoning",
        ),
        (
            [{"type": "ai", "data": {"content": [{"type": "reasoning", "extras": "s"}]}}],
            "$[0].data.content[0].extras",
        ),
    ],
)
def test_malformed_input_names_the_path(data: Any, path: str) -> None:
    with pytest.raises(FormatError) as info:
        loads(json.dumps(data), format="langchain")
    assert info.value.path == path


# -- conversion to every other writable format ---------------------------------------------


@pytest.mark.parametrize(
    "target", sorted(n for n, (_r, w, _d) in FORMATS.items() if w and n != "langchain")
)
def test_sample_converts_with_tool_links_intact(target: str) -> None:
    conv = _load(json.loads(SAMPLE.read_text()))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LossyConversionWarning)
        data = dumps(conv, format=target)
    assert data
    if not get_format(target).can_read:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FormatWarning)
        (back,) = loads(data, format=target)
    links_survive(conv.messages, back.messages)


@pytest.mark.parametrize("path", sorted(p.name for p in SAMPLES.iterdir() if p.is_file()))
def test_every_sample_written_as_langchain_is_accepted_by_langchain(path: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FormatWarning)
        conversations = loads((SAMPLES / path).read_bytes())
    for conv in conversations:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", LossyConversionWarning)
            written = json.loads(dumps(conv, format="langchain"))
        lc = messages_from_dict(written)
        assert len(lc) >= len([m for m in conv.messages if m.role != "tool"])
        calls = [c["id"] for m in lc if isinstance(m, AIMessage) for c in m.tool_calls]
        want = [c.id for m in conv.messages for c in m.tool_calls]
        assert set(want) <= set(calls)  # every tool call survives, by id


def test_unknown_item_usage_and_call_fields_round_trip() -> None:
    ai = messages_to_dict([AIMessage("", tool_calls=[{"name": "f", "args": {}, "id": "c1"}])])[0]
    ai["trace"] = {"span": 7}  # beside type and data
    ai["data"]["usage_metadata"] = {
        "input_tokens": 3,
        "output_tokens": 2,
        "total_tokens": 5,
        "input_token_details": {"cache_read": 1},
        "service_tier_tokens": 4,
    }
    ai["data"]["tool_calls"][0]["type"] = "tool_call_v2"
    ai["data"]["invalid_tool_calls"] = [
        {"type": "invalid_v2", "id": "c2", "name": "g", "args": "{", "error": None}
    ]
    assert _round_trip_json([ai]) == [ai]


def test_foreign_raw_usage_is_not_written_as_usage_metadata() -> None:
    # OpenAI Responses usage has LangChain's count names but its own detail keys.
    raw = {"input_tokens": 3, "output_tokens": 2, "total_tokens": 5, "input_tokens_details": {}}
    usage = Usage(input_tokens=3, output_tokens=2, extra=raw)
    conv = Conversation((Message.assistant("hi", usage=usage),), format="openai-responses")
    [item] = json.loads(dumps(conv, format="langchain"))
    assert item["data"]["usage_metadata"] == {
        "input_tokens": 3,
        "output_tokens": 2,
        "total_tokens": 5,
    }


def test_extra_and_metadata_never_replace_written_fields() -> None:
    text = TextBlock("hi", extra={"type": "image", "id": "b1"})
    message = Message.assistant(
        (text,),
        id="m1",
        tool_calls=(ToolCall("c1", "f", {}, extra={"id": "other"}),),
        metadata={"id": "m2", "content": "x", "usage_metadata": {"input_tokens": 1}, "k": 1},
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        [item] = json.loads(dumps(Conversation((message,), format="langchain"), format="langchain"))
    lost = " ".join(str(w.message) for w in caught if w.category is LossyConversionWarning)
    for key in ("'type'", "'id'", "'content'", "'usage_metadata'"):
        assert key in lost
    data = item["data"]
    assert data["id"] == "m1" and data["content"] == [{"type": "text", "text": "hi", "id": "b1"}]
    assert data["tool_calls"][0]["id"] == "c1" and data["usage_metadata"] is None
    assert data["k"] == 1
    assert messages_from_dict([item])[0].id == "m1"
