"""Reading conversations from any format: ``load`` (a file), ``loads`` (bytes, text or a
parsed value) and ``iter_load`` (one conversation at a time), over the formats in ``registry``.

The quick ways come first: a binary format (Inspect's ``.eval``), a file decoded straight into
typed records (native, OpenAI Chat of the common shapes), a JSONL file parsed piece by piece as
it is read; the rest is parsed whole by ``orjson`` and read by its format's reader.
"""

from __future__ import annotations

import gc
import mmap
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any, BinaryIO

import orjson

from ..core.errors import FormatError
from .base import Context, Conversation, Format
from .io import Parsed, iter_jsonl, read_buffer, read_bytes
from .jsonl_file import parse_jsonl_file
from .reading import as_utf8
from .registry import (
    as_parsed,
    detect_parsed,
    detection_order,
    get_format,
    maybe_binary,
    sniff_binary,
    sniff_value,
)


def _read_binary(data: Any, format: str | None, file: str | None) -> list[Conversation] | None:
    """The conversations of input in a binary format (None for JSON text: the usual way)."""
    if not maybe_binary(data):
        return None
    raw = bytes(data)
    name = format or sniff_binary(raw)
    if name is None:
        return None
    fmt = get_format(name)
    if fmt.read_binary is None:
        return None  # (the usual way: its parse error says the input is not JSON)
    return _located(fmt.read_binary, raw, Context(file=file))


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the garbage collector while building many small immutable objects.

    Most of the cost of building 10^5 messages is the collector walking the new objects
    again and again; none of them form cycles, so a pause loses nothing.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.freeze()  # the new objects are long-lived: keep them out of later collections
            gc.enable()


def read_parsed(parsed: Parsed, fmt: Format) -> list[Conversation]:
    """Conversations of parsed input in a known format."""
    if fmt.read is None:
        raise FormatError(f"the {fmt.name} format can be written but not read", file=parsed.file)
    with _collector_paused():
        if parsed.is_jsonl:
            records = parsed.records or []
            lines = parsed.lines or []
            if parsed.bad and not (fmt.stream and fmt.raw_lines):
                raise parsed.bad[0].error
            if fmt.stream:
                ctx = Context(file=parsed.file, lines=lines, owned=parsed.owned)
                return _located(fmt.read, records, ctx)
            out: list[Conversation] = []
            for record, line in zip(records, lines, strict=False):
                ctx = Context(file=parsed.file, line=line, owned=parsed.owned)
                out.extend(_located(fmt.read, record, ctx))
            return out
        value = parsed.value
        if fmt.stream and not isinstance(value, list):  # a single record
            ctx = Context(file=parsed.file, lines=[1], owned=parsed.owned)
            return _located(fmt.read, [value], ctx)
        return _located(fmt.read, value, Context(file=parsed.file, owned=parsed.owned))


def _located(read: Any, value: Any, ctx: Context) -> list[Conversation]:
    try:
        return read(value, ctx)
    except FormatError as exc:
        raise exc.located(file=ctx.file, line=ctx.line) from None
    except orjson.JSONEncodeError as exc:
        # orjson writes at most 254 levels: a reader re-encoding a deeper value meets this.
        if "recursion" not in str(exc).lower():
            raise ctx.error(f"unexpected data (TypeError: {exc})") from None
        raise _too_deep(value, ctx) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        # A reader met a shape it did not expect: say where, never a bare traceback.
        raise ctx.error(f"unexpected data ({type(exc).__name__}: {exc})") from None
    except RecursionError:
        # orjson parses up to 1024 levels; Python code walking that deep runs out of stack.
        raise _too_deep(value, ctx) from None


# Path segments named in a "nested too deeply" error before it is cut short.
_PATH_SHOWN = 12


