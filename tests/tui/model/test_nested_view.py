"""The results-under-calls view of the tree, headless: where rows go, and that finding,
searching, pairing and editing work in it as in file order."""

from __future__ import annotations

import dataclasses
import gc
import itertools
from types import SimpleNamespace

import pytest

from bench.generate import generate
from msgviewer import Message, ToolCall, load
from msgviewer.core.blocks import ToolCallBlock, ToolResultBlock
from msgviewer.core.edits import (
    EditRefused,
    Part,
    delete_parts,
    duplicate_message,
    editable_text,
    insert_message,
    replace_message,
    update_message,
    with_text,
)
from msgviewer.core.links import link_tools
from msgviewer.formats import Conversation
from msgviewer.tui.model.carried_nesting import MAX_DEPTH, carried
from msgviewer.tui.model.history import EditHistory
from msgviewer.tui.model.labels import RowLabels
from msgviewer.tui.model.navigation import partner
from msgviewer.tui.model.nested_edits import REMADE_AT_MOST
from msgviewer.tui.model.result_nesting import ResultNesting, nest_results
from msgviewer.tui.model.rows import ARTIFACT, BLOCK, CALL, LINE, MSG, Filter
from msgviewer.tui.model.search import SearchIndex, locate
from msgviewer.tui.model.session import TOOL_RESULT, Session
from msgviewer.tui.model.tree_model import TreeModel

from ..conftest import DEMO, SAMPLES

ANTHROPIC = SAMPLES / "anthropic-agent.json"
CLAUDE_CODE = SAMPLES / "claude-code-session.jsonl"
INSPECT = SAMPLES / "inspect-eval.json"  # (two samples: a conversation each)


def _model(*convs: Conversation) -> TreeModel:
    session = Session.from_conversations(list(convs))
    session.analyse()
    return TreeModel(session)


def _loaded(path) -> TreeModel:  # type: ignore[no-untyped-def]
    return _model(*load(path))


def _odd_run() -> Conversation:
    """A run with an orphan result, a result written before its call, and an error."""
    return Conversation(
        (
            Message.user("go"),
            Message.assistant("", tool_calls=[ToolCall("a", "read", {"p": "x"})]),
            Message.tool("contents of x", tool_call_id="a"),
            Message.tool("nobody asked", tool_call_id="nope"),
            Message.tool("early bird", tool_call_id="late"),
            Message.assistant("", tool_calls=[ToolCall("late", "write", {})]),
            Message.assistant("", tool_calls=[ToolCall("b", "run", {})]),
            Message.tool("Traceback: boom", tool_call_id="b", is_error=True),
            Message.assistant("done"),
        )
    )


def _top(model: TreeModel) -> list[int]:
    """Message numbers of the top-level message rows, in order."""
    return [r[2] for r in model.rows if r[0] == MSG and r[5] == 0]


def _under(model: TreeModel, pos: int) -> list[tuple[int, int, int]]:
    """(kind, message, index) of the rows directly under the row at ``pos``."""
    depth = model.rows[pos][5]
    out = []
    for row in model.rows[pos + 1 :]:
        if row[5] <= depth:
            break
        if row[5] == depth + 1:
            out.append((row[0], row[2], row[3]))
    return out


def test_tool_messages_sit_under_the_calls_that_asked_for_them() -> None:
    model = _loaded(DEMO)
    messages = model.session.convs[0].messages
    tool_msgs = [m for m, msg in enumerate(messages) if msg.role == "tool"]
    assert not set(tool_msgs) & set(_top(model))  # they moved...
    assert _top(model) == [m for m in range(len(messages)) if m not in tool_msgs]
    # ...under their calls: message 2 opens on its two parallel calls, each with its result
    pos = model.rows.index((CALL, 0, 2, 0, 0, 1))
    assert _under(model, pos) == [(MSG, 3, 0)]
    pos = model.rows.index((CALL, 0, 2, 1, 0, 1))
    assert _under(model, pos) == [(MSG, 4, 0)]
    # every call with a result shows it; each result shows once
    results = [r[2] for r in model.rows if r[0] == MSG and r[2] in tool_msgs]
    assert sorted(results) == tool_msgs


