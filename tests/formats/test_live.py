"""Live objects become conversations and come back in their own kind (``formats.live``)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from msgviewer import Conversation, Message, MsgviewerError, ToolCall, load
from msgviewer.formats.live import from_conversations, to_conversations

SAMPLES = Path(__file__).resolve().parents[2] / "msgviewer" / "samples"


def _round_trip(objects):  # type: ignore[no-untyped-def]
    convs, kind = to_conversations(objects)
    return convs, kind, from_conversations(convs, kind)


def _run() -> list[Message]:
    return [
        Message.system("Be brief."),
        Message.user("List the files"),
        Message.assistant("", tool_calls=(ToolCall("c1", "ls", {"path": "."}),)),
        Message.tool("a.py b.py", tool_call_id="c1", name="ls"),
        Message.assistant("Two files."),
    ]


def test_msgviewer_messages_and_conversations_come_back_as_they_are() -> None:
    messages = _run()
    _convs, kind, back = _round_trip(messages)
    assert kind.kind == "messages" and back == messages
    conv = Conversation(tuple(messages), format="openai-chat")
    assert _round_trip(conv)[2] is conv
    assert _round_trip([conv, conv])[2] == [conv, conv]


def test_langchain_messages_round_trip() -> None:
    lc = pytest.importorskip("langchain_core.messages")
    messages = [
        lc.SystemMessage("Be brief."),
        lc.HumanMessage("List the files"),
        lc.AIMessage("", tool_calls=[{"id": "c1", "name": "ls", "args": {"path": "."}}]),
        lc.ToolMessage("a.py b.py", tool_call_id="c1"),
    ]
    convs, kind, back = _round_trip(messages)
    assert kind.kind == "langchain"
    assert [m.role for m in convs[0].messages] == ["system", "user", "assistant", "tool"]
    assert convs[0].messages[2].tool_calls[0].name == "ls"
    assert [type(m) for m in back] == [type(m) for m in messages]
    assert [m.content for m in back] == [m.content for m in messages]
    assert back[2].tool_calls[0]["args"] == {"path": "."}


def test_pydantic_ai_messages_round_trip() -> None:
    pm = pytest.importorskip("pydantic_ai.messages")
    messages = [
        pm.ModelRequest(parts=[pm.UserPromptPart("List the files")]),
        pm.ModelResponse(parts=[pm.ToolCallPart("ls", {"path": "."}, tool_call_id="c1")]),
        pm.ModelRequest(parts=[pm.ToolReturnPart("ls", "a.py b.py", tool_call_id="c1")]),
        pm.ModelResponse(parts=[pm.TextPart("Two files.")]),
    ]
    convs, kind, back = _round_trip(messages)
    assert kind.kind == "pydantic-ai"
    assert [m.role for m in convs[0].messages] == ["user", "assistant", "tool", "assistant"]
    assert [type(m) for m in back] == [type(m) for m in messages]
    assert back[1].parts[0].tool_name == "ls" and back[3].parts[0].content == "Two files."


def test_openai_sdk_models_come_back_as_chat_dicts() -> None:
    chat = pytest.importorskip("openai.types.chat")
    reply = chat.ChatCompletionMessage(role="assistant", content="Hello")
    convs, kind, back = _round_trip([{"role": "user", "content": "Hi"}, reply])
    assert (kind.kind, kind.format) == ("sdk", "openai-chat")
    assert [m.text for m in convs[0].messages] == ["Hi", "Hello"]
    assert back == [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]


def test_an_anthropic_response_model_comes_back_as_a_response_dict() -> None:
    at = pytest.importorskip("anthropic.types")
    data = orjson.loads((SAMPLES / "anthropic-response.json").read_bytes())
    response = at.Message.model_validate(data)
    convs, kind, back = _round_trip(response)
    assert (kind.kind, kind.format, kind.shape) == ("sdk", "anthropic", "document")
    from_file = load(SAMPLES / "anthropic-response.json")[0].messages
    assert [m.text for m in convs[0].messages] == [m.text for m in from_file]
    assert [m.usage for m in convs[0].messages] == [m.usage for m in from_file]
    dumped = response.model_dump(mode="json", exclude_none=True)
    assert back["role"] == "assistant" and back["content"] == dumped["content"]


def test_gemini_sdk_contents_come_back_as_content_dicts() -> None:
    gt = pytest.importorskip("google.genai.types")
    contents = [
        gt.Content(role="user", parts=[gt.Part(text="Hi")]),
        gt.Content(role="model", parts=[gt.Part(text="Hello")]),
    ]
    convs, kind, back = _round_trip(contents)
    assert (kind.kind, kind.format) == ("sdk", "gemini")
    assert [m.role for m in convs[0].messages] == ["user", "assistant"]
    assert back == [c.model_dump(mode="json", exclude_none=True) for c in contents]


@pytest.mark.parametrize(
    "name", ["openai-chat-agent.json", "anthropic-agent.json", "gemini-agent.json"]
)
def test_plain_dicts_in_any_readable_format_round_trip(name: str) -> None:
    data = orjson.loads((SAMPLES / name).read_bytes())
    convs, kind, back = _round_trip(data)
    assert kind.kind == "dicts" and kind.format == load(SAMPLES / name)[0].format
    assert convs[0].messages == load(SAMPLES / name)[0].messages
    assert to_conversations(back)[0][0].messages == convs[0].messages


def test_objects_no_format_reads_are_a_one_line_error() -> None:
    with pytest.raises(MsgviewerError, match="not a conversation file: array whose first item"):
        to_conversations([1, 2])
    with pytest.raises(MsgviewerError, match=r"cannot show builtins\.object objects"):
        to_conversations(object())
    with pytest.raises(MsgviewerError, match="nothing to show"):
        to_conversations([])


def test_plain_dicts_come_back_with_integers_past_64_bits_as_they_were() -> None:
    big = 123456789012345678901234
    data = [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t1", "name": "get", "input": {"id": big}}],
        },
    ]
    _convs, kind, back = _round_trip(data)
    assert kind.format == "anthropic"
    assert back[1]["content"][0]["input"] == {"id": big}
    assert type(back[1]["content"][0]["input"]["id"]) is int
