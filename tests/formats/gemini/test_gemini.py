"""The gemini format: generateContent requests and responses in both spellings."""

from __future__ import annotations

import warnings

import orjson
import pytest

from msgviewer.core.blocks import (
    FileBlock,
    ImageBlock,
    ReasoningBlock,
    ServerToolCallBlock,
    ServerToolResultBlock,
    TextBlock,
    ToolResultBlock,
    UnknownBlock,
)
from msgviewer.core.message import Message, ToolCall
from msgviewer.formats import (
    Conversation,
    FormatError,
    FormatWarning,
    LossyConversionWarning,
    detect,
    dumps,
    load,
    loads,
)
from msgviewer.formats.gemini.parts import snake

from ..format_checks import convert_and_read_back, detected, other_sample_files, writable_targets
from ..provider_checks import check_gemini_export, client_pairs, load_sample, quiet_dumps, sample

OWN = {"gemini-agent.json", "gemini-response.json"}
# Keys whose children are user data (arguments, schemas): never respelled.
_OPAQUE = {"args", "response", "parameters", "properties"}


def _to_snake(value):
    """A camelCase file as the Python SDK would dump it (user data left alone)."""
    if isinstance(value, dict):
        return {snake(k): (v if k in _OPAQUE else _to_snake(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [_to_snake(v) for v in value]
    return value


def _read(body: object) -> Conversation:
    [conv] = loads(orjson.dumps(body), format="gemini")
    return conv


def _round_trip(body: object) -> object:
    return orjson.loads(dumps(_read(body), format="gemini"))


def _body(*contents: dict) -> dict:
    return {"contents": list(contents)}


# -- reading ----------------------------------------------------------------------------


def test_agent_sample_parts() -> None:
    conv = load_sample("gemini-agent.json")
    assert conv.format == "gemini" and "gemini_file" not in conv.metadata
    assert conv.metadata["generationConfig"]["temperature"] == 0.4
    system, user, model, r1, r2, model2, user2 = conv.messages
    assert system.role == "system" and system.text.startswith("You are Kilowatt")

    image, question = user.content
    assert isinstance(image, ImageBlock) and image.mime_type == "image/png"
    assert image.decoded().startswith(b"\x89PNG") and "February bill" in question.text

    [thought] = model.content
    assert isinstance(thought, ReasoningBlock) and thought.text.startswith("**Comparing")
    readings, schedule = model.tool_calls
    assert (readings.name, readings.args["resolution"]) == ("get_meter_readings", "daily")
    assert readings.extra["thoughtSignature"].startswith("CiQB")
    assert "thoughtSignature" not in schedule.extra
    assert readings.extra["synthetic_id"] and readings.id != schedule.id

    assert (r1.role, r1.tool_call_id, r1.name) == ("tool", readings.id, "get_meter_readings")
    assert orjson.loads(r1.text)["2025-02"]["night_kwh"] == 79
    assert r2.tool_call_id == schedule.id and r2.text.startswith("Heating 06:00-22:00")
    assert r2.metadata["synthetic_id"] and not r2.is_error

    code, result, answer = model2.content
    assert isinstance(code, ServerToolCallBlock) and code.name == "code_execution"
    assert "feb_day" in code.args["code"]
    assert isinstance(result, ServerToolResultBlock) and result.status == "OUTCOME_OK"
    assert isinstance(answer, TextBlock) and answer.extra["thoughtSignature"].startswith("CiQB")

    pdf, _ = user2.content
    assert isinstance(pdf, FileBlock) and pdf.mime_type == "application/pdf"
    assert pdf.url.endswith("/files/tariff-eco7-2025")


def test_response_sample_usage() -> None:
    conv = load_sample("gemini-response.json")
    [m] = conv.messages
    assert m.role == "assistant" and m.model == "gemini-2.5-flash"
    assert m.response_metadata["finishReason"] == "STOP"
    assert m.response_metadata["responseId"] == "cR3vaM7lJ4nK1MkP2d6t0QU"
    u = m.usage
    assert (u.input_tokens, u.output_tokens, u.total_tokens) == (2931, 58 + 212, 3201)
    assert (u.reasoning_tokens, u.cache_read_tokens) == (212, 2048)
    assert u.extra["candidatesTokenCount"] == 58
    [call] = m.tool_calls
    assert call.id == "fc-7d2e91b0" and "synthetic_id" not in call.extra


@pytest.mark.parametrize("name", sorted(OWN))
def test_samples_round_trip(name: str) -> None:
    original = orjson.loads(sample(name).read_bytes())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert orjson.loads(dumps(load_sample(name), format="gemini")) == original


@pytest.mark.parametrize("name", sorted(OWN))
def test_snake_case_files_round_trip_in_snake_case(name: str) -> None:
    original = _to_snake(orjson.loads(sample(name).read_bytes()))
    conv = _read(original)
    assert conv.metadata["gemini_file"]["spelling"] == "snake_case"
    camel = load_sample(name)
    assert [m.text for m in conv.messages] == [m.text for m in camel.messages]
    assert client_pairs(conv.messages) == client_pairs(camel.messages)
    assert _round_trip(original) == original


def test_the_spelling_is_told_by_the_files_start_and_a_long_file_keeps_it() -> None:
    roles = ("user", "model")
    chat = [{"role": roles[i % 2], "parts": [{"text": f"turn {i}"}]} for i in range(3000)]
    call = {"role": "model", "parts": [{"function_call": {"name": "f", "args": {}}}]}
    snake_file = _body(*chat[:51], call, *chat[52:])  # the call comes late: 51 turns before it
    assert _read(snake_file).metadata["gemini_file"]["spelling"] == "snake_case"
    camel_file = _body(*chat[:51], _to_camel(call), *chat[52:])
    assert "spelling" not in _read(camel_file).metadata.get("gemini_file", {})
    assert _round_trip(snake_file) == snake_file


def _to_camel(value):  # type: ignore[no-untyped-def]
    return {"role": "model", "parts": [{"functionCall": value["parts"][0]["function_call"]}]}


def test_responses_link_by_name_then_order() -> None:
    body = _body(
        {
            "role": "model",
            "parts": [
                {"functionCall": {"name": "a", "args": {}}},
                {"functionCall": {"name": "b", "args": {}}},
                {"functionCall": {"name": "b", "args": {"n": 2}}},
            ],
        },
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"name": "b", "response": {"output": "b1"}}},
                {"functionResponse": {"name": "a", "response": {"output": "a"}}},
                {"functionResponse": {"name": "b", "response": {"output": "b2"}}},
            ],
        },
    )
    conv = _read(body)
    calls = conv.messages[0].tool_calls
    results = conv.messages[1:]
    assert [r.tool_call_id for r in results] == [calls[1].id, calls[0].id, calls[2].id]
    assert client_pairs(conv.messages) == [
        ("a", "a", False),
        ("b", "b1", False),
        ("b", "b2", False),
    ]
    assert _round_trip(body) == body


