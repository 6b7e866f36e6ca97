"""Document: one conversation being edited, with undo/redo, a dirty flag and a safe save.

Every edit is a pure function ``fn(list[Message]) -> list[Message]``; the document keeps the
resulting tuple and, for undo, only the part that changed (messages are immutable and shared,
so a step costs the size of the change, not of the history: undo is unlimited).

Saving writes through ``msgviewer.formats`` to a temporary file beside the target and renames it
over the target, so the file on disk is always either the old or the new version. A document
remembers the file's identity (inode, size, modification time) from when it was opened or last
saved and a fingerprint of its bytes (size and CRC-32), and refuses to overwrite a file someone
else changed since (``FileChangedError``), unless told ``force=True``. The check is made when the
save begins and again once the new version is on disk, just before the rename: a change landing
while a large file is serialised is caught too. Comparing the bytes, not only the identity,
catches a change of the same size made in place whose modification time was set back; a file
only touched (or chmod-ed) still holds the same bytes and is not a change.

Saving back to the file a document was loaded from, in its format, changes only the bytes of what
was edited (``formats.exact.splice``): the document keeps a digest of the bytes it read and the
conversations as read; at save time it reads the file again (once, for the check above too) and,
if it is still those bytes, splices the writer's output for the edited conversations into it.
A format that can (``Format.splice_edit``) writes only the edited messages and finds where they
are in the file; the others write the conversations whole, before and after the edit, and
splice the three texts. Otherwise (another path, another format, a file changed and saved over
with ``force``) it writes the writer's output.

``Document.load(path)`` returns a list of documents, one per conversation in the file. Documents
loaded from one file share it: saving any of them writes every conversation of the file, each as
it currently is in its document.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Callable, Sequence
from itertools import chain, islice
from pathlib import Path
from typing import Any

from ..core.errors import InvalidMessageError, MsgviewerError
from ..core.message import Message
from ..core.spans import Spanned, changed_span
from ..formats import dumps
from ..formats import load as load_file
from ..formats.base import Conversation
from ..formats.registry import get_format
from ..formats.safe_write import Data, write_file

__all__ = ["Document", "DocumentError", "FileChangedError"]


class DocumentError(MsgviewerError):
    """A document cannot do what was asked (save without a path...)."""


class FileChangedError(DocumentError):
    """The file changed on disk since it was opened or last saved; saving would lose that."""

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(
            f"{path}: the file changed on disk since it was opened or last saved; "
            "reload it, save elsewhere, or save with force=True to overwrite"
        )


def _stamp(path: str) -> tuple[int, ...] | None:
    """What tells one version of a file from another at a glance: inode (an atomic replace
    makes a new one), size, modification time and change time (which no one but the kernel
    sets: a write whose modification time is set back still changes it). None if there is no
    file."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


class _File:
    """A file on disk and the documents whose conversations it holds, in file order."""

    def __init__(self, path: str | None, format: str | None) -> None:
        self.path = path
        self.format = format
        self.stamp = _stamp(path) if path is not None else None
        self.members: list[Document] = []
        self.digest: tuple[int, int] | None = None
        """Size and digest of the bytes the members' base conversations were read from (or
        last written as): a save splices into the file only if it still holds them."""
        self.plain = False
        """Whether those bytes are the writer's own output for the base conversations (the last
        save wrote them so): the next save need not write the base again to splice."""


# What tells the bytes a document was read from from any others: their size and CRC-32. It
# guards against a file changed by someone else, not against an adversary, and costs a tenth of
# a cryptographic hash on every file opened (0.03 s against 0.16-0.29 s for 175 MB).
def _digest(data: Data) -> tuple[int, int]:
    if isinstance(data, bytes):
        return len(data), zlib.crc32(data)
    crc = size = 0
    for piece in data:
        crc = zlib.crc32(piece, crc)
        size += len(piece)
    return size, crc


def _file_digest(path: str) -> tuple[int, int] | None:
    crc = size = 0
    try:
        with open(path, "rb") as fh:
            while chunk := fh.read(1 << 22):
                crc = zlib.crc32(chunk, crc)
                size += len(chunk)
    except OSError:
        return None
    return size, crc