def test_result_blocks_sit_under_call_blocks_and_their_message_goes() -> None:
    model = _loaded(ANTHROPIC)
    messages = model.session.convs[0].messages
    # message 3 holds only the results of message 2's three calls: it has no row of its own
    assert all(b.type == "tool_result" for b in messages[3].blocks)
    assert 3 not in _top(model)
    calls = [b for b, block in enumerate(messages[2].blocks) if block.type == "tool_call"]
    for n, b in enumerate(calls):
        pos = model.rows.index((BLOCK, 0, 2, b, 0, 1))
        assert _under(model, pos) == [(BLOCK, 3, n)]
    # message 5 holds a result and the user's question: it keeps its row, less the result
    assert 5 in _top(model)
    assert [b.type for b in messages[5].blocks] == ["tool_result", "text"]
    pos = model.reveal_message(0, 5)
    assert pos is not None
    model.expand(pos)
    assert _under(model, pos) == [(BLOCK, 5, 1)]
    assert model.rows.count((BLOCK, 0, 5, 0, 0, 2)) == 1  # the result: under its call only


def test_what_a_harness_kept_of_a_result_follows_it_when_its_message_has_no_row() -> None:
    # Claude Code writes each result in a user message of its own, with the tool's own
    # record of it (toolUseResult) as the message's artifact
    model = _loaded(SAMPLES / "claude-code-session.jsonl")
    messages = model.session.convs[0].messages
    kept = [m for m, msg in enumerate(messages) if msg.artifacts]
    assert kept and not set(kept) & set(_top(model))
    labels = RowLabels(model)
    for m in kept:
        [b] = [b for b, block in enumerate(messages[m].blocks) if block.type == "tool_result"]
        result = next(r for r in model.rows if r[:4] == (BLOCK, 0, m, b))
        pos = model.rows.index(result)
        after = next(r for r in model.rows[pos + 1 :] if r[5] <= result[5])  # past its lines
        assert after == (ARTIFACT, 0, m, 0, 0, result[5])
        left, _ = labels.left_right(after)
        assert left
    # in file order they are under their message
    model.set_nested_view(False)
    for m in kept:
        pos = model.reveal_message(0, m)
        assert pos is not None
        model.expand(pos)
        assert (ARTIFACT, m, 0) in _under(model, pos)


def test_orphans_and_results_before_their_call_stay_where_they_are() -> None:
    model = _model(_odd_run())
    assert _top(model) == [0, 1, 3, 4, 5, 6, 8]
    assert _under(model, model.rows.index((CALL, 0, 1, 0, 0, 1))) == [(MSG, 2, 0)]
    assert _under(model, model.rows.index((CALL, 0, 6, 0, 0, 1))) == [(MSG, 7, 0)]
    assert (CALL, 0, 5, 0, 0, 1) not in model.rows  # its result came first: nothing to open


def test_errors_are_marked_on_the_call_and_the_result() -> None:
    model = _model(_odd_run())
    labels = RowLabels(model)
    call = model.rows.index((CALL, 0, 6, 0, 0, 1))
    _, right = labels.left_right(model.rows[call])
    assert ("✗ #7 ", "error") in right
    _, right = labels.left_right(model.rows[call + 1])
    assert ("✗ #6 ", "error") in right
    _, right = labels.left_right(model.rows[model.rows.index((MSG, 0, 3, 0, 0, 0))])
    assert ("↩ no call ", "warn") in right  # the orphan


@pytest.mark.parametrize("nested", [True, False])
@pytest.mark.parametrize("path", [DEMO, ANTHROPIC])
def test_every_message_can_be_gone_to_in_both_views(path, nested: bool) -> None:  # type: ignore[no-untyped-def]
    model = _loaded(path)
    model.set_nested_view(nested)
    messages = model.session.convs[0].messages
    for m in range(len(messages)):
        pos = model.reveal_message(0, m)
        assert pos is not None and model.rows[pos][2] == m
        parent = model.parent(pos)
        if nested and messages[m].role == "tool":
            assert model.rows[parent][0] == CALL  # found under its call
        elif model.rows[pos][0] == MSG:
            assert parent is None


