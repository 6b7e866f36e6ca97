"""The ``openai-chat`` format: messages, request bodies, completions, fine-tuning JSONL."""

from __future__ import annotations

import warnings
from typing import Any

import orjson
import pydantic
import pytest
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

from msgviewer.core.blocks import (
    AudioBlock,
    FileBlock,
    ImageBlock,
    ReasoningBlock,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
    UnknownBlock,
)
from msgviewer.core.links import link_tools
from msgviewer.core.message import InvalidToolCall, Message, ToolCall
from msgviewer.formats import (
    Conversation,
    FormatError,
    FormatWarning,
    LossyConversionWarning,
    detect,
    dumps,
    load,
    loads,
    openai_chat,
)
from msgviewer.formats.io import parse

from ..format_checks import SAMPLES, detected, other_sample_files, writable_targets
from ..openai_checks import (
    assert_links_kept,
    client_pairs,
    json_records,
    normalised,
    quiet_dumps,
    round_trip,
)

OWN = {"openai-chat-agent.json", "openai-chat-completion.json", "openai-finetune.jsonl"}
MESSAGE = pydantic.TypeAdapter(ChatCompletionMessageParam)
REQUEST = pydantic.TypeAdapter(CompletionCreateParamsNonStreaming)


def _read(messages: list[Any], **body: Any) -> Conversation:
    [conv] = loads(orjson.dumps({"model": "gpt-4o", "messages": messages, **body}))
    return conv


def _one(message: dict[str, Any]) -> Message:
    return _read([message]).messages[0]


def _written(conv: Conversation | list[Message]) -> dict[str, Any]:
    return orjson.loads(dumps(conv, format="openai-chat"))


# -- the samples --------------------------------------------------------------------------


def test_agent_sample() -> None:
    [conv] = load(SAMPLES / "openai-chat-agent.json")
    assert conv.format == "openai-chat"
    assert conv.metadata["model"] == "gpt-4.1" and len(conv.metadata["tools"]) == 2
    system, user, calling, weather, time, retry, failed, answer, follow_up = conv.messages
    roles = [
        "system",
        "user",
        "assistant",
        "tool",
        "tool",
        "assistant",
        "tool",
        "assistant",
        "user",
    ]
    assert [m.role for m in conv.messages] == roles
    text, image = user.content
    assert isinstance(text, TextBlock) and isinstance(image, ImageBlock)
    assert image.mime_type == "image/png" and image.data.startswith("iVBOR")
    assert image.extra == {"detail": "low"}
    assert calling.text.startswith("That looks like the Charles Bridge")
    assert [(c.id, c.name, c.args) for c in calling.tool_calls] == [
        ("call_7QmZr2Lw0fXq", "get_weather", {"city": "Prague", "unit": "celsius"}),
        ("call_Vb3kT9sYc1Dn", "get_local_time", {"city": "Prague"}),
    ]
    assert weather.tool_call_id == "call_7QmZr2Lw0fXq"
    assert time.text.startswith("Error: time service unavailable")
    [bad] = retry.invalid_tool_calls
    assert bad.args == '{"city": "Prague"' and bad.error and not retry.tool_calls
    assert failed.tool_call_id == bad.id
    assert answer.text.startswith("It's the Charles Bridge") and follow_up.role == "user"
    assert system.text.startswith("You are a travel assistant")


def test_completion_sample_usage_is_normalised_and_kept() -> None:
    [conv] = load(SAMPLES / "openai-chat-completion.json")
    [answer] = conv.messages
    raw = orjson.loads((SAMPLES / "openai-chat-completion.json").read_bytes())
    usage = answer.usage
    assert usage is not None
    assert (usage.input_tokens, usage.output_tokens, usage.total_tokens) == (1117, 346, 1463)
    assert (usage.cache_read_tokens, usage.reasoning_tokens) == (896, 320)
    assert usage.extra == raw["usage"]
    assert answer.model == "o4-mini-2025-04-16"
    assert answer.response_metadata["finish_reason"] == "stop"
    assert answer.response_metadata["id"] == raw["id"]
    assert conv.metadata["object"] == "chat.completion"
    assert ChatCompletion.model_validate(orjson.loads(dumps(conv, format="openai-chat")))