@pytest.mark.parametrize(
    "response",
    [
        {"output": "plain"},
        {"output": '{"looks": "like json"}'},
        {"error": "boom"},
        {"error": {"code": 500}},
        {"temperature": 21, "unit": "C"},
        {},
    ],
)
def test_function_response_values_round_trip(response: dict) -> None:
    body = _body(
        {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "f", "args": {}}}]},
        {
            "role": "user",
            "parts": [{"functionResponse": {"id": "c1", "name": "f", "response": response}}],
        },
    )
    tool = _read(body).messages[1]
    assert tool.tool_call_id == "c1" and "synthetic_id" not in tool.metadata
    assert tool.is_error == ("error" in response)
    assert _round_trip(body) == body


def test_old_function_role_and_missing_role() -> None:
    body = _body(
        {"parts": [{"text": "What time is it?"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "now", "args": {}}}]},
        {
            "role": "function",
            "parts": [{"functionResponse": {"name": "now", "response": {"output": "9:00"}}}],
        },
    )
    conv = _read(body)
    assert [m.role for m in conv.messages] == ["user", "assistant", "tool"]
    assert _round_trip(body) == body


def test_unknown_part_is_kept_with_a_warning() -> None:
    odd = {"hologram": {"frames": 3}, "thoughtSignature": "abc"}
    body = _body({"role": "user", "parts": [{"text": "look"}, odd]})
    with pytest.warns(FormatWarning, match="hologram"):
        conv = _read(body)
    block = conv.messages[0].content[1]
    assert isinstance(block, UnknownBlock) and block.data == odd
    with pytest.warns(FormatWarning):
        assert _round_trip(body) == body