@pytest.mark.parametrize("nested", [True, False])
def test_t_goes_from_a_call_to_its_result_and_back_in_both_views(nested: bool) -> None:
    for model in (_loaded(DEMO), _loaded(ANTHROPIC)):
        model.set_nested_view(nested)
        links = model.session.convs[0].links
        for call, result in links.pairs:
            kind = BLOCK if call.block_index is not None else CALL
            idx = call.block_index if kind == BLOCK else call.call_index
            cpos = model.reveal(kind, 0, call.message_index, idx)
            target = partner(model, model.rows[cpos])
            assert target is not None
            rpos = model.reveal(*target)
            assert model.rows[rpos][2] == result.message_index
            if nested and result.message_index > call.message_index:
                assert model.parent(rpos) == model.reveal(kind, 0, call.message_index, idx)
            back = partner(model, model.rows[rpos])
            assert back == (kind, 0, call.message_index, idx)


@pytest.mark.parametrize("nested", [True, False])
def test_a_search_lands_on_the_line_of_a_tool_output_in_both_views(nested: bool) -> None:
    model = _loaded(DEMO)
    model.set_nested_view(nested)
    (hit,) = SearchIndex(model.session).find("short test summary")
    message = model.session.convs[0].messages[hit[1]]
    kind, idx, line = locate(message, "short test summary")
    pos = model.reveal(kind, *hit, idx, line)
    row = model.rows[pos]
    assert row[0] == LINE and row[2] == hit[1]
    assert "short test summary" in message.blocks[idx].text.splitlines()[row[4]]
    ancestors = []
    while pos is not None:
        ancestors.append(model.rows[pos][0])
        pos = model.parent(pos)
    assert ancestors[-1] == MSG and (CALL in ancestors) == nested


def test_a_filter_hiding_calls_puts_results_back_in_file_order() -> None:
    model = _loaded(DEMO)
    messages = model.session.convs[0].messages
    model.set_filter(Filter(roles=frozenset({"user", "tool"})))
    assert _top(model) == [m for m, msg in enumerate(messages) if msg.role in ("user", "tool")]
    model.set_filter(Filter(categories=TOOL_RESULT))  # (message 9 holds a server result)
    assert _top(model) == [m for m, msg in enumerate(messages) if msg.role == "tool" or m == 9]
    model.set_filter(Filter(roles=frozenset({"assistant", "system", "user"})))
    assert not [r for r in model.rows if r[2] < len(messages) and messages[r[2]].role == "tool"]


def test_switching_views_and_back_gives_the_same_rows() -> None:
    model = _loaded(DEMO)
    nested = list(model.rows)
    model.set_nested_view(False)
    assert [r[:3] for r in model.rows] == [(MSG, 0, m) for m in range(15)]
    model.set_nested_view(True)
    assert model.rows == nested


def test_collapse_all_closes_the_messages_the_view_opens() -> None:
    model = _loaded(DEMO)
    assert len(model.rows) > 15
    model.collapse_all()
    assert [r[0] for r in model.rows] == [MSG] * len(_top(model))
    pos = model.reveal_message(0, 3)  # going to a result opens its call again
    assert model.rows[pos][:3] == (MSG, 0, 3) and model.rows[model.parent(pos)][0] == CALL


def _edits() -> list:  # type: ignore[type-arg]
    return [
        ("delete a result", delete_parts([Part("message", 3)])),
        ("insert before a call", insert_message(2, Message.user("wait"))),
        ("duplicate a call", duplicate_message(5)),
        ("delete a call and its result", delete_parts([Part("message", 7), Part("message", 8)])),
    ]


def _fresh_rows(model: TreeModel) -> list:  # type: ignore[type-arg]
    """The rows a model made now from the same session and expansion state would show."""
    fresh = TreeModel(model.session)
    fresh.nested_view = model.nested_view
    fresh._expanded, fresh._collapsed = set(model._expanded), set(model._collapsed)
    fresh._all_messages = dict(model._all_messages)
    fresh.rebuild()
    return fresh.rows


