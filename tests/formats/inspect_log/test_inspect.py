"""The ``inspect`` format: Inspect AI eval logs, one conversation per sample."""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import warnings
from typing import Any

import orjson
import pytest

from msgviewer.core.blocks import (
    AudioBlock,
    FileBlock,
    ImageBlock,
    ReasoningBlock,
    ServerToolCallBlock,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
    UnknownBlock,
    VideoBlock,
)
from msgviewer.core.call_order import calls_in_order
from msgviewer.core.fixes import repair_arguments
from msgviewer.core.lint import lint
from msgviewer.core.message import Message, ToolCall
from msgviewer.core.usage import Usage
from msgviewer.formats import (
    FORMATS,
    Conversation,
    FormatError,
    FormatWarning,
    LossyConversionWarning,
    detect,
    dumps,
    load,
    loads,
)
from msgviewer.formats.inspect_log import usage_from_inspect

from ..format_checks import (
    SAMPLES,
    convert_and_read_back,
    detected,
    other_sample_files,
    tool_pairs,
    writable_targets,
)

SAMPLE = SAMPLES / "inspect-eval.json"


def _log(messages: list[Any], **sample: Any) -> dict[str, Any]:
    return {
        "version": 2,
        "status": "success",
        "eval": {"task": "t", "model": "openai/gpt-4o", "created": "2025-01-01T00:00:00+00:00"},
        "samples": [
            {"id": 1, "epoch": 1, "input": "hi", "target": "", "messages": messages, **sample}
        ],
    }


def _read_one(messages: list[Any], **sample: Any) -> Conversation:
    [conv] = loads(orjson.dumps(_log(messages, **sample)))
    return conv


def _round_trip(log: dict[str, Any]) -> dict[str, Any]:
    return orjson.loads(dumps(loads(orjson.dumps(log)), format="inspect"))


# -- reading the sample --------------------------------------------------------------------


@pytest.fixture(scope="module")
def sample() -> list[Conversation]:
    return load(SAMPLE)


def test_one_conversation_per_sample(sample: list[Conversation]) -> None:
    assert [c.format for c in sample] == ["inspect", "inspect"]
    assert [c.title for c in sample] == ["todo_audit #1", "todo_audit #2"]
    assert [m.role for m in sample[0].messages] == [
        "system", "user", "assistant", "tool", "tool", "assistant", "tool", "assistant",
    ]  # fmt: skip


def test_parallel_tool_calls_link_to_their_results(sample: list[Conversation]) -> None:
    msgs = sample[0].messages
    assert [(c.name, c.args) for c in msgs[2].tool_calls] == [
        ("bash", {"cmd": "grep -rn 'TODO' src/ | tee /tmp/todos.txt | wc -l"}),
        ("read_file", {"path": "docs/TODO.md"}),
    ]
    assert [m.tool_call_id for m in msgs[3:5]] == [c.id for c in msgs[2].tool_calls]
    assert [m.name for m in msgs[3:5]] == ["bash", "read_file"]
    assert tool_pairs(msgs)[:2] == [("bash", "7"), ("read_file", "File 'docs/TODO.md' not found.")]


def test_tool_error_sets_is_error_and_keeps_the_error(sample: list[Conversation]) -> None:
    ok, failed = sample[0].messages[3:5]
    assert not ok.is_error and "error" not in ok.metadata
    assert failed.is_error
    assert failed.metadata["error"] == {
        "type": "file_not_found",
        "message": "File 'docs/TODO.md' not found.",
    }


def test_reasoning_with_signature_and_redacted_reasoning(sample: list[Conversation]) -> None:
    thinking = sample[0].messages[2].blocks[0]
    assert isinstance(thinking, ReasoningBlock)
    assert thinking.text.startswith("I need two things")
    assert thinking.signature and thinking.signature.startswith("ErUBCkYI")
    redacted = sample[1].messages[1].blocks[0]
    assert isinstance(redacted, ReasoningBlock)
    assert redacted.redacted and redacted.text == ""
    assert redacted.data and redacted.data.startswith("EuYBCkQI")


