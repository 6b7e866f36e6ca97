"""A long Chat file's messages are decoded a piece at a time: what comes out is what the usual
way gives, whatever the cuts fall on, and a message off the common shapes costs its piece."""

from __future__ import annotations

import json
import mmap
import signal
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import orjson
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from msgviewer import dumps, loads
from msgviewer.core.errors import MsgviewerError
from msgviewer.formats.openai_chat import pieces, typed
from msgviewer.formats.registry import sniff_value
from tests.corpus import CORPUS

from .test_openai_chat_typed import (
    _SAMPLED,
    _assert_as_usual,
    _document,
    _history,
    _own,
    _with_parts,
)


@contextmanager
def _pieces_of(size: int) -> Iterator[list[Any]]:
    """Pieces of about ``size`` bytes; yields the pieces decoded (copies), as they come."""
    decoded: list[Any] = []
    cut = pieces.pieces

    def recorded(*args: Any) -> Iterator[Any]:
        for piece in cut(*args):
            decoded.append(bytes(piece))
            yield piece

    with mock.patch.object(pieces, "PIECE", size), mock.patch.object(pieces, "pieces", recorded):
        yield decoded


@settings(max_examples=400, deadline=None)
@given(_document, st.sampled_from([16, 64, 200]))
def test_any_file_cut_into_pieces_reads_as_the_usual_way(doc: Any, size: int) -> None:
    data = json.dumps(doc).encode()
    with _pieces_of(size) as decoded:
        _assert_as_usual(data)
    event("cut" if decoded else "whole")


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.builds(lambda d, own: {**d, **own}, _with_parts, _own), max_size=8),
    st.booleans(),
)
def test_keys_of_a_loggers_own_read_as_the_usual_way_in_pieces(tail: list[Any], body: bool) -> None:
    messages = _SAMPLED + tail
    data = json.dumps({"model": "gpt-5", "messages": messages} if body else messages).encode()
    with _pieces_of(120) as decoded:
        _assert_as_usual(data)
    assert decoded  # (long enough to be cut)


_USER = {"role": "user", "content": "hi"}


@pytest.mark.parametrize(
    "doc",
    [
        # a cut in another field's array of message-like objects, after the messages
        {
            "model": "m",
            "messages": [_USER],
            "tools": [dict(_USER, content=str(i)) for i in range(40)],
        },
        # what a cut looks for, inside a message's text
        [dict(_USER, content='x"}, {"role": "user"') for _ in range(60)],
        # another field before the messages, not a plain value
        {"stream_options": {"include_usage": True}, "messages": [_USER] * 60},
        # what a cut looks for, inside a message's own array (before its role)
        [{"x_note": [{"a": 1}, {"role": "u"}], **_USER} for _ in range(60)],
    ],
)
def test_cuts_the_usual_way_would_not_make_leave_the_file_whole(doc: Any) -> None:
    data = json.dumps(doc).encode()
    with _pieces_of(64):
        _assert_as_usual(data)


def test_cuts_move_on_however_small_the_pieces() -> None:
    """Each cut is a comma before a later message than the last cut's, even where a piece is
    shorter than the way from a comma to its "role" (an indented file)."""
    data = json.dumps([dict(_USER, content=str(i)) for i in range(40)], indent=2).encode()
    signal.alarm(10)  # (a cut found again and again would never return)
    try:
        with mock.patch.object(pieces, "PIECE", 4):
            at = pieces.cuts(data, 1)
    finally:
        signal.alarm(0)
    assert len(at) > 20 and at == sorted(set(at))
    assert all(data[c : c + 1] == b"," for c in at)


@pytest.mark.parametrize("key", ["messages", "messag\\u0065s", "\\u006Dessages"])
@pytest.mark.parametrize("first, second", [(30, 1), (1, 30)])
def test_messages_given_twice_read_as_the_usual_way(first: int, second: int, key: str) -> None:
    """The usual way keeps the last array, whichever piece holds it, however its key is
    written."""
    one = json.dumps([_USER] * first)
    two = json.dumps([dict(_USER, content=str(i)) for i in range(second)])
    data = f'{{"model": "m", "messages": {one}, "{key}": {two}}}'.encode()
    with _pieces_of(64) as decoded:
        _assert_as_usual(data)
    assert not decoded or second > 1  # (a second key in the last piece: not cut)


def test_two_keys_learned_in_pieces_apart() -> None:
    messages = [dict(_USER, content=f"hi {i}") for i in range(400)]
    messages[100] = {**messages[100], "x_note": 1}
    messages[300] = {**messages[300], "x_other": 2}
    data = orjson.dumps(messages)
    with _pieces_of(1024) as decoded:
        doc = typed.decode(data)
    assert doc is not None and len(decoded) > 5
    assert [m for m in doc if type(m) is dict] == [messages[100], messages[300]]
    with _pieces_of(1024):
        _assert_as_usual(data)


@pytest.mark.parametrize("learned, loose", [(100, 300), (300, 100)])
def test_a_key_learned_and_a_piece_decoded_loosely(learned: int, loose: int) -> None:
    messages = [dict(_USER, content=f"hi {i}") for i in range(400)]
    messages[learned] = {**messages[learned], "x_note": 1}
    messages[loose] = {**messages[loose], "content": None, "refusal": 7}  # (a value off them)
    data = orjson.dumps(messages)
    with _pieces_of(1024) as decoded:
        doc = typed.decode(data)
    assert doc is not None and len(decoded) > 5
    assert [m for m in doc if type(m) is dict] == [
        messages[min(learned, loose)],
        messages[max(learned, loose)],
    ]
    with _pieces_of(1024):
        _assert_as_usual(data)