@pytest.mark.parametrize("every", ["collapse_all", "expand_all"])
@pytest.mark.parametrize("nested", [True, False])
def test_every_message_opened_or_closed_stays_so_across_edits(nested: bool, every: str) -> None:
    """Expand all and collapse all hold for the messages an edit makes too, and keep no node
    of each message (an edit would move every one after it along: 0.3 s at a million)."""
    model = _loaded(DEMO)
    model.set_nested_view(nested)
    getattr(model, every)()
    assert not any(node[0] == MSG for node in model._expanded | model._collapsed)
    history = EditHistory(model.session)
    for label, fn in _edits():
        change = history.edit(0, fn, label)
        assert change is not None
        model.splice(0, change.start, change.old_count, change.new_count, change.replaced)
        model.session.analyse()
        model.refresh_nesting()
        assert model.rows == _fresh_rows(model), label
        if every == "collapse_all":
            assert {r[0] for r in model.rows} == {MSG}
        else:  # every message open: a row under each but the empty ones
            opened = {r[2] for r in model.rows if r[0] != MSG}
            assert len(opened) >= len(model.session.convs[0].messages) // 2


@pytest.mark.parametrize("nested", [True, False])
def test_edits_and_undo_keep_the_rows_right_in_both_views(nested: bool) -> None:
    model = _loaded(DEMO)
    model.set_nested_view(nested)
    session = model.session
    history = EditHistory(session)
    count = len(session.convs[0].messages)
    for label, fn in _edits():
        change = history.edit(0, fn, label)
        assert change is not None
        model.splice(0, change.start, change.old_count, change.new_count, change.replaced)
        # Before the edit is linked again, every message is still there to go to...
        messages = session.convs[0].messages
        for m in range(len(messages)):
            pos = model.reveal_message(0, m)
            assert pos is not None and model.rows[pos][2] == m, (label, m)
        # ...and once linked, the rows are those of a model made afresh.
        session.analyse()
        model.refresh_nesting()
        assert model.rows == _fresh_rows(model), label
    while (change := history.undo()) is not None:
        model.splice(0, change.start, change.old_count, change.new_count, change.replaced)
        session.analyse()
        model.refresh_nesting()
        assert model.rows == _fresh_rows(model)
    assert len(session.convs[0].messages) == count
    model.set_nested_view(not nested)
    assert model.rows == _fresh_rows(model)


def _text_edits(messages: tuple[Message, ...]) -> list[tuple[int, int | None]]:
    """(message, block or None) of every text the editor can change, in each message (but
    empty ones: an empty message holds no block, and given a text holds one)."""
    out = []
    for m, message in enumerate(messages):
        places = [None] if type(message.content) is str else range(len(message.blocks))
        for block in places:
            try:
                if editable_text(message, block):
                    out.append((m, block))
            except EditRefused:
                continue
    return out


def _open_all(model: TreeModel) -> None:
    """Open every message and block whose row is shown, a few levels down."""
    for _ in range(3):
        for pos in range(len(model.rows) - 1, -1, -1):
            row = model.rows[pos]
            if row[0] in (MSG, BLOCK, CALL) and model.expandable(row):
                model.expand(pos)


@pytest.mark.parametrize("path", [DEMO, ANTHROPIC, "generated", "odd run"])
@pytest.mark.parametrize("opened", [False, True], ids=["as loaded", "all open"])
def test_a_text_edited_in_place_keeps_every_result_under_its_call(
    path: object, opened: bool
) -> None:
    """Only the rows showing the edited message are made again: they are those a rebuild
    makes, and once the edit is linked again no result moves."""
    if path == "generated":
        model = _model(Conversation(tuple(generate(120))))
    else:
        model = _model(_odd_run()) if path == "odd run" else _loaded(path)
    if opened:
        _open_all(model)
    session = model.session
    history = EditHistory(session)
    places = _text_edits(session.convs[0].messages)
    assert len(places) > 3
    for m, block in places:
        nest = model._nests[0]
        message = session.convs[0].messages[m]
        longer = editable_text(message, block) + "\nand\nmore\nlines\nnow"
        edit = update_message(m, lambda x, b=block, t=longer: with_text(x, b, t))
        change = history.edit(0, edit, "edit a text")
        assert change is not None and change.replaced == (message,)
        model.splice(0, change.start, change.old_count, change.new_count, change.replaced)
        assert model._nests[0] is nest  # results stay where they were
        assert model.rows == _fresh_rows_nested_as(model), (m, block)
        session.analyse()
        assert not model.refresh_nesting()  # linked again, no result moved
        assert model.rows == _fresh_rows(model), (m, block)


