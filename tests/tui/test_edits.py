"""The app's edit functions and edit history, headless: linkage kept, rows kept in step."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from msgviewer import Message, TextBlock, ToolCall, ToolCallBlock, ToolResultBlock, link_tools, load
from msgviewer.formats import Conversation
from msgviewer.tui.edits import (
    Part,
    call_ref,
    delete_parts,
    duplicate_message,
    editable_text,
    insert_message,
    move_unit,
    partners,
    rename_call,
    replace_message,
    unit,
    with_text,
)
from msgviewer.tui.history import EditHistory, changed_span
from msgviewer.tui.session import Session
from msgviewer.tui.tree_model import Filter, TreeModel

from .conftest import DEMO


def _run() -> list[Message]:
    """An OpenAI-style run: two parallel calls answered by tool messages, then a reply."""
    return [
        Message.system("be brief"),
        Message.user("list and count"),
        Message.assistant(
            "",
            tool_calls=(ToolCall("c1", "ls", {"path": "."}), ToolCall("c2", "wc", {"f": "x"})),
        ),
        Message.tool("a b", tool_call_id="c1", name="ls"),
        Message.tool("3", tool_call_id="c2", name="wc"),
        Message.assistant("two files, three lines"),
    ]


def _anthropic_run() -> list[Message]:
    """Calls as blocks, results as blocks of the next user message beside some text."""
    return [
        Message.user("go"),
        Message.assistant((TextBlock("checking"), ToolCallBlock("t1", "ls", {}))),
        Message.user((ToolResultBlock("t1", "a b"), TextBlock("and now?"))),
        Message.assistant("done"),
    ]


def test_deleting_a_call_message_takes_its_results_when_asked() -> None:
    msgs = _run()
    links = link_tools(msgs)
    found = partners(links, Part("message", 2))
    assert found == [Part("message", 3), Part("message", 4)]
    out = delete_parts([Part("message", 2), *found])(list(msgs))
    assert [m.role for m in out] == ["system", "user", "assistant"]
    assert link_tools(out).orphan_results == ()


def test_deleting_a_result_offers_its_call_and_drops_only_that_call() -> None:
    msgs = _run()
    links = link_tools(msgs)
    assert partners(links, Part("message", 4)) == [Part("call", 2, 1)]
    out = delete_parts([Part("message", 4), Part("call", 2, 1)])(list(msgs))
    assert [c.id for c in out[2].tool_calls] == ["c1"]
    links = link_tools(out)
    assert links.unanswered_calls == () and links.orphan_results == ()


def test_deleting_a_call_block_removes_its_result_block_and_keeps_the_text() -> None:
    msgs = _anthropic_run()
    links = link_tools(msgs)
    assert partners(links, Part("block", 1, 1)) == [Part("block", 2, 0)]
    out = delete_parts([Part("block", 1, 1), Part("block", 2, 0)])(list(msgs))
    assert out[1].content == (TextBlock("checking"),)
    assert out[2].content == (TextBlock("and now?"),)
    assert len(out) == 4


def test_removing_a_whole_results_message_drops_it() -> None:
    msgs = _anthropic_run()
    msgs[2] = Message.user((ToolResultBlock("t1", "a b"),))
    out = delete_parts([Part("block", 1, 1), Part("block", 2, 0)])(list(msgs))
    assert [m.role for m in out] == ["user", "assistant", "assistant"]


def test_a_call_message_and_its_results_move_as_one_unit() -> None:
    msgs = _run()
    links = link_tools(msgs)
    assert unit(links, len(msgs), 2) == (2, 5)
    assert unit(links, len(msgs), 4) == (2, 5)  # a result moves with its call
    assert unit(links, len(msgs), 1) == (1, 2)
    up = move_unit(links, len(msgs), (2, 5), -1)
    out = up(list(msgs))
    assert [m.text for m in out][:5] == ["be brief", "", "a b", "3", "list and count"]
    # moving the user message down hops over the whole unit, never into it
    down = move_unit(links, len(msgs), (1, 2), 1)
    out = down(list(msgs))
    assert [m.role for m in out] == ["system", "assistant", "tool", "tool", "user", "assistant"]
    assert link_tools(out).unanswered_calls == ()
    assert move_unit(links, len(msgs), (0, 1), -1) is None


def test_renaming_a_call_id_renames_the_result_that_answers_it() -> None:
    for msgs, at in ((_run(), (2, None, 1)), (_anthropic_run(), (1, 1, None))):
        links = link_tools(msgs)
        call = call_ref(links, *at)
        assert call is not None
        out = rename_call(call, links.result_of(call), "renamed")(list(msgs))
        new_links = link_tools(out)
        assert new_links.result_for("renamed") is not None
        assert new_links.orphan_results == () and new_links.unanswered_calls == ()


def test_text_edits_keep_the_shape() -> None:
    m = Message.user("hello")
    assert with_text(m, None, "bye").content == "bye"
    assert with_text(m, 0, "bye").content == "bye"  # a block row of string content
    tool = Message.user((ToolResultBlock("x", "out"),))
    assert editable_text(tool, 0) == "out"
    assert with_text(tool, 0, "new").content == (ToolResultBlock("x", "new"),)


def test_changed_span_by_identity() -> None:
    a, b, c, d = (Message.user(str(i)) for i in range(4))
    assert changed_span((a, b, c), (a, c)) == (1, 1, 0)
    assert changed_span((a, b, c), (a, b, d, c)) == (2, 0, 1)
    assert changed_span((a, b, c), (a, b, c)) == (3, 0, 0)


def test_history_undo_redo_across_conversations() -> None:
    convs = [Conversation(tuple(_run()), "openai-chat"), Conversation(tuple(_run()), "openai-chat")]
    session = Session.from_conversations(convs)
    history = EditHistory(session)
    history.edit(0, delete_parts([Part("message", 5)]), "delete 5")
    history.edit(1, delete_parts([Part("message", 0)]), "delete 0")
    assert [len(c.messages) for c in session.convs] == [5, 5]
    assert history.undo().conv == 1
    assert [len(c.messages) for c in session.convs] == [5, 6]
    assert history.undo().conv == 0
    assert not history.dirty
    change = history.redo()
    assert (change.conv, change.start, change.old_count, change.new_count) == (0, 5, 1, 0)
    assert history.dirty and history.dirty_files()[0][0] is None


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_splicing_rows_matches_a_rebuild(rnd: random.Random) -> None:
    """After any edit, the spliced rows are the rows a fresh build with the same open
    messages gives."""
    base = load(DEMO)
    session = Session.from_conversations(base)
    history = EditHistory(session)
    model = TreeModel(session)
    if rnd.random() < 0.3:  # hidden messages: the rows after an edit skip message numbers
        model.set_filter(Filter(roles=frozenset({"system", "user", "assistant"})))
    for _ in range(4):
        n = len(session.convs[0].messages)
        pos = rnd.randrange(len(model.rows))
        if rnd.random() < 0.5:
            model.expand(pos)
        i = rnd.randrange(n)
        kind = rnd.choice(["delete", "insert", "text", "dup"])
        if kind == "delete" and n > 1:
            fn = delete_parts([Part("message", i)])
        elif kind == "insert":
            fn = insert_message(i, Message.user("new"))
        elif kind == "dup":
            fn = duplicate_message(i)
        else:
            fn = replace_message(i, Message.user(f"edited {i}"))
        change = history.edit(0, fn, kind)
        if change is None:
            continue
        model.splice(0, change.start, change.old_count, change.new_count)
        spliced = list(model.rows)
        model.rebuild()
        assert spliced == model.rows
