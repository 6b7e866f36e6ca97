"""A long line-based log opens first screen first: its first lines are shown while the rest is
read, keys work meanwhile, and what is shown at the end is what a plain load makes.

The reader is slowed through ``progressive.step_hook`` (a gate the test opens), never timed.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from msgviewer import Message
from msgviewer.core.message import ToolCall
from msgviewer.formats import Conversation, dumps
from msgviewer.tui.model import progressive
from msgviewer.tui.model.loader import load_session
from msgviewer.tui.model.progressive import ProgressiveLoad, line_based

from .conftest import SAMPLES, SIZE, make_app, settle

pytestmark = pytest.mark.anyio

FIRST = 2048  # the first screen's share of the file, small so that a small file has steps


def _messages(n: int) -> list[Message]:
    out: list[Message] = [Message.user("Tidy the repository, please.")]
    for i in range(n):
        call = ToolCall(id=f"toolu_{i:05d}", name="bash", args={"command": f"ls part{i}"})
        out.append(Message.assistant(f"Looking at part {i}.", tool_calls=(call,)))
        out.append(Message.tool(f"file{i}.py\nnotes{i}.md", tool_call_id=call.id, name="bash"))
    out.append(Message.assistant("Done."))
    return out


def _write(tmp_path: Path, fmt: str, convs: int = 1, n: int = 60) -> Path:
    items = [Conversation(tuple(_messages(n)), "msgviewer") for _ in range(convs)]
    path = tmp_path / f"log-{fmt}.jsonl"
    path.write_bytes(dumps(items[0] if convs == 1 else items, format=fmt))
    return path


def _texts(session) -> list[list[tuple[str, str]]]:
    return [[(m.role, m.text) for m in c.messages] for c in session.convs]


@pytest.fixture
def small_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progressive, "FIRST_BYTES", FIRST)


@pytest.mark.parametrize(
    "fmt,convs,n", [("claude-code", 1, 60), ("codex", 1, 60), ("msgviewer", 30, 3)]
)
def test_steps_grow_and_end_with_what_a_plain_load_makes(
    tmp_path: Path, small_steps: None, fmt: str, convs: int, n: int
) -> None:
    path = _write(tmp_path, fmt, convs, n)
    assert progressive.progressive([str(path)]) == str(path)
    steps = list(ProgressiveLoad(str(path)).steps())
    *provisional, final = steps
    assert provisional and final.done and not any(s.done for s in provisional)
    counts = [s.session.message_count for s in provisional]
    assert counts == sorted(counts) and counts[0] < final.session.message_count
    assert all(s.session.convs[0].document is None for s in provisional)  # only for looking
    whole = load_session([str(path)])
    assert final.session.convs[0].document is not None
    assert [c.conversation for c in final.session.convs] == [c.conversation for c in whole.convs]
    assert final.percent == 100 and provisional[0].percent < 100


def test_what_is_not_json_lines_is_read_the_usual_way(tmp_path: Path, small_steps: None) -> None:
    assert not line_based(b'{\n  "format": "msgviewer",\n')
    assert not line_based(b"[{}]\n")
    assert line_based(b'{"type": "user"}\n{"type"')
    pretty = tmp_path / "big.json"
    pretty.write_bytes(dumps(Conversation(tuple(_messages(60)), "msgviewer")))
    assert progressive.progressive([str(pretty)]) is None
    small = tmp_path / "small.jsonl"
    small.write_bytes((SAMPLES / "codex-rollout.jsonl").read_bytes()[:FIRST])
    assert progressive.progressive([str(small)]) is None
    assert progressive.progressive([str(pretty), str(pretty)]) is None


async def test_first_rows_show_and_keys_work_while_the_rest_is_read(
    tmp_path: Path, small_steps: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _write(tmp_path, "claude-code", n=80)
    gate = threading.Event()
    reached_final = threading.Event()

    def slowed(read: int, size: int) -> None:
        if read >= size:  # the whole read waits until the test has looked
            reached_final.set()
            gate.wait(20)

    monkeypatch.setattr(progressive, "step_hook", slowed)
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.main_screen
        for _ in range(500):
            if reached_final.is_set() and screen.session is not None:
                break
            await pilot.pause(0.01)
        await pilot.pause()
        # The worker is still reading and rows are on screen.
        assert not gate.is_set() and screen.loading_more
        shown = screen.session.message_count
        whole = load_session([str(path)])
        assert 0 < shown < whole.message_count
        assert len(screen.tree.model.rows) > 1
        status = str(screen.query_one("#status").render())
        assert "Reading log-claude-code.jsonl" in status and "more coming" in status
        # Keys work over what is loaded: moving, the end, search; an edit waits for the whole.
        await pilot.press("down", "down")
        assert screen.tree.cursor == 2
        await pilot.press("G")
        last = len(screen.tree.model.rows) - 1
        assert screen.tree.cursor == last
        await pilot.press("d")
        await pilot.pause()
        assert screen.session.message_count == shown
        assert not screen.has_unsaved()
        # The rest arrives: the cursor that was at the end follows it.
        gate.set()
        await settle(pilot)
        assert not screen.loading_more
        assert _texts(screen.session) == _texts(whole)
        assert [c.conversation for c in screen.session.convs] == [
            c.conversation for c in whole.convs
        ]
        assert screen.session.convs[0].document is not None
        assert screen.tree.cursor == len(screen.tree.model.rows) - 1 > last
        assert screen.session.analysed  # the analyses ran once the whole was read
        status = str(screen.query_one("#status").render())
        assert "more coming" not in status and "claude-code" in status
        # Editing works now.
        await pilot.press("g", "d")
        await settle(pilot)
        assert screen.has_unsaved()


async def test_a_search_made_while_loading_finds_what_arrives_later(
    tmp_path: Path, small_steps: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _write(tmp_path, "claude-code", n=80)
    gate = threading.Event()

    def slowed(read: int, size: int) -> None:
        if read >= size:
            gate.wait(20)

    monkeypatch.setattr(progressive, "step_hook", slowed)
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.main_screen
        for _ in range(500):
            if screen.session is not None and screen.loading_more:
                break
            await pilot.pause(0.01)
        screen._run_search("part79", jump=False)  # the last part: not read yet
        for _ in range(500):  # (not every worker: the load's waits at the gate)
            await pilot.pause(0.01)
            if not any(w.group == "search" and w.is_running for w in app.workers):
                break
        await pilot.pause()
        assert screen.loading_more and screen.query_text == "part79"
        assert screen.hits == ()
        gate.set()
        await settle(pilot)
        assert len(screen.hits) >= 1


async def test_a_log_too_large_to_read_whole_keeps_its_start_on_screen(
    tmp_path: Path, small_steps: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from msgviewer.formats import memory

    path = _write(tmp_path, "claude-code", n=80)
    whole = load_session([str(path)]).message_count
    monkeypatch.setattr(memory, "CHECK_FROM", 0)
    monkeypatch.setattr(memory, "available_memory", lambda: path.stat().st_size)
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.main_screen
        assert screen.error is None and screen.session is not None
        assert 0 < screen.session.message_count < whole
        status = str(screen.query_one("#status").render())
        assert "Only the first" in status and "too large to read whole" in status
        await pilot.press("d")  # only for looking
        assert not screen.has_unsaved()


@pytest.fixture
def small_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole read parses the file a kilobyte at a time, so a small file has pieces."""
    from msgviewer.formats import jsonl_file

    monkeypatch.setattr(jsonl_file, "PIECE", 1024)