def _fresh_rows_nested_as(model: TreeModel) -> list:  # type: ignore[type-arg]
    """The rows a model made now, its results where ``model`` has them, would show."""
    fresh = TreeModel(model.session)
    fresh._nests = dict(model._nests)
    fresh._expanded, fresh._collapsed = set(model._expanded), set(model._collapsed)
    fresh._all_messages = dict(model._all_messages)
    fresh.rebuild()
    return fresh.rows


def test_an_edit_that_changes_a_link_places_the_results_again() -> None:
    model = _model(_odd_run())
    session = model.session
    history = EditHistory(session)
    nest = model._nests[0]
    renamed = Message.tool("contents of x", tool_call_id="b")
    change = history.edit(0, update_message(2, lambda _: renamed), "relink")
    assert change is not None
    model.splice(0, change.start, change.old_count, change.new_count, change.replaced)
    assert model._nests[0] is not nest  # (not kept: the result may move)
    session.analyse()
    model.refresh_nesting()
    assert model.rows == _fresh_rows(model)
    assert nest.home[(2, -1)] == (CALL, 1, 0)
    assert (2, -1) not in model._nests[0].home  # (it names a call made after it now)


def test_an_edit_that_ends_a_sub_agent_run_makes_the_rows_again() -> None:
    run = Message("user", "look", metadata={"isSidechain": True})
    model = _model(
        Conversation(
            (
                Message.user("go"),
                Message.assistant("", tool_calls=[ToolCall("t1", "Task", {"prompt": "look"})]),
                run,
                Message.tool("found it", tool_call_id="t1"),
                Message.assistant("done"),
            )
        )
    )
    assert model.session.convs[0].nested  # the run sits under its call
    history = EditHistory(model.session)
    plain = Message("user", "look", metadata={})
    change = history.edit(0, update_message(2, lambda _: plain), "not a sidechain")
    assert change is not None and not model.session.convs[0].nested
    model.splice(0, change.start, change.old_count, change.new_count, change.replaced)
    model.session.analyse()
    model.refresh_nesting()
    assert model.rows == _fresh_rows(model)
    assert (MSG, 0, 2, 0, 0, 0) in model.rows  # at the top level now


@pytest.mark.parametrize("edited", [2, 40])
def test_an_edit_of_many_messages_in_place_makes_every_row_again(edited: int) -> None:
    """Unchanged messages in the span cost nothing; past a few changed ones, each looked for
    among the rows, every row is made again (at once, quicker)."""
    model = _model(Conversation(tuple(generate(200))))
    nest = model._nests[0]
    history = EditHistory(model.session)
    places = _text_edits(model.session.convs[0].messages)
    picked = [places[0], places[-1]] if edited == 2 else places[:edited]

    def edit(messages: list[Message]) -> list[Message]:
        for m, block in picked:
            messages[m] = with_text(messages[m], block, editable_text(messages[m], block) + "!")
        return messages

    change = history.edit(0, edit, "edit many")
    assert change is not None and change.old_count > REMADE_AT_MOST
    model.splice(0, change.start, change.old_count, change.new_count, change.replaced)
    assert (model._nests[0] is nest) == (edited == 2)
    model.session.analyse()
    model.refresh_nesting()
    assert model.rows == _fresh_rows(model)


def test_an_edit_dropping_every_pair_puts_the_results_back_in_file_order_at_once() -> None:
    # giving the caller a text changes its blocks: its pair is dropped until linked again,
    # and with it the only one of the conversation
    model = _model(
        Conversation(
            (
                Message.user("go"),
                Message.assistant("", tool_calls=[ToolCall("a", "read", {})]),
                Message.tool("x", tool_call_id="a"),
            )
        )
    )
    session = model.session
    change = EditHistory(session).edit(
        0, update_message(1, lambda m: with_text(m, None, "reading")), "text"
    )
    assert change is not None
    model.splice(0, change.start, change.old_count, change.new_count, change.replaced)
    assert model.nesting(0) is None
    assert model.rows == _fresh_rows_nested_as(model)
    assert [(r[2], r[5]) for r in model.rows if r[0] == MSG] == [(0, 0), (1, 0), (2, 0)]
    session.analyse()
    model.refresh_nesting()
    assert model.rows == _fresh_rows(model)


