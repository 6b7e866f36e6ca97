"""Exact saves: saving a file with nothing changed writes its bytes back, and one edit changes
only the edited message's bytes, for every sample and corpus file of a writable format."""

from __future__ import annotations

import dataclasses
import re
import shutil
import warnings
import zipfile
from pathlib import Path

import pytest

import msgviewer
from msgviewer import Document
from msgviewer.cli import main
from msgviewer.core.blocks import TextBlock
from msgviewer.document import FileChangedError
from tests.corpus import CORPUS

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "msgviewer" / "samples"
MARK = " EDITED"


def _files() -> list[Path]:
    found = [p for p in sorted(SAMPLES.rglob("*.*")) if not p.name.endswith(".meta.json")]
    if CORPUS.is_dir():
        found += [p for p in sorted(CORPUS.glob("*/*")) if p.suffix in (".json", ".jsonl", ".eval")]
    return found


def _id(p: Path) -> str:
    return (
        str(p.relative_to(SAMPLES)) if SAMPLES in p.parents else f"corpus/{p.parent.name}/{p.name}"
    )


FILES = [pytest.param(p, id=_id(p)) for p in _files()]


def _copy(path: Path, tmp_path: Path) -> Path:
    target = tmp_path / path.name
    shutil.copyfile(path, target)
    return target


def _load(path: Path) -> list[Document]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        docs = Document.load(path)
    if not docs:
        pytest.skip("the file holds no conversation")
    if not msgviewer.FORMATS[docs[0].format][1]:
        pytest.skip(f"{docs[0].format} is not writable")
    return docs


def _edited(m: msgviewer.Message) -> msgviewer.Message | None:
    """The message with MARK after its text, or else after a string argument of its first tool
    call; None if it has neither to edit. (Not a tool message: in several formats its text is
    made from a structured result, which an edit of the text rewrites.)"""
    if m.role == "tool":
        return None
    c = m.content
    if isinstance(c, str):
        if c.strip():
            return dataclasses.replace(m, content=c + MARK)
    else:
        for i, b in enumerate(c):
            if type(b) is TextBlock and b.text.strip():
                new = dataclasses.replace(b, text=b.text + MARK)
                return dataclasses.replace(m, content=(*c[:i], new, *c[i + 1 :]))
    for k, call in enumerate(m.tool_calls):
        for key, value in call.args.items():
            if isinstance(value, str):
                edited = dataclasses.replace(call, args={**call.args, key: value + MARK})
                calls = (*m.tool_calls[:k], edited, *m.tool_calls[k + 1 :])
                return dataclasses.replace(m, tool_calls=calls)
    return None


