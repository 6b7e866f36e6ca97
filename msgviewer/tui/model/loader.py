"""Reading files into a ``Session`` (headless: run in a worker thread) and following them.

``load_session`` reports its phases through a plain callback and stops early when a flag with
``is_set()`` (a ``threading.Event`` will do) is set, so it knows nothing of Textual.
``Follower`` re-reads a growing file when it changes, waiting for a half-written last line
instead of reporting it. ``in_daemon_thread`` runs a load the caller can walk away from.
"""

from __future__ import annotations

import os
import stat
import threading
import warnings
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import TypeVar

from ...core.errors import FormatError
from ...core.safetext import visible
from ...document import Document
from ...formats import Conversation, FormatWarning, loads
from ...formats.io import read_bytes
from . import fmt
from .session import CancelFlag, Session

SAMPLE_NAME = "demo-agent-run.json"

Progress = Callable[[str], None]
T = TypeVar("T")


class Cancelled(Exception):
    """The load was cancelled (the app is closing)."""


def sample_path() -> str:
    """Path of the bundled sample ``msgviewer`` opens with no file (inside the package)."""
    return str(resources.files("msgviewer") / "samples" / SAMPLE_NAME)


def load_session(
    paths: Sequence[str],
    *,
    format: str | None = None,
    progress: Progress | None = None,
    cancel: CancelFlag | None = None,
) -> Session:
    """Read every file in ``paths`` (the bundled sample if none) into one session.

    Raises ``FormatError`` (with file, line and JSON path) for a file that cannot be read.
    """
    say = progress or (lambda _: None)
    files = list(paths) or [sample_path()]
    conversations: list[Conversation] = []
    documents: list[Document] = []
    sources: list[tuple[str, tuple[int, int]]] = []
    load_warnings: list[str] = []
    for path in files:
        if cancel is not None and cancel.is_set():
            raise Cancelled
        # (a file name is text from outside too: shown, it must not reach the terminal raw)
        name = visible(os.path.basename(path)) if path != "-" else "standard input"
        size = _size(path)
        sized = f" ({fmt.size(size)})" if size else ""
        # (a worker thread's own record: warnings raised meanwhile on the UI thread would land
        # here too, which the app never does while a file loads)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", FormatWarning)
            if paths and path != "-" and _is_regular(path):
                # A Document per conversation, sharing the file: what edits and saves go through.
                say(f"Reading {name}{sized}…")
                docs = Document.load(path, format=format)
                convs = [doc.conversation for doc in docs]
            else:
                # Standard input, a pipe or device (read once, and only up to a bound) and the
                # bundled sample have no file of their own to save to.
                say(f"Reading {name}{sized}…")
                data, shown = read_bytes(path)
                say(f"Parsing {name} ({fmt.size(len(data))})…")
                convs = _loads_named(data, format, shown)
                docs = [Document(conv, None, conv.format) for conv in convs]
        load_warnings.extend(
            str(w.message) for w in caught if issubclass(w.category, FormatWarning)
        )
        conversations.extend(convs)
        documents.extend(docs)
        sources.extend((name, (n + 1, len(convs))) for n in range(len(convs)))
    say("Building the tree…")
    session = Session.from_conversations(
        conversations,
        path=files[0] if paths else None,
        documents=documents,
    )
    if len(files) > 1:  # several files: each conversation is named by its file
        for conv, (name, part) in zip(session.convs, sources, strict=True):
            conv.source, conv.part = name, part
    if format:
        session.format = format
    session.load_warnings = load_warnings
    return session


def _loads_named(data: bytes, format: str | None, name: str) -> list[Conversation]:
    try:
        return loads(data, format=format)
    except FormatError as exc:
        raise exc.located(file=name) from None


def _is_regular(path: str) -> bool:
    """Whether ``path`` is a regular file (or missing: its error comes from the load)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True


def in_daemon_thread(work: Callable[[], T], cancel: CancelFlag, poll: float = 0.05) -> T:
    """``work()``'s result (or exception), from a daemon thread; ``Cancelled`` as soon as
    ``cancel`` is set, the thread left behind.

    A load can block for ever where nothing can interrupt it (the open of a FIFO with no
    writer, a read of a silent pipe). In a daemon thread it never keeps the process alive:
    the app quits at once and the interpreter does not wait for it at exit."""
    outcome: list = []

    def run() -> None:
        try:
            outcome.append((True, work()))
        except BaseException as exc:  # handed to the caller's thread
            outcome.append((False, exc))

    thread = threading.Thread(target=run, name="msgviewer-load", daemon=True)
    thread.start()
    while thread.is_alive():
        if cancel.is_set():
            raise Cancelled
        thread.join(poll)
    ok, value = outcome[0]
    if not ok:
        raise value
    return value


def _size(path: str) -> int | None:
    try:
        return Path(path).stat().st_size if path != "-" else None
    except OSError:
        return None


class Follower:
    """Watches one file and re-reads it when it grows (a live session log).

    Only complete lines are read: a last line still being written is left for the next poll.
    """

    def __init__(self, path: str, format: str | None = None) -> None:
        self.path = path
        self.format = format
        self._seen: tuple[int, int] | None = self._stamp()

    def _stamp(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_size, st.st_mtime_ns

    def changed(self) -> bool:
        """True when the file's size or time changed since the last read."""
        return self._stamp() != self._seen

    def read(self) -> list[Conversation] | None:
        """The file's conversations now, or None if it is unchanged or mid-write."""
        stamp = self._stamp()
        if stamp is None or stamp == self._seen:
            return None
        data = Path(self.path).read_bytes()
        complete = data
        if data.rstrip(b" \t\r") and not data.endswith(b"\n"):
            cut = data.rfind(b"\n")
            complete = data[: cut + 1] if cut != -1 else b""
        if not complete.strip():
            return None
        try:
            conversations = loads(complete, format=self.format)
        except FormatError:
            try:  # a single JSON document that is being rewritten: try the whole file
                conversations = loads(data, format=self.format)
            except FormatError:
                return None  # mid-write: wait for the next change
        self._seen = stamp
        return conversations