def test_finetune_sample_is_one_conversation_per_line() -> None:
    convs = load(SAMPLES / "openai-finetune.jsonl")
    assert len(convs) == len(json_records((SAMPLES / "openai-finetune.jsonl").read_bytes()))
    weights = [m.metadata.get("weight") for m in convs[1].messages if m.role == "assistant"]
    assert weights == [0, 1]
    assert convs[2].metadata["tools"][0]["function"]["name"] == "get_current_weather"
    assert client_pairs(convs[2].messages) == [("get_current_weather", "21.0")]
    assert convs[3].messages[0].role == "system"
    assert convs[3].messages[0].metadata["role"] == "developer"
    # several conversations are written back as JSONL, one per line
    out = dumps(convs, format="openai-chat")
    assert len(out.splitlines()) == len(convs)


@pytest.mark.parametrize("name", sorted(OWN))
def test_samples_round_trip(name: str) -> None:
    data = (SAMPLES / name).read_bytes()
    first, out, again = round_trip(data, "openai-chat")
    assert again == first
    original = [normalised(r) for r in json_records(data)]
    written = [normalised(r) for r in json_records(out)]
    for a, b in zip(original, written, strict=True):
        for ma, mb in zip(a.get("messages", []), b.get("messages", []), strict=True):
            if "content" not in ma:  # an absent content comes back as null
                assert mb.pop("content") is None
        assert a == b


@pytest.mark.parametrize("name", sorted(OWN))
def test_samples_are_detected(name: str) -> None:
    assert detected(SAMPLES / name) == "openai-chat"


@pytest.mark.parametrize("path", other_sample_files(OWN), ids=lambda p: p.name)
def test_no_false_positive_on_other_samples(path: Any) -> None:
    for record in json_records(path.read_bytes())[:20]:
        assert not openai_chat.sniff(record)


def test_detection_rejects_other_vendors_lookalikes() -> None:
    messages = [{"role": "user", "content": "hi"}]
    assert openai_chat.sniff({"model": "gpt-4o", "messages": messages})
    assert openai_chat.sniff(messages)
    # OpenAI-compatible endpoints serve Claude too: the model name decides nothing, but a
    # claude request with Anthropic's required max_tokens is Anthropic's (tried first).
    openai_shaped = [
        {"role": "system", "content": "s"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
    ]
    assert detect(orjson.dumps({"model": "claude-sonnet-4", "messages": openai_shaped})) == (
        "openai-chat"
    )
    claude_request = {"model": "claude-sonnet-4", "max_tokens": 64, "messages": messages}
    assert detect(orjson.dumps(claude_request)) == "anthropic"
    assert not openai_chat.sniff({"system": "s", "messages": messages})
    anthropic_blocks = [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "x"}]}]
    assert not openai_chat.sniff(anthropic_blocks)
    assert not openai_chat.sniff([{"role": "model", "parts": [{"text": "hi"}]}])
    assert not openai_chat.sniff([{"type": "human", "data": {"content": "hi"}}])
    assert not openai_chat.sniff({"conversations": [{"from": "human", "value": "hi"}]})
    assert not openai_chat.sniff([{"kind": "request", "parts": []}])
    assert not openai_chat.sniff({"format": "msgviewer", "messages": messages})
    assert not openai_chat.sniff([])


# -- every kind of content ----------------------------------------------------------------


def test_content_parts() -> None:
    m = _one(
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "look"},
                {"type": "image_url", "image_url": {"url": "https://x/cat.png", "detail": "high"}},
                {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}},
                {
                    "type": "file",
                    "file": {"filename": "a.pdf", "file_data": "data:application/pdf;base64,JVBE"},
                },
                {"type": "file", "file": {"file_id": "file-abc"}},
            ],
        }
    )
    text, image, audio, pdf, by_id = m.content
    assert text == TextBlock("look")
    assert image == ImageBlock(url="https://x/cat.png", extra={"detail": "high"})
    assert isinstance(audio, AudioBlock) and audio.data == "UklGRg=="
    assert audio.mime_type == "audio/wav"
    assert pdf == FileBlock(data="JVBE", mime_type="application/pdf", filename="a.pdf")
    assert isinstance(by_id, FileBlock) and by_id.file_id == "file-abc"
    assert _written([m])["messages"][0] == {"role": "user", "content": _raw_content(m)}


