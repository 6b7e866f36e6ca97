"""Edits that say where they change (``Spanned``): what a Document finds inside the span is
what a comparison of the whole history finds, for every edit the app makes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from msgviewer import Document, Message, link_tools
from msgviewer.core import edits
from msgviewer.core.spans import Spanned, changed_span

from ..strategies import histories


def _edits(history: list[Message], data: st.DataObject) -> list[edits.EditFn]:
    """Every edit builder of the app, at places drawn in ``history``."""
    n = len(history)
    i = data.draw(st.integers(0, n - 1), label="index")
    links = link_tools(history)
    made = [
        edits.replace_message(i, Message.user("replaced")),
        edits.update_message(i, lambda m: Message.assistant(m.text + "!")),
        edits.insert_message(data.draw(st.integers(0, n), label="at"), Message.user("new")),
        edits.duplicate_message(i),
        edits.delete_parts([edits.Part("message", i)]),
        edits.replace_keeping_links(links, i, Message.user("plain now")),
    ]
    for ref in links.calls_in(i):
        part = edits.part_of_call(ref)
        made.append(edits.delete_parts([part, *edits.partners(links, part)]))
        if not ref.server and not ref.invalid:
            made.append(edits.rename_call(ref, links.result_of(ref), "renamed_id"))
    for ref in links.results_in(i):
        part = edits.part_of_result(ref)
        made.append(edits.delete_parts([part, *edits.partners(links, part)]))
    return made


@settings(max_examples=60, deadline=None)
@given(histories(max_turns=4).filter(bool), st.data())
def test_an_edit_changes_nothing_outside_the_span_it_names(
    history: list[Message], data: st.DataObject
) -> None:
    for fn in _edits(history, data):
        assert isinstance(fn, Spanned)
        old = tuple(history)
        new = tuple(fn(list(history)))
        assert fn.changed(old, new) == changed_span(old, new)


@settings(max_examples=30, deadline=None)
@given(histories(max_turns=4).filter(bool), st.data())
def test_a_document_records_a_spanned_edit_as_it_does_the_plain_one(
    history: list[Message], data: st.DataObject
) -> None:
    for fn in _edits(history, data):
        assert isinstance(fn, Spanned)
        spanned, plain = Document(history), Document(history)
        assert spanned.edit(fn, "edit") == plain.edit(fn.fn, "edit")
        assert spanned.messages == plain.messages
        assert spanned.last_change == plain.last_change
        spanned.undo()
        assert spanned.messages == tuple(history)


def test_a_span_that_does_not_fit_is_compared_whole() -> None:
    history = [Message.user(str(k)) for k in range(5)]
    last = Message.user("last")

    def put_last(messages: list[Message]) -> list[Message]:
        messages[-1] = last
        return messages

    for start, stop in ((-1, 0), (4, 9), (3, 2)):
        doc = Document(history)
        assert doc.edit(Spanned(start, stop, put_last), "edit")
        assert doc.last_change == (4, 1, 1) and doc.messages[-1] is last
    # shrunk by more than the span holds: a delete of two messages named as one
    doc = Document(history)
    assert doc.edit(Spanned(1, 2, lambda m: m[:1] + m[3:]), "delete")
    assert doc.last_change == (1, 2, 0)


@settings(max_examples=30, deadline=None)
@given(histories(max_turns=4).filter(bool), st.data())
def test_edits_undone_and_redone_in_turn_give_each_version_back(
    history: list[Message], data: st.DataObject
) -> None:
    """Spanned edits change the list the document keeps for them in place; plain edits,
    undo and redo come between: every version is still the one each step made."""
    doc = Document(history)
    versions = [doc.messages]
    for _ in range(4):
        if not doc.messages:
            break
        fn = data.draw(st.sampled_from(_edits(list(doc.messages), data)), label="edit")
        plain = data.draw(st.booleans(), label="plain")
        expected = tuple(fn(list(doc.messages)))
        if doc.edit(fn.fn if plain else fn, "edit"):
            versions.append(doc.messages)
        assert doc.messages == expected
        if len(versions) > 1 and data.draw(st.booleans(), label="undo and redo"):
            doc.undo()
            assert doc.messages == versions[-2]
            doc.redo()
            assert doc.messages == versions[-1]
    while doc.undo() is not None:
        versions.pop()
        assert doc.messages == versions[-1]
    assert doc.messages == tuple(history)
