"""The pydantic-ai format: ModelMessagesTypeAdapter JSON.

pydantic-ai itself is not a dependency; the data here is written by hand after its wire
format (``pydantic_ai.messages``), with the fields its serializer emits.
"""

from __future__ import annotations

import contextlib
import json
import warnings
from pathlib import Path
from typing import Any

import pytest

from msgviewer.core.blocks import (
    AudioBlock,
    FileBlock,
    ImageBlock,
    ReasoningBlock,
    ServerToolCallBlock,
    ServerToolResultBlock,
    TextBlock,
    ToolResultBlock,
    UnknownBlock,
    VideoBlock,
)
from msgviewer.core.links import link_tools
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
SAMPLE = SAMPLES / "pydantic-ai-agent.json"
OWN = {"pydantic-ai-agent.json"}
TS = "2025-11-21T10:00:00Z"


def _load(data: Any) -> Conversation:
    (conv,) = loads(json.dumps(data), format="pydantic-ai")
    return conv


def _write(conv: Conversation) -> list[dict[str, Any]]:
    return json.loads(dumps(conv, format="pydantic-ai"))


def _normal(value: Any) -> Any:
    """JSON with nulls left out and tool-call argument strings parsed: what pydantic-ai
    means by a message, whichever optional fields a version writes."""
    if isinstance(value, dict):
        out = {k: _normal(v) for k, v in value.items() if v is not None}
        if value.get("part_kind") in ("tool-call", "builtin-tool-call") and isinstance(
            value.get("args"), str
        ):
            with contextlib.suppress(ValueError):  # invalid arguments stay the text they were
                out["args"] = json.loads(value["args"])
        return out
    if isinstance(value, list):
        return [_normal(v) for v in value]
    return value


def _request(*parts: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"parts": list(parts), **fields, "kind": "request"}


def _response(*parts: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"parts": list(parts), "model_name": "gpt-5", **fields, "kind": "response"}


# -- the sample ----------------------------------------------------------------------------


def test_sample_is_detected() -> None:
    assert detect(SAMPLE.read_bytes()) == "pydantic-ai"


def test_sample_reads_every_part() -> None:
    conv = _load(json.loads(SAMPLE.read_text()))
    roles = [m.role for m in conv.messages]
    first_turn = ["system", "user", "assistant", "tool", "tool"]
    assert roles == [*first_turn, "assistant", "tool", "assistant"]
    system, user, first = conv.messages[:3]
    assert system.text.startswith("You are a support agent")
    assert system.metadata["pydantic_ai_request"] == {}
    image = user.blocks[1]
    assert isinstance(image, ImageBlock) and image.mime_type == "image/jpeg"
    assert image.url == "https://uploads.example-bikes.test/tickets/8841/flat-tyre.jpg"
    thinking = first.blocks[0]
    assert isinstance(thinking, ReasoningBlock) and thinking.signature == "ErUBCkYIBxgCIkB3q9vV0sQn"
    assert [c.name for c in first.tool_calls] == ["get_booking", "shop_stock"]
    assert first.usage is not None
    assert (first.usage.input_tokens, first.usage.cache_read_tokens) == (2417, 1910)
    assert first.usage.output_tokens == 214 and first.usage.total_tokens == 2631
    assert first.model == "claude-sonnet-4-5-20250929"
    assert first.response_metadata["finish_reason"] == "tool_call"
    booking, retry = conv.messages[3:5]
    assert booking.tool_call_id == "toolu_01HkX3b9tYq2" and not booking.is_error
    assert json.loads(booking.text)["customer"] == "Inès Moreau"
    assert booking.artifacts == ({"db_ms": 12, "source": "bookings-replica-2"},)
    assert (
        retry.is_error and retry.name == "shop_stock" and retry.tool_call_id == "toolu_01Pz7vNw4aRe"
    )
    assert json.loads(retry.text)[0]["loc"] == ["date"]
    again = conv.messages[5]
    assert again.tool_calls == (
        ToolCall(
            "toolu_01Jr5mTq8uLc",
            "shop_stock",
            {"shop": "quai-saint-antoine", "category": "city", "date": "2025-11-21"},
            extra={"args_json": True},
        ),
    )
    assert again.usage.cache_write_tokens == 312


