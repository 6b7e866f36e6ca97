"""``has_long_numbers`` (whether a text may hold an integer past 64 bits) looks at a large text
in pieces; it must say what a search of the whole says, wherever the run of digits falls."""

from __future__ import annotations

import re
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from msgviewer import (
    Conversation,
    LossyConversionWarning,
    Message,
    ServerToolCallBlock,
    TextBlock,
    ToolCall,
    dumps,
    loads,
)
from msgviewer.core import json_numbers
from msgviewer.formats import FORMATS, io
from msgviewer.formats.io import has_long_numbers

_RUN = re.compile(rb"[0-9]{19}")


def _truth(data: bytes) -> bool:
    return _RUN.search(data) is not None


@pytest.fixture
def small_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pieces of 64 bytes, so that runs fall across their edges."""
    monkeypatch.setattr(json_numbers, "_SCAN_PIECE", 64)


# Texts of digits and the bytes around numbers in JSON, long enough for the sampled search.
_texts = st.lists(
    st.one_of(
        st.text("0123456789", min_size=1, max_size=40),
        st.sampled_from(['"', ",", ":", ".", "-", " ", "e", "T", "\n", "{", "]"]),
    ),
    min_size=1,
    max_size=400,
).map(lambda parts: "".join(parts).encode())


@settings(max_examples=400, deadline=None)
@given(texts=_texts, pad=st.integers(0, 5000))
def test_the_sampled_search_finds_what_a_whole_search_finds(texts: bytes, pad: int) -> None:
    data = b" " * pad + texts + b" " * 4096
    assert has_long_numbers(data) is _truth(data)
    assert has_long_numbers(memoryview(data)) is _truth(data)


@settings(max_examples=200, deadline=None)
@given(texts=_texts, pad=st.integers(0, 200))
def test_runs_across_the_pieces_edges_are_found(texts: bytes, pad: int) -> None:
    json_numbers._SCAN_PIECE, before = 64, json_numbers._SCAN_PIECE
    try:
        data = b"x" * pad + texts + b"y" * 4096
        assert has_long_numbers(data) is _truth(data)
    finally:
        json_numbers._SCAN_PIECE = before


@pytest.mark.parametrize("at", range(0, 64))
def test_a_run_of_19_digits_is_found_at_every_offset(at: int, small_pieces: None) -> None:
    data = bytearray(b" " * 5000)
    data[1000 + at : 1000 + at + 19] = b"1234567890123456789"
    assert has_long_numbers(bytes(data))
    data[1000 + at + 18] = ord(" ")  # 18 digits: not long
    assert not has_long_numbers(bytes(data))


def test_many_near_misses_still_give_the_right_answer() -> None:
    near = b"[" + b",".join(b"123456789012345678" for _ in range(5000)) + b"]"
    assert not has_long_numbers(near)
    assert has_long_numbers(near[:-1] + b",1234567890123456789]")


@pytest.mark.parametrize("odd", ["NaN", "Infinity", "-Infinity"])
def test_text_that_is_not_json_is_refused_with_or_without_a_long_integer(odd: str) -> None:
    # orjson refuses these; the standard library, which reads long integers, must refuse
    # them too, or a text would read or not depending on a string elsewhere in it
    for text in (f'{{"n": {odd}}}', f'{{"n": {odd}, "s": "1234567890123456789"}}'):
        with pytest.raises(ValueError):
            io.loads_exactly(text)


@pytest.mark.parametrize(
    "n", [-9223372036854775809, 99999999999999999999, 18446744073709551616, 10**40]
)
def test_long_integers_in_json_text_are_read_exactly(n: int) -> None:
    for text in (f'{{"n": {n}}}', f'{{"a": [{{"n": {n}}}], "x": 1.5}}'):
        value = io.loads_exactly(text)
        found = value["n"] if "n" in value else value["a"][0]["n"]
        assert type(found) is int and found == n


@pytest.mark.parametrize("half", ["\\ud800", "\\udfff", "\\uDBFF x"])
def test_half_a_surrogate_pair_is_refused_with_or_without_a_long_integer(half: str) -> None:
    # orjson refuses it; so must the exact reading a long integer elsewhere in the text sends
    # the text to (else whether a file reads would hang on that integer)
    for number in ("1", "123456789012345678901234"):
        with pytest.raises(ValueError):
            io.loads_whole(f'{{"a": "{half}", "n": {number}}}'.encode())
    pair = io.loads_whole(b'{"a": "\\ud83d\\ude00", "n": 123456789012345678901234}')
    assert pair == {"a": "\U0001f600", "n": 123456789012345678901234}


_BIG = 123456789012345678901234


def _with_long_integers() -> Conversation:
    call = ToolCall("c1", "lookup", {"id": _BIG, "nested": {"ids": [_BIG]}})
    server = ServerToolCallBlock("s1", "web_search", {"n": _BIG}, extra={"tool_type": "web"})
    return Conversation(
        (
            Message("user", "go"),
            Message("assistant", (TextBlock("calling"), server), tool_calls=(call,)),
            Message("tool", "found", tool_call_id="c1", name="lookup"),
            Message("assistant", "done"),
        ),
        "msgviewer",
        {"seed": _BIG},
    )


@pytest.mark.parametrize("fmt", sorted(n for n, (_r, w, _d) in FORMATS.items() if w))
def test_every_format_writes_an_integer_past_64_bits_and_reads_it_back(fmt: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LossyConversionWarning)
        written = dumps(_with_long_integers(), format=fmt)
    assert str(_BIG).encode() in written
    if not FORMATS[fmt][0]:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (back,) = loads(written, format=fmt)
    [call] = [c for m in back.messages for c in m.tool_calls]
    assert call.args["id"] == _BIG and type(call.args["id"]) is int