def _raw_content(m: Message) -> list[dict[str, Any]]:
    return orjson.loads(dumps([m], format="openai-chat"))["messages"][0]["content"]


def test_content_parts_write_back_unchanged() -> None:
    parts = [
        {"type": "text", "text": "look"},
        {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,/9j/", "detail": "low"}},
        {"type": "input_audio", "input_audio": {"data": "SUQz", "format": "mp3"}},
        {
            "type": "file",
            "file": {"filename": "a.pdf", "file_data": "data:application/pdf;base64,JV"},
        },
    ]
    m = _one({"role": "user", "content": parts})
    assert _written(_read([{"role": "user", "content": parts}]))["messages"][0]["content"] == parts
    assert MESSAGE.validate_python(_written([m])["messages"][0])


def test_refusal_field_and_part() -> None:
    m = _one({"role": "assistant", "content": None, "refusal": "I can't help with that."})
    [block] = m.content
    assert isinstance(block, TextBlock) and block.text == "I can't help with that."
    assert m.text == "I can't help with that."
    out = _written(_read([{"role": "assistant", "content": None, "refusal": "No."}]))
    assert out["messages"][0] == {"role": "assistant", "content": None, "refusal": "No."}
    parts = [{"type": "text", "text": "Partly: "}, {"type": "refusal", "refusal": "no more."}]
    m = _one({"role": "assistant", "content": parts})
    assert m.text == "Partly: no more."
    assert _written(_read([{"role": "assistant", "content": parts}]))["messages"][0]["content"] == (
        parts
    )


@pytest.mark.parametrize("field", ["reasoning_content", "thinking"])
def test_reasoning_fields(field: str) -> None:
    raw = {"role": "assistant", "content": "42", field: "6 times 7"}
    m = _one(raw)
    reasoning, answer = m.content
    assert isinstance(reasoning, ReasoningBlock) and reasoning.text == "6 times 7"
    assert answer == TextBlock("42")
    assert _written(_read([raw]))["messages"][0] == raw


def test_hf_chat_template_arguments_as_object_and_calls_without_ids() -> None:
    messages = [
        {"role": "user", "content": "weather?"},
        {
            "role": "assistant",
            "tool_calls": [
                {"type": "function", "function": {"name": "w", "arguments": {"city": "Oslo"}}},
                {"type": "function", "function": {"name": "t", "arguments": {}}},
            ],
        },
        {"role": "tool", "name": "t", "content": "12:00"},
        {"role": "tool", "name": "w", "content": "rain"},
    ]
    conv = _read(messages)
    call_w, call_t = conv.messages[1].tool_calls
    assert call_w.args == {"city": "Oslo"} and call_t.args == {}
    assert conv.messages[2].tool_call_id == call_t.id
    assert conv.messages[3].tool_call_id == call_w.id
    assert client_pairs(conv.messages) == [("w", "rain"), ("t", "12:00")]
    out = _written(conv)["messages"]
    assert out[1]["tool_calls"][0]["function"]["arguments"] == {"city": "Oslo"}
    assert "id" not in out[1]["tool_calls"][0] and "tool_call_id" not in out[2]
    assert out[2]["name"] == "t"


def _calls(*ids: str) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": i, "type": "function", "function": {"name": "f", "arguments": "{}"}} for i in ids
        ],
    }


def _result(text: str, call_id: str | None = None) -> dict[str, Any]:
    return {"role": "tool", "content": text} | ({"tool_call_id": call_id} if call_id else {})


