"""``SavingScreen``: save, save as and export, for the main screen to build on.

Writing runs in a thread worker: first the conversion is checked for losses
(``lossy_warnings``) and the user asked before anything lossy is written; then the Document
saves (temporary file, then rename: the file on disk is always the old or the new version).
A failed save (a read-only file or directory, a full disk, the file changed on disk since it
was opened, even while it was being written) keeps the edits, says what happened, and offers to
save elsewhere (or to overwrite a changed file).
Edits wait while a save runs, so what is marked saved is what was written.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from textual import work
from textual.binding import Binding, BindingType
from textual.screen import Screen

from ...core.errors import MsgviewerError, WriteError
from ...document import Document, FileChangedError
from ...formats import Conversation, LossyConversionWarning, dump, get_format, lossy_warnings
from ..model.history import EditHistory
from ..model.session import Session
from .confirm import CANCEL, Choice, ConfirmScreen
from .export import ExportScreen, writable_formats


@dataclass
class SaveJob:
    """One write: a document's save (to its file or another) or an export of conversations."""

    doc: Document
    path: str | None = None
    """None: the document's own file."""
    format: str | None = None
    """None: the document's own format."""
    force: bool = False
    """Overwrite a file that changed on disk since it was read."""
    checked: bool = False
    """The user already accepted what the conversion loses."""
    export: tuple[Conversation, ...] = ()
    """Conversations to write as a copy (the document's file stays as it is)."""
    after: Callable[[], None] | None = field(default=None, repr=False)
    """What to do once written (quit, save the next file...)."""

    @property
    def target(self) -> str:
        return self.path or self.doc.path or "?"

    @property
    def fmt(self) -> str:
        doc = self.doc
        return self.format or doc.format or doc.conversation.format or "msgviewer"


