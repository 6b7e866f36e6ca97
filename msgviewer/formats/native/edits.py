"""Saving an edit into a native file by writing only the edited messages (``splice_edit``).

The native writer writes each message on its own: in a single conversation's pretty JSON every
message is one element of ``"messages"``, whose lines start four spaces in and whose first
line is ``{``; in a file of several conversations each conversation is one JSONL line. So the
writer's output for a few messages around an edit (one unchanged neighbour on each side) is,
byte for byte, the part of the whole output they stand for. Found at the same place in the file
(the same number of messages before it and after it), it is replaced by the output for the
messages as they are now: the rest of the file is neither written nor parsed.

Anything else (the file's layout around the edit is not the writer's, a title or metadata
edited, the edit reaching every message) answers None, and the caller splices whole texts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ...core.spans import changed_span as span_of
from ..base import Conversation
from ..io import json_bytes, jsonl_bytes

__all__ = ["changed_span", "splice_edit"]

_KEY = b'\n  "messages": ['
_TAIL = b"\n  ]\n}\n"
_ELEMENT = b"\n    {"  # a message's first line: nothing deeper starts a line with 4 spaces and {


def changed_span(old: Sequence[Any], new: Sequence[Any]) -> tuple[int, int, int] | None:
    """(start, old end, new end): ``old[start:old end]`` became ``new[start:new end]``, the
    items outside being the same objects; None if all are."""
    start, old_count, new_count = span_of(old, new)
    if not old_count and not new_count:
        return None
    return start, start + old_count, start + new_count


Pieces = list[bytes | memoryview]


def splice_edit(
    original: bytes, bases: Sequence[Conversation], news: Sequence[Conversation]
) -> Pieces | None:
    """``original`` (the native writer's output around the edit) with the edit written in, as
    pieces to write one after the other (views of ``original`` and the new records)."""
    if len(bases) != len(news) or not bases:
        return None
    try:
        if len(bases) == 1:
            return _single(original, bases[0], news[0])
        return _lines(original, bases, news)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError):
        return None  # (a value the writer cannot write: the whole-text way says which)


def _document(conv: Conversation) -> dict[str, Any]:
    from . import _document  # (the writer's own mapping)

    return _document(conv)


def _same_fields(a: Conversation, b: Conversation) -> bool:
    return a.title == b.title and (a.metadata is b.metadata or a.metadata == b.metadata)


def _single(original: bytes, base: Conversation, new: Conversation) -> Pieces | None:
    if not _same_fields(base, new):
        return None
    span = changed_span(base.messages, new.messages)
    if span is None:
        return [original]
    start, old_end, new_end = span
    total = len(base.messages)
    lo, hi = max(start - 1, 0), min(old_end + 1, total)
    if lo == 0 and hi == total:
        return None  # the edit reaches every message: nothing to keep
    b_doc = json_bytes(_document(replace(base, messages=base.messages[lo:hi])), pretty=True)
    n_doc = json_bytes(
        _document(replace(new, messages=new.messages[lo : new_end + hi - old_end])), pretty=True
    )
    key = b_doc.find(_KEY)
    if key == -1:
        return None  # (written on one line: a value too deep for the pretty writer)
    head = key + len(_KEY)
    if not (
        original.startswith(b_doc[:head])
        and n_doc.startswith(b_doc[:head])
        and original.endswith(_TAIL)
        and b_doc.endswith(_TAIL)
        and n_doc.endswith(_TAIL)
    ):
        return None
    b_body = b_doc[head : -len(_TAIL)]
    n_body = n_doc[head : -len(_TAIL)]
    pos = _locate(original, b_body, head, lo)
    if pos is None:
        return None
    end = pos + len(b_body)
    before = pos == head if lo == 0 else original[pos - 1] == 0x2C  # ,
    after = end == len(original) - len(_TAIL) if hi == total else original[end] == 0x2C
    if not (before and after and original.count(_ELEMENT, end) == total - hi):
        return None
    view = memoryview(original)
    return [view[:pos], n_body, view[end:]]


def _locate(original: bytes, body: bytes, start: int, before: int) -> int | None:
    """Where ``body`` starts in ``original`` with ``before`` messages ahead of it."""
    seen, at = 0, start
    pos = original.find(body, start)
    while pos != -1:
        seen += original.count(_ELEMENT, at, pos)
        at = pos
        if seen == before:
            return pos
        if seen > before:
            return None
        pos = original.find(body, pos + 1)
    return None


def _lines(
    original: bytes, bases: Sequence[Conversation], news: Sequence[Conversation]
) -> Pieces | None:
    """Several conversations, one JSONL line each: only the edited ones' lines rewritten."""
    if original.count(b"\n") != len(bases) or not original.endswith(b"\n"):
        return None
    out: Pieces = []
    view = memoryview(original)
    done = line = 0  # bytes of the original copied so far; the line they end on
    for index, (base, new) in enumerate(zip(bases, news, strict=True)):
        if new is base or (new.messages is base.messages and _same_fields(base, new)):
            continue
        if new.format != base.format:
            return None
        b_line = jsonl_bytes([_document(base)])
        pos = original.find(b_line, done)
        while pos != -1 and (pos and original[pos - 1] != 0x0A):
            pos = original.find(b_line, pos + 1)
        if pos == -1:
            return None
        line += original.count(b"\n", done, pos)
        if line != index:
            return None
        out += (view[done:pos], jsonl_bytes([_document(new)]))
        done = pos + len(b_line)
        line += 1
    out.append(view[done:])
    return out