@pytest.mark.parametrize(
    ("messages", "given"),
    [
        pytest.param(
            [_calls("a", "b"), _result("first"), _result("to a", "a")],
            ["b", "a"],
            id="the call its own result answers is not given away",
        ),
        pytest.param(
            [_calls("c0", "c0"), _result("first"), _result("one", "c0"), _result("two", "c0")],
            [None, "c0", "c0"],
            id="one id twice, answered twice by it: none given",
        ),
        pytest.param(
            [_calls("c0"), _result("first"), _calls("c0"), _result("later", "c0")],
            ["c0", "c0"],
            id="one id in two turns, answered once by it: the first turn's given",
        ),
    ],
)
def test_a_result_without_an_id_answers_a_call_no_result_names(
    messages: list[dict[str, Any]], given: list[str | None]
) -> None:
    """A result without an id is given the oldest waiting call's, unless results give that
    id as often as calls do: those answer it (a pairing by id the file itself makes)."""
    conv = _read([{"role": "user", "content": "go"}, *messages])
    results = [m for m in conv.messages if m.role == "tool"]
    assert [m.tool_call_id for m in results] == given
    texts = [m.text for m in results if m.tool_call_id and "first" not in m.text]
    assert [text for _, text in client_pairs(conv.messages) if text != "first"] == texts


def test_legacy_function_call_and_function_role() -> None:
    messages = [
        {"role": "user", "content": "2+2?"},
        {
            "role": "assistant",
            "content": None,
            "function_call": {"name": "add", "arguments": '{"a": 2, "b": 2}'},
        },
        {"role": "function", "name": "add", "content": "4"},
    ]
    conv = _read(messages)
    [call] = conv.messages[1].tool_calls
    assert (call.name, call.args) == ("add", {"a": 2, "b": 2})
    result = conv.messages[2]
    assert result.role == "tool" and result.tool_call_id == call.id and result.name == "add"
    assert client_pairs(conv.messages) == [("add", "4")]
    assert normalised(_written(conv)["messages"]) == normalised(messages)


def test_invalid_arguments_are_kept_verbatim() -> None:
    for raw in ['{"city": "Par', "[1, 2]", "not json"]:
        call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": raw}}
        m = _one({"role": "assistant", "content": None, "tool_calls": [call]})
        [bad] = m.invalid_tool_calls
        assert isinstance(bad, InvalidToolCall) and bad.args == raw and bad.error
        out = _written(_read([{"role": "assistant", "content": None, "tool_calls": [call]}]))
        assert out["messages"][0]["tool_calls"] == [call]


def test_unknown_part_type_warns_and_is_kept() -> None:
    part = {"type": "video_url", "video_url": {"url": "https://x/v.mp4"}}
    with pytest.warns(FormatWarning, match=r"\$\.messages\[0\]\.content\[1\]\.type"):
        m = _one({"role": "user", "content": [{"type": "text", "text": "see"}, part]})
    assert m.content[1] == UnknownBlock("video_url", part, extra={"format": "openai-chat"})
    with pytest.warns(FormatWarning):
        conv = _read([{"role": "user", "content": [part]}])
    assert _written(conv)["messages"][0]["content"] == [part]


def test_unknown_message_fields_round_trip() -> None:
    raw = {"role": "assistant", "content": "hi", "weight": 0, "audio": {"id": "audio_1"}}
    m = _one(raw)
    assert m.metadata == {"weight": 0, "audio": {"id": "audio_1"}}
    assert _written(_read([raw]))["messages"][0] == raw


def test_keys_of_other_roles_are_kept_and_come_back() -> None:
    call = {"id": "c9", "type": "function", "function": {"name": "run", "arguments": "{}"}}
    raws = [
        {"role": "user", "content": "hi", "tool_call_id": "c0", "refusal": None},
        {"role": "assistant", "content": "ok", "tool_call_id": "c1"},
        {"role": "tool", "tool_call_id": "c1", "content": "done", "tool_calls": [call]},
        {"role": "system", "content": "be brief", "function_call": {"name": "x"}},
    ]
    conv = _read(raws)
    assert conv.messages[2].metadata == {"tool_calls": [call]}
    assert conv.messages[2].tool_calls == ()  # a tool message makes no calls
    assert conv.messages[0].metadata == {"tool_call_id": "c0", "refusal": None}
    assert _written(conv)["messages"] == raws


def test_request_fields_come_back() -> None:
    body = {"model": "gpt-4o", "temperature": 0.1, "response_format": {"type": "json_object"}}
    conv = _read(
        [{"role": "user", "content": "hi"}], **{k: v for k, v in body.items() if k != "model"}
    )
    out = _written(conv)
    assert {k: out[k] for k in body} == body