def test_sample_round_trip() -> None:
    original = json.loads(SAMPLE.read_text())
    conv = _load(original)
    written = _write(conv)
    assert _normal(written) == _normal(original)
    assert _load(written) == conv


def test_request_parts_regroup_exactly() -> None:
    history = [
        _request(
            {"content": "a", "part_kind": "user-prompt"},
            {"content": "b", "part_kind": "user-prompt"},
        ),
        _request(
            {"content": "c", "part_kind": "user-prompt"}, instructions="Be kind.", run_id="r1"
        ),
        _response({"content": "ok", "part_kind": "text"}),
        _request(instructions="Only instructions."),
    ]
    conv = _load(history)
    assert [m.text for m in conv.messages] == ["a", "b", "c", "ok", ""]
    written = _write(conv)
    assert [len(m["parts"]) for m in written] == [2, 1, 1, 0]
    assert written[1]["instructions"] == "Be kind." and written[1]["run_id"] == "r1"
    assert written[3]["instructions"] == "Only instructions."
    assert _load(written) == conv


# -- every part kind -----------------------------------------------------------------------

REQUEST_PARTS = [
    {
        "content": "Be brief.",
        "timestamp": TS,
        "dynamic_ref": "sys_fn",
        "part_kind": "system-prompt",
    },
    {
        "content": [
            "Look:",
            {
                "url": "https://x.test/a.png",
                "force_download": False,
                "kind": "image-url",
                "media_type": "image/png",
            },
            {
                "url": "https://x.test/a.mp3",
                "force_download": False,
                "kind": "audio-url",
                "media_type": "audio/mpeg",
            },
            {
                "url": "https://x.test/a.mp4",
                "force_download": False,
                "kind": "video-url",
                "media_type": "video/mp4",
            },
            {
                "url": "https://x.test/a.pdf",
                "force_download": False,
                "kind": "document-url",
                "media_type": "application/pdf",
            },
            {
                "data": "iVBORw0KGgo=",
                "media_type": "image/png",
                "identifier": "ab12cd",
                "kind": "binary",
            },
            {"data": "JVBERi0=", "media_type": "application/pdf", "kind": "binary"},
            {
                "file_id": "file-9",
                "provider_name": "openai",
                "media_type": "application/pdf",
                "kind": "uploaded-file",
            },
            {"kind": "cache-point", "ttl": "5m"},
        ],
        "timestamp": TS,
        "part_kind": "user-prompt",
    },
    {
        "tool_name": "lookup",
        "content": {"rows": 3},
        "tool_call_id": "c1",
        "metadata": None,
        "timestamp": TS,
        "part_kind": "tool-return",
    },
    {
        "tool_name": "fetch",
        "content": "boom",
        "tool_call_id": "c2",
        "outcome": "failed",
        "part_kind": "tool-return",
    },
    {
        "tool_name": "plot",
        "content": ["chart:", {"data": "R0lG", "media_type": "image/gif", "kind": "binary"}],
        "tool_call_id": "c3",
        "part_kind": "tool-return",
    },
    {
        "content": "Unknown tool name: 'serch'",
        "tool_name": "serch",
        "tool_call_id": "c4",
        "timestamp": TS,
        "part_kind": "retry-prompt",
    },
    {
        "content": [{"type": "missing", "loc": ["answer"], "msg": "Field required", "input": {}}],
        "tool_name": None,
        "tool_call_id": "r5",
        "part_kind": "retry-prompt",
    },
]
RESPONSE_PARTS = [
    {
        "content": "thinking...",
        "id": "rs_1",
        "signature": "sig",
        "provider_name": "openai",
        "part_kind": "thinking",
    },
    {
        "content": "",
        "id": "redacted_thinking",
        "signature": "EmwKAhgB",
        "provider_name": "anthropic",
        "part_kind": "thinking",
    },
    {"content": "Here.", "id": "msg_1", "provider_name": "openai", "part_kind": "text"},
    {
        "tool_name": "web_search",
        "args": {"query": "bikes"},
        "tool_call_id": "ws_1",
        "provider_name": "openai",
        "part_kind": "builtin-tool-call",
    },
    {
        "tool_name": "web_search",
        "content": {"status": "completed"},
        "tool_call_id": "ws_1",
        "timestamp": TS,
        "provider_name": "openai",
        "part_kind": "builtin-tool-return",
    },
    {
        "content": {"data": "iVBORw0KGgo=", "media_type": "image/png", "kind": "binary"},
        "id": "ig_1",
        "provider_name": "openai",
        "part_kind": "file",
    },
    {"content": "summary", "part_kind": "compaction"},
    {"tool_name": "lookup", "args": {"q": 1}, "tool_call_id": "c1", "part_kind": "tool-call"},
    {
        "tool_name": "fetch",
        "args": '{"url": "https://x.test"}',
        "tool_call_id": "c2",
        "part_kind": "tool-call",
    },
    {"tool_name": "broken", "args": '{"a": ', "tool_call_id": "c6", "part_kind": "tool-call"},
]


