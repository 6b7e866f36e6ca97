"""Edits across the documents of a session, with one undo order for the app (headless).

Every conversation of a session has its ``Document`` (made on first edit if the loader gave it
none). ``EditHistory`` runs an edit through the right document, keeps the order edits were made
in across documents (so undo and redo walk back and forth in the order the user made them),
and after each change puts the new messages in the session and says which span changed, so
the app redraws those rows only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...core.message import Message
from ...document import Document
from ...formats import Conversation
from .session import Session


@dataclass(frozen=True)
class Change:
    """Messages ``start:start+old_count`` of conversation ``conv`` became ``new_count``."""

    conv: int
    start: int
    old_count: int
    new_count: int
    label: str
    replaced: tuple[Message, ...] = ()
    """The messages ``start:start+old_count`` were before."""


class EditHistory:
    """The session's documents, edited through one app-wide undo and redo order."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._undo: list[int] = []
        self._redo: list[int] = []

    def document(self, c: int) -> Document:
        """Conversation ``c``'s document (a new, unsaved one if it had none)."""
        conv = self.session.convs[c]
        if conv.document is None:
            # A followed file re-read: one conversation keeps its file, several cannot share
            # it here (only Document.load makes documents that share a file).
            path = self.session.path if len(self.session.convs) == 1 else None
            if path == "-":
                path = None
            conv.document = Document(conv.conversation, path, conv.conversation.format)
        return conv.document

    # -- editing ----------------------------------------------------------------------------

    def edit(
        self, c: int, fn: Callable[[list[Message]], Sequence[Message]], label: str
    ) -> Change | None:
        """Apply ``fn`` to conversation ``c``'s messages as one undoable edit; None if nothing
        changed. Whatever ``fn`` raises comes through, with the document left as it was."""
        return self._apply(c, label, lambda doc: doc.edit(fn, label))

    def edit_conversation(
        self, c: int, fn: Callable[[Conversation], Conversation], label: str
    ) -> Change | None:
        """As ``edit``, with ``fn`` given the whole conversation (title and request fields
        too)."""
        return self._apply(c, label, lambda doc: doc.edit_conversation(fn, label))

    def _apply(self, c: int, label: str, change: Callable[[Document], bool]) -> Change | None:
        doc = self.document(c)
        old = doc.messages
        if not change(doc):
            return None
        self._undo.append(c)
        self._redo.clear()
        return self._sync(c, old, label)

    def undo(self) -> Change | None:
        """Undo the latest edit of any conversation; None if there is none."""
        while self._undo:
            c = self._undo.pop()
            doc = self.document(c)
            old = doc.messages
            label = doc.undo()
            if label is None:
                continue
            self._redo.append(c)
            return self._sync(c, old, label)
        return None

    def redo(self) -> Change | None:
        """Redo the latest undone edit; None if there is none."""
        while self._redo:
            c = self._redo.pop()
            doc = self.document(c)
            old = doc.messages
            label = doc.redo()
            if label is None:
                continue
            self._undo.append(c)
            return self._sync(c, old, label)
        return None

    def _sync(self, c: int, old: tuple[Message, ...], label: str) -> Change:
        doc = self.document(c)
        assert doc.last_change is not None  # (it just made one)
        start, old_count, new_count = doc.last_change
        self.session.replace_messages(c, doc.conversation, start, new_count)
        return Change(c, start, old_count, new_count, label, old[start : start + old_count])

    # -- state ------------------------------------------------------------------------------

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def documents(self) -> list[Document]:
        """Every document of the session, in conversation order."""
        return [self.document(c) for c in range(len(self.session.convs))]

    @property
    def dirty(self) -> bool:
        """Whether any conversation has changes not saved."""
        return any(c.document is not None and c.document.dirty for c in self.session.convs)

    def dirty_files(self) -> list[tuple[str | None, list[Document]]]:
        """(path, documents) of every file with unsaved changes; path None for documents
        with no file yet (standard input, the bundled sample)."""
        out: dict[object, tuple[str | None, list[Document]]] = {}
        for c, conv in enumerate(self.session.convs):
            doc = conv.document
            if doc is None or not doc.dirty:
                continue
            key: object = doc.path if doc.path is not None else ("unsaved", c)
            out.setdefault(key, (doc.path, []))[1].append(doc)
        return list(out.values())
