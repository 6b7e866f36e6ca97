"""A document's save never overwrites a change someone else made to its file: not one landing
while the save is being written, nor one of the same size made in place with the file's
modification time set back."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import msgviewer as mv
from msgviewer.document import Document, FileChangedError


def _file(tmp_path: Path, n: int = 200) -> Path:
    path = tmp_path / "run.jsonl"
    messages = [mv.Message.user(f"question {i}") for i in range(n)]
    mv.dump(mv.Conversation(tuple(messages)), path, format="openai-chat")
    return path


def _edited(path: Path) -> Document:
    (doc,) = Document.load(path)
    doc.edit(lambda ms: [*ms, mv.Message.assistant("mine")], "mine")
    return doc


def _while_writing(monkeypatch: pytest.MonkeyPatch, change) -> None:  # type: ignore[no-untyped-def]
    """Make ``change`` happen while the new version is being written (when it is flushed to
    disk, the last step before the rename): the moment a slow save of a large file leaves."""
    real = os.fsync
    done = []

    def fsync(fd: int) -> None:
        real(fd)
        if not done:
            done.append(True)
            change()

    monkeypatch.setattr(os, "fsync", fsync)


def test_an_append_landing_during_the_save_is_not_overwritten(tmp_path, monkeypatch) -> None:
    path = _file(tmp_path)
    doc = _edited(path)
    theirs = b'{"role": "user", "content": "appended while saving"}\n'

    def append() -> None:
        with open(path, "ab") as fh:
            fh.write(theirs)

    _while_writing(monkeypatch, append)
    with pytest.raises(FileChangedError, match="changed on disk"):
        doc.save()
    assert path.read_bytes().endswith(theirs)
    assert os.listdir(tmp_path) == ["run.jsonl"]  # nor a temporary file left
    monkeypatch.undo()
    doc.save(force=True)  # the user's choice, asked in the app: the edits are still there
    assert mv.load(path)[0].messages[-1].text == "mine"


def test_a_same_size_change_with_its_time_set_back_is_caught(tmp_path: Path) -> None:
    path = _file(tmp_path)
    doc = _edited(path)
    theirs = _rewrite_in_place(path, b"question 7", b"QUESTION 7")
    with pytest.raises(FileChangedError):
        doc.save()
    assert path.read_bytes() == theirs


def test_the_same_change_during_the_save_is_caught(tmp_path, monkeypatch) -> None:
    path = _file(tmp_path)
    doc = _edited(path)
    seen: list[bytes] = []
    _while_writing(
        monkeypatch, lambda: seen.append(_rewrite_in_place(path, b"question 9", b"QUESTION 9"))
    )
    with pytest.raises(FileChangedError):
        doc.save()
    assert path.read_bytes() == seen[0]


def test_a_file_only_touched_is_not_a_change(tmp_path: Path) -> None:
    path = _file(tmp_path)
    doc = _edited(path)
    os.utime(path, (1, 1))  # same bytes, another time: nothing of anyone's would be lost
    assert not doc.changed_on_disk()
    doc.save()
    assert mv.load(path)[0].messages[-1].text == "mine"


def test_a_removed_file_is_a_change(tmp_path: Path) -> None:
    path = _file(tmp_path)
    doc = _edited(path)
    path.unlink()
    assert doc.changed_on_disk()
    with pytest.raises(FileChangedError):
        doc.save()
    assert not path.exists()


def _rewrite_in_place(path: Path, old: bytes, new: bytes) -> bytes:
    """Change bytes of the file in place (same size, same inode) and set its access and
    modification times back to what they were: what a careless tool or a restore does."""
    info = os.stat(path)
    data = path.read_bytes()
    assert len(old) == len(new) and old in data
    changed = data.replace(old, new, 1)
    with open(path, "r+b") as fh:
        fh.write(changed)
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (
        info.st_ino,
        info.st_size,
        info.st_mtime_ns,
    )
    return changed
