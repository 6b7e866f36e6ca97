"""Saving an edit to a native file writes only the edited messages' records: the bytes are
those the whole-text splice makes (``splice(file, writer(before), writer(after))``), for edits
anywhere, several conversations in one file and files in a layout of their own."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from msgviewer import Document, Message
from msgviewer.core.errors import FormatError
from msgviewer.formats import Conversation, dumps, load
from msgviewer.formats.exact import splice
from msgviewer.formats.registry import get_format

SAMPLES = Path(__file__).resolve().parents[2] / "msgviewer" / "samples"
Edit = Callable[[list[Message]], list[Message]]


def _conversation(name: str = "demo-agent-run.json") -> Conversation:
    [conv] = load(SAMPLES / name)
    return conv


def _extra() -> list[Message]:
    return list(_conversation("diff-new-run.json").messages)


def _quick(original: bytes, bases: Sequence[Conversation], news: Sequence[Conversation]):
    return get_format("msgviewer").splice_edit(original, bases, news)  # type: ignore[misc]


def _whole(original: bytes, bases: list[Conversation], news: list[Conversation]) -> bytes:
    """What a save makes by splicing whole texts (the way taken when the quick one is not)."""
    one = len(bases) == 1
    return splice(
        original,
        dumps(bases[0] if one else bases, format="msgviewer"),
        dumps(news[0] if one else news, format="msgviewer"),
    )


def _retext(i: int, text: str) -> Edit:
    def fn(msgs: list[Message]) -> list[Message]:
        msgs[i] = replace(msgs[i], content=text)
        return msgs

    return fn


def _insert(i: int, count: int = 1) -> Edit:
    def fn(msgs: list[Message]) -> list[Message]:
        msgs[i:i] = _extra()[:count]
        return msgs

    return fn


def _delete(i: int, count: int = 1) -> Edit:
    def fn(msgs: list[Message]) -> list[Message]:
        del msgs[i : i + count]
        return msgs

    return fn


def _two(a: Edit, b: Edit) -> Edit:
    return lambda msgs: b(a(msgs))


EDITS = {
    "first": _retext(0, "a new system prompt"),
    "middle": _retext(7, "edited in the middle"),
    "last": _retext(14, "the last word, edited"),
    "insert-first": _insert(0),
    "insert-middle": _insert(6, 2),
    "insert-last": _insert(15),
    "delete-first": _delete(0),
    "delete-middle": _delete(5, 3),
    "delete-last": _delete(14),
    "two-apart": _two(_retext(3, "third"), _retext(10, "tenth")),
    "replace-with-fewer": _two(_delete(4, 3), _insert(4)),
}


@pytest.mark.parametrize("name", EDITS)
def test_an_edit_saves_what_the_whole_text_splice_makes(name: str, tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_bytes((SAMPLES / "demo-agent-run.json").read_bytes())
    original = path.read_bytes()
    [doc] = Document.load(path)
    base = doc.conversation
    assert doc.edit(EDITS[name], name)
    pieces = _quick(original, [base], [doc.conversation])
    assert pieces is not None  # the quick way takes it
    expected = _whole(original, [base], [doc.conversation])
    assert b"".join(pieces) == expected
    doc.save()
    assert path.read_bytes() == expected == dumps(doc.conversation, format="msgviewer")
    assert load(path) == [doc.conversation]


def test_random_edits_match_the_whole_text_splice() -> None:
    conv = _conversation()
    original = dumps(conv, format="msgviewer")
    extra = _extra()
    rng = random.Random(23)
    for _ in range(300):
        msgs = list(conv.messages)
        for _ in range(rng.randint(1, 3)):
            i = rng.randint(0, len(msgs))
            action = rng.choice(["retext", "insert", "delete"])
            if action == "insert" or not msgs or i == len(msgs):
                msgs[i:i] = rng.sample(extra, rng.randint(1, 3))
            elif action == "delete":
                del msgs[i : i + rng.randint(1, 3)]
            else:
                msgs[i] = replace(msgs[i], content=f"text {rng.random()}")
        new = replace(conv, messages=tuple(msgs))
        pieces = _quick(original, [conv], [new])
        if pieces is None:  # (the edit reached every message)
            continue
        assert b"".join(pieces) == _whole(original, [conv], [new])


def test_repeated_messages_are_told_apart_by_their_place(tmp_path: Path) -> None:
    same = Message.user("again")
    conv = Conversation((Message.system("start"), *[same] * 12), "msgviewer")
    path = tmp_path / "same.json"
    path.write_bytes(dumps(conv, format="msgviewer"))
    [doc] = Document.load(path)
    base = doc.conversation
    doc.edit(_retext(8, "the eighth, changed"), "edit")
    assert _quick(path.read_bytes(), [base], [doc.conversation]) is not None
    doc.save()
    assert [m.text for m in load(path)[0].messages] == ["start"] + ["again"] * 7 + [
        "the eighth, changed"
    ] + ["again"] * 4
    assert path.read_bytes() == dumps(doc.conversation, format="msgviewer")


def test_several_conversations_rewrite_only_the_edited_lines(tmp_path: Path) -> None:
    convs = [
        _conversation(),
        _conversation("diff-fixture.json"),
        _conversation("diff-new-run.json"),
    ]
    path = tmp_path / "runs.jsonl"
    path.write_bytes(dumps(convs, format="msgviewer"))
    original = path.read_bytes()
    docs = Document.load(path)
    bases = [d.conversation for d in docs]
    docs[1].edit(_retext(2, "second conversation, edited"), "edit")
    docs[2].edit(_delete(0), "delete")
    news = [d.conversation for d in docs]
    pieces = _quick(original, bases, news)
    assert pieces is not None
    expected = _whole(original, bases, news)
    assert b"".join(pieces) == expected
    docs[0].save()
    assert path.read_bytes() == expected
    assert path.read_bytes().splitlines()[0] == original.splitlines()[0]
    assert load(path) == news


def test_a_file_in_its_own_layout_keeps_its_unedited_bytes(tmp_path: Path) -> None:
    value = json.loads((SAMPLES / "demo-agent-run.json").read_bytes())
    value["messages"] = [dict(reversed(m.items())) for m in value["messages"]]
    path = tmp_path / "own.json"
    path.write_text(json.dumps(value, indent=4, ensure_ascii=False) + "\n")
    original = path.read_bytes()
    [doc] = Document.load(path)
    base = doc.conversation
    doc.edit(_retext(6, "edited in the middle"), "edit")
    assert _quick(original, [base], [doc.conversation]) is None  # not the writer's layout
    doc.save()
    written = path.read_bytes()
    assert written == _whole(original, [base], [doc.conversation])
    old_text = json.dumps(value["messages"][6]["content"], ensure_ascii=False).encode()
    assert original.count(old_text) == 1
    assert written == original.replace(old_text, b'"edited in the middle"')


def test_a_file_the_writer_did_not_write_elsewhere_keeps_those_bytes(tmp_path: Path) -> None:
    conv = _conversation()
    original = dumps(conv, format="msgviewer")
    # A message far from the edit laid out by hand: the writer would not write it so.
    first = original.index(b'"role": "user"')
    original = original[:first] + b'"role":   "user"' + original[first + 14 :]
    path = tmp_path / "run.json"
    path.write_bytes(original)
    [doc] = Document.load(path)
    base = doc.conversation
    doc.edit(_retext(12, "edited near the end"), "edit")
    assert _quick(original, [base], [doc.conversation]) is not None
    doc.save()
    written = path.read_bytes()
    assert written == _whole(original, [base], [doc.conversation])
    assert b'"role":   "user"' in written


def test_an_edited_title_or_a_whole_new_history_takes_the_whole_text_way(tmp_path: Path) -> None:
    conv = _conversation()
    original = dumps(conv, format="msgviewer")
    assert _quick(original, [conv], [replace(conv, title="another")]) is None
    assert _quick(original, [conv], [replace(conv, messages=tuple(_extra()))]) is None
    path = tmp_path / "run.json"
    path.write_bytes(original)
    [doc] = Document.load(path)
    doc.edit(lambda msgs: _extra(), "replace all")
    doc.save()
    assert path.read_bytes() == dumps(doc.conversation, format="msgviewer")


def test_undone_edits_save_the_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_bytes((SAMPLES / "demo-agent-run.json").read_bytes())
    [doc] = Document.load(path)
    doc.edit(_retext(3, "x"), "edit")
    doc.save()
    doc.undo()
    doc.save()
    assert path.read_bytes() == (SAMPLES / "demo-agent-run.json").read_bytes()


def test_a_value_the_writer_cannot_write_is_reported_as_before(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_bytes((SAMPLES / "demo-agent-run.json").read_bytes())
    [doc] = Document.load(path)
    doc.edit(
        lambda msgs: [*msgs[:5], Message.user("odd", metadata={"tags": {1, 2}}), *msgs[5:]], "add"
    )
    with pytest.raises(FormatError, match="message 5"):
        doc.save()
    assert path.read_bytes() == (SAMPLES / "demo-agent-run.json").read_bytes()