# -- detection --------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(OWN))
def test_detects_own_samples_in_both_spellings(name: str) -> None:
    data = sample(name).read_bytes()
    assert detect(data) == "gemini"
    assert detect(orjson.dumps(_to_snake(orjson.loads(data)))) == "gemini"


@pytest.mark.parametrize("path", other_sample_files(OWN), ids=lambda p: p.name)
def test_no_false_positive_on_other_samples(path) -> None:
    assert detected(path) != "gemini"


def test_pydantic_ai_parts_are_not_gemini() -> None:
    body = [{"kind": "request", "parts": [{"part_kind": "user-prompt", "content": "hi"}]}]
    try:
        name = detect(orjson.dumps(body))
    except FormatError:
        name = None
    assert name != "gemini"


# -- bad input --------------------------------------------------------------------------


def test_truncated_json(tmp_path) -> None:
    text = sample("gemini-agent.json").read_text()
    path = tmp_path / "cut.json"
    path.write_text(text[:-200])
    with pytest.raises(FormatError) as err:
        load(path, format="gemini")
    assert err.value.file == str(path) and err.value.line is not None


@pytest.mark.parametrize(
    ("content", "path"),
    [
        ({"role": "assistant", "parts": []}, "$.contents[0].role"),
        ({"role": "user", "parts": "hello"}, "$.contents[0].parts"),
        ({"role": "user", "parts": [{"text": 5}]}, "$.contents[0].parts[0].text"),
        (
            {"role": "model", "parts": [{"functionCall": {"name": "f", "args": "{}"}}]},
            "$.contents[0].parts[0].functionCall.args",
        ),
        (
            {"role": "user", "parts": [{"inline_data": {"mime_type": "image/png", "data": 1}}]},
            "$.contents[0].parts[0].inline_data.data",
        ),
    ],
)
def test_wrong_types_name_the_json_path(content: dict, path: str) -> None:
    with pytest.raises(FormatError) as err:
        loads(orjson.dumps(_body(content)), format="gemini")
    assert err.value.path == path


# -- writing ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(OWN))
def test_exports_validate_against_the_sdk(name: str) -> None:
    check_gemini_export(dumps(load_sample(name), format="gemini"))
    snake_body = _to_snake(orjson.loads(sample(name).read_bytes()))
    check_gemini_export(dumps(_read(snake_body), format="gemini"))


@pytest.mark.parametrize(
    "name", ["anthropic-agent.json", "claude-code-session.jsonl", "openai-chat-agent.json"]
)
def test_other_formats_export_valid_requests(name: str) -> None:
    if not sample(name).exists():
        pytest.skip(f"{name} is not in sample_data")
    conv = load_sample(name)
    body = check_gemini_export(quiet_dumps(conv, "gemini"))
    back = _read(body)
    assert client_pairs(back.messages, errors=False) == client_pairs(conv.messages, errors=False)


def test_anthropic_export_rules_and_losses() -> None:
    conv = load_sample("anthropic-agent.json")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        body = orjson.loads(dumps(conv, format="gemini"))
    lost = "\n".join(str(w.message) for w in caught if w.category is LossyConversionWarning)
    assert "thinking signature" in lost and "redacted or encrypted reasoning" in lost
    assert "server_tool_call block" in lost and "citations" in lost
    assert body["systemInstruction"]["parts"][0]["text"].startswith("You are Wayfarer")
    decl = body["tools"][0]["functionDeclarations"][0]
    assert decl["name"] == "get_weather" and decl["parametersJsonSchema"]["required"]
    results = body["contents"][2]
    assert results["role"] == "user"
    names = [p["functionResponse"]["name"] for p in results["parts"]]
    assert names == ["get_weather", "get_weather", "convert_currency"]
    assert results["parts"][2]["functionResponse"]["response"] == {
        "error": "Error: rate service timed out after 10s"
    }
    # the next user turn: the retried call's result first, then the question
    assert [next(iter(p)) for p in body["contents"][4]["parts"]] == ["functionResponse", "text"]