def _diff(
    old: tuple[Message, ...], new: tuple[Message, ...], edit: Any = None
) -> tuple[int, tuple, tuple]:
    """(start, old middle, new middle): the span where two histories differ, by identity
    (looked for only where the ``edit`` that made ``new`` says it changed, if it says)."""
    found = edit.changed(old, new) if isinstance(edit, Spanned) else None
    start, old_count, new_count = found or changed_span(old, new)
    return start, old[start : start + old_count], new[start : start + new_count]


def _spliced(
    messages: tuple[Message, ...], start: int, count: int, middle: tuple[Message, ...]
) -> tuple[Message, ...]:
    """``messages`` with ``count`` of them from ``start`` replaced by ``middle``, made in one
    pass: two slices joined make the history three times over (and free two of them), some
    40-70 ms at a million messages against 20."""
    rest = iter(messages)
    rest.__setstate__(start + count)  # type: ignore[attr-defined]  # (starts there)
    return tuple(chain(islice(messages, start), middle, rest))


class Document:
    """An editable conversation. The app changes messages only through ``edit``."""

    def __init__(
        self,
        conversation: Conversation | Sequence[Message],
        path: str | os.PathLike[str] | None = None,
        format: str | None = None,
    ) -> None:
        if not hasattr(conversation, "messages"):
            conversation = Conversation(tuple(_checked(conversation)), format or "msgviewer")
        self._conversation: Any = conversation
        self._messages: tuple[Message, ...] = tuple(conversation.messages)  # type: ignore[union-attr]
        self._work: list[Message] | None = None
        """The messages as a list, kept for the next edit that holds on to none of it (a
        ``Spanned`` one) to change in place: a list made for each edit, then freed, is two
        passes over the history (25 ms at a million messages)."""
        # Undo entries: (label, start, old middle, new middle, state before, state after,
        # (title, metadata) before and after, or None when the edit kept them).
        self._undo: list[tuple[str, int, tuple, tuple, int, int, Any]] = []
        self._redo: list[tuple[str, int, tuple, tuple, int, int, Any]] = []
        self._state = 0
        self._next_state = 1
        self._saved_state: int | None = 0
        self._file = _File(os.fspath(path) if path is not None else None, format)
        self._file.members.append(self)
        self._base: Any = conversation
        """The conversation as read from (or last written to) the file: what the file's bytes
        stand for."""
        self.last_change: tuple[int, int, int] | None = None
        """``(start, old count, new count)`` of the messages the last edit, undo or redo
        replaced (None before any): what a view of them draws again."""

    # -- loading ----------------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | os.PathLike[str], format: str | None = None) -> list[Document]:
        """One document per conversation of the file, all sharing it (see module doc)."""
        name = os.fspath(path)
        stamp = _stamp(name)
        digest = _file_digest(name)
        conversations = load_file(name, format=format)
        if format is None and conversations:
            format = conversations[0].format  # the detected format
        shared = _File(name, format)
        shared.stamp = stamp  # the version that was read, even if it changed since
        shared.digest = digest if _stamp(name) == stamp else None
        docs = []
        for conv in conversations:
            doc = cls(conv, None, format)
            doc._file = shared
            shared.members.append(doc)
            docs.append(doc)
        return docs

    # -- state ------------------------------------------------------------------------------

    @property
    def messages(self) -> tuple[Message, ...]:
        """The messages as they are now."""
        return self._messages

    @property
    def conversation(self) -> Conversation:
        """The conversation as it is now (its messages, title and metadata)."""
        conv = self._conversation
        if conv.messages is not self._messages:
            from dataclasses import replace

            conv = replace(conv, messages=self._messages)
            self._conversation = conv
        return conv

    @property
    def path(self) -> str | None:
        """The file this document saves to by default."""
        return self._file.path

    @property
    def format(self) -> str | None:
        """The format it was loaded from or last saved in."""
        return self._file.format

    @property
    def dirty(self) -> bool:
        """Whether the messages differ from what was last saved (or loaded)."""
        return self._state != self._saved_state

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def history(self) -> tuple[str, ...]:
        """Labels of the edits that can be undone, oldest first."""
        return tuple(entry[0] for entry in self._undo)

    @property
    def redo_history(self) -> tuple[str, ...]:
        """Labels of the edits that can be redone, next first."""
        return tuple(entry[0] for entry in reversed(self._redo))

    # -- editing ----------------------------------------------------------------------------

    def edit(self, fn: Callable[[list[Message]], Sequence[Message]], label: str) -> bool:
        """Replace the messages by ``fn(messages)``; False (and no history) if nothing changed.

        If ``fn`` raises or returns something other than a list of messages, the document is
        left as it was.
        """
        reuse = isinstance(fn, Spanned)
        work = self._work if reuse and self._work is not None else list(self._messages)
        self._work = None  # (until the edit is recorded: one that raises may leave it half done)
        result = fn(work)
        if not isinstance(result, (list, tuple)):
            raise InvalidMessageError(
                f"edit {label!r} returned {type(result).__name__}, not a list of messages"
            )
        changed = self._record(tuple(result), None, label, fn)
        if reuse and result is work:
            self._work = work
        return changed

    def edit_conversation(self, fn: Callable[[Conversation], Conversation], label: str) -> bool:
        """Replace the conversation by ``fn(conversation)``: its messages, title and metadata
        (the request fields), as one undoable edit; False if nothing changed."""
        conv = self.conversation
        result = fn(conv)
        if not hasattr(result, "messages"):
            raise InvalidMessageError(
                f"edit {label!r} returned {type(result).__name__}, not a Conversation"
            )
        before, after = (conv.title, conv.metadata), (result.title, result.metadata)
        head = None if before == after else (before, after)
        return self._record(tuple(result.messages), head, label)

    def _record(self, new: tuple[Message, ...], head: Any, label: str, edit: Any = None) -> bool:
        self._work = None
        start, old_mid, new_mid = _diff(self._messages, new, edit)
        _checked(new_mid, label, start)  # (the rest are the messages it had)
        if not old_mid and not new_mid and head is None:
            return False
        self.last_change = (start, len(old_mid), len(new_mid))
        before = self._state
        self._state = self._next_state
        self._next_state += 1
        self._undo.append((label, start, old_mid, new_mid, before, self._state, head))
        self._redo.clear()
        self._messages = new
        if head is not None:
            self._set_head(head[1])
        return True

    def _set_head(self, head: tuple[str | None, dict[str, Any]]) -> None:
        from dataclasses import replace

        title, metadata = head
        self._conversation = replace(self.conversation, title=title, metadata=metadata)

    def undo(self) -> str | None:
        """Undo the last edit; its label, or None if there is nothing to undo."""
        if not self._undo:
            return None
        entry = self._undo.pop()
        label, start, old_mid, new_mid, before, _, head = entry
        self._messages = self._replaced(start, len(new_mid), old_mid)
        self.last_change = (start, len(new_mid), len(old_mid))
        if head is not None:
            self._set_head(head[0])
        self._state = before
        self._redo.append(entry)
        return label

    def _replaced(self, start: int, count: int, middle: tuple[Message, ...]) -> tuple[Message, ...]:
        """The messages with ``count`` of them from ``start`` replaced by ``middle``."""
        work = self._work
        if work is None:
            return _spliced(self._messages, start, count, middle)
        work[start : start + count] = middle
        return tuple(work)

    def redo(self) -> str | None:
        """Redo the last undone edit; its label, or None if there is nothing to redo."""
        if not self._redo:
            return None
        entry = self._redo.pop()
        label, start, old_mid, new_mid, _, after, head = entry
        self._messages = self._replaced(start, len(old_mid), new_mid)
        self.last_change = (start, len(old_mid), len(new_mid))
        if head is not None:
            self._set_head(head[1])
        self._state = after
        self._undo.append(entry)
        return label

    # -- saving -----------------------------------------------------------------------------

    def changed_on_disk(self) -> bool:
        """Whether the file differs from the version opened or last saved (its stamp at a
        glance, then its bytes if the stamp changed)."""
        f = self._file
        return f.path is not None and _changed(f, f.path, thorough=False)

    def save(
        self,
        path: str | os.PathLike[str] | None = None,
        format: str | None = None,
        *,
        force: bool = False,
    ) -> None:
        """Write the conversation (with the others sharing its file) atomically.

        ``path``/``format`` default to where and how it was loaded or last saved. Saving to
        another path writes this conversation alone and makes that path its file. Raises
        ``FileChangedError`` when the document's own file changed on disk, unless ``force``.
        """
        f = self._file
        target = os.fspath(path) if path is not None else f.path
        if target is None:
            raise DocumentError("this document has no file yet: give a path to save to")
        fmt = format or f.format or getattr(self._conversation, "format", None) or "msgviewer"
        same_file = f.path is not None and _same_path(target, f.path)
        guard = same_file and not force
        # The file is read once, for both the guard and the splice (a read and a digest of the
        # whole file cost a fifth of the parse each).
        exact = same_file and fmt == f.format and f.digest is not None
        stamp = _stamp(target) if same_file else None
        known = stamp is not None and f.digest is not None
        original = _read(target) if known and (guard or exact) else None
        intact = original is not None and _digest(original) == f.digest
        if guard and (not intact if known else stamp != f.stamp):
            raise FileChangedError(target)
        members = f.members if same_file else [self]
        convs = [d.conversation for d in members]
        if exact and intact:
            data, plain = _exact(original, f, members, convs, fmt)  # type: ignore[arg-type]
        else:
            data, plain = _write(convs, fmt), True
        del original

        def unchanged_still() -> None:  # once the new version is on disk, before the rename
            if _changed(f, target, thorough=True):
                raise FileChangedError(target)

        write_file(target, data, check=unchanged_still if guard else None)
        if not same_file:
            f.members.remove(self)
            f = self._file = _File(target, fmt)
            f.members.append(self)
        f.format = fmt
        f.stamp = _stamp(target)
        f.digest = _digest(data)
        f.plain = plain
        for d, conv in zip(members, convs, strict=True):
            d._saved_state = d._state
            d._base = conv

    def __repr__(self) -> str:
        where = self.path or "unsaved"
        flag = ", dirty" if self.dirty else ""
        return f"<Document {where}: {len(self._messages)} messages{flag}>"