def test_every_request_part_kind() -> None:
    conv = _load([_request(*REQUEST_PARTS)])
    system, user, ret, failed, files, retry, validation = conv.messages
    assert system.role == "system" and system.metadata["dynamic_ref"] == "sys_fn"
    kinds = [type(b) for b in user.blocks]
    media = [ImageBlock, AudioBlock, VideoBlock, FileBlock, ImageBlock, FileBlock, FileBlock]
    assert kinds == [TextBlock, *media, UnknownBlock]
    assert user.blocks[5].data == "iVBORw0KGgo=" and user.blocks[5].extra["identifier"] == "ab12cd"
    assert user.blocks[7].file_id == "file-9" and user.blocks[7].extra["provider_name"] == "openai"
    assert (ret.role, ret.name, ret.tool_call_id, ret.text) == (
        "tool",
        "lookup",
        "c1",
        '{"rows":3}',
    )
    assert failed.is_error and failed.metadata["outcome"] == "failed"
    assert [type(b) for b in files.blocks] == [TextBlock, ImageBlock]
    assert retry.role == "tool" and retry.is_error and retry.name == "serch"
    assert validation.role == "user" and not validation.is_error
    assert validation.metadata["part_kind"] == "retry-prompt"
    assert json.loads(validation.text)[0]["msg"] == "Field required"


def test_every_response_part_kind() -> None:
    conv = _load(
        [
            _response(
                *RESPONSE_PARTS,
                usage={"input_tokens": 10, "output_tokens": 5, "details": {"reasoning_tokens": 3}},
            )
        ]
    )
    (msg,) = conv.messages
    blocks = msg.blocks
    assert [type(b) for b in blocks] == [
        ReasoningBlock,
        ReasoningBlock,
        TextBlock,
        ServerToolCallBlock,
        ServerToolResultBlock,
        ImageBlock,
        UnknownBlock,
    ]
    assert blocks[0].signature == "sig" and blocks[0].extra["id"] == "rs_1"
    assert blocks[1].redacted and blocks[1].data == "EmwKAhgB"
    assert blocks[3] == ServerToolCallBlock(
        "ws_1", "web_search", {"query": "bikes"}, extra={"provider_name": "openai"}
    )
    assert blocks[4].tool_call_id == "ws_1" and blocks[4].content == {"status": "completed"}
    assert blocks[5].data == "iVBORw0KGgo=" and blocks[5].mime_type == "image/png"
    assert [c.name for c in msg.tool_calls] == ["lookup", "fetch"]
    assert msg.tool_calls[1].args == {"url": "https://x.test"}
    assert msg.invalid_tool_calls[0].args == '{"a": ' and msg.invalid_tool_calls[0].id == "c6"
    assert msg.usage == Usage(
        10,
        5,
        reasoning_tokens=3,
        extra={"input_tokens": 10, "output_tokens": 5, "details": {"reasoning_tokens": 3}},
    )


def test_every_part_kind_round_trips() -> None:
    history = [_request(*REQUEST_PARTS), _response(*RESPONSE_PARTS)]
    conv = _load(history)
    written = _write(conv)
    assert _normal(written) == _normal(history)
    assert _load(written) == conv


def test_unknown_part_is_kept_with_a_warning() -> None:
    part = {"content": "x", "part_kind": "future-part"}
    with pytest.warns(FormatWarning, match=r"\$\[0\]\.parts\[0\]: .*'future-part'"):
        conv = _load([_request(part)])
    assert conv.messages[0].blocks == (UnknownBlock("future-part", part),)
    assert _write(conv)[0]["parts"] == [part]


