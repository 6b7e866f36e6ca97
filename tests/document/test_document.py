"""Document: edits, undo/redo, the dirty flag, atomic saves and changes on disk."""

from __future__ import annotations

import dataclasses
import os

import pytest

from msgviewer.core import Message, MsgviewerError, ToolCall
from msgviewer.core.errors import InvalidMessageError
from msgviewer.core.lint import lint
from msgviewer.document import Document, DocumentError, FileChangedError
from msgviewer.formats import Conversation, dump, load


def history() -> list[Message]:
    return [
        Message.system("You are terse."),
        Message.user("List /tmp", id="m1"),
        Message.assistant("", tool_calls=[ToolCall("c1", "ls", {"path": "/tmp"})], id="m2"),
        Message.tool("a.txt\nb.txt", tool_call_id="c1", name="ls"),
        Message.assistant("Two files.", id="m3"),
    ]


def conversation() -> Conversation:
    return Conversation(tuple(history()), "msgviewer", {"model": "gpt-4o"}, "ls session")


def append(text: str):
    return lambda ms: [*ms, Message.user(text)]


def test_new_document_is_clean() -> None:
    doc = Document(conversation())
    assert doc.messages == tuple(history())
    assert not doc.dirty and not doc.can_undo and not doc.can_redo
    assert doc.undo() is None and doc.redo() is None
    assert doc.conversation.metadata == {"model": "gpt-4o"}


def test_document_from_a_list_of_messages() -> None:
    doc = Document(history())
    assert doc.conversation.messages == tuple(history())
    with pytest.raises(InvalidMessageError):
        Document([*history(), "not a message"])  # type: ignore[list-item]


def test_undo_and_redo_across_several_edits() -> None:
    doc = Document(conversation())
    states = [doc.messages]
    doc.edit(append("one"), "add one")
    states.append(doc.messages)
    doc.edit(lambda ms: ms[1:], "drop system")
    states.append(doc.messages)
    doc.edit(
        lambda ms: [
            dataclasses.replace(m, content=m.text.upper()) if m.role == "user" else m for m in ms
        ],
        "shout",
    )
    states.append(doc.messages)
    assert doc.history == ("add one", "drop system", "shout")
    assert doc.messages[0].content == "LIST /TMP"
    assert doc.conversation.messages == doc.messages
    assert doc.undo() == "shout" and doc.messages == states[2]
    assert doc.undo() == "drop system" and doc.messages == states[1]
    assert doc.redo_history == ("drop system", "shout")
    assert doc.redo() == "drop system" and doc.messages == states[2]
    assert doc.undo() == "drop system"
    assert doc.undo() == "add one" and doc.messages == states[0]
    assert doc.undo() is None and not doc.can_undo
    assert doc.redo() == "add one" and doc.redo() == "drop system" and doc.redo() == "shout"
    assert doc.messages == states[3] and not doc.can_redo


def test_an_edit_of_the_whole_conversation_changes_title_and_request_fields(tmp_path) -> None:
    path = tmp_path / "c.json"
    dump(conversation(), path)
    [doc] = Document.load(path)

    def rename(conv: Conversation) -> Conversation:
        messages = [*conv.messages[:-1], Message.assistant("2 files.")]
        return dataclasses.replace(
            conv, messages=messages, title="renamed", metadata={"model": "gpt-4.1"}
        )

    assert doc.edit_conversation(rename, "rename")
    assert doc.dirty and doc.history == ("rename",)
    assert (doc.conversation.title, doc.conversation.metadata) == ("renamed", {"model": "gpt-4.1"})
    assert doc.messages[-1].text == "2 files."
    doc.undo()
    assert not doc.dirty
    assert doc.conversation == load(path)[0]
    doc.redo()
    doc.save()
    [again] = load(path)
    assert (again.title, again.metadata["model"]) == ("renamed", "gpt-4.1")
    assert again.messages[-1].text == "2 files."
    # the title alone is an edit; the same conversation back is none
    assert doc.edit_conversation(lambda c: dataclasses.replace(c, title="third"), "retitle")
    assert not doc.edit_conversation(lambda c: c, "nothing")
    assert doc.history == ("rename", "retitle")
    with pytest.raises(InvalidMessageError):
        doc.edit_conversation(lambda c: list(c.messages), "wrong")  # type: ignore[arg-type,return-value]


