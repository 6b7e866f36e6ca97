"""jless habits: ``yp`` copies the JSON path of the node under the cursor in its file,
``yy`` (and ``y`` alone, after a moment) its value."""

from __future__ import annotations

import orjson
import pytest

from msgviewer import load
from msgviewer.tui.model.jsonpath import node_path
from msgviewer.tui.model.rows import BLOCK, CALL, CONV, MSG
from msgviewer.tui.screens.copying import YANK_WAIT

from .conftest import DEMO, SAMPLES, SIZE, make_app, settle

pytestmark = pytest.mark.anyio


def _at(data, path: str):  # type: ignore[no-untyped-def]
    """The value at a ``$.a[1].b`` path."""
    from msgviewer.tui.model.jsonpos import path_steps

    for step in path_steps(path):
        data = data[step]
    return data


async def test_yp_copies_the_path_yy_and_y_the_value() -> None:
    app = make_app(DEMO)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.main_screen
        screen.tree.go_to(CALL, 0, 2, 0)  # the assistant's first tool call
        await settle(pilot)
        await pilot.press("y", "p")
        await settle(pilot)
        assert app.clipboard == "$.messages[2].tool_calls[0]"
        assert not screen.query_one("#problems").has_class("-shown")  # p was not "problems"
        await pilot.press("y", "y")
        await pilot.pause()
        assert orjson.loads(app.clipboard)["name"] == "read_file"
        app.copy_to_clipboard("")
        await pilot.press("y")  # y alone: the value at once, as before
        assert orjson.loads(app.clipboard)["name"] == "read_file"
        await pilot.pause(YANK_WAIT + 0.2)
        await pilot.press("p")  # long after y: the problems key again
        await pilot.pause()
        assert orjson.loads(app.clipboard)["name"] == "read_file"
        assert screen.query_one("#problems").has_class("-shown")


@pytest.mark.parametrize(
    ("name", "row"),
    [
        ("openai-chat-agent.json", (CALL, 0, 2, 0, 0, 0)),
        ("openai-chat-agent.json", (BLOCK, 0, 1, 1, 0, 0)),
        ("anthropic-agent.json", (BLOCK, 0, 2, 1, 0, 0)),
        ("gemini-agent.json", (BLOCK, 0, 2, 0, 0, 0)),
        ("langchain-agent.json", (MSG, 0, 3, 0, 0, 0)),
        ("claude-code-session.jsonl", (BLOCK, 0, 3, 0, 0, 0)),
    ],
)
def test_the_path_names_the_node_in_the_file(name: str, row) -> None:  # type: ignore[no-untyped-def]
    convs = load(SAMPLES / name)
    path = node_path(convs, row)
    text = (SAMPLES / name).read_bytes()
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        data = [orjson.loads(line) for line in text.splitlines() if line.strip()]
    node = _at(data, path)  # the path is there in the file itself
    kind, _, m, i = row[:4]
    message = convs[0].messages[m]
    if kind == CALL:
        assert node["function"]["name"] == message.tool_calls[i].name
    elif kind == BLOCK:
        block = message.blocks[i]
        flat = orjson.dumps(node).decode()
        wanted = getattr(block, "text", None) or getattr(block, "name", None) or ""
        assert wanted[:40] in flat or getattr(block, "tool_call_id", "x") in flat
    else:
        assert isinstance(node, dict)
    assert node_path(convs, (CONV, 0, 0, 0, 0, 0)) == "$"


async def test_with_several_files_the_path_is_in_the_nodes_own_file() -> None:
    first, second = SAMPLES / "openai-chat-agent.json", SAMPLES / "anthropic-agent.json"
    app = make_app(first, second)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.main_screen
        c = len(load(first))  # the second file's conversation comes after the first's
        screen.tree.go_to(BLOCK, c, 2, 1)  # the text of the Anthropic file's message 2
        await settle(pilot)
        await pilot.press("y", "p")
        await settle(pilot)
        path = app.clipboard
    assert path == node_path(load(second), (BLOCK, 0, 2, 1, 0, 0))
    node = _at(orjson.loads(second.read_bytes()), path)
    assert node["text"] == load(second)[0].messages[2].blocks[1].text
