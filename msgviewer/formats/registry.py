"""The format registry: registering and finding formats, and detection. Reading any format
(``load``/``loads``) is in ``loading``, writing (``dump``/``dumps``) in ``writing``; both are
importable from here too."""

from __future__ import annotations

import mmap
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ..core.errors import FormatError
from .base import Format
from .io import Parsed, parse

_REGISTRY: dict[str, Format] = {}
_LAZY: dict[str, Callable[[], Format]] = {}
"""Formats registered by name whose module is imported when first used."""
_NAMES: list[str] = []
"""Every format's name, in the order registered."""
_RANKS: dict[str, int] = {}
# Detection order: the most specific formats first, so that a looser one (a bare list of
# role/content dicts) never claims a file a stricter one recognises.
_DETECT_ORDER: list[str] = []


def register(fmt: Format, *, detect_rank: int = 100) -> Format:
    """Add a format; lower ``detect_rank`` is tried earlier by detection."""
    _LAZY.pop(fmt.name, None)
    _REGISTRY[fmt.name] = fmt
    _rank(fmt.name, detect_rank)
    return fmt


def register_lazy(name: str, load: Callable[[], Format], *, detect_rank: int = 100) -> None:
    """Add a format that ``load`` makes when it is first needed (by name, by detection, or
    to list every format): a program that opens a native file never imports the others."""
    if name not in _REGISTRY:
        _LAZY[name] = load
    _rank(name, detect_rank)


def _rank(name: str, detect_rank: int) -> None:
    if name not in _RANKS:
        _NAMES.append(name)
        _DETECT_ORDER.append(name)
    _RANKS[name] = detect_rank
    _DETECT_ORDER.sort(key=lambda n: _RANKS[n])


def _format(name: str) -> Format:
    """The format called ``name``, made now if it was registered lazily (KeyError if none)."""
    fmt = _REGISTRY.get(name)
    if fmt is None:
        fmt = _LAZY[name]()
        if fmt.name != name:
            raise RuntimeError(f"format registered as {name!r} is named {fmt.name!r}")
        _REGISTRY[name] = fmt
        del _LAZY[name]
    return fmt


class _FormatTable(Mapping[str, tuple[bool, bool, str]]):
    """``FORMATS[name] -> (can_read, can_write, description)``, for every registered format."""

    def __getitem__(self, name: str) -> tuple[bool, bool, str]:
        fmt = _format(name)
        return (fmt.can_read, fmt.can_write, fmt.description)

    def __iter__(self) -> Iterator[str]:
        return iter(list(_NAMES))

    def __len__(self) -> int:
        return len(_NAMES)

    def __contains__(self, name: object) -> bool:
        return name in _RANKS


FORMATS: Mapping[str, tuple[bool, bool, str]] = _FormatTable()


def get_format(name: str) -> Format:
    """The format called ``name``; a ``FormatError`` listing the known ones otherwise."""
    try:
        return _format(name)
    except KeyError:
        raise FormatError(f"unknown format {name!r} (known: {', '.join(sorted(_NAMES))})") from None


def all_formats() -> list[Format]:
    return [_format(name) for name in list(_NAMES)]


# -- detection ---------------------------------------------------------------------------


def _describe(value: Any) -> str:
    if isinstance(value, dict):
        keys = list(value)[:8]
        more = ", ..." if len(value) > 8 else ""
        return f"top-level object has keys {', '.join(keys) or '(none)'}{more}"
    if isinstance(value, list):
        if not value:
            return "top-level array is empty"
        first = value[0]
        if isinstance(first, dict):
            return f"array of objects whose first has keys {', '.join(list(first)[:8])}"
        return f"array whose first item is {type(first).__name__}"
    return f"top-level value is {type(value).__name__}"


def sniff_value(value: Any) -> str | None:
    for name in _DETECT_ORDER:
        fmt = _format(name)
        if fmt.sniff is None or fmt.read is None:
            continue
        try:
            if fmt.sniff(value):
                return name
        except Exception:  # a sniffer must never stop detection
            continue
    return None


def detect_parsed(parsed: Parsed) -> str:
    """The format of parsed input, or a ``FormatError`` saying why none fits."""
    if parsed.is_jsonl:
        records = parsed.records or []
        # Session logs can open with housekeeping lines: look at the first few records.
        for record in records[:20]:
            name = sniff_value(record)
            if name is not None:
                return name
        if parsed.bad:  # a broken line says more than "not a conversation file"
            raise parsed.bad[0].error
        sample = records[0] if records else None
        raise FormatError(
            f"not a conversation file: JSONL whose first record: {_describe(sample)}",
            file=parsed.file,
            line=parsed.lines[0] if parsed.lines else None,
        )
    name = sniff_value(parsed.value)
    if name is None:
        raise FormatError(
            f"not a conversation file: {_describe(parsed.value)}", file=parsed.file, path="$"
        )
    return name


def detect(data: bytes | str | Any) -> str:
    """The name of the format of ``data`` (bytes, text, or an already parsed JSON value)."""
    if maybe_binary(data):
        name = sniff_binary(bytes(data))
        if name is not None:
            return name
    return detect_parsed(as_parsed(data, None))


# The first byte of JSON text (after a byte order mark or whitespace) is one of these: input
# starting with anything else may be a binary format (Inspect's zipped .eval logs).
_JSON_START = frozenset(b' \t\r\n{["-0123456789tfn\xef')


def maybe_binary(data: Any) -> bool:
    return isinstance(data, (bytes, bytearray, memoryview, mmap.mmap)) and (
        len(data) > 0 and data[0] not in _JSON_START
    )


def sniff_binary(data: bytes) -> str | None:
    for name in _DETECT_ORDER:
        fmt = _format(name)
        if fmt.sniff_binary is None or fmt.read_binary is None:
            continue
        try:
            if fmt.sniff_binary(data):
                return name
        except Exception:  # a sniffer must never stop detection
            continue
    return None


def as_parsed(data: Any, file: str | None) -> Parsed:
    if isinstance(data, mmap.mmap):
        return parse(data, file)
    if isinstance(data, (bytes, bytearray, memoryview)):
        return parse(bytes(data), file)
    if isinstance(data, str):
        return parse(data, file)
    if isinstance(data, Parsed):
        return data
    return Parsed(value=data, file=file)


_MOVED = {
    "dump": "writing",
    "dumps": "writing",
    "lossy_warnings": "writing",
    "iter_load": "loading",
    "load": "loading",
    "loads": "loading",
    "read_parsed": "loading",
}


def detection_order() -> tuple[str, ...]:
    """The names of the formats in the order detection tries them."""
    return tuple(_DETECT_ORDER)


def __getattr__(name: str) -> object:
    # Reading and writing moved to modules of their own (which look formats up here); the
    # old place still finds them, for code written against the first release.
    if name in _MOVED:
        from importlib import import_module

        return getattr(import_module(f".{_MOVED[name]}", __package__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