def _results_of_two_calls(first: str) -> Conversation:
    """Result blocks of two calls in one message, ``first``'s first (what the harness kept of
    them shows under its call), the calls in two messages: an edit dropping one pair leaves
    the other."""
    results = [ToolResultBlock("t1", "one"), ToolResultBlock("t2", "two")]
    return Conversation(
        (
            Message.user("go"),
            Message.assistant([ToolCallBlock("t1", "read", {})]),
            Message.assistant([ToolCallBlock("t2", "read", {})]),
            Message(
                "user",
                results if first == "t1" else results[::-1],
                artifacts=({"stdout": "one"}, {"stdout": "two"}),
            ),
            Message.assistant("done"),
        )
    )


def _history_named(name: object) -> TreeModel:
    if name in ("t1 first", "t2 first"):
        return _model(_results_of_two_calls(str(name)[:2]))
    if name == "generated":
        return _model(Conversation(tuple(generate(120))))
    return _model(_odd_run()) if name == "odd run" else _loaded(name)


def _count_changing_edits(count: int) -> list:  # type: ignore[type-arg]
    """Every message deleted, a message inserted before every one, every message duplicated,
    and runs of three replaced by one."""
    edits: list = []  # type: ignore[type-arg]
    for m in range(count):
        edits.append((f"delete {m}", delete_parts([Part("message", m)])))
        edits.append((f"insert before {m}", insert_message(m, Message.user("wait"))))
        edits.append((f"duplicate {m}", duplicate_message(m)))
    for m in range(0, count - 2, 3):
        edits.append((f"three at {m} as one", _replaced_by_one(m, 3)))
    return edits


def _replaced_by_one(start: int, n: int):  # type: ignore[no-untyped-def]
    def edit(messages: tuple[Message, ...]) -> tuple[Message, ...]:
        return (*messages[:start], Message.user("instead"), *messages[start + n :])

    return edit


@pytest.mark.parametrize("path", [DEMO, ANTHROPIC, CLAUDE_CODE, "generated", "t1 first"])
def test_a_nesting_carried_over_an_edit_of_no_pair_is_the_one_linking_would_make(
    path: object,
) -> None:
    """Deleting, inserting or replacing a message that holds no call or result with results
    under calls: the nesting renumbered over the edit (shown until the edit is linked again)
    places every result where linking the edited messages places it."""
    model = _history_named(path)
    messages = model.session.convs[0].messages
    nest = nest_results(messages, link_tools(messages))
    involved = {cm for _, cm, _ in nest.under} | {rm for rm, _ in nest.home}
    free = [m for m in range(len(messages)) if m not in involved]
    assert free and nest.under  # (the edits below move pairs on both sides of them)
    for m in free:
        for label, start, old, new in (
            ("delete", m, 1, ()),
            ("insert before", m, 0, (Message.user("wait"),)),
            ("two for one", m, 1, (Message.user("a"), Message.user("b"))),
        ):
            edited = (*messages[:start], *new, *messages[start + old :])
            fresh = nest_results(edited, link_tools(edited))
            kept = carried(nest, start, messages[start : start + old], len(new), edited)
            assert _places(kept) == _places(fresh), f"{label} {m}"


def _places(nest: ResultNesting) -> tuple[object, ...]:
    """Everything a nesting says of where results are, as plain values."""
    return (
        bool(nest),
        len(nest.under),
        dict(nest.under),
        dict(nest.home),
        dict(nest.hidden),
        dict(nest.moved),
        set(nest.openers),
    )


def _carried_by_hand(
    messages: tuple[Message, ...],
    pairs: list,
    start: int,
    old: int,
    new: int,  # type: ignore[type-arg]
) -> list:  # type: ignore[type-arg]
    """``pairs`` of ``messages`` after messages ``start:start+old`` became ``new`` others:
    those with an end among them dropped, every other one renumbered (what a nesting carried
    over the edit places)."""

    def at(ref):  # type: ignore[no-untyped-def]
        m = ref.message_index
        return dataclasses.replace(ref, message_index=m if m < start else m + new - old)

    return [
        (at(call), at(result))
        for call, result in pairs
        if not any(start <= ref.message_index < start + old for ref in (call, result))
    ]


