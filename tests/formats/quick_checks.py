"""Checks shared by the tests of a format's quick reading: it must read exactly as the careful
reader does (the same conversations, key order included, warnings, errors and written bytes).

A test module gives ``careful_only``, a context manager in which the format reads every message
the careful way, and compares with ``assert_same_reading``.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import strategies as st

from bench.generate import generate
from msgviewer import LossyConversionWarning, dumps, loads
from msgviewer.core.errors import MsgviewerError
from tests.corpus import CORPUS

Reading = tuple[str, list[str], bytes | None]
"""What a reading gave: the conversations' repr (or the error), the warnings, what writing
the same format gives back."""


def reading(data: bytes, name: str) -> Reading:
    """Everything a load of ``data`` shows: repr keeps dict key order, which ``==`` ignores."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            conversations = loads(data, format=name)
        except MsgviewerError as exc:
            where = (getattr(exc, "file", None), getattr(exc, "line", None))
            return f"{type(exc).__name__}: {exc} {where} {getattr(exc, 'path', None)}", [], None
    shown = [f"{w.category.__name__}: {w.message}" for w in caught]
    try:
        written = dumps(conversations[0] if len(conversations) == 1 else conversations, format=name)
    except MsgviewerError as exc:
        written = f"{type(exc).__name__}: {exc}".encode()
    return repr(conversations), shown, written


def assert_same_reading(
    data: bytes, name: str, careful_only: Callable[[], AbstractContextManager[None]]
) -> None:
    quick = reading(data, name)
    with careful_only():
        careful = reading(data, name)
    assert quick[0] == careful[0]
    assert quick[1] == careful[1]
    assert quick[2] == careful[2]


def generated(name: str, n: int, seed: int) -> bytes:
    """A history of ``n`` generated messages written in format ``name``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LossyConversionWarning)  # what the format cannot hold
        return dumps(generate(n, seed), format=name)


def corpus_files(name: str) -> list[Path]:
    folder = CORPUS / name
    if not folder.is_dir():
        pytest.skip(f"no corpus of {name} files here ({folder} is absent)")
    return sorted(p for p in folder.iterdir() if p.is_file())


# -- off-shape variants ----------------------------------------------------------------------

ODD_VALUES = [None, 3, -1, 1.5, True, False, "", "x", '{"a": 1}', [], [1], {}, {"zz": 1}]
"""Values put in place of a field: wrong types, empties, and a text that looks like JSON."""


def _children(node: Any) -> list[Any]:
    if isinstance(node, dict):
        return list(node)
    if isinstance(node, list):
        return list(range(len(node)))
    return []


def mutate(data: st.DataObject, doc: Any, messages_key: str | None) -> Any:
    """``doc`` with one change deep inside one of its messages (``doc[messages_key]``, or
    ``doc`` itself when it is the list): a field replaced by an odd value, removed, added,
    or the keys of an object or the items of an array put in another order."""
    doc = copy.deepcopy(doc)
    parent = doc if messages_key is None else doc[messages_key]
    if not parent:
        return doc
    key: Any = data.draw(st.integers(0, len(parent) - 1), label="message")
    while _children(parent[key]) and data.draw(st.booleans(), label="deeper"):
        parent = parent[key]
        key = data.draw(st.sampled_from(_children(parent)), label="key")
    action = data.draw(st.sampled_from(["replace", "delete", "add", "reorder"]), label="action")
    node = parent[key]
    if action == "replace":
        parent[key] = copy.deepcopy(data.draw(st.sampled_from(ODD_VALUES), label="value"))
    elif action == "delete":
        del parent[key]
    elif action == "add" and isinstance(node, dict):
        node[data.draw(st.sampled_from(["zz", "id", "type", "extra"]), label="new")] = 1
    elif action == "reorder" and isinstance(node, dict):
        parent[key] = dict(reversed(node.items()))
    elif action == "reorder" and isinstance(node, list):
        node.reverse()
    return doc


def dicts_in(value: Any, out: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Every dict inside ``value`` (messages, parts, calls, usage...), outermost first."""
    out = [] if out is None else out
    if isinstance(value, dict):
        out.append(value)
        for v in value.values():
            dicts_in(v, out)
    elif isinstance(value, list):
        for v in value:
            dicts_in(v, out)
    return out


def as_bytes(doc: Any) -> bytes:
    return orjson.dumps(doc)


def patched(obj: Any, attr: str, new: Any) -> Iterator[None]:
    """Set ``obj.attr`` to ``new`` for the block (a generator for ``contextmanager``)."""
    old = getattr(obj, attr)
    setattr(obj, attr, new)
    try:
        yield
    finally:
        setattr(obj, attr, old)
