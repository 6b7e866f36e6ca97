"""The app's edit history, headless: undo and redo across conversations, rows kept in step."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from msgviewer import Message, load
from msgviewer.core.edits import (
    Part,
    delete_parts,
    duplicate_message,
    insert_message,
    replace_message,
)
from msgviewer.core.spans import changed_span
from msgviewer.formats import Conversation
from msgviewer.tui.model.history import EditHistory
from msgviewer.tui.model.rows import Filter
from msgviewer.tui.model.session import Session
from msgviewer.tui.model.tree_model import TreeModel

from ...core.test_edits import _run
from ..conftest import DEMO


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
        model.splice(0, change.start, change.old_count, change.new_count, change.replaced)
        spliced = list(model.rows)
        model.rebuild()
        assert spliced == model.rows
