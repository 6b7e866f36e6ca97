"""Paths of single arguments of a tool call, in each format's own file (what ``yp`` copies
with the detail pane's cursor on an argument), and the lines the cursor steps over."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest

from msgviewer import load
from msgviewer.tui.model.arguments import (
    FROM_JSON,
    argument_path,
    argument_value,
    call_arguments,
    line_steps,
    path_steps,
    steps_text,
    value_at,
)
from msgviewer.tui.model.jsonpath import PathError
from msgviewer.tui.model.preview import PREVIEW_DEPTH, full_json, json_preview
from msgviewer.tui.model.rows import BLOCK, CALL, MSG

SAMPLES = Path(__file__).resolve().parents[3] / "msgviewer" / "samples"


def _file_data(name: str) -> Any:
    text = (SAMPLES / name).read_bytes()
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return [orjson.loads(line) for line in text.splitlines() if line.strip()]


def _follow(data: Any, path: str) -> Any:
    """The value at ``path`` in the file's data, reading a string as JSON at ``|fromjson``."""
    outer, _, inner = path.partition(FROM_JSON)
    value = value_at(data, path_steps(outer))
    if _:
        value = value_at(orjson.loads(value), path_steps("$" + inner))
    return value


def _calls(convs: Any) -> list[tuple[int, int, int]]:
    """(kind, message, index) of every call of the first conversation."""
    out = []
    for m, message in enumerate(convs[0].messages):
        out += [(CALL, m, k) for k in range(len(message.tool_calls))]
        out += [(BLOCK, m, b) for b in range(len(message.blocks))]
    return [c for c in out if call_arguments(convs[0].messages[c[1]], c[0], c[2]) is not None]


@pytest.mark.parametrize(
    ("name", "example"),
    [
        ("anthropic-agent.json", "$.messages[1].content[2].input.date"),
        ("openai-chat-agent.json", "$.messages[2].tool_calls[1].function.arguments|fromjson.city"),
        ("gemini-agent.json", "$.contents[1].parts[1].functionCall.args.months[1]"),
        ("claude-code-session.jsonl", "$[6].message.content[0].input.file_path"),
        ("openai-responses-agent.json", "$.input[7].action.query"),
        ("langchain-agent.json", "$[2].data.tool_calls[1].args.depart_after"),
        ("codex-rollout.jsonl", "$[9].payload.arguments|fromjson.command[2]"),
        ("demo-agent-run.json", "$.messages[14].tool_calls[0].args.attachments[0]"),
    ],
)
def test_every_argument_of_every_call_is_at_its_path_in_the_file(name: str, example: str) -> None:
    convs = load(SAMPLES / name)
    data = _file_data(name)
    paths = []
    calls = _calls(convs)
    assert calls
    for kind, m, i in calls:
        if convs[0].messages[m].metadata.get("isSidechain"):
            # the writer puts a sub-agent's records after the call that started it, the file
            # may hold them before its result: no path from writing lands on them
            continue
        args = call_arguments(convs[0].messages[m], kind, i)
        for steps in line_steps(args):
            if steps is None:
                continue
            path = argument_path(convs, (kind, 0, m, i, 0, 0), steps)
            found = _follow(data, path)
            if not steps and isinstance(found, str):  # the arguments as a JSON string
                found = orjson.loads(found)
            if not steps and found != args:  # a built-in tool's item: arguments spread in it
                assert found.items() >= args.items() and "type" in found, path
            else:
                assert found == value_at(args, steps), path
            paths.append(path)
    assert example in paths


def test_the_whole_arguments_string_is_the_path_of_the_string() -> None:
    convs = load(SAMPLES / "openai-chat-agent.json")
    path = argument_path(convs, (CALL, 0, 2, 0, 0, 0), ())
    assert path == "$.messages[2].tool_calls[0].function.arguments"
    assert isinstance(_follow(_file_data("openai-chat-agent.json"), path), str)


def test_a_row_that_is_no_call_has_no_argument_path() -> None:
    convs = load(SAMPLES / "anthropic-agent.json")
    with pytest.raises(PathError, match="not a tool call"):
        argument_path(convs, (MSG, 0, 1, 0, 0, 0), ())