def test_the_whole_read_says_how_far_it_has_got(
    tmp_path: Path, small_steps: None, small_pieces: None
) -> None:
    path = _write(tmp_path, "claude-code", n=80)
    size = path.stat().st_size
    told: list[tuple[int, int]] = []
    steps = list(ProgressiveLoad(str(path)).steps(reading=lambda r, s: told.append((r, s))))
    assert steps[-1].done and len(told) > 3
    assert {s for _, s in told} == {size}
    read = [r for r, _ in told]
    assert read == sorted(read) and read[0] < size // 2 and read[-1] == size


async def test_the_status_percent_climbs_while_the_whole_is_read(
    tmp_path: Path, small_steps: None, small_pieces: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _write(tmp_path, "claude-code", n=80)
    gate, parsed_gate = threading.Event(), threading.Event()
    whole_read, halfway, parsed = threading.Event(), threading.Event(), threading.Event()

    def slowed(read: int, size: int) -> None:
        if not whole_read.is_set():
            if read >= size:
                whole_read.set()  # the whole read begins
        elif read > size // 2 and not halfway.is_set():
            halfway.set()  # the whole read is past half the file: wait for the test
            gate.wait(20)
        elif read >= size and not parsed.is_set():
            parsed.set()  # all of it is parsed, the messages are being built: wait again
            parsed_gate.wait(20)

    monkeypatch.setattr(progressive, "step_hook", slowed)
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.main_screen
        for _ in range(500):
            if halfway.is_set() and "%" in str(screen.query_one("#status").render()):
                break
            await pilot.pause(0.01)
        await pilot.pause()
        status = str(screen.query_one("#status").render())
        percent = int(status.split("% ·")[0].rsplit(" ", 1)[1])
        assert screen.loading_more and 50 <= percent < 100, status
        gate.set()
        for _ in range(500):
            if parsed.is_set() and "building" in str(screen.query_one("#status").render()):
                break
            await pilot.pause(0.01)
        status = str(screen.query_one("#status").render())
        assert "all read, building the messages" in status and screen.loading_more, status
        parsed_gate.set()
        await settle(pilot)
        assert not screen.loading_more
        assert "%" not in str(screen.query_one("#status").render())


def test_a_cancel_stops_the_whole_read_between_pieces(
    tmp_path: Path, small_steps: None, small_pieces: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from msgviewer.tui.model.loader import Cancelled

    path = _write(tmp_path, "claude-code", n=80)
    size = path.stat().st_size
    cancel = threading.Event()
    seen: list[int] = []

    def slowed(read: int, size: int) -> None:
        seen.append(read)
        if read < size and read > size // 4 and seen.count(size) == 1:
            cancel.set()  # the app closes a quarter into the whole read

    monkeypatch.setattr(progressive, "step_hook", slowed)
    steps = ProgressiveLoad(str(path)).steps(cancel)
    with pytest.raises(Cancelled):
        for _ in steps:
            pass
    after = seen[seen.index(size) + 1 :]
    assert after and max(after) < size  # stopped before the end of the file
