"""msgviewer files are decoded straight into typed records: what comes out is what the usual way
(``orjson``, then the native reader) gives, and anything else goes that way."""

from __future__ import annotations

import copy
import json
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from bench.generate import generate
from msgviewer import Conversation, Message, dumps, load, loads
from msgviewer.core import serialize
from msgviewer.core.errors import MsgviewerError
from msgviewer.core.serialize import to_dict
from msgviewer.formats import loading, registry
from msgviewer.formats.base import Format
from msgviewer.formats.native import typed

from ...strategies import histories


def _outcome(read: Any) -> Any:
    """What a read gives: its conversations and the bytes they write back (key order included,
    which equal dicts do not compare), or the error it says."""
    try:
        result = read()
    except MsgviewerError as exc:
        return ("error", str(exc))
    return result, [dumps(c) for c in result]


def _usual(data: Any, format: str | None = None) -> Any:
    """What the usual way gives: orjson's parse (or its error), detection, the reader."""

    def usual() -> Any:
        parsed = registry.as_parsed(data, None)
        name = format or registry.detect_parsed(parsed)
        return loading.read_parsed(parsed, registry.get_format(name))

    return _outcome(usual)


def _assert_as_usual(data: Any) -> bool:
    """``loads`` gives what the usual way gives; True when the typed way read the file."""
    taken = typed.read(data, None) is not None
    assert _outcome(lambda: loads(data)) == _usual(data)
    assert _outcome(lambda: loads(data, format="msgviewer")) == _usual(data, "msgviewer")
    return taken


# Values the usual way reads otherwise than the records would take them, or refuses.
_ODD_VALUES = [
    None,
    True,
    0,
    1.0,
    -1,
    2**63 - 1,
    2**63,
    2**64,
    -(2**63) - 1,
    "",
    "x",
    [],
    [1, {"a": 2**70}],
    {},
    {"a": 1},
    {"a": [1.5, None, {"b": "c"}]},
]
_ODD_ROLES = ["human", "AI", "Developer", "robot", "", "tool"]
_ODD_BLOCKS = [
    {"type": "text"},
    {"type": "text", "text": "x", "extra": {"cache_control": {"type": "ephemeral"}}},
    {"type": "text", "text": "x", "citations": [{"type": "citation", "url": "u", "start": 1}]},
    {"type": "text", "text": "x", "citations": [{"url": "u"}]},
    {"type": "text", "text": "x", "citations": [{"type": "text", "text": "y"}]},
    {"type": "image", "url": "data:image/png;base64,AAAA"},
    {"type": "image", "url": "data:image/png;base64,AAAA", "mime_type": "image/gif"},
    {"type": "file", "file_id": "f", "filename": "a.pdf", "extra": {}},
    {"type": "reasoning", "redacted": True, "data": "opaque"},
    {"type": "reasoning", "signature": None},
    {"type": "tool_call", "id": None, "name": "f", "args": {}},
    {"type": "tool_call", "id": "c", "name": "f", "args": []},
    {"type": "tool_call", "name": "f", "args": {}},
    {"type": "tool_call_chunk", "args": '{"a', "index": 0},
    {"type": "server_tool_call", "id": "s", "name": "search", "args": {"q": 2**64}},
    {"type": "server_tool_result", "tool_call_id": "s", "content": [1, "two", {"3": None}]},
    {"type": "tool_result", "tool_call_id": "c", "content": [{"type": "text", "text": "y"}]},
    {"type": "tool_result", "tool_call_id": "c", "content": [{"type": "mystery"}]},
    {"type": "tool_result", "tool_call_id": "c", "content": 5},
    {"type": "error", "message": "boom", "code": "E1"},
    {"type": "unknown", "kind": "x", "data": {"deep": [[2**64]]}},
    {"type": "unknown", "kind": "x"},
    {"type": "mystery", "x": 1},
    {"type": 3},
    {"text": "no type"},
]
_ODD_CALLS = [
    {"name": "f", "args": {}},
    {"id": None, "name": "f", "args": {"n": 2**64}},
    {"id": "c", "name": "f", "args": []},
    {"id": "c", "name": "f", "args": {}, "extra": {"index": 0}},
    {"id": "c", "name": "f", "args": {}, "extra": 1},
    {"id": 1, "name": "f", "args": {}},
    {"id": "c", "args": {}},
]