VALUE = {
    "command": "ls -la",
    "nested": {"list": [1, {"deep": [[], {}]}, "x"], "empty": {}},
    "odd key": None,
    "ünï": [True, 2.5],
}


def test_one_step_list_per_line_of_the_json_the_pane_shows() -> None:
    lines = full_json(VALUE).split("\n")
    steps = line_steps(VALUE)
    assert len(steps) == len(lines)
    for line, at in zip(lines, steps, strict=True):
        text = line.strip()
        if at is None:
            assert text.rstrip(",") in ("}", "]")
            continue
        value = value_at(VALUE, at)
        if at and isinstance(at[-1], str):  # an object member: its key starts the line
            assert text.startswith(orjson.dumps(at[-1]).decode() + ": ")
        opener = {dict: "{", list: "["}.get(type(value))
        if opener and value:
            assert text.endswith(opener)
        else:
            assert text.rstrip(",").endswith(orjson.dumps(value).decode())
    assert line_steps(VALUE, limit=3) == steps[:3]


def test_deep_arguments_need_no_recursion() -> None:
    deep: Any = "bottom"
    for _ in range(5000):
        deep = {"a": deep}
    steps = line_steps(deep)
    assert len(steps) == 2 * 5000 + 1 and steps[5000] == ("a",) * 5000


def test_past_the_depth_the_pane_shows_a_container_is_one_line() -> None:
    deep: Any = {"x": 1}
    for _ in range(PREVIEW_DEPTH + 2):
        deep = {"d": deep}
    args = {"a": deep, "b": "target"}
    shown = json_preview(args).text.split("\n")
    steps = line_steps(args, max_depth=PREVIEW_DEPTH)
    assert len(steps) == len(shown)
    [folded] = [n for n, line in enumerate(shown) if line.strip().endswith("{…}")]
    assert steps[folded] == ("a", *("d",) * (PREVIEW_DEPTH - 1))
    [target] = [n for n, line in enumerate(shown) if '"b": "target"' in line]
    assert steps[target] == ("b",)
    assert all(s is None for n, s in enumerate(steps) if shown[n].strip().rstrip(",") == "}")


def test_steps_written_and_read_back() -> None:
    steps = ("nested", "list", 1, "odd key", 'q"uote', "_ok")
    text = steps_text(steps)
    assert text == '.nested.list[1]["odd key"]["q\\"uote"]._ok'
    assert path_steps("$" + text) == steps


def test_the_value_of_an_argument() -> None:
    assert argument_value(VALUE, ("command",), as_json=True) == '"ls -la"'
    assert argument_value(VALUE, ("command",), as_json=False) == "ls -la"
    assert orjson.loads(argument_value(VALUE, ("nested",), as_json=False)) == VALUE["nested"]


def test_arguments_holding_an_integer_past_64_bits_are_found_in_the_file(tmp_path: Path) -> None:
    history = [
        {"role": "user", "content": "look it up"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "get", "arguments": '{"id": 123456789012345678901234}'},
                }
            ],
        },
    ]
    path = tmp_path / "chat.json"
    path.write_bytes(orjson.dumps({"messages": history}))
    convs = load(path)
    assert convs[0].messages[1].tool_calls[0].args == {"id": 123456789012345678901234}
    assert (
        argument_path(convs, (CALL, 0, 1, 0, 0, 0), ())
        == "$.messages[1].tool_calls[0].function.arguments"
    )


def test_object_arguments_holding_an_integer_past_64_bits_are_found_in_the_file(
    tmp_path: Path,
) -> None:
    big = 123456789012345678901234
    request = {
        "model": "claude-x",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "look it up"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t1", "name": "get", "input": {"id": big}}],
            },
        ],
    }
    path = tmp_path / "anthropic.json"
    path.write_text(json.dumps(request))
    convs = load(path)
    steps = ("id",)
    assert argument_path(convs, (CALL, 0, 1, 0, 0, 0), steps) == "$.messages[1].content[0].input.id"
