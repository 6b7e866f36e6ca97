"""What an edit key changes at a row, and how the editor's text is checked (headless)."""

from __future__ import annotations

import pytest

from msgviewer import Message, TextBlock, ToolCall, ToolCallBlock, link_tools
from msgviewer.core import edits
from msgviewer.tui.model.rows import ARTIFACT, BLOCK, CALL, INVALID, LINE, MSG
from msgviewer.tui.model.targets import (
    EditorError,
    delete_part,
    json_target,
    json_validator,
    text_target,
)


def row(kind: int, m: int, i: int = 0) -> tuple[int, int, int, int, int, int]:
    return (kind, 0, m, i, 0, 1)


def test_a_message_row_edits_its_text() -> None:
    msgs = [Message.user("hello")]
    target = text_target(msgs[0], row(MSG, 0))
    assert target is not None and not target.json
    assert target.text == "hello"
    assert target.focus == (MSG, 0, 0, 0)
    out = target.make("bye", link_tools(msgs))(list(msgs))
    assert out[0].text == "bye"


def test_a_call_row_edits_its_arguments_as_a_json_object() -> None:
    msgs = [Message.assistant("", tool_calls=(ToolCall("c1", "ls", {"path": "."}),))]
    target = text_target(msgs[0], row(CALL, 0))
    assert target is not None and target.json
    assert target.validate('{"path": "/"}') == {"path": "/"}
    with pytest.raises(EditorError):
        target.validate("[1, 2]")
    out = target.make({"path": "/"}, link_tools(msgs))(list(msgs))
    assert out[0].tool_calls[0].args == {"path": "/"}


def test_an_integer_past_64_bits_is_edited_and_saved_as_typed() -> None:
    big = 123456789012345678901234
    msgs = [Message.assistant("", tool_calls=(ToolCall("c1", "get", {"id": big}),))]
    target = text_target(msgs[0], row(CALL, 0))
    assert target is not None and str(big) in target.text
    value = target.validate(target.text.replace(str(big), str(big + 1)))
    out = target.make(value, link_tools(msgs))(list(msgs))
    assert out[0].tool_calls[0].args == {"id": big + 1}
    assert type(out[0].tool_calls[0].args["id"]) is int


def test_a_row_without_text_has_no_text_target_but_a_json_one() -> None:
    message = Message.assistant((TextBlock("a"), ToolCallBlock("t1", "ls", {})))
    assert text_target(message, row(BLOCK, 0, 1)) is None
    target = json_target(message, row(BLOCK, 0, 1))
    assert target.json and target.focus == (BLOCK, 0, 0, 1)
    assert '"tool_call"' in target.text


def test_the_json_of_a_message_row_is_the_whole_message() -> None:
    message = Message.user("hi")
    target = json_target(message, row(MSG, 3))
    assert target.label == "Edit message 3"
    assert target.validate(target.text).text == "hi"


def test_the_json_validator_says_on_which_line_the_text_is_wrong() -> None:
    validate = json_validator(lambda value: value)
    with pytest.raises(EditorError) as caught:
        validate('{\n  "a": 1,\n  oops\n}')
    assert caught.value.line == 3


def test_delete_removes_the_part_the_row_shows() -> None:
    two_blocks = Message.assistant((TextBlock("a"), TextBlock("b")))
    assert delete_part(two_blocks, row(BLOCK, 2, 1)) == edits.Part("block", 2, 1)
    assert delete_part(two_blocks, row(LINE, 2, 1)) == edits.Part("block", 2, 1)
    one_block = Message.user("only")
    assert delete_part(one_block, row(LINE, 2, 0)) == edits.Part("message", 2)
    assert delete_part(two_blocks, row(CALL, 2, 0)) == edits.Part("call", 2, 0)
    assert delete_part(two_blocks, row(INVALID, 2, 0)) == edits.Part("invalid", 2, 0)
    assert delete_part(two_blocks, row(ARTIFACT, 2, 0)) is None
