"""Saves that skip work because the file is the writer's own output keep the exact-save
promise: the bytes are what the full splice makes, and a file in a layout of its own keeps it
over several saves."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from msgviewer import Document, Message
from msgviewer.formats import Conversation, dumps
from msgviewer.formats.exact import splice


def _history() -> list[Message]:
    return [
        Message.user(f"question {i}") if i % 2 == 0 else Message.assistant(f"answer {i}")
        for i in range(12)
    ]


def _retext(i: int, text: str):
    def fn(msgs: list[Message]) -> list[Message]:
        msgs = list(msgs)
        msgs[i] = replace(msgs[i], content=text)
        return msgs

    return fn


def test_a_file_that_is_the_writers_output_takes_the_new_output() -> None:
    base = dumps(Conversation(tuple(_history()), "openai-chat"), format="openai-chat")
    new = base.replace(b"answer 3", b"changed")
    assert splice(base, base, new) is new


def test_saves_of_the_writers_own_output_match_the_writer(tmp_path: Path) -> None:
    path = tmp_path / "chat.json"
    path.write_bytes(dumps(Conversation(tuple(_history()), "openai-chat"), format="openai-chat"))
    (doc,) = Document.load(path)
    for n, (i, text) in enumerate([(3, "first edit"), (5, "second edit"), (3, "third")]):
        doc.edit(_retext(i, text), f"edit {n}")
        doc.save()
        written = dumps(doc.conversation, format="openai-chat")
        assert path.read_bytes() == written
        assert doc._file.plain


def test_a_file_in_its_own_layout_keeps_it_over_several_saves(tmp_path: Path) -> None:
    path = tmp_path / "chat.json"
    messages = [{"role": m.role, "content": m.text} for m in _history()]
    path.write_text(json.dumps({"messages": messages}, indent=3) + "\n")
    (doc,) = Document.load(path)
    for n, text in enumerate(["first edit", "second edit"]):
        doc.edit(_retext(3, text), f"edit {n}")
        doc.save()
        assert not doc._file.plain
        expected = [dict(m) for m in messages]
        expected[3]["content"] = text
        assert path.read_text() == json.dumps({"messages": expected}, indent=3) + "\n"