# -- writing from other shapes -------------------------------------------------------------


def test_anthropic_shaped_history_written_as_requests_and_responses() -> None:
    history = [
        Message.system("Be brief."),
        Message.user("Weather in Oslo?"),
        Message.assistant(
            (ReasoningBlock("check", signature="s"), TextBlock("Checking.")),
            tool_calls=(
                ToolCall("tu_1", "weather", {"city": "Oslo"}),
                ToolCall("tu_2", "clock", {}),
            ),
            usage=Usage(input_tokens=50, output_tokens=9, cache_read_tokens=40),
            response_metadata={"model": "claude-sonnet-4-5"},
        ),
        Message.user(
            (ToolResultBlock("tu_1", "-3C"), ToolResultBlock("tu_2", "timeout", is_error=True))
        ),
        Message.assistant("It is -3C in Oslo."),
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error", LossyConversionWarning)
        written = _write(Conversation(tuple(history), "anthropic"))
    assert [m["kind"] for m in written] == ["request", "response", "request", "response"]
    assert [p["part_kind"] for p in written[0]["parts"]] == ["system-prompt", "user-prompt"]
    response = written[1]
    assert response["model_name"] == "claude-sonnet-4-5"
    assert [p["part_kind"] for p in response["parts"]] == [
        "thinking",
        "text",
        "tool-call",
        "tool-call",
    ]
    assert response["usage"]["input_tokens"] == 50 and response["usage"]["cache_read_tokens"] == 40
    results = written[2]["parts"]
    assert [(p["part_kind"], p["tool_name"], p["tool_call_id"]) for p in results] == [
        ("tool-return", "weather", "tu_1"),
        ("retry-prompt", "clock", "tu_2"),
    ]
    back = _load(written)
    assert [m.is_error for m in back.messages if m.role == "tool"] == [False, True]


def test_error_flag_from_langchain_survives() -> None:
    (conv,) = loads((SAMPLES / "langchain-agent.json").read_bytes())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LossyConversionWarning)
        back = _load(_write(conv))
    want = [(m.tool_call_id, m.is_error) for m in conv.messages if m.role == "tool"]
    assert [(m.tool_call_id, m.is_error) for m in back.messages if m.role == "tool"] == want


# -- detection -----------------------------------------------------------------------------


def test_detection_keys_on_kind_and_parts() -> None:
    fmt = get_format("pydantic-ai")
    assert fmt.sniff([_request({"content": "hi", "part_kind": "user-prompt"})])
    assert not fmt.sniff([{"kind": "request", "content": "hi"}])
    assert not fmt.sniff([{"role": "user", "content": "hi"}])
    assert not fmt.sniff([{"type": "human", "data": {"content": "hi"}}])
    sample = json.loads(SAMPLE.read_text())
    for name in FORMATS:
        other = get_format(name)
        if name != "pydantic-ai" and other.sniff is not None:
            assert not other.sniff(sample), f"{name} claims the pydantic-ai sample"


@pytest.mark.parametrize(
    "path", sorted(p.name for p in SAMPLES.iterdir() if p.is_file() and p.name not in OWN)
)
def test_no_false_positive_on_other_samples(path: str) -> None:
    try:
        name = detect((SAMPLES / path).read_bytes())
    except FormatError:
        return
    assert name != "pydantic-ai"


# -- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ([{"kind": "request", "parts": "x"}], "$[0].parts"),
        ([{"kind": "request", "parts": [5]}], "$[0].parts[0]"),
        ([{"kind": "request", "parts": [{"content": "x"}]}], "$[0].parts[0].part_kind"),
        ([_request({"content": 3, "part_kind": "system-prompt"})], "$[0].parts[0].content"),
        (
            [_request({"content": [{"url": "u"}], "part_kind": "user-prompt"})],
            "$[0].parts[0].content[0].kind",
        ),
        (
            [_request({"tool_name": "f", "content": "x", "part_kind": "tool-return"})],
            "$[0].parts[0].tool_call_id",
        ),
        (
            [_response({"tool_name": "f", "args": 5, "part_kind": "tool-call"})],
            "$[0].parts[0].args",
        ),
        ([_response(usage={"input_tokens": "9"})], "$[0].usage.input_tokens"),
        ([_request(), {"kind": "reply", "parts": []}], "$[1].kind"),
    ],
)
def test_malformed_input_names_the_path(data: Any, path: str) -> None:
    with pytest.raises(FormatError) as info:
        loads(json.dumps(data), format="pydantic-ai")
    assert info.value.path == path