@st.composite
def _odd_document(draw: st.DrawFn) -> dict[str, Any]:
    """A native document with a few of its values replaced by odd ones."""
    history = draw(histories(max_turns=2))
    doc = to_dict(history, title=draw(st.none() | st.just("run")))
    messages = doc["messages"]
    for _ in range(draw(st.integers(0, 3))):
        where = draw(st.sampled_from(["doc", "message", "block", "call"] if messages else ["doc"]))
        if where == "doc":
            key = draw(st.sampled_from(["format", "version", "title", "metadata", "other"]))
            doc[key] = draw(st.sampled_from([*_ODD_VALUES, "msgviewer", 2]))
            continue
        m = draw(st.sampled_from(messages))
        if where == "message":
            key = draw(st.sampled_from([*sorted(serialize._MESSAGE_KEYS), "weight"]))
            values = _ODD_ROLES if key == "role" and draw(st.booleans()) else _ODD_VALUES
            if key == "usage" and draw(st.booleans()):
                values = [{"input_tokens": v} for v in _ODD_VALUES] + [{"extra": {"x": 1}}]
            m[key] = draw(st.sampled_from(values))
        elif where == "block":
            content = m["content"] if isinstance(m.get("content"), list) else []
            content.insert(draw(st.integers(0, len(content))), draw(st.sampled_from(_ODD_BLOCKS)))
            m["content"] = content
        else:
            calls = m["tool_calls"] if isinstance(m.get("tool_calls"), list) else []
            m["tool_calls"] = [*calls, draw(st.sampled_from(_ODD_CALLS))]
    return doc


@settings(max_examples=400, deadline=None)
@given(
    _odd_document(),
    st.sampled_from(["", " \n", "\ufeff", "\n\n"]),
    st.sampled_from([None, 2]),
    st.booleans(),
)
def test_files_read_as_the_usual_way_reads_them(
    doc: Any, space: str, indent: int | None, as_text: bool
) -> None:
    text = space + json.dumps(doc, indent=indent) + "\n"  # orjson writes no int past 64 bits
    data: Any = text if as_text else text.encode()
    event("typed" if _assert_as_usual(data) else "usual")


@settings(max_examples=200, deadline=None)
@given(histories(max_turns=3))
def test_every_native_file_takes_the_typed_way(history: list[Any]) -> None:
    # any file msgviewer writes is of the records' shapes
    data = dumps(Conversation(tuple(history), title="t", metadata={"k": [1]}))
    conversations = typed.read(data, None)
    assert conversations is not None
    assert _outcome(lambda: conversations) == _usual(data)


