"""The app's headless parts: tree rows, media facts, search, safe text."""

from __future__ import annotations

import base64
import gc
import json
import struct
import subprocess
import sys
import threading
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from msgviewer import (
    ImageBlock,
    InvalidToolCall,
    Message,
    ReasoningBlock,
    TextBlock,
    ToolCall,
    load,
    loads,
)
from msgviewer.formats import Conversation
from msgviewer.tui.model.labels import RowLabels
from msgviewer.tui.model.media import image_dimensions, media_info, suggested_filename
from msgviewer.tui.model.rows import BLOCK, CALL, INVALID, LINE, MAX_LINES, MORE, MSG, Filter
from msgviewer.tui.model.safe import line_text, one_line
from msgviewer.tui.model.search import SearchIndex, locate
from msgviewer.tui.model.session import TOOL_CALL, Session
from msgviewer.tui.model.tree_model import TreeModel

from ..conftest import DEMO


def _session(*messages: Message) -> Session:
    return Session.from_conversations([Conversation(tuple(messages))])


def _demo() -> Session:
    session = Session.from_conversations(load(DEMO))
    session.analyse()
    return session


def test_rows_start_as_one_row_per_message() -> None:
    session = _demo()
    model = TreeModel(session)
    model.set_nested_view(
        False
    )  # file order (results under calls: tests/tui/model/test_nested_view.py)
    assert [r[0] for r in model.rows] == [MSG] * len(session.convs[0].messages)


def test_expand_splices_one_message_and_collapse_cuts_it_out() -> None:
    model = TreeModel(_demo())
    model.set_nested_view(False)
    before = list(model.rows)
    assert model.expand(2)
    children = model.rows[3 : 3 + 4]
    # message 2: a signed reasoning block, a text block, then its two parallel tool calls
    assert [(r[0], r[3]) for r in children] == [(BLOCK, 0), (BLOCK, 1), (CALL, 0), (CALL, 1)]
    assert model.rows[:3] == before[:3] and model.rows[3 + 4 :] == before[3:]
    assert model.collapse(2)
    assert model.rows == before


def _calls_opened(arguments: list[str], answered: bool = False) -> TreeModel:
    """An OpenAI Chat history whose assistant calls with these arguments (call ``c0``, ``c1``...,
    each answered when ``answered``), read and its assistant message opened in file order."""
    calls = [
        {"id": f"c{k}", "type": "function", "function": {"name": "f", "arguments": a}}
        for k, a in enumerate(arguments)
    ]
    results = [{"role": "tool", "tool_call_id": c["id"], "content": "done"} for c in calls]
    history = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": None, "tool_calls": calls},
        *(results if answered else []),
    ]
    session = Session.from_conversations(loads(json.dumps(history)))
    session.analyse()
    model = TreeModel(session)
    model.set_nested_view(False)
    assert model.expand(1)
    return model


def test_an_unparsable_call_is_shown_where_the_file_has_it() -> None:
    model = _calls_opened(['{"a": 1}', '{"a": ', '{"b": 2}'])
    assert [(r[0], r[3]) for r in model.rows[2:5]] == [(CALL, 0), (INVALID, 0), (CALL, 1)]


def test_an_unparsable_call_row_shows_the_result_that_answers_it() -> None:
    model = _calls_opened(["{}", "{"], answered=True)
    labels = RowLabels(model)
    rights = {r[0]: labels.left_right(r)[1] for r in model.rows[2:4]}
    assert rights[CALL] == [("✓ #2 ", "ok")]
    assert rights[INVALID] == [("✓ #3 ", "ok")]


def test_an_unparsable_call_without_its_text_shows_what_went_wrong() -> None:
    # Inspect keeps no text of unparsable arguments: its error says what they were
    error = 'Error parsing the following tool call arguments:\n\n{"a": \n\nError details: x'
    session = _session(
        Message.user("go"),
        Message.assistant("", invalid_tool_calls=[InvalidToolCall("c1", "read", None, error)]),
    )
    model = TreeModel(session)
    assert model.expand(1)
    [row] = [r for r in model.rows if r[0] == INVALID]
    text = "".join(piece for piece, _ in RowLabels(model).left_right(row)[0])
    assert text.endswith("⚠ invalid call read: Error parsing the following tool call arguments: …")


