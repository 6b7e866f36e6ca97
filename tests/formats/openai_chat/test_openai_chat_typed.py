"""Chat files of the common shapes are decoded straight into typed records: what comes out is
what the usual way (``orjson``, detection, the readers) gives, and anything else goes that way."""

from __future__ import annotations

import copy
import json
import sys
import warnings
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from bench.generate import generate
from msgviewer import Conversation, dumps, load, loads
from msgviewer.core.errors import MsgviewerError
from msgviewer.formats import openai_chat
from msgviewer.formats.base import Context
from msgviewer.formats.io import exact_loads, has_long_numbers
from msgviewer.formats.openai_chat import typed, typed_read

from .test_openai_chat_fast import _message


def _parsed(data: bytes) -> Any:
    """The value the usual way reads: integers past 64 bits kept exactly."""
    return exact_loads(data) if has_long_numbers(data) else orjson.loads(data)


_parts = st.sampled_from(
    [
        {"type": "text", "text": "hi"},
        {"type": "text", "text": 3},
        {"type": "image_url", "image_url": {"url": "https://x/y.png", "detail": "low"}},
        {"image_url": {"url": "data:image/png;base64,AAAA"}, "type": "image_url"},
        {"type": "input_audio", "input_audio": {"data": "AAAA", "format": "wav"}},
        {"type": "file", "file": {"file_id": "f1", "filename": "a.pdf"}},
        {"type": "refusal", "refusal": "no"},
        {"type": "tool_use", "id": "t1", "name": "run", "input": {}},  # Anthropic's
        {"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}},
        {"type": "mystery", "x": 1},
    ]
)
# What the SDK's message objects write besides, before or after the other keys.
_response_fields = st.fixed_dictionaries(
    {},
    optional={
        "refusal": st.sampled_from([None, "no"]),
        "annotations": st.sampled_from([[], [{"type": "url_citation", "url_citation": {}}]]),
        # what DeepSeek-style loggers add (and values of the wrong kind)
        "reasoning_content": st.sampled_from(["hmm", "", 3, None]),
        "usage": st.sampled_from(
            [
                {"prompt_tokens": 1, "prompt_tokens_details": {"cached_tokens": 0}},
                {"completion_tokens": 123456789012345678901234567890},
                {"cost": 0.5},
                {"prompt_tokens": True},
                None,
            ]
        ),
    },
)


def _with(d: dict[str, Any], parts: Any, more: dict[str, Any], first: bool) -> dict[str, Any]:
    d = {**d, "content": parts} if parts else d
    return {**more, **d} if first else {**d, **more}


_with_parts = st.builds(
    _with,
    _message,
    st.one_of(st.none(), st.lists(_parts, min_size=1, max_size=3)),
    st.one_of(st.just({}), _response_fields),
    st.booleans(),
)
_request = st.fixed_dictionaries(
    {},
    optional={
        "model": st.sampled_from(["gpt-5", "claude-sonnet-4", 7]),
        "temperature": st.sampled_from([0, 0.5, 1e300, -0.0]),
        "seed": st.just(123456789012345678901234567890),
        "max_tokens": st.just(100),
        "tools": st.just([{"type": "function", "function": {"name": "run", "parameters": {}}}]),
        "system": st.just("be brief"),  # not a Chat field: another format's
        "weight": st.just(1),
    },
)


def _body(before: dict[str, Any], items: list[Any], after: dict[str, Any]) -> dict[str, Any]:
    return {**before, "messages": items, **{k: v for k, v in after.items() if k not in before}}


_document = st.one_of(
    st.lists(_with_parts, max_size=6),
    st.builds(_body, _request, st.lists(_with_parts, max_size=6), _request),
)


def _outcome(read: Any) -> Any:
    """What a read gives: its conversations and the bytes they write back in their format (key
    order included, which equal dicts do not compare), or the error it says (or None, a typed
    read's way of declining); and its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result: Any = read()
        except MsgviewerError as exc:
            result = ("error", str(exc))
        if result is not None and result[0] != "error":
            result = (result, [dumps(c, format=c.format) for c in result])
    return result, sorted(str(w.message) for w in caught)


@settings(max_examples=500, deadline=None)
@given(_document)
def test_bytes_read_as_the_usual_way_reads_them(doc: Any) -> None:
    data = json.dumps(doc).encode()  # orjson writes no integer past 64 bits
    assert _outcome(lambda: loads(data)) == _outcome(lambda: loads(_parsed(data)))
    assert _outcome(lambda: loads(data, format="openai-chat")) == _outcome(
        lambda: loads(_parsed(data), format="openai-chat")
    )
    decoded = typed.decode(data)
    event("decoded typed" if decoded is not None else "went the usual way")
    if decoded is not None:  # the typed reader itself, against the usual reader
        outcome = _outcome(lambda: typed_read.read(decoded, Context()))
        if outcome[0] is not None:  # (None: it sends the file the usual way)
            assert outcome == _outcome(
                lambda: openai_chat.read(copy.deepcopy(_parsed(data)), Context())
            )


def _history(n: int) -> bytes:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return dumps(Conversation(tuple(generate(n, 3))), format="openai-chat")


def test_an_agent_run_takes_the_typed_way(tmp_path: Path, monkeypatch: Any) -> None:
    data = _history(3_000)  # over 1 MiB: read from a memory map
    assert len(data) > 1 << 20
    assert typed.decode(data) is not None
    path = tmp_path / "run.json"
    path.write_bytes(data)
    typed_reads: list[Any] = []
    read = typed_read.read
    monkeypatch.setattr(
        typed_read, "read", lambda doc, ctx: typed_reads.append(doc) or read(doc, ctx)
    )
    [conv] = load(path)
    assert len(typed_reads) == 1  # load took the typed way (the usual one gives the same)
    assert loads(data) == [conv] and len(typed_reads) == 2
    assert [conv] == loads(orjson.loads(data))
    assert conv.format == "openai-chat"
    assert conv.metadata == {"model": "gpt-5"}
    assert sum(len(m.tool_calls) for m in conv.messages) > 1_000
    assert any(not isinstance(m.content, str) for m in conv.messages)  # images: careful reader


def test_a_message_of_no_common_shape_is_read_the_usual_way_alone() -> None:
    odd = {"role": "assistant", "content": "ok", "weight": 0}
    doc = {"messages": [{"role": "user", "content": f"hi {i}"} for i in range(600)]}
    doc["messages"][300] = odd
    data = orjson.dumps(doc)
    decoded = typed.decode(data)
    assert decoded is not None
    assert [m for m in decoded.messages if type(m) is dict] == [odd]  # only the odd one
    [conv] = loads(data)
    assert conv.messages[300].metadata == {"weight": 0}
    assert [conv] == loads(orjson.loads(data))


def _logged(every: int, extra: dict[str, Any] | None = None) -> bytes:
    # As DeepSeek-style loggers write a history: an assistant's own usage and reasoning.
    value = orjson.loads(_history(2_000))
    assistants = [m for m in value["messages"] if m["role"] == "assistant"]
    for m in assistants[::every]:
        m.update(
            extra
            or {
                "reasoning_content": "thinking it over",
                "usage": {
                    "prompt_tokens": 10,
                    "completion_tokens": 5,
                    "total_tokens": 15,
                    "prompt_tokens_details": {"cached_tokens": 8},
                },
            }
        )
    return orjson.dumps(value)


@pytest.mark.parametrize("every", [1, 20])
def test_assistants_with_their_own_usage_and_reasoning_take_the_typed_way(
    every: int, monkeypatch: Any
) -> None:
    data = _logged(every)
    decoded = typed.decode(data)
    assert decoded is not None
    assert not [m for m in decoded.messages if type(m) is dict]  # none off the records
    typed_reads: list[Any] = []
    read = typed_read.read
    monkeypatch.setattr(
        typed_read, "read", lambda doc, ctx: typed_reads.append(doc) or read(doc, ctx)
    )
    convs = loads(data)
    assert typed_reads and convs == loads(orjson.loads(data))
    logged = [m for m in convs[0].messages if "usage" in m.metadata]
    assistants = [m for m in convs[0].messages if m.role == "assistant"]
    assert len(logged) == len(assistants[::every]) > 30
    assert all(m.blocks[0].extra == {"field": "reasoning_content"} for m in logged)
    assert dumps(convs[0], format="openai-chat") == dumps(
        loads(orjson.loads(data))[0], format="openai-chat"
    )


def test_a_few_odd_messages_keep_the_rest_typed(monkeypatch: Any) -> None:
    data = _logged(every=20, extra={"x_logger_note": "kept"})
    decoded = typed.decode(data)
    assert decoded is not None
    odd = [m for m in decoded.messages if type(m) is dict]
    assert odd and len(odd) * 50 < len(decoded.messages)
    assert all("x_logger_note" in m for m in odd)
    assert loads(data) == loads(orjson.loads(data))


def test_many_odd_messages_go_the_usual_way() -> None:
    data = _logged(every=1, extra={"x_logger_note": "kept"})  # (the careful reader reads
    assert typed.decode(data) is None  # most messages either way)
    assert loads(data) == loads(orjson.loads(data))


def test_an_integer_past_64_bits_in_an_odd_message_reads_exactly() -> None:
    big = 123456789012345678901234567890
    doc = {
        "messages": [
            {"role": "user", "content": "hi " * 10},
            {"role": "assistant", "content": "ok", "usage": {"prompt_tokens": big}},
        ]
        * 300
    }
    data = json.dumps(doc).encode()
    [conv] = loads(data)
    assert conv.messages[1].metadata == {"usage": {"prompt_tokens": big}}
    assert [conv] == loads(_parsed(data))


def test_integers_past_64_bits_in_an_odd_message_or_a_field_keep_the_typed_way() -> None:
    big = -9223372036854775809
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "ok"}] * 300
    messages[301] = {**messages[301], "x_logger": {"n": big}}  # (a key no record has)
    data = json.dumps({"seed": big, "messages": messages}).encode()
    decoded = typed.decode(data)
    assert decoded is not None and [m for m in decoded.messages if type(m) is dict]
    [conv] = loads(data)
    assert conv.metadata == {"seed": big}
    assert conv.messages[301].metadata == {"x_logger": {"n": big}}
    assert [conv] == loads(_parsed(data))


def test_another_formats_blocks_are_refused_at_once() -> None:
    items = [{"role": "user", "content": f"hi {i}"} for i in range(19)]
    items.append(
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t", "name": "run", "input": {}}],
        }
    )
    seen: list[Any] = []
    assert typed.decode(orjson.dumps(items), lambda s: seen.append(s) or False) is None
    assert seen == [items]  # detection's sample, as the usual way would have parsed it
    assert loads(orjson.dumps(items))[0].format == "anthropic"


def test_a_datasets_records_are_no_messages() -> None:
    records = [{"messages": [{"role": "user", "content": "hi"}]}] * 3
    assert typed.decode(orjson.dumps(records)) is None


def test_detection_sees_what_it_would_have_seen() -> None:
    # every key and shape of this body fits the typed records, but a claude model with
    # max_tokens marks it as Anthropic's
    body = {
        "model": "claude-sonnet-4",
        "max_tokens": 100,
        "messages": [{"role": "user", "content": "hi"}],
    }
    data = orjson.dumps(body)
    assert typed.decode(data) is not None
    assert loads(data)[0].format == "anthropic"
    assert loads(data, format="openai-chat")[0].format == "openai-chat"


def test_integers_past_64_bits_read_exactly() -> None:
    data = (
        b'{"seed": 123456789012345678901234567890, "messages": [{"role": "user", "content": "x"}]}'
    )
    [conv] = loads(data)
    assert conv.metadata == {"seed": 123456789012345678901234567890}


def test_bad_json_is_reported_by_the_usual_way() -> None:
    data = b'[{"role": "user", "content": "x"},\n {"role": "user", "content": "\\ud800"}]'
    assert typed.decode(data) is None
    (what, message), _ = _outcome(lambda: loads(data))
    assert what == "error"
    assert "line 2" in message and "surrogate" in message  # orjson's words, and where


def test_deep_nesting_is_reported_by_the_usual_way() -> None:
    deep = b"[" * 1000 + b"]" * 1000
    data = b'[{"role": "user", "content": [{"type": "text", "text": ' + deep + b"}]}]"
    assert typed.decode(data) is None  # past msgspec's depth; orjson reads 1,024 levels
    outcome = _outcome(lambda: loads(data))
    assert outcome == _outcome(lambda: loads(orjson.loads(data)))
    assert outcome[0] == ("error", "$[0].content[0].text: text must be a string, not an array")


def _usual_outcome(data: Any, format: str | None = None) -> Any:
    """What the usual way gives: orjson's parse (or its error), detection, the readers."""
    from msgviewer.formats import loading, registry

    def usual() -> Any:
        parsed = registry.as_parsed(data, None)
        name = format or registry.detect_parsed(parsed)
        return loading.read_parsed(parsed, registry.get_format(name))

    return _outcome(usual)


def _assert_as_usual(data: Any) -> None:
    assert _outcome(lambda: loads(data)) == _usual_outcome(data)
    assert _outcome(lambda: loads(data, format="openai-chat")) == _usual_outcome(
        data, "openai-chat"
    )


_HI = b'{"role": "user", "content": "hi"}'


def test_what_orjson_refuses_inside_a_request_field_is_its_error() -> None:
    # msgspec skips a raw value without checking its UTF-8 or its range: orjson refuses both
    for value in (b'"\xff"', b'"\\q"', b"1e400", b"[1, 1" + b"0" * 400 + b"]"):
        _assert_as_usual(b'{"model": ' + value + b', "messages": [' + _HI + b"]}")


def test_what_orjson_refuses_inside_a_content_part_is_its_error() -> None:
    for part in (
        b'{"type": "text", "text": "\xff"}',
        b'{"type": "text", "text": 1e400}',
        b'{"type": "refusal", "refusal": "\\q"}',
        b'{"type": "text", "text": "\xff", "text": "ok"}',  # the first is overwritten
        b'{"type": "image_url", "image_url": {"url": "x", "detail": 1e999}}',
    ):
        _assert_as_usual(b'[{"role": "user", "content": [' + part + b"]}]")


def test_a_request_field_given_twice_reads_as_orjson_reads_it() -> None:
    for body in (
        b'{"model": "\xff", "model": "gpt-5", "messages": [' + _HI + b"]}",
        b'{"model": 1e400, "model": "gpt-5", "messages": [' + _HI + b"]}",
        b'{"model": "a", "messages": [' + _HI + b'], "model": "b"}',
        b'{"messages": [' + _HI + b'], "model": "\xff", "model": "b"}',
        b'{"model": "a", "messages": [' + _HI + b'], "model": 1e400, "model": "a"}',
        b'{"messages": [' + _HI + b'], "messages": [' + _HI + b"]}",
    ):
        _assert_as_usual(body)


def test_request_fields_keep_the_files_order() -> None:
    data = b'{"temperature": 0, "model": "m", "messages": [' + _HI + b"]}"
    [conv] = loads(data)
    assert list(conv.metadata) == ["temperature", "model"]
    [usual] = loads(orjson.loads(data))
    assert dumps(conv, format="openai-chat") == dumps(usual, format="openai-chat")
    data = b'{"messages": [' + _HI + b'], "top_p": 1, "model": "m"}'
    assert list(loads(data)[0].metadata) == ["top_p", "model"]


def test_a_strided_memoryview_reads_as_its_bytes() -> None:
    doc = b"[" + _HI + b"]"
    spread = bytes(b for c in doc for b in (c, 0x20))
    view = memoryview(spread)[::2]
    assert not view.c_contiguous
    assert loads(view) == loads(doc)


@pytest.mark.xfail(strict=True, reason="messages given twice hide a field given between them")
def test_a_field_given_three_times_around_two_messages_arrays() -> None:
    # The layout check stops at the first "messages"; finding where its array ends would take
    # a second pass over the messages, so the overwritten middle value goes unchecked.
    body = b'{"model": "a", "messages": [' + _HI + b'], "model": "\xff", "model": "a", '
    _assert_as_usual(body + b'"messages": [' + _HI + b"]}")


def test_fields_after_the_messages_take_the_typed_way_in_the_files_order() -> None:
    # how a logged SDK call often reads: the model, the messages, then the rest
    data = (
        b'{"model": "gpt-5", "messages": [' + _HI + b'],\n "tools": [{"type": "function", '
        b'"function": {"name": "run"}}], "temperature": 0.5}\n'
    )
    assert typed.decode(data) is not None
    [conv] = loads(data)
    assert list(conv.metadata) == ["model", "tools", "temperature"]
    assert _outcome(lambda: [conv]) == _usual_outcome(data)
    text = data.decode()
    assert typed.decode(text) is not None and loads(text) == [conv]


def test_a_field_after_the_messages_given_twice_goes_the_usual_way() -> None:
    for body in (
        b'{"messages": [' + _HI + b'], "top_p": 1, "top_p": 1}',
        b'{"top_p": 1, "messages": [' + _HI + b'], "top_p": 2}',
        b'{"messages": [' + _HI + b'], "top_p": "\xff", "model": "m", "top_p": 1}',
    ):
        assert typed.decode(body) is None
        _assert_as_usual(body)


def test_keys_kept_in_a_messages_metadata_keep_the_files_order() -> None:
    # a user message's call list and call id are no fields of ours: the metadata keeps both,
    # in the file's order, which the typed records do not know
    call = b'{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}'
    body = b'[{"role": "user", "tool_call_id": "x", "content": "hi", "tool_calls": [' + call
    _assert_as_usual(body + b"]}]")


def test_calls_kept_in_a_messages_metadata_keep_their_keys_order() -> None:
    # a developer message has no calls of ours: the metadata keeps them as written
    call = b'{"id": "c", "function": {"arguments": "{}", "name": "f"}, "type": "function"}'
    _assert_as_usual(b'[{"role": "developer", "content": "hi", "tool_calls": [' + call + b"]}]")


def test_an_api_responses_empty_fields_are_kept_on_the_typed_way() -> None:
    # an assistant message as the API returns it: a null refusal and no annotations
    call = b'{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}'
    for message in (
        b'{"role": "assistant", "content": "ok", "refusal": null, "annotations": []}',
        b'{"role": "assistant", "annotations": [], "content": "ok", "refusal": null}',
        b'{"role": "assistant", "content": null, "refusal": null, "tool_calls": [' + call + b"]}",
        b'{"role": "assistant", "content": "ok", "annotations": []}',
    ):
        body = b"[" + _HI + b", " + message + b"]"
        decoded = typed.decode(body)
        assert decoded is not None and typed_read.read(decoded, Context()) is not None
        _assert_as_usual(body)
    [conv] = loads(body)
    assert conv.messages[1].metadata == {"annotations": []}


def test_text_of_a_str_subclass_reads_as_the_usual_way() -> None:
    class Text(str):
        pass

    data = Text('[{"role": "user", "content": "hi"}]')
    assert typed.decode(data) is None  # (msgspec takes no str subclass)
    assert loads(data)[0].messages[0].text == "hi"


def test_a_call_of_another_type_goes_to_the_careful_reader() -> None:
    call = b'{"id": "c", "type": "custom", "function": {"name": "f", "arguments": "{}"}}'
    body = b'[{"role": "assistant", "content": null, "tool_calls": [' + call + b"]}]"
    _assert_as_usual(body)
    [message] = loads(body)[0].messages
    assert message.tool_calls[0].extra == {"type": "custom"}


@pytest.mark.parametrize("as_input", [bytes, memoryview, lambda b: b.decode()])
def test_a_file_naming_no_role_near_its_start_is_left_to_the_usual_way(
    as_input: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another format's list (a pydantic-ai history) is not skimmed whole for messages; a
    history whose first message names its role is still decoded loosely."""
    from msgviewer.formats.openai_chat import typed

    loosely = typed._decode_loosely
    tried: list[bool] = []
    monkeypatch.setattr(typed, "_decode_loosely", lambda *a: tried.append(True) or loosely(*a))
    other = orjson.dumps([{"kind": "request", "parts": [{"part_kind": "user-prompt"}]}] * 50)
    assert typed.decode(as_input(other), lambda sample: True) is None
    assert not tried
    odd = [{"role": "user", "content": "hi", "weight": 1}] + [
        {"role": "assistant", "content": f"reply {i}"} for i in range(50)
    ]
    doc = typed.decode(as_input(orjson.dumps(odd)), lambda sample: True)
    assert tried and doc is not None and len(doc) == 51 and doc[0] == odd[0]


# A key of a logger's own on a message past what detection sees is learned: the file is decoded
# again with it, not skimmed and decoded message by message.
_SAMPLED = [{"role": "user", "content": f"hi {i}"} for i in range(typed.SAMPLE)]
_own = st.dictionaries(
    st.sampled_from(["x_logger_note", "weight", "x`y - at `$[0]", "é", "provider_fields"]),
    st.sampled_from(
        [None, 3, 123456789012345678901234567890, -0.0, 1e300, "a\u2028b", [], {"n": {"m": [1]}}]
    ),
    max_size=2,
)


def _never_loosely(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Records each time the loose way is taken."""
    loosely = typed._decode_loosely
    tried: list[bool] = []
    monkeypatch.setattr(typed, "_decode_loosely", lambda *a: tried.append(True) or loosely(*a))
    return tried


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.builds(lambda d, own: {**d, **own}, _with_parts, _own), max_size=6), st.booleans()
)
def test_keys_of_a_loggers_own_past_the_sample_read_as_the_usual_way(
    tail: list[Any], body: bool
) -> None:
    messages = _SAMPLED + tail
    data = json.dumps({"model": "gpt-5", "messages": messages} if body else messages).encode()
    _assert_as_usual(data)