@pytest.mark.parametrize(
    "path", [DEMO, ANTHROPIC, CLAUDE_CODE, INSPECT, "generated", "odd run", "t1 first", "t2 first"]
)
def test_a_nesting_carried_over_edits_places_what_is_left_of_the_pairs(path: object) -> None:
    """Deleting, inserting, duplicating or replacing messages, one edit and then another
    before either is linked again: the nesting carried over them (worked out as it is asked,
    from the nesting before) places every result where ``nest_results`` places the pairs
    left (those with an end in an edited message dropped, the rest renumbered)."""
    model = _history_named(path)
    first = model.session.convs[0].messages
    nest = nest_results(first, link_tools(first))
    edits = _count_changing_edits(len(first))
    edits += [(f"replace {m}", replace_message(m, Message.user("new"))) for m in range(len(first))]
    on_top = (delete_parts([Part("message", 0)]), insert_message(3, Message.user("wait")))
    for (label, fn), then in itertools.product(edits, on_top):
        messages, pairs, shown = first, list(nest.links.pairs), nest
        for edit in (fn, then):  # (the second on top of the first, neither linked again)
            edited = tuple(edit(list(messages)))
            start, old, new = _changed_span(messages, edited)
            pairs = _carried_by_hand(messages, pairs, start, old, new)
            shown = carried(shown, start, messages[start : start + old], new, edited)
            expected = nest_results(edited, SimpleNamespace(pairs=pairs))
            assert _places(shown) == _places(expected), label
            messages = edited


def test_a_nesting_carried_over_many_edits_asks_no_deeper_than_a_few() -> None:
    """Edits made faster than the links are made again (a key held on a long history): the
    nesting carried over each asks the one before, so it is made into plain dicts once a few
    are stacked. A thousand edits leave lookups as quick as after a few (before, each asked
    through every edit since, and the thousandth raised ``RecursionError``), and the places
    are still those of the pairs left."""
    messages = tuple(generate(120))
    pairs, shown = list(link_tools(messages).pairs), nest_results(messages, link_tools(messages))
    for n in range(1000):
        start = n % 7
        if n % 2:
            edited = (*messages[:start], Message.user(f"wait {n}"), *messages[start:])
            old, new = 0, 1
        else:
            edited = (*messages[:start], *messages[start + 1 :])
            old, new = 1, 0
        pairs = _carried_by_hand(messages, pairs, start, old, new)
        shown = carried(shown, start, messages[start : start + old], new, edited)
        messages = edited
        assert getattr(shown.under, "depth", 0) <= MAX_DEPTH
        if n % 97 == 0 or n == 999:
            expected = nest_results(messages, SimpleNamespace(pairs=pairs))
            assert _places(shown) == _places(expected), n


def _changed_span(before: tuple[Message, ...], after: tuple[Message, ...]) -> tuple[int, int, int]:
    """(start, old count, new count) of what differs between two histories."""
    start = 0
    while start < min(len(before), len(after)) and before[start] is after[start]:
        start += 1
    end = 0
    while (
        end < min(len(before), len(after)) - start
        and before[len(before) - 1 - end] is after[len(after) - 1 - end]
    ):
        end += 1
    return start, len(before) - start - end, len(after) - start - end