def _too_deep(value: Any, ctx: Context) -> FormatError:
    """An error naming where ``value`` nests deepest (found without recursion)."""
    records = ctx.lines is not None and isinstance(value, list)
    best_path, best_depth, best_record = "$", 0, None
    stack: list[tuple[Any, str, int, int | None]] = (
        [(v, "$", 0, r) for r, v in enumerate(value)] if records else [(value, "$", 0, None)]
    )
    while stack:
        node, path, depth, record = stack.pop()
        if depth > best_depth:
            best_path, best_depth, best_record = path, depth, record
        if isinstance(node, dict):
            items: Any = ((f".{k}", v) for k, v in node.items())
        elif isinstance(node, list):
            items = ((f"[{i}]", v) for i, v in enumerate(node))
        else:
            continue
        for seg, child in items:
            shown = path + seg if depth < _PATH_SHOWN else path
            stack.append((child, shown, depth + 1, record))
    if best_depth > _PATH_SHOWN:
        best_path += "..."
    return ctx.error(
        f"nested too deeply to read ({best_depth} levels)", best_path, record=best_record
    )


def loads(data: bytes | str | Any, *, format: str | None = None) -> list[Conversation]:
    """Conversations from bytes, text or a parsed JSON value, detecting the format if not given."""
    return _loads(data, format, None)


def _read_typed(data: Any, format: str | None, file: str | None) -> list[Conversation] | None:
    """A msgviewer file, or a Chat Completions file of the common shapes, decoded straight
    into typed records (a good part quicker than the usual parse); None for any other input,
    which goes the usual way. Detection looks at the same values it would otherwise have seen."""
    if format not in (None, "msgviewer", "openai-chat") or not isinstance(data, _TEXT_TYPES):
        return None
    if isinstance(data, memoryview) and not data.c_contiguous:
        return None  # (a strided view: its bytes are a copy, made the usual way)
    head = data[:64]
    if type(head) is str:
        head = head.encode(errors="replace")
    native_first = detection_order()[0] == "msgviewer"  # (unless a format added ranks before it)
    if format == "msgviewer" or (format is None and native_first and _NATIVE_START.match(head)):
        from .native import typed as native_typed

        return native_typed.read(data, file)
    from .openai_chat import typed, typed_read

    def chat(sample: Any) -> bool:  # what detection would say of it
        return format is not None or sniff_value(sample) == "openai-chat"

    doc = typed.decode(data, chat)
    if doc is None:  # (integers past 64 bits: the decoder looks where numbers can be)
        return None
    if not chat(typed.sample(doc)):
        return None
    return _located(typed_read.read, doc, Context(file=file))  # (None: the usual way after all)


_TEXT_TYPES = (bytes, bytearray, memoryview, mmap.mmap, str)
_NATIVE_START = re.compile(rb'\s*\{\s*"format"\s*:')


def _loads(data: Any, format: str | None, file: str | None) -> list[Conversation]:
    data = as_utf8(data, file)  # (UTF-16 or UTF-32 text with a byte-order mark)
    with _collector_paused():  # the parse makes as many objects as the build: pause for both
        binary = _read_binary(data, format, file)
        if binary is not None:
            return binary
        typed = _read_typed(data, format, file)
        if typed is not None:
            return typed
        parsed = as_parsed(data, file)
        name = format or detect_parsed(parsed)
        return read_parsed(parsed, get_format(name))


def load(
    source: str | os.PathLike[str] | BinaryIO, *, format: str | None = None
) -> list[Conversation]:
    """Conversations of a file (a path, ``-`` for standard input, or a binary file object).

    Raises ``TooLargeError`` (a ``FormatError``) for a file that needs more memory to read
    than the machine has free, before reading it."""
    from .memory import GIVE_BACK_FROM, give_back_freed

    conversations, size = _load(source, format)
    if size >= GIVE_BACK_FROM:  # (what was parsed is freed now: hand its pages back)
        give_back_freed()
    return conversations