def test_a_new_edit_clears_redo() -> None:
    doc = Document(conversation())
    doc.edit(append("one"), "one")
    doc.undo()
    doc.edit(append("two"), "two")
    assert not doc.can_redo and doc.history == ("two",)
    assert doc.messages[-1].content == "two"


def test_edit_that_changes_nothing_is_not_recorded() -> None:
    doc = Document(conversation())
    assert doc.edit(lambda ms: ms, "nothing") is False
    assert not doc.can_undo and not doc.dirty


def test_each_edit_undo_and_redo_says_which_messages_it_replaced() -> None:
    """``last_change`` is the span an edit, undo or redo replaced, found by identity: a
    message that still compares equal (``1`` become ``True``) is a change."""
    doc = Document(conversation())
    assert doc.last_change is None
    doc.edit(lambda ms: [*ms[:1], *ms[2:]], "drop 1")
    assert doc.last_change == (1, 1, 0)
    doc.undo()
    assert doc.last_change == (1, 0, 1)
    doc.redo()
    assert doc.last_change == (1, 1, 0)
    doc.edit(lambda ms: [*ms[:2], Message.user("a"), Message.user("b"), *ms[2:]], "two in")
    assert doc.last_change == (2, 0, 2)
    first = doc.messages[0]
    same_value = dataclasses.replace(first, metadata={"n": 1})
    doc.edit(lambda ms: [same_value, *ms[1:]], "n 1")
    assert doc.edit(lambda ms: [dataclasses.replace(ms[0], metadata={"n": True}), *ms[1:]], "n")
    assert doc.last_change == (0, 1, 1) and doc.messages[0].metadata["n"] is True
    with pytest.raises(InvalidMessageError, match="at position 3"):
        doc.edit(lambda ms: [*ms[:3], "not a message", *ms[3:]], "bad")  # type: ignore[list-item]


def test_many_undo_steps() -> None:
    doc = Document(conversation())
    for i in range(1500):
        doc.edit(append(str(i)), f"add {i}")
    assert len(doc.messages) == 5 + 1500
    for _ in range(1500):
        assert doc.undo() is not None
    assert doc.messages == tuple(history()) and not doc.dirty


def test_failed_edit_leaves_the_document_unchanged() -> None:
    doc = Document(conversation())
    doc.edit(append("one"), "one")
    before = doc.messages

    def boom(ms):
        ms.clear()
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        doc.edit(boom, "boom")
    with pytest.raises(InvalidMessageError, match="bad"):
        doc.edit(lambda ms: [*ms, {"role": "user"}], "bad")
    with pytest.raises(InvalidMessageError):
        doc.edit(lambda ms: None, "none")  # type: ignore[arg-type,return-value]
    assert doc.messages == before and doc.history == ("one",)


def test_dirty_follows_the_saved_state(tmp_path) -> None:
    path = tmp_path / "c.json"
    doc = Document(conversation(), path, "msgviewer")
    doc.edit(append("one"), "one")
    assert doc.dirty
    doc.undo()
    assert not doc.dirty
    doc.redo()
    doc.save()
    assert not doc.dirty
    doc.edit(append("two"), "two")
    assert doc.dirty
    doc.undo()
    assert not doc.dirty  # back to what is on disk
    doc.undo()
    assert doc.dirty  # older than what is on disk


def test_save_round_trip(tmp_path) -> None:
    path = tmp_path / "session.json"
    dump(conversation(), path)
    (doc,) = Document.load(path)
    assert doc.format == "msgviewer" and doc.path == str(path)
    doc.edit(append("and /var?"), "ask more")
    doc.save()
    (conv,) = load(path)
    assert conv.messages == doc.messages
    assert conv.title == "ls session" and conv.metadata == {"model": "gpt-4o"}
    (again,) = Document.load(path)
    assert again.messages == doc.messages and not again.dirty


def test_save_without_a_path_is_refused(tmp_path) -> None:
    doc = Document(conversation())
    with pytest.raises(DocumentError, match="path"):
        doc.save()
    doc.save(tmp_path / "new.json")
    assert doc.path == str(tmp_path / "new.json") and doc.format == "msgviewer"
    assert load(tmp_path / "new.json")[0].messages == doc.messages