def test_foreign_messages_merge_and_move_system() -> None:
    conv = Conversation(
        (
            Message.user("a"),
            Message.user("b"),
            Message.system("late rule"),
            Message.assistant("", tool_calls=(ToolCall(None, "f", {"x": 1}),)),
            Message.tool("done", tool_call_id=None, name="f"),
        ),
        format="sharegpt",
        metadata={"temperature": 0.1, "max_tokens": 99},
    )
    with pytest.warns(LossyConversionWarning, match="system message moved"):
        body = check_gemini_export(dumps(conv, format="gemini"))
    assert body["systemInstruction"] == {"parts": [{"text": "late rule"}]}
    user, model, results = body["contents"]
    assert user["parts"] == [{"text": "a"}, {"text": "b"}]
    assert model["parts"][0]["functionCall"]["name"] == "f"
    assert results["parts"][0]["functionResponse"] == {"name": "f", "response": {"output": "done"}}
    assert body["generationConfig"] == {"temperature": 0.1, "maxOutputTokens": 99}


@pytest.mark.parametrize("target", writable_targets({"gemini"}))
def test_conversion_keeps_tool_links(target: str) -> None:
    conv = load_sample("gemini-agent.json")
    expected = client_pairs(conv.messages, errors=False)
    assert [name for name, _ in expected] == ["get_meter_readings", "get_heat_pump_schedule"]
    for _conv, back in convert_and_read_back([conv], target):
        if back is not None:
            assert [client_pairs(c.messages, errors=False) for c in back] == [expected]


def test_function_response_content_keeps_its_fields() -> None:
    call = {"functionCall": {"name": "f", "args": {}}}
    answer = {"functionResponse": {"name": "f", "response": {"output": "1"}}}
    body = _body(
        {"role": "model", "parts": [call, call]},
        {"role": "user", "parts": [answer, answer], "x_note": {"kept": True}},
    )
    assert _round_trip(body) == body


def test_tool_result_in_an_assistant_message_goes_to_a_user_turn() -> None:
    call = ToolCall("c1", "lookup", {"q": 1})
    reply = Message.assistant((ToolResultBlock("c1", "42"), TextBlock("done")), tool_calls=(call,))
    conv = Conversation((Message.user("go"), reply), format="gemini")
    with pytest.warns(LossyConversionWarning, match="tool result in an assistant message"):
        body = orjson.loads(dumps(conv, format="gemini"))
    assert [c["role"] for c in body["contents"]] == ["user", "model", "user"]
    assert "functionResponse" in body["contents"][2]["parts"][0]
    assert client_pairs(_read(body).messages) == [("lookup", "42", False)]


def test_made_up_call_ids_are_left_out_on_both_ends() -> None:
    # A call whose id was made up (ShareGPT, say) is written without it, and so is the
    # response answering it: both link again by name and order when read.
    call = ToolCall("sharegpt_0", "lookup", {}, extra={"synthetic_id": True})
    conv = Conversation(
        (
            Message.user("go"),
            Message.assistant("", tool_calls=(call,)),
            Message.tool("42", tool_call_id="sharegpt_0", name="lookup"),
        ),
        format="sharegpt",
    )
    body = orjson.loads(quiet_dumps(conv, "gemini"))
    _, model, user = body["contents"]
    assert "id" not in model["parts"][0]["functionCall"]
    assert "id" not in user["parts"][0]["functionResponse"]
    assert client_pairs(_read(body).messages) == [("lookup", "42", False)]
