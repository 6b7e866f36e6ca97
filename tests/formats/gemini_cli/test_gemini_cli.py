"""The gemini-cli format: Gemini CLI chat session files."""

from __future__ import annotations

import copy
import json
import warnings
from typing import Any

import pytest

from msgviewer import (
    FormatError,
    LossyConversionWarning,
    Message,
    detect,
    dumps,
    link_tools,
    load,
    loads,
)
from msgviewer.core.blocks import ReasoningBlock, TextBlock

from ..format_checks import (
    SAMPLES,
    convert_and_read_back,
    detected,
    links_survive,
    other_sample_files,
    writable_targets,
)
from ..openai_checks import assert_links_kept

CALL_ID = "read_file-1765309936615-3e48006f9d7538"
SESSION: dict[str, Any] = {
    "sessionId": "5b1e7c1a-1d7e-4a55-9a9e-0c3f2f6d1e20",
    "projectHash": "9126eddec7f67e038794657b4d517dd9cb5226468f30b5ee7296c27d65e84fde",
    "startTime": "2025-12-09T19:51:29.418Z",
    "lastUpdated": "2025-12-09T19:52:40.000Z",
    "messages": [
        {
            "id": "u-1",
            "timestamp": "2025-12-09T19:51:29.418Z",
            "type": "user",
            "content": "What does setup.cfg pin?",
        },
        {
            "id": "g-1",
            "timestamp": "2025-12-09T19:51:50.106Z",
            "type": "gemini",
            "content": "",
            "thoughts": [
                {
                    "subject": "Locating the pins",
                    "description": "I should read setup.cfg first.",
                    "timestamp": "2025-12-09T19:51:49.324Z",
                }
            ],
            "tokens": {
                "input": 1200,
                "output": 20,
                "cached": 800,
                "thoughts": 15,
                "tool": 0,
                "total": 1235,
            },
            "model": "gemini-2.5-flash",
            "toolCalls": [
                {
                    "id": CALL_ID,
                    "name": "read_file",
                    "args": {"absolute_path": "/repo/setup.cfg"},
                    "result": [
                        {
                            "functionResponse": {
                                "id": CALL_ID,
                                "name": "read_file",
                                "response": {"output": "[options]\ninstall_requires = rich==13.7"},
                            }
                        }
                    ],
                    "status": "success",
                    "timestamp": "2025-12-09T19:52:14.515Z",
                    "displayName": "ReadFile",
                    "renderOutputAsMarkdown": True,
                }
            ],
        },
        {
            "id": "g-2",
            "timestamp": "2025-12-09T19:52:40.000Z",
            "type": "gemini",
            "content": "It pins rich to 13.7.",
            "thoughts": [],
            "tokens": {"input": 1300, "output": 9, "cached": 900, "total": 1309},
            "model": "gemini-2.5-flash",
        },
        {
            "id": "i-1",
            "timestamp": "2025-12-09T19:52:41.000Z",
            "type": "info",
            "content": "Session saved.",
        },
    ],
}


def _load(session: Any = SESSION) -> Any:
    (conv,) = loads(json.dumps(session))
    return conv


def test_a_session_is_detected_and_not_taken_for_another_format() -> None:
    assert detect(json.dumps(SESSION)) == "gemini-cli"
    no_hash = {k: v for k, v in SESSION.items() if k != "projectHash"}
    assert detect(json.dumps(no_hash)) == "gemini-cli"
    # A chat body that happens to carry a session id is still OpenAI's.
    chat = {"sessionId": "s1", "messages": [{"role": "user", "content": "hi"}]}
    assert detect(json.dumps(chat)) == "openai-chat"
    # Only user records and no project hash: nothing says Gemini CLI.
    users = {"sessionId": "s1", "messages": [SESSION["messages"][0]]}
    with pytest.raises(FormatError):
        detect(json.dumps(users))


def test_records_become_messages_with_thoughts_usage_and_linked_results() -> None:
    conv = _load()
    assert conv.format == "gemini-cli"
    assert conv.metadata["sessionId"] == SESSION["sessionId"]
    roles = [m.role for m in conv.messages]
    assert roles == ["user", "assistant", "tool", "assistant", "system"]
    user, first, result, answer, note = conv.messages
    assert user.metadata["timestamp"] == "2025-12-09T19:51:29.418Z"
    assert first.content == (
        ReasoningBlock(
            "I should read setup.cfg first.",
            extra={"subject": "Locating the pins", "timestamp": "2025-12-09T19:51:49.324Z"},
        ),
    )
    usage = first.usage
    assert (usage.input_tokens, usage.output_tokens, usage.total_tokens) == (1200, 35, 1235)
    assert (usage.cache_read_tokens, usage.reasoning_tokens) == (800, 15)
    assert first.model == "gemini-2.5-flash"
    assert first.tool_calls[0].extra["displayName"] == "ReadFile"
    assert result.text == "[options]\ninstall_requires = rich==13.7"
    assert (result.tool_call_id, result.name, result.is_error) == (CALL_ID, "read_file", False)
    assert link_tools(conv.messages).result_for(CALL_ID).message_index == 2
    assert answer.text == "It pins rich to 13.7."
    assert note.metadata["type"] == "info"


def test_written_back_the_session_is_the_same() -> None:
    conv = _load()
    assert json.loads(dumps(conv, format="gemini-cli")) == SESSION