def test_one_odd_message_is_learned_not_decoded_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    tried = _never_loosely(monkeypatch)
    value = orjson.loads(_history(600))
    value["messages"][300]["x_logger_note"] = {"n": 123456789012345678901234567890}
    value["messages"][450]["x_logger_note"] = "again"
    data = json.dumps(value).encode()
    decoded = typed.decode(data)
    assert isinstance(decoded, typed.Body) and not tried
    odd = [m for m in decoded.messages if type(m) is dict]
    assert odd == [value["messages"][300], value["messages"][450]]
    [conv] = loads(data)
    assert conv.messages[300].metadata["x_logger_note"] == {"n": 123456789012345678901234567890}
    _assert_as_usual(data)


def test_two_keys_are_learned_and_a_third_is_decoded_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tried = _never_loosely(monkeypatch)
    messages = _SAMPLED * 3
    for at, key in zip((25, 40, 55), ("a", "b", "c"), strict=True):
        messages[at] = {**messages[at], key: at}
    assert typed.decode(orjson.dumps(messages[:50])) is not None and not tried
    decoded = typed.decode(orjson.dumps(messages))
    assert tried and decoded is not None
    assert [m for m in decoded if type(m) is dict] == [messages[25], messages[40], messages[55]]
    _assert_as_usual(orjson.dumps(messages))