def test_interrupted_save_leaves_the_original_byte_identical(tmp_path, monkeypatch) -> None:
    path = tmp_path / "session.json"
    dump(conversation(), path)
    original = path.read_bytes()
    (doc,) = Document.load(path)
    doc.edit(append("unsaved"), "add")

    def fail(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        doc.save()
    assert path.read_bytes() == original
    assert os.listdir(tmp_path) == ["session.json"]  # no temporary file left behind
    assert doc.dirty
    monkeypatch.undo()
    doc.save()  # the failed save did not poison the document
    assert load(path)[0].messages == doc.messages


def test_interrupted_write_leaves_the_original_byte_identical(tmp_path, monkeypatch) -> None:
    path = tmp_path / "session.json"
    dump(conversation(), path)
    original = path.read_bytes()
    (doc,) = Document.load(path)
    doc.edit(append("unsaved"), "add")
    real_fsync = os.fsync

    def fail(fd):
        real_fsync(fd)
        raise OSError("I/O error")

    monkeypatch.setattr(os, "fsync", fail)
    with pytest.raises(OSError):
        doc.save()
    assert path.read_bytes() == original
    assert os.listdir(tmp_path) == ["session.json"]


def test_change_on_disk_is_detected(tmp_path) -> None:
    path = tmp_path / "session.json"
    dump(conversation(), path)
    (doc,) = Document.load(path)
    doc.edit(append("mine"), "mine")
    assert not doc.changed_on_disk()
    # Someone else rewrites the file (an editor saving atomically, say).
    dump(Conversation((Message.user("theirs"),)), path)
    theirs = path.read_bytes()
    assert doc.changed_on_disk()
    with pytest.raises(FileChangedError, match="changed on disk") as info:
        doc.save()
    assert isinstance(info.value, MsgviewerError)
    assert path.read_bytes() == theirs
    doc.save(force=True)
    assert load(path)[0].messages == doc.messages
    assert not doc.changed_on_disk()
    doc.edit(append("more"), "more")
    doc.save()  # our own save is not a change by someone else


def test_in_place_append_is_a_change_on_disk(tmp_path) -> None:
    path = tmp_path / "session.json"
    dump(conversation(), path)
    (doc,) = Document.load(path)
    with open(path, "ab") as fh:
        fh.write(b"\n")
    with pytest.raises(FileChangedError):
        doc.save()


def test_documents_of_one_file_save_together(tmp_path) -> None:
    path = tmp_path / "many.jsonl"
    first = Conversation((Message.user("first"),), "msgviewer")
    second = Conversation((Message.user("second"),), "msgviewer")
    dump([first, second], path)
    a, b = Document.load(path)
    a.edit(append("a2"), "a2")
    b.edit(append("b2"), "b2")
    a.save()
    assert not a.dirty and not b.dirty  # both were written
    texts = [[m.text for m in c.messages] for c in load(path)]
    assert texts == [["first", "a2"], ["second", "b2"]]
    b.edit(append("b3"), "b3")
    b.save()  # a sibling's save is not a change on disk
    assert [m.text for m in load(path)[1].messages] == ["second", "b2", "b3"]


def test_save_as_another_path_writes_only_this_conversation(tmp_path) -> None:
    path = tmp_path / "many.jsonl"
    dump([Conversation((Message.user("x"),)), Conversation((Message.user("y"),))], path)
    a, _ = Document.load(path)
    a.save(tmp_path / "x.json")
    assert [c.messages[0].text for c in load(tmp_path / "x.json")] == ["x"]
    assert a.path == str(tmp_path / "x.json")


def test_lint_fix_through_a_document() -> None:
    messages = history()
    del messages[3]  # c1 is never answered
    doc = Document(messages)
    (problem,) = [p for p in lint(doc.messages) if p.code == "unanswered-call"]
    doc.edit(problem.fix.apply, problem.fix.label)  # type: ignore[union-attr]
    assert lint(doc.messages) == []
    assert doc.history == (problem.fix.label,)  # type: ignore[union-attr]
    doc.undo()
    assert doc.messages == tuple(messages)