def test_jsonl_error_names_the_line() -> None:
    lines = [
        json.dumps(_request({"content": "hi", "part_kind": "user-prompt"})),
        json.dumps(_response({"part_kind": "text"})),
    ]
    with pytest.raises(FormatError) as info:
        loads("\n".join(lines) + "\n")
    assert (info.value.line, info.value.path) == (2, "$.parts[0].content")


# -- conversion to every other writable format ---------------------------------------------


@pytest.mark.parametrize(
    "target", sorted(n for n, (_r, w, _d) in FORMATS.items() if w and n != "pydantic-ai")
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
def test_every_sample_written_as_pydantic_ai_reads_back(path: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FormatWarning)
        conversations = loads((SAMPLES / path).read_bytes())
    for conv in conversations:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", LossyConversionWarning)
            written = _write(conv)
        assert all(m["kind"] in ("request", "response") and m["parts"] is not None for m in written)
        back = _load(written)
        links_survive(conv.messages, back.messages)


def test_own_usage_is_written_verbatim_and_foreign_usage_rebuilt() -> None:
    usage = {
        "input_tokens": 10,
        "cache_write_tokens": 0,
        "cache_read_tokens": 4,
        "output_tokens": 3,
        "input_audio_tokens": 0,
        "cache_audio_read_tokens": 0,
        "output_audio_tokens": 0,
        "details": {},
        "tool_calls": 2,  # a field this version does not know
    }
    data = [_request({"content": "hi", "part_kind": "user-prompt", "timestamp": TS})]
    data.append(_response({"content": "yo", "part_kind": "text"}, usage=usage))
    assert _write(_load(data))[1]["usage"] == usage
    # Anthropic's raw usage has the same count names but excludes the cache from its input.
    raw = {"input_tokens": 6, "cache_read_input_tokens": 4, "output_tokens": 3}
    foreign = Usage(input_tokens=10, output_tokens=3, cache_read_tokens=4, extra=raw)
    conv = Conversation((Message.user("hi"), Message.assistant("yo", usage=foreign)), "anthropic")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        written = _write(conv)[1]["usage"]
    assert written["input_tokens"] == 10 and "cache_read_input_tokens" not in written


def test_results_and_calls_without_ids_are_linked_by_made_up_ids() -> None:
    conv = Conversation(
        (
            Message.user("go"),
            Message.assistant("", tool_calls=(ToolCall(None, "lookup", {"q": 1}),)),
            Message.tool("42", tool_call_id=None, name="lookup"),
            Message.user((ToolResultBlock(None, "orphan"),)),
        ),
        format="openai-chat",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        history = _write(conv)
    call = history[1]["parts"][0]
    result, orphan = history[2]["parts"][:2]
    assert isinstance(call["tool_call_id"], str) and result["tool_call_id"] == call["tool_call_id"]
    assert isinstance(orphan["tool_call_id"], str) and "synthetic_id" not in call
    back = _load(history)
    assert [(c.name, r.message_index) for c, r in link_tools(back.messages).pairs] == [
        ("lookup", 2)
    ]


@pytest.mark.parametrize("n", [-9223372036854775809, 99999999999999999999])
def test_integers_past_64_bits_are_read_exactly(n: int) -> None:
    call = {
        "tool_name": "f",
        "args": f'{{"n": {n}}}',
        "tool_call_id": "c1",
        "part_kind": "tool-call",
    }
    ret = {"tool_name": "f", "content": {"n": n}, "tool_call_id": "c1", "part_kind": "tool-return"}
    data = [
        _request({"content": "hi", "part_kind": "user-prompt"}),
        _response(call),
        _request(ret),
    ]
    text = json.dumps(data)
    [conv] = loads(text, format="pydantic-ai")  # (the result's object once failed to load)
    [read_call] = conv.messages[1].tool_calls
    assert type(read_call.args["n"]) is int and read_call.args["n"] == n
    assert _normal(_write(conv)) == _normal(data)
