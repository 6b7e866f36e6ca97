"""A whole JSON document is parsed by msgspec (``io.loads_whole``): it must read every text as
the usual way does (orjson, or the standard library where an integer passes 64 bits), value
for value and type for type, and refuse what that way refuses, with the same error."""

from __future__ import annotations

import json
import sys
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from msgviewer.core import json_numbers
from msgviewer.formats import io
from msgviewer.formats.io import has_long_numbers, loads_whole


def _usual(data: bytes) -> tuple[str, str]:
    """What the reading made of a text before msgspec: the value's repr (types and key order
    count), or orjson's error."""
    try:
        value = json_numbers.exact_or_raise(data) if has_long_numbers(data) else orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        return "error", str(exc)
    return "value", _repr(value)


def _now(data: bytes) -> tuple[str, str]:
    # At the recursion limit a process has (Hypothesis raises it while it runs a test, and
    # msgspec is asked only below orjson's depth)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        value = loads_whole(memoryview(data))
    except orjson.JSONDecodeError as exc:
        return "error", str(exc)
    finally:
        sys.setrecursionlimit(limit)
    return "value", _repr(value)


def _repr(value: Any) -> str:
    """``repr`` of any value read: integers of any length, nesting of any depth."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(10_000)
    try:
        with io.int_digits(0):
            return repr(value)
    finally:
        sys.setrecursionlimit(limit)


_ints = st.one_of(
    st.integers(),
    st.integers(-(10**40), 10**40),
    st.sampled_from([2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1, 0]),
)
_floats = st.floats(allow_nan=False, allow_infinity=False)
_scalars = st.one_of(st.none(), st.booleans(), _ints, _floats, st.text())
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=20,
)


@st.composite
def _texts(draw: Any) -> bytes:
    """JSON texts as writers make them (ASCII or not, spaced or not), number spellings json
    does not write (exponents, long mantissas), keys given twice, and now and then one byte
    changed, dropped or added, which mostly makes a text that is not JSON."""
    value = draw(_values)
    text = json.dumps(
        value, ensure_ascii=draw(st.booleans()), indent=draw(st.sampled_from([None, 1]))
    )
    extra = draw(
        st.sampled_from(
            ["", "1e5", "-0", "-0.0", "1E-400", "0.1234567890123456789012",
             "12345678901234567890e-3", "1e400", "NaN", '"\\ud800"', '"\\ud83d\\ude00"', "[]",
             "{}"]
        )
    )  # fmt: skip
    if extra:
        key = draw(st.sampled_from(["k", "a"]))
        text = f'{{"{key}": {text}, "a": {extra}, "{key}": {extra}}}'
    data = text.encode("utf-8", "surrogatepass")
    edit = draw(st.sampled_from(["none", "none", "change", "drop", "add"]))
    if edit != "none" and data:
        at = draw(st.integers(0, len(data) - 1))
        byte = bytes([draw(st.integers(0, 255))])
        if edit == "change":
            data = data[:at] + byte + data[at + 1 :]
        elif edit == "drop":
            data = data[:at] + data[at + 1 :]
        else:
            data = data[:at] + byte + data[at:]
    return data


@settings(max_examples=1500, deadline=None)
@given(_texts())
def test_msgspec_reads_every_text_as_the_usual_way(data: bytes) -> None:
    assert _now(data) == _usual(data)


@pytest.mark.parametrize(
    "text",
    [
        b"[" + b"7" * 5000 + b"]",  # past msgspec's 4,300 digits: the standard library reads it
        b'{"a": ' + b"[" * 1023 + b"]" * 1023 + b"}",  # deeper than msgspec goes by default
        b"[" * 1025 + b"]" * 1025,  # deeper than orjson goes: an error either way
        b'{"a": 1, "a": 2}',
        b"\xff",
        b'{"a": NaN}',
    ],
    ids=["5000 digits", "1023 deep", "1025 deep", "a key twice", "not UTF-8", "NaN"],
)
def test_texts_msgspec_refuses_go_the_usual_way(text: bytes) -> None:
    assert _now(text) == _usual(text)


def test_past_orjsons_depth_msgspec_is_not_asked() -> None:
    # A raised recursion limit would let msgspec read nesting orjson refuses
    text = b"[" * 1100 + b"]" * 1100
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(5000)
    try:
        with pytest.raises(orjson.JSONDecodeError):
            loads_whole(text)
    finally:
        sys.setrecursionlimit(limit)


def test_a_long_integer_is_read_exactly() -> None:
    value = loads_whole(b'{"n": -9223372036854775809, "m": 99999999999999999999, "f": 1.5}')
    assert value == {"n": -9223372036854775809, "m": 99999999999999999999, "f": 1.5}
    assert [type(v) for v in value.values()] == [int, int, float]


def test_msgspec_is_asked_at_the_usual_recursion_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[Any] = []
    decode = json_numbers._decode
    monkeypatch.setattr(json_numbers, "_decode", lambda data: asked.append(data) or decode(data))
    assert _now(b'{"a": [1, 2.5, "x"]}') == ("value", "{'a': [1, 2.5, 'x']}")
    assert asked