def _edit_middle(doc: Document) -> int:
    msgs = doc.messages
    for i in sorted(range(len(msgs)), key=lambda i: abs(i - len(msgs) // 2)):
        if (new := _edited(msgs[i])) is not None:
            doc.edit(lambda ms, i=i, new=new: [*ms[:i], new, *ms[i + 1 :]], "edit text")
            return i
    pytest.skip("no message with text or a string argument to edit")


def _changed(a: bytes, b: bytes) -> tuple[bytes, bytes]:
    """The differing middles of two texts (common head and tail cut off)."""
    p = 0
    limit = min(len(a), len(b))
    while p < limit and a[p] == b[p]:
        p += 1
    q = 0
    while q < limit - p and a[-1 - q] == b[-1 - q]:
        q += 1
    return a[p : len(a) - q], b[p : len(b) - q]


# Zipped logs (Inspect .eval): spliced member by member.
ZIP = ".eval"


@pytest.mark.parametrize("path", FILES)
def test_saving_unchanged_writes_the_same_bytes(path: Path, tmp_path: Path) -> None:
    copy = _copy(path, tmp_path)
    original = copy.read_bytes()
    docs = _load(copy)
    docs[0].save()
    assert copy.read_bytes() == original
    out = tmp_path / "converted"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["convert", str(copy), "--to", docs[0].format, "-o", str(out)]) == 0
    assert out.read_bytes() == original


@pytest.mark.parametrize("path", FILES)
def test_one_edit_changes_only_that_message(path: Path, tmp_path: Path) -> None:
    if path.suffix == ZIP:
        pytest.skip("a zipped log: its members are checked below")
    copy = _copy(path, tmp_path)
    original = copy.read_bytes()
    docs = _load(copy)
    index = _edit_middle(docs[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        docs[0].save()
        again = msgviewer.load(copy, format=docs[0].format)
    saved = copy.read_bytes()
    assert MARK in repr(again[0].messages[index])
    assert len(again[0].messages) == len(docs[0].messages)
    old, new = _changed(original, saved)
    assert MARK.encode() in new or MARK.strip().encode() in new
    if docs[0].format in ("claude-code", "codex") or path.suffix == ".jsonl":
        # One line changed, in place; every other line identical.
        a, b = original.splitlines(keepends=True), saved.splitlines(keepends=True)
        assert len(a) == len(b)
        assert sum(x != y for x, y in zip(a, b, strict=True)) == 1
    else:
        # The change lies inside one string of the original: its text.
        assert b'"' not in re.sub(rb"\\.", b"", old)


# -- values kept as written ------------------------------------------------------------------

CHAT = (
    '{\n    "model": "gpt-4o",\n    "seed": 123456789012345678901234567890,\n'
    '    "messages": [\n'
    '        {"role": "system", "content": "Be brief."},\n'
    '        {\n            "role": "user",\n'
    '            "content": "Weather in Paris?"\n        },\n'
    '        {\n            "role": "assistant",\n            "content": "",\n'
    '            "tool_calls": [{"id": "call_1", "type": "function", "function": '
    '{"name": "weather", "arguments": '
    '"{\\"city\\": \\"Paris\\", \\"id\\": 98765432109876543210987}"}}]\n'
    "        },\n"
    '        {"role": "tool", "tool_call_id": "call_1", "content": "18\\u00b0C, 1.50 mm"},\n'
    '        {"role": "assistant", "content": "It is 18 degrees."}\n'
    "    ],\n"
    '    "temperature": 0.50,\n    "n": 1E2\n}'
)


def _write(tmp_path: Path, text: str, newline: str = "\n") -> Path:
    path = tmp_path / "fixture.json"
    path.write_bytes(text.replace("\n", newline).encode())
    return path


def _set_text(doc: Document, index: int, text: str) -> None:
    doc.edit(
        lambda ms: [*ms[:index], dataclasses.replace(ms[index], content=text), *ms[index + 1 :]],
        "t",
    )


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_an_edit_keeps_numbers_arguments_empty_strings_and_layout(
    tmp_path: Path, newline: str
) -> None:
    path = _write(tmp_path, CHAT, newline)
    original = path.read_bytes()
    [doc] = Document.load(path)
    assert doc.format == "openai-chat"
    [call] = doc.messages[2].tool_calls
    assert call.args["id"] == 98765432109876543210987  # an integer, not a float
    _set_text(doc, 4, "It is 18 degrees Celsius.")
    doc.save()
    expected = original.replace(b"It is 18 degrees.", b"It is 18 degrees Celsius.")
    assert path.read_bytes() == expected


def test_an_edited_message_keeps_its_key_order_and_the_file_indent(tmp_path: Path) -> None:
    path = _write(tmp_path, CHAT)
    original = path.read_bytes()
    [doc] = Document.load(path)
    _set_text(doc, 1, "Weather in Lyon?")
    doc.save()
    assert path.read_bytes() == original.replace(b"Paris?", b"Lyon?")
    assert (
        b'        {\n            "role": "user",\n'
        b'            "content": "Weather in Lyon?"\n        },' in path.read_bytes()
    )


def test_inserting_and_removing_messages_keeps_the_others_bytes(tmp_path: Path) -> None:
    path = _write(tmp_path, CHAT)
    original = path.read_bytes()
    [doc] = Document.load(path)
    doc.edit(lambda ms: [*ms[:1], *ms[2:]], "drop the question")
    doc.save()
    dropped = path.read_bytes()
    question = (
        b'{\n            "role": "user",\n            "content": "Weather in Paris?"\n        },\n'
    )
    question = b"        " + question
    assert dropped == original.replace(question, b"")
    doc.edit(lambda ms: [*ms, msgviewer.Message.user("Thanks. And tomorrow?")], "ask again")
    doc.save()
    added = path.read_bytes()
    head, tail = dropped.rsplit(b'"It is 18 degrees."}', 1)
    new = (
        b'{\n            "role": "user",\n            "content": "Thanks. And tomorrow?"\n        }'
    )
    assert added == head + b'"It is 18 degrees."},\n        ' + new + tail


def test_a_five_thousand_digit_integer_loads_and_saves(tmp_path: Path) -> None:
    digits = "7" * 5000
    path = _write(tmp_path, CHAT.replace("123456789012345678901234567890", digits))
    original = path.read_bytes()
    [doc] = Document.load(path)
    assert doc.conversation.metadata["seed"] % 10 == 7
    doc.save()
    assert path.read_bytes() == original
    _set_text(doc, 0, "Be very brief.")
    doc.save()
    assert path.read_bytes() == original.replace(b"Be brief.", b"Be very brief.")


def test_no_trailing_newline_and_compact_jsonl_lines_are_kept(tmp_path: Path) -> None:
    lines = [
        '{"messages": [{"role": "user", "content": "Hi"}, '
        '{"role": "assistant", "content": "Hello!"}]}',
        '{"messages":[{"role":"user","content":"2+2?"},{"role":"assistant","content":"4"}]}',
        '{"messages": [{"role": "user", "content": "Bye"}, {"role": "assistant", "content": ""}]}',
    ]
    path = tmp_path / "train.jsonl"
    path.write_bytes("\r\n".join(lines).encode())  # CRLF, no newline at the end
    original = path.read_bytes()
    docs = Document.load(path)
    assert len(docs) == 3
    _set_text(docs[1], 1, "Four.")
    docs[1].save()
    assert path.read_bytes() == original.replace(b'"content":"4"', b'"content":"Four."')


def test_a_file_changed_on_disk_is_not_spliced_into(tmp_path: Path) -> None:
    path = _write(tmp_path, CHAT)
    [doc] = Document.load(path)
    path.write_bytes(path.read_bytes().replace(b"Be brief.", b"Be terse."))
    _set_text(doc, 4, "Warm.")
    with pytest.raises(FileChangedError):
        doc.save()
    doc.save(force=True)  # the writer's output, as before: the other change is overwritten
    [again] = msgviewer.load(path)
    assert again.messages[0].text == "Be brief." and again.messages[4].text == "Warm."


def test_saving_to_another_path_writes_the_writers_output(tmp_path: Path) -> None:
    path = _write(tmp_path, CHAT)
    [doc] = Document.load(path)
    other = tmp_path / "copy.json"
    doc.save(other)
    assert other.read_bytes() == msgviewer.dumps(doc.conversation, format="openai-chat")


@pytest.mark.parametrize("path", [p for p in FILES if Path(str(p.values[0])).suffix == ZIP])
def test_one_edit_to_a_zipped_log_rewrites_only_that_sample(path: Path, tmp_path: Path) -> None:
    copy = _copy(path, tmp_path)
    with zipfile.ZipFile(copy) as before:
        members = {i.filename: before.read(i) for i in before.infolist()}
    docs = _load(copy)
    _edit_middle(docs[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        docs[0].save()
    with zipfile.ZipFile(copy) as after:
        saved = {i.filename: after.read(i) for i in after.infolist()}
    assert list(saved) == list(members)
    changed = [name for name in members if saved[name] != members[name]]
    assert len(changed) == 1 and changed[0].startswith("samples/")
    # inside that member, only the edited text changed
    old, new = _changed(members[changed[0]], saved[changed[0]])
    assert MARK.encode() in new and b'"' not in re.sub(rb"\\.", b"", old)
