"""Opening a long line-based log first screen first (headless: run in a worker thread).

A session log (Claude Code, Codex, native or any other JSONL) can be shown before it is read
through: its first complete lines are a valid log of their own. ``ProgressiveLoad`` reads it as
``Follower`` reads a growing file: longer and longer prefixes, each cut at a line end and read
on its own into a provisional ``Session``, then the whole file the usual way (``load_session``)
into the session that replaces them. The provisional ones are only for looking: they have no
documents to edit or save through, and no analyses. The final session is the one a plain load
makes, whatever the prefixes showed (a reader that needs the whole file, as Claude Code's does
for its sub-agent files and split responses, is exact there).

Each prefix is ``GROWTH`` times the last, and none is read past a sixteenth of the file, so the
prefixes cost at most about a twentieth of the whole read (and hold as little memory), and the
first costs the same whatever the file's size.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterator

import orjson

from ...core.errors import FormatError
from ...formats import loads
from ...formats.jsonl_file import reporting
from .loader import Cancelled, load_session
from .session import CancelFlag, Session

FIRST_BYTES = 256 * 1024
"""How much of the file the first provisional screen is read from."""
GROWTH = 4
"""Each provisional prefix is this many times the last."""
LAST_SHARE = 16
"""No provisional prefix goes past 1/LAST_SHARE of the file: the whole read follows."""

step_hook: Callable[[int, int], None] | None = None
"""Called before each step with (bytes about to be read, file size), the file's size announcing
the whole read, then as that read goes on with (bytes read so far, file size): tests slow the
reader down through it; None in the app."""

Reading = Callable[[int, int], None]
"""Told (bytes read so far, file size) as the whole read goes on."""


class Step:
    """One step of a progressive load: a session and how much of the file it holds."""

    __slots__ = ("done", "read", "session", "size")

    def __init__(self, session: Session, read: int, size: int, done: bool) -> None:
        self.session = session
        self.read = read
        self.size = size
        self.done = done

    @property
    def percent(self) -> int:
        return 100 if self.done or not self.size else min(99, self.read * 100 // self.size)


def line_based(head: bytes) -> bool:
    """Whether a file starting with ``head`` is JSON lines (its first line a whole object)."""
    start = head.lstrip()
    end = start.find(b"\n")
    if not start.startswith(b"{") or end == -1:
        return False
    try:
        return isinstance(orjson.loads(start[:end]), dict)
    except orjson.JSONDecodeError:
        return False


def progressive(paths: list[str], first: int | None = None) -> str | None:
    """The path to open progressively, or None (several files, standard input, a file too
    short to gain anything, or not line-based)."""
    if len(paths) != 1 or paths[0] == "-":
        return None
    path = paths[0]
    first = first or FIRST_BYTES
    try:
        if not os.path.isfile(path) or os.path.getsize(path) <= 2 * first:
            return None
        with open(path, "rb") as fh:
            head = fh.read(first)
    except OSError:
        return None
    return path if line_based(head) else None


class ProgressiveLoad:
    """The steps of opening one line-based file: provisional sessions, then the final one."""

    def __init__(self, path: str, format: str | None = None, first: int | None = None) -> None:
        self.path = path
        self.format = format
        self.first = first or FIRST_BYTES

    def steps(
        self, cancel: CancelFlag | None = None, reading: Reading | None = None
    ) -> Iterator[Step]:
        """Provisional steps over growing prefixes, then the final step (``done``); the
        whole read that makes it tells ``reading`` how far it has got, piece by piece."""
        size = os.path.getsize(self.path)
        fmt = self.format
        want = self.first
        shown = 0
        with open(self.path, "rb") as fh:
            while want <= max(self.first, size // LAST_SHARE):
                if cancel is not None and cancel.is_set():
                    raise Cancelled
                if step_hook is not None:
                    step_hook(want, size)
                fh.seek(0)
                data = fh.read(want)
                cut = data.rfind(b"\n") + 1
                try:
                    # (what reading warns of is the whole file's to report, once)
                    with warnings.catch_warnings(record=True):
                        warnings.simplefilter("ignore")
                        convs = loads(data[:cut], format=fmt) if cut > shown else None
                except FormatError:
                    convs = None  # (a prefix need not be readable: the whole file will say)
                if convs:
                    fmt = fmt or convs[0].format
                    session = Session.from_conversations(convs, path=self.path)
                    session.format = fmt
                    shown = cut
                    yield Step(session, cut, size, done=False)
                elif shown == 0:
                    break  # the head is not readable on its own: read the whole at once
                want *= GROWTH
        if step_hook is not None:
            step_hook(size, size)

        def read_so_far(read: int) -> None:
            if cancel is not None and cancel.is_set():
                raise Cancelled  # (out of the parse: the app is closing)
            if reading is not None:
                reading(read, size)
            if step_hook is not None:
                step_hook(read, size)

        with reporting(read_so_far):
            session = load_session([self.path], format=self.format, cancel=cancel)
        yield Step(session, size, size, done=True)