def test_reasoning_and_long_tool_output_start_collapsed() -> None:
    long_output = "\n".join(f"line {i}" for i in range(100))
    session = _session(
        Message.user("hi"),
        Message.assistant(
            [ReasoningBlock("step one\nstep two"), TextBlock("short\nanswer")],
            tool_calls=[ToolCall("c1", "read", {})],
        ),
        Message.tool(long_output, tool_call_id="c1", name="read"),
    )
    model = TreeModel(session)
    model.expand(1)
    kinds = [(r[0], r[3]) for r in model.rows]
    # reasoning shows no lines; the short text block shows its two lines
    assert kinds[2:] == [(BLOCK, 0), (BLOCK, 1), (LINE, 1), (LINE, 1), (CALL, 0), (MSG, 0)]
    tool_pos = len(model.rows) - 1
    model.expand(tool_pos)
    assert [r[0] for r in model.rows[tool_pos + 1 :]] == [BLOCK]  # output block, closed
    model.expand(tool_pos + 1)
    lines = model.rows[tool_pos + 2 :]
    assert [r[0] for r in lines] == [LINE] * MAX_LINES + [MORE]
    assert lines[-1][4] == 100 - MAX_LINES


def test_filter_shows_only_messages_with_tool_calls_and_their_call_rows() -> None:
    session = _demo()
    model = TreeModel(session)
    model.set_nested_view(False)
    model.set_filter(Filter(categories=TOOL_CALL))
    messages = session.convs[0].messages
    shown = [r[2] for r in model.rows]
    assert shown == [i for i, m in enumerate(messages) if m.tool_calls]
    model.expand(0)
    assert {r[0] for r in model.rows[1:3]} == {CALL}


def test_reveal_opens_the_message_and_finds_the_line() -> None:
    model = TreeModel(_demo())
    pos = model.reveal(LINE, 0, 6, 0, 3)  # the failing test output, line 3
    assert pos is not None and model.rows[pos][:5] == (LINE, 0, 6, 0, 3)


def test_role_filter_hides_other_roles() -> None:
    model = TreeModel(_demo())
    model.set_filter(Filter(roles=frozenset({"user"})))
    assert {model.message(r[1], r[2]).role for r in model.rows} == {"user"}


def _png(w: int, h: int) -> bytes:
    raw = b"".join(b"\x00" + b"\x00" * 3 * w for _ in range(h))
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw))


def _jpeg(w: int, h: int) -> bytes:
    app0 = (
        b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00" + b"\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    )
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, h, w, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + app0 + sof + b"\xff\xd9"


@pytest.mark.parametrize(
    ("data", "size"),
    [
        (_png(123, 45), (123, 45)),
        (b"GIF89a" + struct.pack("<HH", 640, 480) + b"\x00" * 8, (640, 480)),
        (_jpeg(1024, 768), (1024, 768)),
        (
            b"RIFF\x00\x00\x00\x00WEBPVP8X"
            + b"\x00" * 8
            + (99).to_bytes(3, "little")
            + (49).to_bytes(3, "little"),
            (100, 50),
        ),
        (b"not an image at all", None),
    ],
)
def test_image_dimensions_from_header_bytes(data: bytes, size: tuple[int, int] | None) -> None:
    assert image_dimensions(data) == size


def test_media_info_decodes_only_what_it_needs() -> None:
    data = _png(300, 200)
    block = ImageBlock(data=base64.b64encode(data).decode(), mime_type="image/png")
    info = media_info(block)
    assert (info.dimensions, info.size, info.source) == ((300, 200), len(data), "inline")


def test_suggested_filename_never_picks_a_directory() -> None:
    named = ImageBlock(data="AAAA", filename="../../etc/passwd")
    assert suggested_filename(named, "x") == "passwd"
    assert suggested_filename(ImageBlock(data="AAAA", mime_type="image/png"), "m-3") == "m-3.png"