def test_bare_message_list() -> None:
    [conv] = loads(b'[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]')
    assert conv.format == "openai-chat" and [m.text for m in conv.messages] == ["hi", "yo"]


# -- writing what other formats have --------------------------------------------------------


def test_anthropic_shape_tool_results_become_tool_messages() -> None:
    history = [
        Message.user("run it"),
        Message.assistant((TextBlock("ok"), ToolCallBlock("tu_1", "run", {"cmd": "ls"}))),
        Message.user(
            (
                TextBlock("and then?"),
                ToolResultBlock("tu_1", "a.txt", is_error=True),
            )
        ),
    ]
    with pytest.warns(LossyConversionWarning, match="error flag"):
        out = _written(Conversation(tuple(history), format="anthropic"))["messages"]
    assert out[1]["content"] == "ok"
    assert out[1]["tool_calls"][0]["id"] == "tu_1"
    assert out[2] == {"role": "tool", "tool_call_id": "tu_1", "content": "a.txt"}
    assert out[3] == {"role": "user", "content": "and then?"}
    for m in out:
        MESSAGE.validate_python(m)


def test_reasoning_and_citations_from_other_formats_are_reported() -> None:
    m = Message.assistant(
        (
            ReasoningBlock("thinking...", signature="sig"),
            TextBlock("Paris.", citations=[]),
        ),
        usage=None,
    )
    with pytest.warns(LossyConversionWarning, match="reasoning"):
        out = _written(Conversation((Message.user("capital?"), m), format="anthropic"))
    assert out["messages"][1]["content"] == "Paris."


def test_usage_in_a_request_body_is_reported() -> None:
    [conv] = load(SAMPLES / "openai-chat-completion.json")
    other = Conversation((Message.user("hi"), *conv.messages), format="openai-chat")
    with pytest.warns(LossyConversionWarning, match="usage"):
        dumps(other, format="openai-chat")


# -- conversions --------------------------------------------------------------------------


def _sample_conversations() -> list[Conversation]:
    return [c for name in sorted(OWN) for c in load(SAMPLES / name)]


@pytest.mark.parametrize("target", writable_targets({"openai-chat"}))
def test_conversions_keep_tool_links(target: str) -> None:
    from msgviewer.formats import get_format

    fmt = get_format(target)
    for conv in _sample_conversations():
        data = quiet_dumps(conv, target)
        assert data
        if not fmt.can_read:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            back = loads(data, format=target)
        messages = [m for c in back for m in c.messages]
        assert_links_kept(conv.messages, messages)
        assert [m.text for m in messages if m.role == "user" and m.text] == [
            m.text for m in conv.messages if m.role == "user"
        ]


@pytest.mark.parametrize("path", other_sample_files(OWN), ids=lambda p: p.name)
def test_exports_of_every_sample_validate_against_the_sdk(path: Any) -> None:
    try:
        convs = load(path)
    except FormatError:
        pytest.skip("not a readable conversation file")
    for conv in convs:
        doc = orjson.loads(quiet_dumps(conv, "openai-chat"))
        for m in doc["messages"]:
            MESSAGE.validate_python(m)
        if "model" in doc:
            REQUEST.validate_python(doc)
        assert loads(orjson.dumps(doc), format="openai-chat")


def test_own_sample_exports_validate() -> None:
    [conv] = load(SAMPLES / "openai-chat-agent.json")
    REQUEST.validate_python(orjson.loads(dumps(conv, format="openai-chat")))


# -- bad input ----------------------------------------------------------------------------


def test_truncated_json(tmp_path: Any) -> None:
    path = tmp_path / "chat.json"
    data = (SAMPLES / "openai-chat-agent.json").read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(FormatError) as err:
        load(path)
    assert err.value.file == str(path)


def test_truncated_last_jsonl_line(tmp_path: Any) -> None:
    path = tmp_path / "ft.jsonl"
    data = (SAMPLES / "openai-finetune.jsonl").read_bytes().rstrip(b"\n")
    path.write_bytes(data[:-20])
    with pytest.raises(FormatError) as err:
        load(path, format="openai-chat")
    assert err.value.line == 4 and err.value.file == str(path)