class SavingScreen(Screen[None]):
    """Keys and workers for writing the session's documents."""

    BINDINGS: list[BindingType] = [
        Binding("ctrl+s", "save", "Save", id="save"),
        Binding("S", "save_as", "Save as…", id="save-as", show=False),
        Binding("X", "export", "Export…", id="export", show=False),
    ]
    """Save (shown when there is something to save), save as, export a copy."""

    session: Session | None
    saving = False
    """A save is running: edits wait for it."""
    loading_more = False
    """What is shown is the start of a file still being read: it can be looked at, not edited."""

    _history: EditHistory | None = None

    @property
    def history(self) -> EditHistory:
        """The session's edit history (made for each newly loaded session)."""
        assert self.session is not None
        if self._history is None or self._history.session is not self.session:
            self._history = EditHistory(self.session)
        return self._history

    def has_unsaved(self) -> bool:
        """Whether any conversation has changes not written to its file."""
        return self.session is not None and self.history.dirty

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "save":
            return self.has_unsaved()  # the footer shows Save only when it would do something
        return super().check_action(action, parameters)

    def edits_changed(self) -> None:
        """The dirty state may have changed: header, status and footer say so."""
        raise NotImplementedError

    def current_conv(self) -> int:
        """The conversation under the cursor."""
        raise NotImplementedError

    # -- commands -----------------------------------------------------------------------------

    def action_save(self) -> None:
        self.save_all()

    def save_all(self, after: Callable[[], None] | None = None, *, going_on: bool = False) -> None:
        """Save every file with unsaved changes, one after the other, then run ``after``.

        ``going_on``: called again after a file was saved, so nothing left to save is the end
        of the work, not something to tell the user.
        """
        if self.session is None or self.saving:
            return
        files = self.history.dirty_files()
        if not files:
            if after is not None:
                after()
            elif not going_on:
                self.notify("No unsaved changes", timeout=2)
            return
        path, docs = files[0]

        def next_file() -> None:
            self.save_all(after, going_on=True)

        if path is None:  # standard input or the bundled sample: ask where
            self._ask_target(docs[0], export=False, after=next_file)
            return
        self.start_save(SaveJob(docs[0], after=next_file))

    def still_loading(self) -> bool:
        """True (and the user told) while the file is still being read."""
        if self.loading_more:
            self.notify("The file is still loading: edit, save or follow it once it is read")
        return self.loading_more

    def action_save_as(self) -> None:
        if self.session is None or self.saving or self.still_loading():
            return
        self._ask_target(self.history.document(self.current_conv()), export=False)

    def action_export(self) -> None:
        if self.session is None or self.saving or self.still_loading():
            return
        self._ask_target(self.history.document(self.current_conv()), export=True)

    def confirm_quit(self) -> None:
        """Quit, asking first when there are unsaved changes."""
        if not self.has_unsaved():
            self.app.exit()
            return
        names = ", ".join(os.path.basename(p or "(no file)") for p, _ in self.history.dirty_files())

        def answer(choice: str | None) -> None:
            if choice == "save":
                self.save_all(after=self.app.exit)
            elif choice == "discard":
                self.app.exit()

        question = ConfirmScreen(
            f"There are unsaved changes in {names}.",
            [
                Choice("save", "s", "Save and quit", "primary"),
                Choice("discard", "d", "Quit without saving", "error"),
                CANCEL,
            ],
        )
        self.app.push_screen(question, answer)

    # -- choosing where -----------------------------------------------------------------------

    def _ask_target(
        self, doc: Document, *, export: bool, after: Callable[[], None] | None = None
    ) -> None:
        assert self.session is not None
        c = self.current_conv()
        fmt = doc.format or doc.conversation.format or "msgviewer"
        base = doc.path or os.path.join(os.getcwd(), "conversation.json")
        formats = writable_formats(readable=not export)
        convs = self.session.convs
        note = ""
        if export and len(convs) > 1:
            note = "Formats that hold several conversations get all of them; others this one."
        elif not export and doc.path is not None:
            sharing = [x for x in convs if x.document is not None and x.document.path == doc.path]
            if len(sharing) > 1:
                note = f"Saves conversation {c + 1} alone; the others stay with {doc.path}."
        if not export and get_format(fmt).read is None:
            fmt = "msgviewer"
        if export:
            title = "Export a copy"
        else:
            title = "Save as" if doc.path else "Save (this conversation has no file yet)"
        dialog = ExportScreen(title, base, fmt, formats, note, tagged=export)

        def chosen(answer: tuple[str, str] | None) -> None:
            if answer is None:
                return
            path, name = answer
            job = SaveJob(doc, path=path, format=name, after=after)
            if export:
                job.export = self._export_convs(c, name)
            self._confirm_overwrite(job)

        self.app.push_screen(dialog, chosen)

    def _export_convs(self, c: int, fmt: str) -> tuple[Conversation, ...]:
        assert self.session is not None
        convs = [x.conversation for x in self.session.convs]
        return tuple(convs) if get_format(fmt).multi and len(convs) > 1 else (convs[c],)

    def _confirm_overwrite(self, job: SaveJob) -> None:
        target = job.target
        own = job.doc.path is not None and _same(target, job.doc.path)
        if not os.path.exists(target) or own:
            self.start_save(job)
            return

        def answer(choice: str | None) -> None:
            if choice == "overwrite":
                self.start_save(job)

        question = ConfirmScreen(
            f"{target} exists. Replace it?",
            [Choice("overwrite", "o", "Replace", "warning"), CANCEL],
        )
        self.app.push_screen(question, answer)

    # -- writing ------------------------------------------------------------------------------

    def start_save(self, job: SaveJob) -> None:
        """Write ``job`` in a worker (asking about losses first, unless already accepted)."""
        self.saving = True
        self.notify(f"Saving {os.path.basename(job.target)}…", timeout=1.5)
        self._save_worker(job)

    def _payload(self, job: SaveJob) -> Any:
        if job.export:
            convs = list(job.export)
        elif job.path is None and self.session is not None:  # the whole file, every member
            docs = [
                x.document
                for x in self.session.convs
                if x.document is not None and x.document.path == job.doc.path
            ]
            convs = [d.conversation for d in docs] or [job.doc.conversation]
        else:
            convs = [job.doc.conversation]
        return convs[0] if len(convs) == 1 else convs

    @work(thread=True, exclusive=True, group="save")
    def _save_worker(self, job: SaveJob) -> None:
        call = self.app.call_from_thread
        try:
            if not job.checked:
                lost = lossy_warnings(self._payload(job), format=job.fmt)
                if lost:
                    call(self._confirm_lossy, job, lost)
                    return
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", LossyConversionWarning)
                if job.export:
                    dump(self._payload(job), job.target, format=job.fmt)
                else:
                    job.doc.save(job.path, job.format, force=job.force)
        except FileChangedError:
            call(self._changed_on_disk, job)
        except WriteError as exc:  # its file is the one the dialog names: only why
            call(self._save_failed, job, exc.what.removeprefix("cannot write: "))
        except OSError as exc:
            call(self._save_failed, job, exc.strerror or str(exc))
        except MsgviewerError as exc:
            call(self._save_failed, job, str(exc))
        else:
            call(self._saved, job)

    def _confirm_lossy(self, job: SaveJob, lost: list[str]) -> None:
        self.saving = False

        def answer(choice: str | None) -> None:
            if choice == "write":
                self.start_save(replace(job, checked=True))

        shown = lost[:40] + ([f"… and {len(lost) - 40} more"] if len(lost) > 40 else [])
        question = ConfirmScreen(
            f"Writing {os.path.basename(job.target)} as {job.fmt} loses data:",
            [Choice("write", "w", "Write anyway", "warning"), CANCEL],
            details=shown,
        )
        self.app.push_screen(question, answer)

    def _saved(self, job: SaveJob) -> None:
        self.saving = False
        name = os.path.basename(job.target)
        if job.export:
            count = sum(len(c.messages) for c in job.export)
            self.notify(f"Exported {count} messages to {name} ({job.fmt})", timeout=3)
        else:
            self.notify(f"Saved {name}", timeout=2)
            session = self.session
            if session is not None and len(session.convs) == 1:
                session.path, session.format = job.doc.path, job.doc.format
        self.edits_changed()
        if job.after is not None:
            job.after()

    def _changed_on_disk(self, job: SaveJob) -> None:
        self.saving = False
        name = os.path.basename(job.target)

        def answer(choice: str | None) -> None:
            if choice == "overwrite":
                self.start_save(replace(job, force=True, checked=True))
            elif choice == "elsewhere":
                self._ask_target(job.doc, export=False, after=job.after)

        question = ConfirmScreen(
            f"{name} changed on disk since it was opened or last saved.",
            [
                Choice("overwrite", "o", "Overwrite it", "warning"),
                Choice("elsewhere", "s", "Save elsewhere…", "primary"),
                CANCEL,
            ],
            details=[
                "Nothing was written; your edits are kept in the app.",
                "Overwrite replaces what is on disk now with your version.",
            ],
        )
        self.app.push_screen(question, answer)

    def _save_failed(self, job: SaveJob, error: str) -> None:
        self.saving = False
        name = os.path.basename(job.target)
        self.notify(f"Could not save {name}: {error}", severity="error", timeout=6)

        def answer(choice: str | None) -> None:
            if choice == "elsewhere":
                self._ask_target(job.doc, export=bool(job.export), after=job.after)

        question = ConfirmScreen(
            f"Could not save {name}: {error}",
            [Choice("elsewhere", "s", "Save elsewhere…", "primary"), CANCEL],
            details=["The file on disk is as it was; your edits are kept in the app."],
        )
        self.app.push_screen(question, answer)


def _same(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)