def test_search_finds_tool_arguments_and_locates_the_call() -> None:
    session = _demo()
    hits = SearchIndex(session).find("fix/csv-unicode")
    messages = session.convs[0].messages
    assert hits and all("fix/csv-unicode" in repr(messages[m]).lower() for _, m in hits)
    pr_call = next(m for _, m in hits if messages[m].tool_calls)
    assert locate(messages[pr_call], "fix/csv-unicode") == (CALL, 0, 0)


def test_search_locates_the_line_of_a_tool_output() -> None:
    session = _demo()
    messages = session.convs[0].messages
    (hit,) = SearchIndex(session).find("short test summary")
    kind, block, line = locate(messages[hit[1]], "short test summary")
    assert (kind, block) == (LINE, 0)
    assert "short test summary" in messages[hit[1]].text.splitlines()[line]


def test_safe_text_makes_escapes_visible() -> None:
    assert one_line("\x1b[31mred\x1b[0m\nmore") == "␛[31mred␛[0m …"
    assert line_text("\tx\x07") == "    x␇"


def test_sub_agent_runs_go_under_the_call_that_started_them() -> None:
    from msgviewer.tui.model.sidechains import group_sidechains

    from ..conftest import SAMPLES

    messages = load(SAMPLES / "claude-code-session.jsonl")[0].messages
    top, nested = group_sidechains(messages)
    side = [i for i, m in enumerate(messages) if m.metadata.get("isSidechain")]
    assert side and not set(side) & set(top)
    ((call_at, members),) = nested.items()
    starter = messages[call_at[0]].tool_calls[call_at[1]]
    assert starter.name == "Task" and members == side


def test_stored_analyses_are_kept_out_of_garbage_collections() -> None:
    # Full collections walk every object they track: analyses left there would make each
    # one (and so some key presses) cost more the longer the history.
    session = _demo()
    links = session.convs[0].links
    assert links.calls and links.results  # the refs are made with the analysis
    tracked = {id(o) for o in gc.get_objects()}
    assert id(links) not in tracked
    assert not {id(r) for r in (*links.calls, *links.results)} & tracked
    problems = session.convs[0].problems
    assert id(problems) not in tracked


_WORDS = st.lists(st.sampled_from(["alpha", "beta", "Gamma", "delta"]), max_size=3)


@settings(max_examples=60, deadline=None)
@given(
    before=st.lists(_WORDS, min_size=1, max_size=8),
    after=st.lists(_WORDS, max_size=8),
    start=st.integers(0, 8),
    old=st.integers(0, 8),
)
def test_search_index_splice_finds_what_a_fresh_index_finds(
    before: list[list[str]], after: list[list[str]], start: int, old: int
) -> None:
    def messages(words: list[list[str]]) -> tuple[Message, ...]:
        return tuple(Message.user(" ".join(w) or "-") for w in words)

    session = _session(*messages(before))
    index = SearchIndex(session)
    index.find("a")
    start = min(start, len(before))
    old = min(old, len(before) - start)
    new = messages(after)
    kept = session.convs[0].messages
    session.replace_messages(0, Conversation(kept[:start] + new + kept[start + old :]))
    index.splice(0, start, old, len(new))
    for query in ("alpha", "BETA", "gamma", "delta", "a b"):
        assert index.find(query) == SearchIndex(session).find(query)


def test_search_index_built_in_part_then_grown_finds_everything() -> None:
    session = _session(*(Message.user(f"note {i}") for i in range(5000)))
    index = SearchIndex(session)
    cancel = threading.Event()
    cancel.set()
    assert index.find("note", cancel) is None  # cancelled before building anything
    assert len(index.find("note") or []) == 5000
    grown = (*session.convs[0].messages, Message.user("late note"))
    session.replace_messages(0, Conversation(grown))
    index.invalidate_from(0, 4990)
    assert index.find("late") == [(0, 5000)]
    assert len(index.find("note") or []) == 5001