def _changed(f: _File, path: str, *, thorough: bool) -> bool:
    """Whether the file at ``path`` is no longer the version ``f`` was read from or written
    as. ``thorough``: its bytes are compared whenever their fingerprint is known (the stamp
    cannot see a same-size change made in place on a file system that keeps no change time);
    otherwise only when the stamp changed, to tell a touched file from a rewritten one."""
    stamp = _stamp(path)
    if stamp is None or f.digest is None:
        return stamp != f.stamp
    if stamp == f.stamp and not thorough:
        return False
    return _file_digest(path) != f.digest


def _write(convs: list[Any], fmt: str) -> bytes:
    return dumps(convs[0] if len(convs) == 1 else convs, format=fmt)


def _read(path: str) -> bytes | None:
    try:
        return Path(path).read_bytes()
    except OSError:
        return None


def _exact(
    original: bytes, f: _File, members: list[Document], convs: list[Any], fmt: str
) -> tuple[Data, bool]:
    """What to write over the file the members were read from, which still holds the bytes
    they were read from: its own bytes where nothing changed, the edits spliced in where
    something did; and whether that is the writer's output."""
    bases = [d._base for d in members]
    if all(c is b or c == b for c, b in zip(convs, bases, strict=True)):
        return original, f.plain
    quick = get_format(fmt).splice_edit
    out = quick(original, bases, convs) if quick is not None else None
    if out is not None:
        # Only the edited messages' records were written: the rest of the file is the
        # writer's output for the new conversations exactly when it was for the old ones.
        return out, f.plain
    from ..formats.exact import splice  # (only an exact save needs it: not at start-up)

    new = _write(convs, fmt)
    if f.plain:  # the file is the writer's output for the base: the splice would be ``new``
        return new, True
    baseline = _write(bases, fmt)
    out = splice(original, baseline, new)
    return out, out is new


def _same_path(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return Path(a).resolve() == Path(b).resolve()


def _checked(items: Sequence[Any], label: str | None = None, at: int = 0) -> Sequence[Message]:
    """``items``, each a Message (the first at position ``at``)."""
    if set(map(type, items)) <= {Message}:  # the common case, checked without a Python loop
        return items
    for i, m in enumerate(items, at):
        if not isinstance(m, Message):
            where = f"edit {label!r} returned" if label else "got"
            raise InvalidMessageError(f"{where} {type(m).__name__} at position {i}, not a Message")
    return items