@pytest.mark.parametrize(
    ("message", "path"),
    [
        ({"role": "user", "content": 7}, "$.messages[1].content"),
        ({"role": "wizard", "content": "x"}, "$.messages[1].role"),
        ({"role": "assistant", "tool_calls": {}}, "$.messages[1].tool_calls"),
        (
            {"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": 3}}]},
            "$.messages[1].tool_calls[0].function.name",
        ),
        ({"role": "user", "content": [{"text": "no type"}]}, "$.messages[1].content[0].type"),
        (
            {"role": "user", "content": [{"type": "image_url", "image_url": {"url": 1}}]},
            "$.messages[1].content[0].image_url.url",
        ),
        ({"role": "tool", "tool_call_id": 5, "content": "x"}, "$.messages[1].tool_call_id"),
    ],
)
def test_wrong_types_name_the_json_path(message: dict[str, Any], path: str) -> None:
    data = orjson.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}, message]})
    with pytest.raises(FormatError) as err:
        loads(data, format="openai-chat")
    assert err.value.path == path


def test_jsonl_error_names_the_line() -> None:
    good = b'{"messages": [{"role": "user", "content": "hi"}]}\n'
    bad = b'{"messages": [{"role": "user", "content": {"x": 1}}]}\n'
    with pytest.raises(FormatError) as err:
        loads(good + good + bad, format="openai-chat")
    assert err.value.line == 3 and err.value.path == "$.messages[0].content"


def test_bad_usage_and_choices() -> None:
    bad_usage = {"choices": [{"message": {"role": "assistant", "content": "x"}}], "usage": 3}
    with pytest.raises(FormatError, match=r"\$\.usage"):
        loads(orjson.dumps(bad_usage), format="openai-chat")
    counts = {"prompt_tokens": "many"}
    bad_counts = {"choices": [{"message": {"role": "assistant", "content": "x"}}], "usage": counts}
    with pytest.raises(FormatError, match="prompt_tokens"):
        loads(orjson.dumps(bad_counts), format="openai-chat")
    with pytest.raises(FormatError, match=r"\$\.choices\[0\]"):
        loads(b'{"object": "chat.completion", "choices": [3]}', format="openai-chat")


def test_parse_is_plain_data() -> None:
    # the sample parses as JSON on its own: detection does not depend on the file name
    assert parse((SAMPLES / "openai-chat-agent.json").read_bytes()).value["model"] == "gpt-4.1"


def test_tool_call_ids_survive_a_round_trip_of_hand_built_messages() -> None:
    history = [
        Message.user("hi"),
        Message.assistant(tool_calls=[ToolCall("c9", "f", {"x": [1, {"y": None}]})]),
        Message.tool("done", tool_call_id="c9"),
    ]
    [back] = loads(dumps(history, format="openai-chat"))
    assert back.messages == tuple(history)


def test_unknown_fields_of_calls_round_trip() -> None:
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "f", "arguments": "{}", "x_future": [1]},
        "index": 0,
    }
    raw = {"role": "assistant", "content": None, "tool_calls": [call]}
    assert _written(_read([raw]))["messages"][0] == raw


def test_a_made_up_call_id_is_none_the_file_uses() -> None:
    # the first call has no id; "call_1" is taken by a real call further on
    data = {
        "messages": [
            {"role": "assistant", "content": "a", "tool_calls": [_function_call(None, "lookup")]},
            {"role": "user", "content": "go on"},
            {
                "role": "assistant",
                "content": "b",
                "tool_calls": [_function_call("call_1", "get_weather")],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
        ]
    }
    [conv] = loads(orjson.dumps(data), format="openai-chat")
    made_up = conv.messages[0].tool_calls[0]
    assert made_up.extra.get("synthetic_id") is True
    assert made_up.id != "call_1"
    links = link_tools(conv.messages)
    [result] = [r for r in links.results if r.message_index == 3]
    call = links.call_of(result)
    assert call is not None and (call.message_index, call.name) == (2, "get_weather")


def _function_call(call_id: str | None, name: str) -> dict[str, Any]:
    call: dict[str, Any] = {"type": "function", "function": {"name": name, "arguments": "{}"}}
    if call_id is not None:
        call["id"] = call_id
    return call