def test_image_content_item(sample: list[Conversation]) -> None:
    text, image = sample[1].messages[0].blocks
    assert isinstance(text, TextBlock) and "colour" in text.text
    assert isinstance(image, ImageBlock)
    assert image.mime_type == "image/png" and image.url is None
    assert image.decoded()[:8] == b"\x89PNG\r\n\x1a\n"
    assert image.extra == {"detail": "low"}


def test_message_fields_kept(sample: list[Conversation]) -> None:
    reply = sample[0].messages[2]
    assert reply.id == "HmT2vL9qRc4xYw7bNd1sKp"
    assert reply.model == "claude-sonnet-4-5-20250929"
    assert reply.metadata == {"source": "generate"}


def test_usage_from_sample_model_usage_on_the_conversation(sample: list[Conversation]) -> None:
    conv = sample[0]
    assert conv.metadata["usage_scope"] == "sample"
    usage = conv.metadata["usage"]["anthropic/claude-sonnet-4-5"]
    # Anthropic counts the cache outside input_tokens: normalised input includes it.
    assert usage["input_tokens"] == 2514 + 1350 + 4020
    assert usage["output_tokens"] == 612
    assert usage["total_tokens"] == 8496
    assert usage["cache_read_tokens"] == 4020 and usage["cache_write_tokens"] == 1350
    assert usage["extra"]["input_tokens"] == 2514
    # no per-message usage is made up
    assert all(m.usage is None for c in sample for m in c.messages)


def test_usage_falls_back_to_the_log_stats() -> None:
    log = _log([{"role": "user", "content": "hi"}])
    log["stats"] = {
        "model_usage": {
            "openai/gpt-4o": {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15}
        }
    }
    [conv] = loads(orjson.dumps(log))
    assert conv.metadata["usage_scope"] == "log"
    assert conv.metadata["usage"]["openai/gpt-4o"]["input_tokens"] == 10
    assert conv.metadata["model"] == "openai/gpt-4o"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # OpenAI: prompt tokens already include the cached ones
        (
            {
                "input_tokens": 100,
                "output_tokens": 20,
                "total_tokens": 120,
                "input_tokens_cache_read": 60,
                "reasoning_tokens": 8,
            },
            (100, 20, 120),
        ),
        # Anthropic: cache outside input
        (
            {
                "input_tokens": 10,
                "output_tokens": 20,
                "total_tokens": 130,
                "input_tokens_cache_write": 40,
                "input_tokens_cache_read": 60,
            },
            (110, 20, 130),
        ),
        # Gemini: reasoning outside output
        (
            {"input_tokens": 100, "output_tokens": 20, "total_tokens": 150, "reasoning_tokens": 30},
            (100, 50, 150),
        ),
    ],
)
def test_usage_normalisation(raw: dict[str, int], expected: tuple[int, int, int]) -> None:
    usage = usage_from_inspect(raw)
    assert (usage.input_tokens, usage.output_tokens, usage.total_tokens) == expected
    assert usage.extra == raw


def test_per_message_usage_only_from_model_events() -> None:
    reply = {"id": "m2", "role": "assistant", "content": "hello", "model": "gpt-4o"}
    event = {
        "event": "model",
        "model": "openai/gpt-4o",
        "output": {
            "choices": [{"message": reply}],
            "usage": {"input_tokens": 7, "output_tokens": 2, "total_tokens": 9},
        },
    }
    conv = _read_one([{"id": "m1", "role": "user", "content": "hi"}, reply], events=[event])
    assert conv.messages[0].usage is None
    assert conv.messages[1].usage == Usage(7, 2, 9, extra=event["output"]["usage"])


# -- content kinds -------------------------------------------------------------------------