def test_an_edited_result_and_usage_are_written_in_gemini_cli_terms() -> None:
    conv = _load()
    messages = list(conv.messages)
    messages[2] = Message.tool("permission denied", tool_call_id=CALL_ID, is_error=True)
    written = json.loads(dumps(messages, format="gemini-cli"))
    call = written["messages"][1]["toolCalls"][0]
    assert call["status"] == "error"
    assert call["result"] == [
        {
            "functionResponse": {
                "id": CALL_ID,
                "name": "read_file",
                "response": {"error": "permission denied"},
            }
        }
    ]
    assert written["messages"][1]["tokens"] == SESSION["messages"][1]["tokens"]
    assert loads(json.dumps(written))[0].messages[2].is_error


def test_content_given_as_parts_comes_back_as_parts() -> None:
    session = copy.deepcopy(SESSION)
    session["messages"][0]["content"] = [{"text": "What does "}, "setup.cfg pin?"]
    conv = _load(session)
    assert conv.messages[0].content == (
        TextBlock("What does "),
        TextBlock("setup.cfg pin?", extra={"bare": True}),
    )
    assert json.loads(dumps(conv, format="gemini-cli")) == session


def test_a_result_with_no_call_is_reported_when_written() -> None:
    messages = [
        Message.user("hi"),
        Message.tool("orphan output", tool_call_id="call_9"),
        Message.assistant("hello"),
    ]
    with pytest.warns(LossyConversionWarning, match=r"message 1: a tool result"):
        written = json.loads(dumps(messages, format="gemini-cli"))
    assert [r["type"] for r in written["messages"]] == ["user", "gemini"]


def test_a_bad_record_is_an_error_naming_it() -> None:
    session = copy.deepcopy(SESSION)
    session["messages"][2]["type"] = "robot"
    with pytest.raises(FormatError, match=r"\$\.messages\[2\]\.type: unknown message type"):
        loads(json.dumps(session), format="gemini-cli")


def test_a_conversation_from_another_format_writes_a_valid_session() -> None:
    (conv,) = loads(
        json.dumps(
            {
                "model": "gpt-4o",
                "messages": [
                    {"role": "user", "content": "2+2?"},
                    {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": "c1",
                                "type": "function",
                                "function": {"name": "calc", "arguments": '{"x": "2+2"}'},
                            }
                        ],
                    },
                    {"role": "tool", "tool_call_id": "c1", "content": "4"},
                    {"role": "assistant", "content": "4"},
                ],
            }
        )
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LossyConversionWarning)
        written = dumps(conv, format="gemini-cli")
    (back,) = loads(written)
    assert back.format == "gemini-cli"
    assert [m.text for m in back.messages] == ["2+2?", "", "4", "4"]
    assert link_tools(back.messages).result_for("c1").message_index == 2


SAMPLE = SAMPLES / "gemini-cli-session.json"


def test_the_bundled_session_reads_as_a_session() -> None:
    (conv,) = load(SAMPLE)
    assert detected(SAMPLE) == "gemini-cli" and conv.format == "gemini-cli"
    assert [m.role for m in conv.messages] == [
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
    ]
    links = link_tools(conv.messages)
    assert [(links.status(c), c.name) for c in links.calls] == [
        ("error", "run_shell_command"),
        ("answered", "read_file"),
    ]
    assert loads(dumps(conv, format="gemini-cli"))[0].messages == conv.messages


@pytest.mark.parametrize("path", other_sample_files({SAMPLE.name}), ids=lambda p: p.name)
def test_no_other_sample_is_taken_for_a_session(path: Any) -> None:
    assert detected(path) != "gemini-cli"


@pytest.mark.parametrize("path", other_sample_files({SAMPLE.name}), ids=lambda p: p.name)
def test_every_sample_converts_to_a_session_keeping_tool_links(path: Any) -> None:
    try:
        convs = load(path)
    except FormatError:
        pytest.skip("not a readable conversation file")
    # Server-side calls (web search) have no place in a session: reported, not kept.
    for conv, back in convert_and_read_back(convs[:3], "gemini-cli"):
        assert back is not None
        assert_links_kept(conv.messages, back[0].messages)


@pytest.mark.parametrize("target", writable_targets({"gemini-cli"}))
def test_a_session_converts_to_every_format_keeping_tool_links(target: str) -> None:
    for conv, back in convert_and_read_back([_load()], target):
        if back is not None:
            links_survive(conv.messages, back[0].messages)


def test_server_tool_calls_are_reported_when_written() -> None:
    (conv,) = load(SAMPLES / "anthropic-agent.json")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dumps(conv, format="gemini-cli")
    lossy = [str(w.message) for w in caught if w.category is LossyConversionWarning]
    assert any("server_tool_call blocks" in text for text in lossy), lossy


def test_a_system_message_whose_type_is_not_a_name_is_written_as_an_info_note() -> None:
    import msgviewer as mv

    # (found by the round-trip property: metadata may hold any JSON value)
    odd = mv.Message.system("Remember the tests.", metadata={"type": []})
    with pytest.warns(mv.LossyConversionWarning, match="written as an info note"):
        data = mv.dumps(mv.Conversation((odd, mv.Message.user("hi"))), format="gemini-cli")
    [conv] = mv.loads(data, format="gemini-cli")
    assert conv.messages[0].text == "Remember the tests."
