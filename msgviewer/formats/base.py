"""What every format module builds on: ``Conversation``, the ``Format`` record, and ``Context``.

A format module is a pair of plain functions (read, write) and a detector. Readers take one
parsed JSON value and return conversations; writers take conversations and return bytes. The
registry (``registry.py``) does the file handling, detection and error locations around them.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core._frozen import set_field, value
from ..core.errors import FormatError
from ..core.message import Message


class LossyConversionWarning(UserWarning):
    """Written output cannot carry something the conversation has; says what and where."""


class FormatWarning(UserWarning):
    """Input that was read, but part of it was not understood (kept verbatim)."""


@value
class Conversation:
    """One conversation: its messages, the format it came from, and request-level fields."""

    messages: tuple[Message, ...]
    format: str = "msgviewer"
    """Name of the format it was read from (or is meant for)."""
    metadata: dict[str, Any] = field(default_factory=dict)
    """Request-level fields that are not messages: model, tools, temperature..."""
    title: str | None = None

    def __post_init__(self) -> None:
        if type(self.messages) is not tuple:
            set_field(self, "messages", tuple(self.messages))


def read_from(conv: Conversation, name: str, shape_keys: Collection[str]) -> bool:
    """Whether ``conv`` was read from a file of format ``name``: its format says so, or it went
    through msgviewer's own format, which keeps the record of ``name``'s shape (one of its
    ``Format.shape_keys`` in the metadata, as ``name``'s reader put it there) and every field
    beside it."""
    if conv.format == name:
        return True
    return conv.format == "msgviewer" and any(key in conv.metadata for key in shape_keys)


@dataclass
class Context:
    """Where the data being read came from, and a place to report warnings.

    ``line`` is the line of the current JSONL record (per-record formats); ``lines`` maps record
    index to line for formats that read a whole JSONL file as one conversation.
    """

    file: str | None = None
    line: int | None = None
    lines: Sequence[int] | None = None
    target: str | None = None
    """Name of the format being written (for warnings)."""
    owned: bool = False
    """The values were parsed for this read alone: a reader may take them apart rather than
    copy them (never true of a value a caller passed in)."""

    def each(self, items: list[Any]) -> Iterator[tuple[int, Any]]:
        """``enumerate(items)``, letting the items go as the reading moves on when the values
        were parsed for this read alone (``owned``): what the messages built from an item do not
        keep (its dicts, its lists) is then freed while the rest is read, and the objects built
        next take its place. Freed at the end instead, it leaves holes among the objects kept
        (a LangChain file kept 2.03x its size, 1.80x read this way). For a reader that looks
        only forwards from the item it reads."""
        if not self.owned:
            return enumerate(items)
        return _letting_go(items)

    def error(self, what: str, path: str = "$", *, record: int | None = None) -> FormatError:
        """A ``FormatError`` at ``path`` (of record ``record`` in a JSONL stream)."""
        line = self.line
        if record is not None and self.lines is not None and record < len(self.lines):
            line = self.lines[record]
        return FormatError(what, file=self.file, line=line, path=path)

    def where(self, path: str, record: int | None = None) -> str:
        """A human-readable location for a warning."""
        parts = []
        if self.file:
            parts.append(self.file)
        line = self.line
        if record is not None and self.lines is not None and record < len(self.lines):
            line = self.lines[record]
        if line is not None:
            parts.append(f"line {line}")
        parts.append(path)
        return ": ".join(parts)

    def warn(self, what: str, path: str = "$", *, record: int | None = None) -> None:
        """Part of the input was not understood but is kept (e.g. as an ``UnknownBlock``)."""
        warnings.warn(FormatWarning(f"{self.where(path, record)}: {what}"), stacklevel=3)

    def lossy(self, what: str, where: str) -> None:
        """The target format cannot carry ``what``, found at ``where`` (e.g. "message 3")."""
        target = f" to {self.target}" if self.target else ""
        warnings.warn(
            LossyConversionWarning(f"{where}: {what} cannot be written{target}; dropped"),
            stacklevel=3,
        )


Reader = Callable[[Any, Context], list[Conversation]]
Writer = Callable[[Sequence[Conversation], Context], bytes]
Sniffer = Callable[[Any], bool]
BinarySniffer = Callable[[bytes], bool]
BinaryReader = Callable[[bytes, Context], list[Conversation]]
EditSplicer = Callable[
    [bytes, Sequence[Conversation], Sequence[Conversation]], "list[bytes | memoryview] | None"
]


@dataclass(frozen=True)
class Format:
    """A wire format: how to recognise it, read it and write it."""

    name: str
    description: str
    sniff: Sniffer | None
    """Given one JSON value (a whole JSON file, or one JSONL record): is it this format?"""
    read: Reader | None
    """One JSON value -> its conversations. ``None`` for write-only formats."""
    write: Writer | None
    """Conversations -> file bytes. ``None`` for read-only formats."""
    stream: bool = False
    """A JSONL file is one conversation made of all its records (session logs). The reader
    then gets the list of records, and ``Context.lines`` their line numbers."""
    raw_lines: bool = False
    """The reader of a stream format takes JSONL lines that are not JSON, as ``io.RawLine``
    values among the records (reporting and keeping them); for other formats the first such
    line is the error."""
    multi: bool = False
    """The written file can hold several conversations."""
    cannot_carry: str = ""
    """What a conversation can have that this format has no place for (for docs and CLI)."""
    sniff_binary: BinarySniffer | None = None
    """Given the bytes of input that is not JSON text (a zip archive...): is it this format?"""
    read_binary: BinaryReader | None = None
    """Such bytes -> their conversations (formats whose files are not JSON text)."""
    prepare: Callable[[], Callable[[Any], None]] | None = None
    """For a stream format: a new function that begins reading each record of a JSONL file as
    soon as it is parsed (the reader then finds the record as that function left it), so what
    the reading frees is freed while the rest of the file is parsed into its place."""
    splice_edit: EditSplicer | None = None
    """(file bytes, its conversations as read, as they are now) -> the pieces of the file with
    only the edited messages' records rewritten, found without writing the rest; None when the
    bytes around the edit are not the writer's own (the caller splices whole texts)."""

    shape_keys: frozenset[str] = frozenset()
    """``Conversation.metadata`` keys that record only the shape of this format's file (a bare
    array, a dataset's records...) for its own writer: another format leaves them out without
    calling them lost (``dumps``); msgviewer's own keeps them."""

    @property
    def can_read(self) -> bool:
        return self.read is not None

    @property
    def can_write(self) -> bool:
        return self.write is not None


def add_kept(
    out: dict[str, Any],
    kept: dict[str, Any],
    lost: Callable[[str], None],
    reserved: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """``out`` with the ``kept`` fields (extra, metadata) added after the ones it has.

    A written field always wins: a kept field of the same name (or a ``reserved`` one, which
    the writer sets by other rules) is passed to ``lost`` unless it says the same.
    """
    for k, v in kept.items():
        if k in out or k in reserved:
            if out.get(k, _ABSENT) != v:
                lost(f"field {k!r} (it would replace a written one)")
            continue
        out[k] = v
    return out


_ABSENT = object()


def message_where(index: int, block: int | None = None) -> str:
    """ "message 3" or "message 3, block 1": how lossy warnings name a place."""
    return f"message {index}" if block is None else f"message {index}, block {block}"


_LET_GO_STEP = 256
"""Items let go together: a generator step per item would cost as much again as the loop."""


def _letting_go(items: list[Any]) -> Iterator[tuple[int, Any]]:
    size = len(items)
    for start in range(0, size, _LET_GO_STEP):
        end = min(start + _LET_GO_STEP, size)
        yield from enumerate(items[start:end], start)
        items[start:end] = [None] * (end - start)