def test_every_content_kind_reads_and_round_trips() -> None:
    content = [
        {
            "type": "text",
            "text": "see",
            "citations": [
                {"type": "url", "url": "https://a.example", "title": "A", "cited_text": "x"}
            ],
        },
        {"type": "audio", "audio": "data:audio/wav;base64,UklGRg==", "format": "wav"},
        {"type": "video", "video": "https://v.example/clip.mp4", "format": "mp4"},
        {
            "type": "document",
            "document": "data:application/pdf;base64,JVBERi0=",
            "filename": "a.pdf",
            "mime_type": "application/pdf",
        },
        {"type": "data", "data": {"provider": "x", "blob": [1, 2]}},
        {
            "type": "tool_use",
            "tool_type": "web_search",
            "id": "ws_1",
            "name": "web_search",
            "arguments": '{"query": "q"}',
            "result": "3 results",
        },
        {"type": "reasoning", "reasoning": "opaque", "summary": "I looked it up", "redacted": True},
    ]
    log = _log([{"role": "assistant", "content": content}])
    [conv] = loads(orjson.dumps(log))
    text, audio, video, doc, data, tool_use, reasoning = conv.messages[0].blocks
    assert text.citations[0].url == "https://a.example" and text.citations[0].cited_text == "x"
    assert isinstance(audio, AudioBlock) and audio.mime_type == "audio/wav"
    assert isinstance(video, VideoBlock) and video.url == "https://v.example/clip.mp4"
    assert isinstance(doc, FileBlock) and doc.filename == "a.pdf" and doc.data == "JVBERi0="
    assert isinstance(data, UnknownBlock) and data.kind == "data"
    assert isinstance(tool_use, ServerToolCallBlock) and tool_use.args == {"query": "q"}
    assert tool_use.extra["result"] == "3 results"
    assert reasoning.text == "I looked it up" and reasoning.data == "opaque"
    assert _round_trip(log) == log


def test_unknown_content_type_is_kept_with_a_warning() -> None:
    item = {"type": "hologram", "frames": 3}
    log = _log([{"role": "user", "content": [item]}])
    with pytest.warns(FormatWarning, match=r"\$\.samples\[0\]\.messages\[0\]\.content\[0\]"):
        [conv] = loads(orjson.dumps(log))
    assert conv.messages[0].content == (UnknownBlock(kind="hologram", data=item),)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FormatWarning)
        assert _round_trip(log) == log


def test_string_arguments_and_unparsable_arguments() -> None:
    calls = [
        {"id": "c1", "function": "f", "arguments": '{"a": 1}'},
        # an integer past 64 bits, which orjson would read as a float
        {"id": "c3", "function": "h", "arguments": '{"a": -9223372036854775809}'},
        {"id": "c2", "function": "g", "arguments": '{"a": ', "parse_error": "truncated"},
    ]
    log = _log([{"role": "assistant", "content": "", "tool_calls": calls}])
    [conv] = loads(orjson.dumps(log))
    msg = conv.messages[0]
    assert msg.tool_calls[0].args == {"a": 1}
    assert msg.tool_calls[1].args["a"] == -9223372036854775809
    assert type(msg.tool_calls[1].args["a"]) is int
    assert msg.invalid_tool_calls[0].args == '{"a": '
    assert msg.invalid_tool_calls[0].error == "truncated"
    assert _round_trip(log) == log