def test_search_index_is_not_walked_by_garbage_collections() -> None:
    # A tuple of strings drops out of the collector's tracking; a list of 5,000 haystacks
    # would be walked by every full collection (every few key presses in the app).
    session = _session(*(Message.user(f"message {i}") for i in range(5000)))
    index = SearchIndex(session)
    assert len(index.find("message") or []) == 5000
    gc.collect()
    walked = [
        o
        for o in gc.get_objects()
        if isinstance(o, (list, tuple)) and len(o) >= 5000 and all(type(x) is str for x in o)
    ]
    assert walked == []


def test_analyses_are_made_with_collections_paused_and_set_aside_from_them() -> None:
    """The analysis worker makes a history's analyses (millions of objects at a million
    messages) with automatic collections paused, and sets them aside from the collector
    before they resume: a full collection would otherwise walk them all, in whichever thread
    set it off."""
    session = Session.from_conversations(load(DEMO))
    seen: list[bool] = []
    assert gc.isenabled()
    results = session.analysis(lambda c, messages, links: seen.append(gc.isenabled()))
    assert seen == [False] and gc.isenabled()
    links = results[0][1].links
    assert links.pairs and not any(o is links for o in gc.get_objects())


_DEAD_CYCLES_PROBE = """
import gc, sys
from msgviewer import load
from msgviewer.tui.model import session as session_module, tree_model
from msgviewer.tui.model.session import Session
from msgviewer.tui.model.tree_model import TreeModel
session_module.COUNT_EVERY = 4
tree_model.FREEZE_ROWS = 1
session = Session.from_conversations(load(sys.argv[1]))
session.analyse()
model = TreeModel(session)
for _ in range(24):
    cycles = [[] for _ in range(gc.get_freeze_count() // 5 + 1000)]
    for cycle in cycles:
        cycle.append(cycle)
    if sys.argv[2] == "analyses":
        session.analyse()  # freezes the new analyses, and the cycles with them
    else:
        model.collapse_all()  # freezes the rows made anew, and the cycles with them
    del cycles, cycle
frozen = gc.get_freeze_count()
gc.unfreeze()
print(gc.collect(), frozen)
"""


@pytest.mark.parametrize("frozen_by", ["analyses", "rebuilds"])
def test_freezing_again_and_again_does_not_keep_dead_cycles_without_end(frozen_by: str) -> None:
    # Freezing takes whatever lives at that moment; what of it later dies in cycles only a
    # whole collection finds. Analyses stored again and again (an edit each), or views made
    # anew again and again with no analysis between (a user collapsing all, never editing),
    # must not let such garbage grow without end. Here each round leaves garbage of a fifth of
    # what is frozen: kept forever, 24 rounds make 99% of the frozen objects garbage; collected
    # once the frozen set grows by a quarter (rebuilds count it every few times), it stays
    # under 60%. In a process of its own: what earlier tests froze would count too.
    out = subprocess.run(
        [sys.executable, "-c", _DEAD_CYCLES_PROBE, str(DEMO), frozen_by],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    dead, frozen = (int(x) for x in out.split())
    assert dead < frozen * 2 / 3


def test_a_server_call_that_ran_is_labelled_ran_not_unanswered() -> None:
    from msgviewer import ServerToolCallBlock
    from msgviewer.tui.model.labels import RowLabels

    searched = ServerToolCallBlock(None, "web_search", {}, extra={"status": "completed"})
    failed = ServerToolCallBlock("ws_2", "web_search", {}, extra={"status": "failed"})
    waiting = ServerToolCallBlock("ws_3", "web_search", {}, extra={"status": "in_progress"})
    session = _session(Message.user("news?"), Message.assistant((searched, failed, waiting)))
    session.analyse()
    model = TreeModel(session)
    model.expand(1)
    labels = RowLabels(model)
    badges = [
        "".join(text for text, _ in labels.left_right(row)[1])
        for row in model.rows
        if row[0] == BLOCK and row[2] == 1
    ]
    assert badges == ["✓ ran ", "✗ failed ", "… no result "]
