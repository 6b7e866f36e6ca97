"""pretty_print: LangChain-style titled sections, readable blocks, no base64 dumps."""

from __future__ import annotations

import base64

from msgviewer.core import (
    AudioBlock,
    CitationBlock,
    ErrorBlock,
    FileBlock,
    ImageBlock,
    InvalidToolCall,
    Message,
    ReasoningBlock,
    ServerToolCallBlock,
    ServerToolResultBlock,
    TextBlock,
    ToolCall,
    ToolCallBlock,
    ToolResultBlock,
    UnknownBlock,
)
from msgviewer.core.pretty import pretty_print, title_line

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40).decode()


def test_empty_history_prints_nothing() -> None:
    assert pretty_print([]) == ""


def test_matches_langchain_layout_for_string_messages() -> None:
    from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

    ours = [
        Message.system("You are a weather bot."),
        Message.user("What is the weather in Paris?", name="ann"),
        Message.assistant(
            "Let me check.",
            tool_calls=[ToolCall("call_1", "get_weather", {"city": "Paris", "days": 2})],
        ),
    ]
    theirs = [
        SystemMessage("You are a weather bot."),
        HumanMessage("What is the weather in Paris?", name="ann"),
        AIMessage(
            "Let me check.",
            tool_calls=[
                {"name": "get_weather", "args": {"city": "Paris", "days": 2}, "id": "call_1"}
            ],
        ),
    ]
    expected = "\n\n".join(m.pretty_repr() for m in theirs).splitlines()
    got = pretty_print(ours).splitlines()
    assert len(got) == len(expected)
    # Only the titles differ: our roles in place of LangChain's types.
    titles = iter(["System Message", "User Message", "Assistant Message"])
    for ours_line, theirs_line in zip(got, expected, strict=True):
        if theirs_line.startswith("====="):
            assert ours_line == title_line(next(titles))
        else:
            assert ours_line == theirs_line


def test_title_lines_are_80_columns_centred() -> None:
    for role in ("System", "User", "Assistant", "Tool"):
        line = title_line(f"{role} Message")
        assert len(line) == 80
        assert line.strip("=") == f" {role} Message "
        left, right = line.split(f" {role} Message ")
        assert 0 <= len(right) - len(left) <= 1


def test_tool_message_shows_name_call_id_and_error() -> None:
    text = pretty_print(
        [Message.tool("city not found", tool_call_id="call_1", name="get_weather", is_error=True)]
    )
    lines = text.splitlines()
    assert lines[0] == title_line("Tool Message")
    assert lines[1:4] == ["Name: get_weather", "Call ID: call_1", "Status: error"]
    assert lines[-1] == "city not found"


def test_invalid_tool_calls_show_raw_args_and_error() -> None:
    msg = Message.assistant(
        "", invalid_tool_calls=[InvalidToolCall("c2", "search", '{"q": "par', "bad JSON")]
    )
    text = pretty_print([msg])
    assert "Invalid Tool Calls:" in text
    assert '    {"q": "par' in text
    assert "  Error: bad JSON" in text


def test_media_blocks_are_summarised_without_their_data() -> None:
    msg = Message.user(
        (
            TextBlock("What is in this picture?"),
            ImageBlock(data=PNG, mime_type="image/png"),
            ImageBlock(url="https://example.com/cat.jpg"),
            AudioBlock(file_id="file-abc", mime_type="audio/wav"),
            FileBlock(data=PNG, mime_type="application/pdf", filename="report.pdf"),
        )
    )
    text = pretty_print([msg])
    assert PNG not in text and PNG[:40] not in text
    assert "What is in this picture?" in text
    size = len(base64.b64decode(PNG)) / 1024
    assert f"[image: image/png, {size:.1f} KB inline]" in text
    assert "[image: https://example.com/cat.jpg]" in text
    assert "[audio: audio/wav, file file-abc]" in text
    assert "[file: application/pdf, report.pdf," in text


def test_reasoning_blocks() -> None:
    msg = Message.assistant(
        (
            ReasoningBlock("The user wants Paris.", signature="EqQBCkgIARABGAIiQ"),
            ReasoningBlock(redacted=True, data="EmwKAhgBEgy3va3pzix/LafPsn4a"),
            ReasoningBlock(data="gAAAAABencrypted" * 10),
            TextBlock("It is sunny."),
        )
    )
    text = pretty_print([msg])
    assert "[reasoning]\n  The user wants Paris." in text
    assert "[reasoning: redacted, 28 chars of opaque data]" in text
    assert "[reasoning, with encrypted data]" in text
    assert "EqQBCkgIARABGAIiQ" not in text and "gAAAAAB" not in text
    assert text.endswith("It is sunny.")


def test_tool_blocks_both_shapes() -> None:
    call = Message.assistant(
        (TextBlock("Checking."), ToolCallBlock("toolu_1", "get_weather", {"city": "Rome"}))
    )
    result = Message.user((ToolResultBlock("toolu_1", (TextBlock("24 C"),), is_error=False),))
    failed = Message.user((ToolResultBlock("toolu_2", "timeout", is_error=True),))
    text = pretty_print([call, result, failed])
    assert (
        "[tool call]\n  get_weather (toolu_1)\n Call ID: toolu_1\n  Args:\n    city: Rome" in text
    )
    assert "[tool result for toolu_1]\n  24 C" in text
    assert "[tool result for toolu_2, error]\n  timeout" in text


def test_server_tools_citations_errors_and_unknown_blocks() -> None:
    msg = Message.assistant(
        (
            ServerToolCallBlock("srv_1", "web_search", {"query": "Paris weather"}),
            ServerToolResultBlock(
                "srv_1", [{"url": "https://meteo.example", "title": "Meteo"}], status="ok"
            ),
            TextBlock(
                "Sunny in Paris.",
                citations=(
                    CitationBlock(url="https://meteo.example", title="Meteo", cited_text="Sunny"),
                ),
            ),
            ErrorBlock("overloaded", code="529"),
            UnknownBlock("x_blob", {"type": "x_blob", "payload": PNG, "note": "n" * 500}),
        )
    )
    text = pretty_print([msg])
    assert "[server tool call]\n  web_search (srv_1)" in text
    assert "[server tool result for srv_1, ok] [{'url': 'https://meteo.example'" in text
    assert 'Sunny in Paris.\n  [citation: Meteo <https://meteo.example>] "Sunny"' in text
    assert "[error 529] overloaded" in text
    assert f"<{len(PNG)} chars of base64>" in text
    assert "(500 chars)" in text and "n" * 300 not in text


def test_base64_arguments_are_elided_but_text_arguments_kept_whole() -> None:
    long_text = "print('hello')\n" * 40
    msg = Message.assistant(
        "",
        tool_calls=[
            ToolCall(
                "c1",
                "upload",
                {"blob": PNG, "data_uri": f"data:image/png;base64,{PNG}", "code": long_text},
            )
        ],
    )
    text = pretty_print([msg])
    assert PNG[:64] not in text
    assert f"    blob: <{len(PNG)} chars of base64>" in text
    assert "    data_uri: <data URI," in text
    assert long_text.rstrip() in text


def test_messages_are_separated_by_a_blank_line() -> None:
    text = pretty_print([Message.user("Hi"), Message.assistant("Hello")])
    assert (
        text == f"{title_line('User Message')}\n\nHi\n\n{title_line('Assistant Message')}\n\nHello"
    )