def test_inspect_own_unparsable_call_is_read_as_unparsable() -> None:
    # What inspect_ai's parse_tool_call writes when a model's arguments do not parse: empty
    # arguments, the raw text inside the error; read before as a call of no arguments
    error = (
        'Error parsing the following tool call arguments:\n\n{"path": "a.py"\n\n'
        "Error details: Expecting ',' delimiter: line 1 column 17 (char 16)"
    )
    calls = [
        {"id": "c1", "function": "read", "arguments": {"path": "b.py"}, "parse_error": None,
         "type": "function"},
        {"id": "c2", "function": "read", "arguments": {}, "parse_error": error,
         "type": "function"},
        {"id": "c3", "function": "list", "arguments": {}, "parse_error": None,
         "type": "function"},
    ]  # fmt: skip
    log = _log([{"role": "assistant", "content": "", "tool_calls": calls}])
    [conv] = loads(orjson.dumps(log))
    msg = conv.messages[0]
    assert [(c.id, c.args) for c in msg.tool_calls] == [("c1", {"path": "b.py"}), ("c3", {})]
    [bad] = msg.invalid_tool_calls
    assert (bad.id, bad.name, bad.args, bad.error) == ("c2", "read", None, error)
    assert [c.id for c in calls_in_order(msg)] == ["c1", "c2", "c3"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (nothing to lose: the same log, in the same order)
        assert _round_trip(log) == log
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (Inspect's request fields: not OpenAI's)
        chat = orjson.loads(dumps([conv], format="openai-chat"))
    written = chat["messages"][0]["tool_calls"]
    assert [(c["id"], c["function"]["arguments"]) for c in written] == [
        ("c1", '{"path":"b.py"}'),
        ("c2", ""),  # (no text was kept: not the "{}" of a call that had no arguments)
        ("c3", "{}"),
    ]
    # Shown with the error over its lines, and no empty text of arguments
    markdown = dumps([conv], format="markdown").decode()
    said = markdown[markdown.index("**Invalid tool call**") : markdown.index("`list`")]
    assert said.startswith("**Invalid tool call** `read`\n\n```text\nError parsing")
    assert "```text\n\n```" not in markdown and said.count("```") == 2
    page = dumps([conv], format="html").decode()
    assert "<pre>Error parsing the following tool call arguments:\n\n{&quot;path" in page


def _own_unparsable_call() -> tuple[dict[str, Any], str]:
    """A log whose only call is inspect_ai's own unparsable one (answered), and its error."""
    error = 'Error parsing the following tool call arguments:\n\n{"path": \n\nError details: x'
    call = {
        "id": "c2",
        "function": "read",
        "arguments": {},
        "parse_error": error,
        "type": "function",
    }
    return _log(
        [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": "", "tool_calls": [call]},
            {"role": "tool", "content": "r", "tool_call_id": "c2", "function": "read"},
        ]
    ), error


def test_repairing_inspect_own_unparsable_call_makes_it_a_call() -> None:
    log, error = _own_unparsable_call()
    [conv] = loads(orjson.dumps(log))
    [problem] = [p for p in lint(conv.messages) if p.code == "invalid-arguments"]
    assert problem.text == f"arguments of read call c2 did not parse: {error!r}"
    repaired = dataclasses.replace(
        conv, messages=tuple(repair_arguments(list(conv.messages), ["c2"]))
    )
    [back] = loads(dumps([repaired], format="inspect"))
    assert [(c.id, c.args) for c in back.messages[1].tool_calls] == [("c2", {})]
    assert not back.messages[1].invalid_tool_calls
    assert not [p for p in lint(back.messages) if p.code == "invalid-arguments"]


@pytest.mark.parametrize(
    "fmt", sorted(n for n, (r, w, _) in FORMATS.items() if r and w and n != "inspect")
)
def test_inspect_own_unparsable_call_stays_unparsable_or_is_reported(fmt: str) -> None:
    # It has no text of its arguments: written as empty ones, it would read back as a call
    # of no arguments, saying nothing
    log, _ = _own_unparsable_call()
    [conv] = loads(orjson.dumps(log))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LossyConversionWarning)
        written = dumps([conv], format=fmt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        [back] = loads(written, format=fmt)
    [assistant] = [m for m in back.messages if m.tool_calls or m.invalid_tool_calls]
    kept = [(c.name, c.error) for c in assistant.invalid_tool_calls] == [
        ("read", conv.messages[1].invalid_tool_calls[0].error)
    ]
    reported = [
        w for w in caught if "message 1: " in str(w.message) and "tool call" in str(w.message)
    ]
    assert kept or reported, (fmt, [str(w.message) for w in caught])


def test_explicit_nulls_and_attachments_round_trip() -> None:
    messages = [
        {"id": None, "content": "attachment://abc", "role": "user"},
        {"content": "ok", "role": "assistant", "tool_calls": None, "model": None},
        {"content": "r", "role": "tool", "tool_call_id": "x", "function": None, "error": None},
    ]
    log = _log(messages, attachments={"abc": "a very long prompt"})
    [conv] = loads(orjson.dumps(log))
    assert conv.messages[0].text == "a very long prompt"
    assert not conv.messages[2].is_error
    assert _round_trip(log) == log


# -- writing -------------------------------------------------------------------------------


def test_round_trip_of_the_sample_is_exact(sample: list[Conversation]) -> None:
    original = orjson.loads(SAMPLE.read_bytes())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert orjson.loads(dumps(sample, format="inspect")) == original


def test_edits_go_back_into_the_same_log(sample: list[Conversation]) -> None:
    conv = sample[0]
    messages = list(conv.messages)
    messages[7] = dataclasses.replace(messages[7], content="Seven TODOs; two deprecated.")
    messages[4] = dataclasses.replace(messages[4], is_error=False)
    edited = dataclasses.replace(conv, messages=tuple(messages))
    out = orjson.loads(dumps([edited, sample[1]], format="inspect"))
    expected = copy.deepcopy(orjson.loads(SAMPLE.read_bytes()))
    expected["samples"][0]["messages"][7]["content"] = "Seven TODOs; two deprecated."
    del expected["samples"][0]["messages"][4]["error"]
    assert out == expected


def test_one_sample_alone_makes_a_log_of_one_sample(sample: list[Conversation]) -> None:
    out = orjson.loads(dumps(sample[1], format="inspect"))
    original = orjson.loads(SAMPLE.read_bytes())
    assert out["samples"] == [original["samples"][1]]
    assert out["eval"] == original["eval"]


def test_other_formats_make_a_minimal_valid_log() -> None:
    messages = [
        Message.system("Be brief."),
        Message.user("List /tmp and read a.txt"),
        Message.assistant(
            [TextBlock("Sure."), ToolCallBlock("t1", "ls", {"path": "/tmp"})],
            tool_calls=[ToolCall("t2", "read", {"path": "a.txt"})],
            response_metadata={"model": "claude-x", "stop_reason": "tool_use"},
            usage=Usage(10, 5),
        ),
        Message.user(
            [ToolResultBlock("t1", "a.txt"), ToolResultBlock("t2", "no such file", is_error=True)]
        ),
        Message.assistant("Done.", usage=Usage(20, 2), response_metadata={"model": "claude-x"}),
    ]
    conv = Conversation(tuple(messages), format="anthropic", metadata={"temperature": 0})
    with pytest.warns(LossyConversionWarning, match="per-message usage"):
        data = dumps(conv, format="inspect")
    log = orjson.loads(data)
    assert detect(data) == "inspect"
    assert log["eval"]["model"] == "claude-x"
    assert log["stats"]["model_usage"] == {
        "claude-x": {"input_tokens": 30, "output_tokens": 7, "total_tokens": 37}
    }
    [sample] = log["samples"]
    assert sample["metadata"] == {"temperature": 0}
    roles = [m["role"] for m in sample["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "tool", "assistant"]
    assert sample["messages"][2]["metadata"] == {"response_metadata": {"stop_reason": "tool_use"}}
    assert sample["messages"][4]["error"] == {"type": "unknown", "message": "no such file"}
    [back] = loads(data)
    assert sorted(tool_pairs(back.messages)) == [("ls", "a.txt"), ("read", "no such file")]
    assert [m.is_error for m in back.messages if m.role == "tool"] == [False, True]


def test_media_by_file_id_only_is_reported() -> None:
    msg = Message.user([ImageBlock(file_id="file-123")])
    with pytest.warns(LossyConversionWarning, match="message 0, block 0"):
        dumps([msg], format="inspect")


# -- detection -----------------------------------------------------------------------------


def test_detects_the_sample() -> None:
    assert detect(SAMPLE.read_bytes()) == "inspect"


@pytest.mark.parametrize(
    "path", other_sample_files({SAMPLE.name, "inspect-eval-log.eval"}), ids=lambda p: p.name
)
def test_no_false_positive_on_other_samples(path) -> None:
    assert detected(path) != "inspect"


@pytest.mark.parametrize(
    "value",
    [
        {"eval": "x", "samples": []},
        {"version": 2, "messages": []},
        {"samples": [], "version": 1},
        [{"eval": {}, "samples": []}],
    ],
)
def test_lookalikes_are_not_inspect(value: Any) -> None:
    with contextlib.suppress(FormatError):
        assert detect(orjson.dumps(value)) != "inspect"


# -- conversion ----------------------------------------------------------------------------


@pytest.mark.parametrize("target", writable_targets({"inspect"}))
def test_conversion_keeps_tool_linkage(sample: list[Conversation], target: str) -> None:
    for conv, back in convert_and_read_back(sample, target):
        if back is None:
            continue
        expected = tool_pairs(conv.messages)
        assert [tool_pairs(b.messages) for b in back] == [expected]


# -- bad input -----------------------------------------------------------------------------


def _dig(log: Any, keys: tuple[Any, ...]) -> Any:
    for key in keys:
        log = log[key]
    return log


_S0 = ("samples", 0)
_M = ("samples", 0, "messages")


@pytest.mark.parametrize(
    ("keys", "value", "path"),
    [
        (("samples",), {}, "$.samples"),
        (("samples", 1), 7, "$.samples[1]"),
        ((*_S0, "messages"), None, "$.samples[0].messages"),
        ((*_M, 1, "role"), "robot", "$.samples[0].messages[1].role"),
        ((*_M, 1, "content"), 5, "$.samples[0].messages[1].content"),
        (
            ("samples", 1, "messages", 0, "content", 0, "type"),
            None,
            "$.samples[1].messages[0].content[0].type",
        ),
        (
            ("samples", 1, "messages", 0, "content", 0, "text"),
            None,
            "$.samples[1].messages[0].content[0].text",
        ),
        ((*_M, 2, "tool_calls"), {}, "$.samples[0].messages[2].tool_calls"),
        (
            (*_M, 2, "tool_calls", 1, "function"),
            None,
            "$.samples[0].messages[2].tool_calls[1].function",
        ),
        (
            (*_M, 2, "tool_calls", 0, "arguments"),
            3,
            "$.samples[0].messages[2].tool_calls[0].arguments",
        ),
        (
            (*_S0, "model_usage", "anthropic/claude-sonnet-4-5", "input_tokens"),
            "9",
            '$.samples[0].model_usage["anthropic/claude-sonnet-4-5"].input_tokens',
        ),
    ],
)
def test_malformed_logs_say_where(keys: tuple[Any, ...], value: Any, path: str) -> None:
    """Each change makes one place unusable (None: the key is removed)."""
    log = orjson.loads(SAMPLE.read_bytes())
    parent = _dig(log, keys[:-1])
    if value is None:
        del parent[keys[-1]]
    else:
        parent[keys[-1]] = value
    with pytest.raises(FormatError) as info:
        loads(orjson.dumps(log), format="inspect")
    assert info.value.path == path


def test_invalid_json_gives_the_line(tmp_path) -> None:
    bad = tmp_path / "log.json"
    bad.write_bytes(SAMPLE.read_bytes().replace(b'"epoch": 1,', b'"epoch": 1,,', 1))
    with pytest.raises(FormatError) as info:
        load(bad, format="inspect")
    assert info.value.file == str(bad) and info.value.line is not None


def test_unknown_block_without_a_type_rides_in_a_data_item() -> None:
    conv = _read_one([{"role": "user", "content": "hi", "source": "input"}])
    odd = UnknownBlock("widget", [1, {"no": "type"}])
    typed = TextBlock("ok", extra={"type": "image", "refusal": None})
    user = dataclasses.replace(conv.messages[0], content=(odd, typed))
    with pytest.warns(LossyConversionWarning, match="'type'"):
        data = dumps(dataclasses.replace(conv, messages=(user,)), format="inspect")
    [back] = loads(data, format="inspect")
    first, second = back.messages[0].content
    assert first == UnknownBlock(
        "data", {"type": "data", "data": {"kind": "widget", "value": [1, {"no": "type"}]}}
    )
    assert second == TextBlock("ok", extra={"refusal": None})