def test_a_learned_key_reads_as_the_file_writes_it() -> None:
    start = orjson.dumps(_SAMPLED)[:-1] + b", "
    for message in (
        b'{"role": "user", "content": "hi", "x": 1, "x": 2}',  # the last, as orjson
        b'{"role": "user", "content": "hi", "x": "\xff", "x": 1}',  # orjson refuses the first
        b'{"role": "user", "content": "hi", "x": 1e400}',
        b'{"role": "user", "content": "hi", "x\\u0041": [1, 2]}',
        b'{"role": "user", "x": {"deep": [[[]]]}, "content": "hi"}',
    ):
        _assert_as_usual(start + message + b"]")


def test_a_learned_key_beside_another_kept_key_goes_the_usual_way() -> None:
    # the metadata would keep both, in the file's order, which the records do not know
    odd = {"role": "assistant", "content": "ok", "annotations": [], "x": 1}
    data = orjson.dumps([*_SAMPLED, odd])
    assert typed.decode(data) is None
    _assert_as_usual(data)


def test_keys_are_learned_only_where_msgspec_reads_as_deep_as_orjson(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tried = _never_loosely(monkeypatch)
    data = orjson.dumps([*_SAMPLED, {"role": "user", "content": "hi", "x": 1}])
    monkeypatch.setattr(sys, "getrecursionlimit", lambda: 5000)
    assert typed.decode(data) is not None and tried


def test_another_formats_blocks_past_the_sample_are_seen_by_detection() -> None:
    # Anthropic's sniffer looks for its blocks in every message, as it does the usual way
    block = {"type": "tool_use", "id": "t1", "name": "run", "input": {}}
    data = orjson.dumps([*_SAMPLED, {"role": "user", "content": [block]}])
    assert loads(data)[0].format == "anthropic"
    _assert_as_usual(data)


@pytest.mark.parametrize("key", ['x"q', "x\\y", "a\nb", "\x00"])
def test_a_key_msgspec_names_no_field_after_is_read_the_usual_way(key: str) -> None:
    _assert_as_usual(orjson.dumps([*_SAMPLED, {"role": "user", "content": "hi", key: 1}]))


@pytest.mark.parametrize("key", ["x` - at `$[25]", "role` - at `$.messages[99]"])
def test_a_request_fields_key_that_reads_like_a_place_is_not_learned(key: str) -> None:
    # msgspec gives no place for an unknown key of the body itself
    body = {"messages": _SAMPLED, key: 1}
    _assert_as_usual(orjson.dumps(body))
    assert loads(orjson.dumps(body))[0].metadata == {key: 1}