def test_a_field_whose_array_holds_the_cut_is_not_taken_for_the_messages() -> None:
    # The first piece would end in the second "model" (a plain value first, an array after).
    inner = ", ".join(json.dumps(dict(_USER, content=str(i))) for i in range(40))
    data = f'{{"model": "m", "messages": [{json.dumps(_USER)}], "model": [{inner}]}}'.encode()
    with _pieces_of(64):
        _assert_as_usual(data)


def _with_one_odd(value: Any, odd: str) -> int:
    """Make one message of ``value`` odd as ``odd`` says; its place."""
    messages = value["messages"]
    if odd == "value":  # a web search's citations: a value of a type no record has
        at = next(
            i
            for i, m in enumerate(messages)
            if i >= len(messages) // 2 and m["role"] == "assistant" and type(m["content"]) is str
        )
        cited = {"url": "https://example.com/", "title": "Example", "start_index": 0}
        messages[at]["annotations"] = [{"type": "url_citation", "url_citation": cited}]
    else:  # a logger's own key: learned past what detection sees, not within it
        at = len(messages) // 2 if odd == "key" else 5
        messages[at]["x_logger_note"] = "kept"
    return at


def _counted(decoder: Any, sizes: list[int]) -> Any:
    return mock.Mock(decode=lambda piece: sizes.append(len(piece)) or decoder.decode(piece))


@pytest.mark.parametrize("odd", ["key", "value", "early"])
def test_one_odd_message_costs_its_piece(odd: str) -> None:
    value = orjson.loads(_history(3_000))
    at = _with_one_odd(value, odd)
    data = orjson.dumps(value)
    sizes: list[int] = []
    learning = typed._learning
    many = typed._many
    with (
        _pieces_of(1 << 16) as decoded,
        mock.patch.object(typed, "_decoder", _counted(typed._decoder, sizes)),
        mock.patch.object(typed, "_learning", lambda keys: _counted(learning(keys), sizes)),
        mock.patch.object(typed, "_loose", _counted(typed._loose, sizes)),
        mock.patch.object(typed, "_many", lambda batch: sizes.append(len(batch)) or many(batch)),
    ):
        doc = typed.decode(data)
    assert isinstance(doc, typed.Body) and len(decoded) > 10
    assert [m for m in doc.messages if type(m) is dict] == [value["messages"][at]]
    # every piece decoded once, the odd message's again: learning its key, or loosely (its
    # messages as raw JSON, then in batches): the file's bytes, brackets and commas added
    again = (1 if odd == "key" else 2) * max(len(p) for p in decoded)
    assert len(data) < sum(sizes) <= len(data) + again + 4 * len(decoded)
    _assert_as_usual(data)


_RESULT = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t"}]}
_CITED = {
    "role": "assistant",
    "content": [{"type": "text", "text": "cited", "citations": [{"type": "char_location"}]}],
}


@pytest.mark.parametrize(
    "at, odd, fields",
    [
        (3, _RESULT, None),  # Anthropic's blocks, in the first piece
        (200, _RESULT, None),  # in a later one
        # a body Anthropic's detection tells by its fields, with a block a chat part can be
        (3, _CITED, {"model": "claude-sonnet-4", "max_tokens": 4096}),
    ],
)
def test_another_formats_file_is_told_at_its_first_odd_piece(
    at: int, odd: Any, fields: Any
) -> None:
    """Detection looks at a piece decoded loosely as it would at the file: the pieces after
    it are not decoded for a file the usual way reads as another format's, nor is the file
    decoded loosely again from its start."""
    messages = [dict(_USER, content=f"hi {i}") for i in range(400)]
    messages[at] = odd
    value = messages if fields is None else {**fields, "messages": messages}
    data = orjson.dumps(value)
    assert sniff_value(value) == "anthropic"
    whole = mock.Mock(wraps=typed._decode_loosely)
    with _pieces_of(1024) as decoded, mock.patch.object(typed, "_decode_loosely", whole):
        doc = typed.decode(data, lambda seen: sniff_value(seen) == "openai-chat")
    assert doc is None and not whole.called
    assert decoded and sum(map(len, decoded)) < len(data) * 2 // 3
    _assert_as_usual(data)


def test_a_memory_map_is_cut_as_bytes_are(tmp_path: Path) -> None:
    data = orjson.dumps([dict(_USER, content=f"hi {i}") for i in range(400)])
    path = tmp_path / "run.json"
    path.write_bytes(data)
    with path.open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        with _pieces_of(512) as decoded:
            from_map = typed.decode(mapped)
        assert decoded and from_map == typed.decode(data)
        mapped.close()  # (no view of it is left open)


_CORPUS_JSON = sorted(CORPUS.rglob("*.json")) if CORPUS.is_dir() else []


def _read(data: bytes) -> Any:
    """What ``loads`` gives (key order too, which equal dicts do not compare) and says."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            convs = loads(data)
            result: Any = (repr(convs), [dumps(c, format=c.format) for c in convs])
        except MsgviewerError as exc:
            result = ("error", str(exc))
    return result, [str(w.message) for w in caught]


@pytest.mark.skipif(not _CORPUS_JSON, reason=f"no corpus of real files at {CORPUS}")
def test_every_real_json_file_reads_the_same_cut_into_small_pieces() -> None:
    cut = 0
    for path in _CORPUS_JSON:
        data = path.read_bytes()
        with _pieces_of(256) as decoded:
            in_pieces = _read(data)
        assert in_pieces == _read(data), path
        cut += bool(decoded)
    assert cut  # (a request body among them: the other files are not lists of messages)