@pytest.mark.parametrize(
    "path",
    [DEMO, ANTHROPIC, CLAUDE_CODE, INSPECT, "generated", "odd run", "t1 first", "t2 first"],
)
@pytest.mark.parametrize("opened", [False, True], ids=["as loaded", "all open"])
def test_an_edit_changing_the_count_makes_only_the_rows_it_touches(
    path: object, opened: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deleting, inserting or replacing messages with results under calls: the rows are those
    a rebuild with the same nesting makes, without a rebuild, and once the edit is linked
    again those of a model made afresh."""
    count = len(_history_named(path).session.convs[0].messages)
    for label, fn in _count_changing_edits(count):
        model = _history_named(path)
        if opened:
            _open_all(model)
        session = model.session
        had_runs = bool(session.convs[0].nested)
        change = EditHistory(session).edit(0, fn, label)
        assert change is not None
        monkeypatch.setattr(model, "rebuild", lambda at=label: pytest.fail(f"{at}: rebuilt"))
        messages = session.convs[0].messages
        kept = carried(model._nests[0], change.start, change.replaced, change.new_count, messages)
        if not kept or had_runs:
            monkeypatch.undo()  # (every pair dropped, or sub-agent runs: every row made again)
        model.splice(0, change.start, change.old_count, change.new_count, change.replaced)
        monkeypatch.undo()
        assert model.rows == _fresh_rows_nested_as(model), label
        session.analyse()
        model.refresh_nesting()
        assert model.rows == _fresh_rows(model), label


@pytest.mark.parametrize("path", [DEMO, ANTHROPIC, CLAUDE_CODE, "generated", "odd run"])
def test_the_results_under_a_call_are_the_results_whose_home_it_is(path: object) -> None:
    """``results_of`` numbers each result by its own message: every one it gives has the call
    as its home, and every result of a pair written after its call is among them."""
    model = _history_named(path)
    data = model.session.convs[0]
    nest = nest_results(data.messages, data.links)
    placed = 0
    for key in nest.under:
        for kind, rm, b in nest.results_of(key):
            assert nest.home[(rm, -1 if kind == MSG else b)] == key
            assert rm >= key[1]
            placed += 1
    assert placed == len(nest.home) > 0


def test_a_nesting_compared_off_the_interface_is_known_the_same_at_once() -> None:
    """The analysis worker compares the nesting it made with the one shown
    (``compare_nesting``): the interface then knows it places every result the same way
    without comparing them again, and the one it was compared with is not kept alive by it."""
    model = _loaded(DEMO)
    data = model.session.convs[0]
    shown = model._nests[0]
    made = nest_results(data.messages, data.links)
    model.compare_nesting(0, made)
    assert made.same_places(shown)
    made.under = {}  # (what it would compare now differs: the comparison made is what counts)
    assert made.same_places(shown)
    assert not made.same_places(nest_results(data.messages, data.links))
    edited = nest_results(data.messages[:6], link_tools(data.messages[:6]))
    edited.compared_with(shown)  # (places some results differently: not known the same)
    assert edited.placed_like is None and not edited.same_places(shown)
    assert edited.placed_unlike is not None and edited.placed_unlike() is shown
    model._nests[0] = made
    del shown
    gc.collect()
    assert made.placed_like is not None and made.placed_like() is None


def test_places_carried_over_an_edit_that_drops_a_pair_are_told_apart_by_their_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A nesting carried over an edit counts its calls at once: one made of links with another
    number of calls is told apart without walking the carried one's places (a walk in Python
    of every call at a million messages, on the interface's thread)."""
    model = _loaded(DEMO)
    data = model.session.convs[0]
    shown = model._nests[0]
    m = next(rm for rm, b in shown.home if b == -1)  # (a tool message: its pair goes with it)
    edited = (*data.messages[:m], *data.messages[m + 1 :])
    kept = carried(shown, m, data.messages[m : m + 1], 0, edited)
    fresh = nest_results(data.messages, data.links)
    monkeypatch.setattr(type(kept.under), "__iter__", lambda self: pytest.fail("walked"))
    assert len(kept.under) != len(fresh.under)
    assert not fresh.same_places(kept) and not kept.same_places(fresh)


def test_an_edit_leaves_the_rows_it_replaced_to_the_analysis_worker() -> None:
    """A count-changing edit hands the rows it replaces to the session's graveyard: the
    analysis worker the edit starts frees them (a fifth of a second at a million messages),
    not the key. The places of results before the edit are not freed either: the nesting
    carried over the edit asks them, and once the links are made again it goes to the
    graveyard too."""
    model = _loaded(DEMO)
    session = model.session
    rows = model.rows
    before = model._nests[0]
    change = EditHistory(session).edit(0, delete_parts([Part("message", 1)]), "delete 1")
    assert change is not None
    model.splice(0, change.start, change.old_count, change.new_count, change.replaced)
    assert model.rows is not rows and any(kept is rows for kept in session.graveyard)
    assert any(held is before.under for held in gc.get_referents(model._nests[0].under))
    session.store(session.analysis())
    assert not session.graveyard
    carried = model._nests[0]  # (and the places before the edit it asks)
    model.refresh_nesting()
    assert model._nests[0] is not carried and any(kept is carried for kept in session.graveyard)
    session.analysis()
    assert not session.graveyard