def _load(
    source: str | os.PathLike[str] | BinaryIO, format: str | None
) -> tuple[list[Conversation], int]:
    """``load``, and the size of what was read."""
    if isinstance(source, (str, os.PathLike)) and os.fspath(source) != "-":
        path = os.fspath(source)
        size = _fits(path)
        with _collector_paused():
            # JSONL parsed as it is read: never the file's bytes and its records at once
            chosen: list[str] = []
            parsed = parse_jsonl_file(path, path, partial(_preparer, format, chosen))
            if parsed is not None:
                name = chosen[0] if chosen else format or detect_parsed(parsed)
                return read_parsed(parsed, get_format(name)), size
    data, name = read_buffer(source)
    data = as_utf8(data, name)  # (UTF-16 or UTF-32 text with a byte-order mark)
    size = len(data)
    with _collector_paused():  # the parse makes as many objects as the build: pause for both
        binary = _read_binary(data, format, name)
        if binary is not None:
            return binary, size
        typed = _read_typed(data, format, name)
        if typed is not None:
            return typed, size
        parsed = as_parsed(data, name)
        # The file's bytes are not needed to build the messages: let them go first, so the
        # bytes, the parsed tree and the new objects are never all alive at once.
        del data
        return read_parsed(parsed, get_format(format or detect_parsed(parsed))), size


def _preparer(format: str | None, chosen: list[str], first: Parsed) -> Any:
    """What prepares each record of a JSONL file as it is parsed (``Format.prepare``), for the
    format named or told by the ``first`` records (put in ``chosen``: the prepared records
    are not those the format was told by); None for a format without one, or none told."""
    try:
        name = format or detect_parsed(first)
        fmt = get_format(name)
    except FormatError:
        return None  # (said when the whole file is read)
    if not (fmt.stream and fmt.read is not None and fmt.prepare is not None):
        return None
    if first.bad and not fmt.raw_lines:
        return None
    chosen.append(name)
    return fmt.prepare()


def _fits(path: str, factor: float | None = None) -> int:
    """Raise ``TooLargeError`` for a file whose read needs more memory than is free
    (``factor`` times its size: ``memory.PEAK_FACTOR`` when not given); its size (0 if it
    cannot be asked)."""
    from .memory import PEAK_FACTOR, check_fits

    try:
        size = os.stat(path).st_size
    except OSError:
        return 0  # (reading says what is wrong)
    check_fits(path, size, factor=factor or PEAK_FACTOR)
    return size


def iter_load(
    source: str | os.PathLike[str] | BinaryIO, *, format: str | None = None
) -> Iterator[Conversation]:
    """Conversations of a file one at a time: a JSONL file of many conversations is parsed
    line by line as they are asked for, never all up front. Raises ``TooLargeError`` for a
    file that needs more memory than is free, before reading what it needs."""
    from .memory import ONE_BY_ONE_FACTOR, PEAK_FACTOR

    # (a path's size can be asked before reading; a file object or "-" is read within a bound)
    path = os.fspath(source) if isinstance(source, (str, os.PathLike)) else "-"
    if path != "-":
        _fits(path, ONE_BY_ONE_FACTOR)
    data, name = read_bytes(source)

    def whole() -> Iterator[Conversation]:
        if path != "-":  # (its bytes are in memory already: the rest of a whole read's peak)
            _fits(path, PEAK_FACTOR - 1)
        return iter(_loads(data, format, name))

    data = as_utf8(data, name)
    stripped = data.lstrip()
    first_nl = stripped.find(b"\n")
    if first_nl == -1 or not stripped[:first_nl].strip().startswith(b"{"):
        yield from whole()
        return
    try:
        first = next(iter_jsonl(stripped[: first_nl + 1], name))[1]
    except (FormatError, StopIteration):
        yield from whole()
        return
    fmt_name = format or sniff_value(first)
    fmt = get_format(fmt_name) if fmt_name else None
    if fmt is None or fmt.stream or fmt.read is None:
        yield from whole()
        return
    for line, record in iter_jsonl(data, name):
        yield from _located(fmt.read, record, Context(file=name, line=line))
