"""Tool results read as what the tool printed, and are named by the call they answer."""

from __future__ import annotations

import json
from pathlib import Path

from msgviewer import Message, ToolCall, load
from msgviewer.formats import Conversation
from msgviewer.tui.model.labels import RowLabels
from msgviewer.tui.model.session import Session
from msgviewer.tui.model.tool_output import tool_output
from msgviewer.tui.model.tree_model import TreeModel

SAMPLES = Path(__file__).resolve().parents[3] / "sample_data"


def test_a_json_wrapped_output_is_shown_as_its_text_with_facts() -> None:
    printed = "F.....\n1 failed, 5 passed in 0.21s\n"
    wrapped = json.dumps({"output": printed, "metadata": {"exit_code": 1, "duration": 0.8}})
    out = tool_output(wrapped)
    assert out.unwrapped and out.text == printed
    assert out.facts == (("metadata.exit_code", "1"), ("metadata.duration", "0.8"))


def test_facts_past_64_bits_are_shown_as_written() -> None:
    big = 123456789012345678901234
    wrapped = f'{{"output": "done", "metadata": {{"job": {big}, "ids": [{big}]}}}}'
    out = tool_output(wrapped)
    assert out.facts == (("metadata.job", str(big)), ("metadata.ids", f"[{big}]"))


def test_codex_output_facts_come_from_the_reader() -> None:
    messages = load(SAMPLES / "codex-rollout.jsonl")[0].messages
    failed = next(m for m in messages if m.role == "tool" and m.is_error)
    out = tool_output(failed.text, failed.metadata)
    assert ("exit_code", "1") in out.facts
    assert "1 failed" in out.text and "\\n" not in out.text


def test_plain_text_and_other_json_stay_as_they_are() -> None:
    assert tool_output("just text").text == "just text"
    payload = json.dumps({"rows": [1, 2, 3]})
    assert tool_output(payload) == tool_output(payload).__class__(payload)
    # A second large payload beside the text: not a wrapper, shown whole
    both = json.dumps({"output": "a", "stderr": "x" * 500})
    assert tool_output(both).text == both and not tool_output(both).unwrapped


def test_a_result_row_is_named_by_its_call() -> None:
    """OpenAI chat results carry no tool name: the row takes the name of the call it answers."""
    messages = [
        Message(role="user", content="list the files"),
        Message(
            role="assistant",
            content="",
            tool_calls=(ToolCall(id="call_1", name="list_files", args={"path": "."}),),
        ),
        Message(role="tool", content="a.py\nb.py", tool_call_id="call_1"),
    ]
    session = Session.from_conversations([Conversation(messages=tuple(messages))])
    session.analyse()
    model = TreeModel(session)
    labels = RowLabels(model)
    row = next(r for r in model.rows if r[2] == 2)
    left, _ = labels.left_right(row)
    assert ("list_files ", "call") in left