def test_an_agent_run_takes_the_typed_way(tmp_path: Path, monkeypatch: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = dumps(Conversation(tuple(generate(3_000, 3))))
    assert len(data) > 1 << 20  # read from a memory map
    path = tmp_path / "run.json"
    path.write_bytes(data)
    reads: list[Any] = []
    read = typed.read
    monkeypatch.setattr(typed, "read", lambda data, file: reads.append(file) or read(data, file))
    [conv] = load(path)
    assert reads == [str(path)] and read(data, None) is not None
    assert _outcome(lambda: [conv]) == _usual(data)
    assert loads(data) == [conv] and len(reads) == 2
    assert sum(len(m.tool_calls) for m in conv.messages) > 1_000


def _doc(message: str, *, head: str = "") -> bytes:
    return f'{{"format": "msgviewer", "version": 1, {head}"messages": [{message}]}}'.encode()


def test_integers_past_64_bits_read_exactly_the_usual_way() -> None:
    for tokens in (2**64, -(2**63) - 1, 2**63):
        data = _doc(
            f'{{"role": "assistant", "content": "x", "usage": {{"input_tokens": {tokens}}}}}'
        )
        assert not _assert_as_usual(data)
        assert loads(data)[0].messages[0].usage.input_tokens == tokens


def test_free_form_integers_past_64_bits_read_exactly() -> None:
    data = _doc(
        '{"role": "user", "content": "x", "metadata": {"n": 123456789012345678901234567890}}'
    )
    _assert_as_usual(data)  # (the file goes the exact way, whatever the records would take)
    assert loads(data)[0].messages[0].metadata == {"n": 123456789012345678901234567890}


@pytest.mark.parametrize("value", [b'"\xff"', b'"\\q"', b"1e400", b'"\\ud800"'])
def test_what_orjson_refuses_in_a_free_form_value_is_its_error(value: bytes) -> None:
    data = _doc('{"role": "user", "content": "x", "metadata": {"a": VALUE}}').replace(
        b"VALUE", value
    )
    assert typed.read(data, None) is None
    assert _outcome(lambda: loads(data))[0] == "error"
    assert _outcome(lambda: loads(data)) == _usual(data)


def _nested(depth: int, role: str = "user") -> bytes:
    """A document whose message metadata nests ``depth`` containers deep in the file."""
    inner = depth - 4  # the document, its messages, the message, the metadata
    value = "[" * inner + "]" * inner
    return _doc(f'{{"role": "{role}", "content": "x", "metadata": {{"a": {value}}}}}')


@pytest.fixture
def deep_recursion() -> Any:
    """Room for msgspec to decode past 1,000 levels (it stops at Python's recursion limit)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(5_000)
    yield
    sys.setrecursionlimit(limit)


@pytest.mark.parametrize("role", ["user", "Human"])  # built by the records, by the careful way
def test_nesting_is_read_to_orjsons_depth_and_no_further(deep_recursion: None, role: str) -> None:
    # (values this deep are too deep to compare or write: the reads are checked one by one)
    assert typed.read(_nested(1024, role), None) is not None  # the deepest orjson reads
    assert _usual(_nested(1024, role))[0] != "error"
    assert typed.read(_nested(1025, role), None) is None
    what, message = _usual(_nested(1025, role))
    assert what == "error" and "depth" in message
    assert _outcome(lambda: loads(_nested(1025, role))) == (what, message)


def test_nesting_past_msgspecs_depth_goes_the_usual_way() -> None:
    assert typed.read(_nested(1000), None) is None
    [conv] = loads(_nested(1000))
    assert len(conv.messages) == 1


def test_a_message_of_another_shape_goes_to_the_careful_decoder() -> None:
    data = _doc(
        '{"role": "Human", "content": [{"type": "image", "url": "data:image/png;base64,AAAA"}]}'
    )
    assert _assert_as_usual(data)
    [message] = loads(data)[0].messages
    assert message.role == "user" and message.content[0].data == "AAAA"


def test_what_the_careful_decoder_refuses_is_reported_the_usual_way() -> None:
    data = _doc('{"role": "robot", "content": "x"}')
    assert not _assert_as_usual(data)
    with pytest.raises(MsgviewerError, match=r"\$\.messages\[0\]\.role: unknown role 'robot'"):
        loads(data)


def test_header_fields_read_as_the_usual_way_reads_them() -> None:
    message = '{"role": "user", "content": "x"}'
    assert _assert_as_usual(_doc(message, head='"title": "run", "metadata": {"k": 1}, '))
    assert _assert_as_usual(_doc(message, head='"metadata": [], '))  # an empty one is none
    assert loads(_doc(message, head='"metadata": [], '))[0].metadata == {}
    for head in ('"metadata": [1], ', '"title": 5, ', '"extra": 1, '):
        assert not _assert_as_usual(_doc(message, head=head))
    newer = _doc(message).replace(b'"version": 1', b'"version": 2')
    assert not _assert_as_usual(newer)
    with pytest.raises(MsgviewerError, match="version 2 is not supported"):
        loads(newer)


def test_a_jsonl_file_of_documents_goes_the_usual_way() -> None:
    one = dumps(Conversation((), title="a")).replace(b"\n", b"")
    data = one + b"\n" + one + b"\n"
    assert not _assert_as_usual(data)
    assert len(loads(data)) == 2


@pytest.mark.xfail(strict=True, reason="a free-form value given twice: the first goes unchecked")
@pytest.mark.parametrize(
    "message",
    [
        '{"role": "user", "content": "x", "metadata": {"a": 1e400}, "metadata": {}}',
        # (or held by a record given twice: the records keep only the last one's values)
        '{"role": "user", "content": "x", "tool_calls": [{"name": "f", "args": {"a": 1e400}}], '
        '"tool_calls": []}',
    ],
)
def test_a_free_form_value_given_twice(message: str) -> None:
    data = _doc(message)
    assert _outcome(lambda: loads(data)) == _usual(data)


def test_a_usage_without_its_total_is_given_one() -> None:
    data = _doc(
        '{"role": "assistant", "content": "x", "usage": {"input_tokens": 3, "output_tokens": 4}}'
    )
    assert _assert_as_usual(data)
    assert loads(data)[0].messages[0].usage.total_tokens == 7


def _nested_results(depth: int) -> bytes:
    """A document whose tool results nest ``depth`` containers deep (a block, its content...)."""
    levels, odd = divmod(depth - 3, 2)  # the document, its messages, the message
    content = "[]" if odd else '"x"'
    for _ in range(levels):
        content = f'[{{"type": "tool_result", "tool_call_id": "c", "content": {content}}}]'
    return _doc(f'{{"role": "user", "content": {content}}}')


def test_records_nest_to_orjsons_depth_and_no_further(deep_recursion: None) -> None:
    # (with room to recurse, msgspec decodes records past the depth orjson reads)
    deepest = _nested_results(1024)
    assert typed.read(deepest, None) is not None
    assert _outcome(lambda: loads(deepest))[1] == _usual(deepest)[1]
    too_deep = _nested_results(1025)
    assert typed.read(too_deep, None) is None
    what, message = _usual(too_deep)
    assert what == "error" and "depth" in message
    assert _outcome(lambda: loads(too_deep)) == (what, message)


def test_text_of_a_str_subclass_reads_as_the_usual_way() -> None:
    class Text(str):
        pass

    data = Text(_doc('{"role": "user", "content": "x"}').decode())
    _assert_as_usual(data)  # (msgspec takes no str subclass: the usual way reads it)
    assert loads(data)[0].messages[0].text == "x"


def test_a_format_ranked_before_msgviewer_is_asked_first(monkeypatch: Any) -> None:
    # a format added with a rank before msgviewer's may claim a native file: the usual way asks
    # it first, and so the typed way is not taken
    for table in ("_REGISTRY", "_RANKS", "_NAMES", "_DETECT_ORDER"):
        monkeypatch.setattr(registry, table, copy.copy(getattr(registry, table)))
    own = Format(
        name="fixtures",
        description="replay fixtures titled as such",
        sniff=lambda value: isinstance(value, dict) and value.get("title") == "fixture",
        read=lambda value, ctx: [Conversation((), "fixtures", title="fixture")],
        write=None,
    )
    data = dumps(Conversation((Message.user("hi"),), title="fixture"))
    assert len(loads(data)[0].messages) == 1  # msgviewer's before the format is added
    registry.register(own, detect_rank=5)
    assert loads(data) == [Conversation((), "fixtures", title="fixture")]
    assert loads(data, format="msgviewer")[0].format == "msgviewer"
