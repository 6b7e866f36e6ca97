"""The ``inspect`` format's zipped ``.eval`` logs: detection, reading, writing back, damage."""

from __future__ import annotations

import dataclasses
import io
import json
import struct
import warnings
import zipfile
import zlib
from pathlib import Path
from typing import Any

import pytest

from msgviewer.core.blocks import ReasoningBlock
from msgviewer.core.message import Message
from msgviewer.formats import Conversation, FormatError, detect, dumps, load, loads

from ..format_checks import SAMPLES, tool_pairs

EVAL_SAMPLE = SAMPLES / "inspect-eval-log.eval"
CORPUS = Path(__file__).resolve().parents[3].parent / "shared" / "corpus" / "inspect"

HEADER = {
    "version": 2,
    "status": "success",
    "eval": {"task": "arith", "model": "openai/gpt-4o-mini", "created": "2025-03-02T10:00:00Z"},
    "plan": {"name": "plan", "steps": [], "config": {}},
    "results": {"total_samples": 2, "completed_samples": 2},
    "stats": {"model_usage": {"openai/gpt-4o-mini": {"input_tokens": 30, "output_tokens": 8}}},
}


def _sample(sid: Any, answer: str, epoch: int = 1, **extra: Any) -> dict[str, Any]:
    return {
        "id": sid,
        "epoch": epoch,
        "input": f"What is {sid} + 1?",
        "target": answer,
        "messages": [
            {"id": f"u{sid}{epoch}", "content": f"What is {sid} + 1?", "role": "user"},
            {
                "id": f"a{sid}{epoch}",
                "content": answer,
                "source": "generate",
                "role": "assistant",
                "model": "gpt-4o-mini",
            },
        ],
        "scores": {"match": {"value": "C"}},
        **extra,
    }


def _members(*samples: dict[str, Any], head: str = "header.json") -> dict[str, bytes]:
    start = {k: HEADER[k] for k in ("version", "eval", "plan")}
    out = {"_journal/start.json": json.dumps(start, indent=2).encode()}
    for s in samples:
        out[f"samples/{s['id']}_epoch_{s['epoch']}.json"] = json.dumps(s, indent=2).encode()
    summaries = [{"id": s["id"], "epoch": s["epoch"]} for s in samples]
    out["summaries.json"] = json.dumps(summaries, indent=2).encode()
    if head == "header.json":
        out["header.json"] = json.dumps(HEADER, indent=2).encode()
    return out


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, body in members.items():
            archive.writestr(name, body)
    return out.getvalue()


def _zip_zstd(members: dict[str, bytes]) -> bytes:
    """A zip whose members are zstd-compressed (method 93), as newer Inspect writes them."""
    try:
        from compression import zstd  # type: ignore[import-not-found]
    except ImportError:
        from backports import zstd  # type: ignore[import-not-found,no-redef]
    out, central = bytearray(), bytearray()
    for name, body in members.items():
        comp, crc, raw_name = zstd.compress(body), zlib.crc32(body), name.encode()
        sizes = (crc, len(comp), len(body), len(raw_name))
        central += struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 63, 63, 0, 93, 0, 0x21,
                               *sizes, 0, 0, 0, 0, 0, len(out)) + raw_name  # fmt: skip
        out += struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 63, 0, 93, 0, 0x21, *sizes, 0)
        out += raw_name + comp
    at = len(out)
    out += central
    out += struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(members), len(members),
                       len(central), at, 0)  # fmt: skip
    return bytes(out)


def _texts(conversations: list[Conversation]) -> list[list[str]]:
    return [[m.text for m in c.messages] for c in conversations]


def _read_members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {i.filename: archive.read(i) for i in archive.infolist()}


# -- reading -------------------------------------------------------------------------------


def test_the_sample_reads_as_two_conversations_with_calls_reasoning_and_usage() -> None:
    first, second = load(EVAL_SAMPLE)
    assert (first.title, second.title) == ("unit_convert #1", "unit_convert #2")
    assert first.format == "inspect"
    assert tool_pairs(first.messages) == [("calculator", "5632.704")]
    assert isinstance(first.messages[2].blocks[0], ReasoningBlock)
    assert first.messages[2].usage is not None and first.messages[2].usage.output_tokens == 96
    assert first.metadata["usage"]["anthropic/claude-sonnet-4-5"]["total_tokens"] == 1025


def test_detected_and_read_from_bytes_path_and_file_object() -> None:
    data = EVAL_SAMPLE.read_bytes()
    assert detect(data) == "inspect"
    expected = _texts(load(EVAL_SAMPLE))
    assert _texts(loads(data)) == expected
    assert _texts(loads(data, format="inspect")) == expected
    assert _texts(load(io.BytesIO(data))) == expected


def test_samples_come_in_the_order_of_a_json_log_by_epoch_then_id() -> None:
    # members written in completion order, as Inspect writes them
    data = _zip(
        _members(_sample(10, "11"), _sample(2, "3", epoch=2), _sample(2, "3"), _sample(1, "2"))
    )
    titles = [c.title for c in loads(data)]
    assert titles == ["arith #1", "arith #2", "arith #10", "arith #2 (epoch 2)"]


def test_zstd_members_read_like_deflated_ones() -> None:
    members = _members(_sample(1, "2"), _sample(2, "3"))
    plain, packed = loads(_zip(members)), loads(_zip_zstd(members))
    assert [c.messages for c in packed] == [c.messages for c in plain]
    assert detect(_zip_zstd(members)) == "inspect"


def test_a_running_log_with_only_the_journal_start_is_read() -> None:
    (conv,) = loads(_zip(_members(_sample(1, "2"), head="start")))
    assert [m.text for m in conv.messages] == ["What is 1 + 1?", "2"]
    assert conv.metadata["model"] == "openai/gpt-4o-mini"


def test_attachments_are_resolved_and_written_back_as_references() -> None:
    long_text = "a long tool listing " * 20
    sample = _sample(1, "attachment://4f2a9c", attachments={"4f2a9c": long_text})
    data = _zip(_members(sample))
    (conv,) = loads(data)
    assert conv.messages[1].text == long_text
    written = json.loads(_read_members(dumps(conv, format="inspect"))["samples/1_epoch_1.json"])
    assert written["messages"][1]["content"] == "attachment://4f2a9c"


def test_a_zip_that_is_not_an_eval_log_is_not_claimed() -> None:
    data = _zip({"word/document.xml": b"<w:document/>", "[Content_Types].xml": b"<Types/>"})
    with pytest.raises(FormatError):
        detect(data)


# -- writing back --------------------------------------------------------------------------


def test_round_trip_keeps_messages_and_every_other_member_byte_for_byte() -> None:
    data = EVAL_SAMPLE.read_bytes()
    conversations = load(EVAL_SAMPLE)
    written = dumps(conversations, format="inspect")
    assert written.startswith(b"PK\x03\x04")
    again = loads(written)
    assert [c.messages for c in again] == [c.messages for c in conversations]
    before, after = _read_members(data), _read_members(written)
    assert list(after) == list(before)
    for name, body in before.items():
        if not name.startswith("samples/"):
            assert after[name] == body, name
        else:
            assert json.loads(after[name]) == json.loads(body), name


def test_through_a_native_file_and_back_the_archive_is_the_same() -> None:
    data = EVAL_SAMPLE.read_bytes()
    native = loads(dumps(load(EVAL_SAMPLE), format="msgviewer"))
    written = dumps([dataclasses.replace(c, format="inspect") for c in native], format="inspect")
    before, after = _read_members(data), _read_members(written)
    assert list(after) == list(before)
    assert [after[n] for n in before if not n.startswith("samples/")] == [
        before[n] for n in before if not n.startswith("samples/")
    ]


def test_an_edit_is_written_into_its_sample_member_only() -> None:
    data = _zip(_members(_sample(1, "2"), _sample(2, "3")))
    first, second = loads(data)
    edited = dataclasses.replace(second, messages=(*second.messages, Message.user("Are you sure?")))
    after = _read_members(dumps([first, edited], format="inspect"))
    assert json.loads(after["samples/2_epoch_1.json"])["messages"][-1]["content"] == (
        "Are you sure?"
    )
    assert json.loads(after["samples/1_epoch_1.json"]) == _sample(1, "2")
    assert after["header.json"] == _members()["header.json"]


def test_a_conversation_from_another_format_joins_as_a_new_sample() -> None:
    (conv,) = loads(_zip(_members(_sample(1, "2"))))
    other = Conversation((Message.user("hello"), Message.assistant("hi")), "openai-chat")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        written = dumps([conv, other], format="inspect")
    assert "samples/2_epoch_1.json" in _read_members(written)
    assert _texts(loads(written)) == [["What is 1 + 1?", "2"], ["hello", "hi"]]


def test_conversations_of_a_json_log_still_write_json() -> None:
    log = {**HEADER, "samples": [_sample(1, "2")]}
    written = dumps(loads(json.dumps(log).encode()), format="inspect")
    assert written.lstrip().startswith(b"{")


def test_writing_zero_conversations_says_there_is_nothing_to_write() -> None:
    with pytest.raises(FormatError, match="nothing to write"):
        dumps([], format="inspect")


# -- damage --------------------------------------------------------------------------------


def test_a_truncated_archive_is_a_clear_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "run.eval"
    path.write_bytes(EVAL_SAMPLE.read_bytes()[:3000])
    with pytest.raises(FormatError, match=r"not a readable \.eval") as caught:
        load(path)
    assert caught.value.file == str(path)


def test_a_member_that_is_not_json_is_named() -> None:
    members = _members(_sample(1, "2"))
    members["samples/1_epoch_1.json"] = b'{"id": 1, "messages": ['
    with pytest.raises(FormatError, match="invalid JSON") as caught:
        loads(_zip(members))
    assert "samples/1_epoch_1.json" in str(caught.value.path)


def test_a_bad_message_is_located_in_its_member() -> None:
    sample = _sample(1, "2")
    sample["messages"][1]["role"] = "robot"
    with pytest.raises(FormatError, match="unknown message role") as caught:
        loads(_zip(_members(sample)))
    assert caught.value.path == "samples/1_epoch_1.json: $.messages[1].role"


def test_a_corrupted_member_is_named() -> None:
    data = bytearray(_zip_zstd(_members(_sample(1, "2"))))
    at = data.index(b"samples/1_epoch_1.json") + len("samples/1_epoch_1.json") + 20
    data[at] ^= 0xFF  # inside the sample's compressed bytes
    with pytest.raises(FormatError) as caught:
        loads(bytes(data))
    assert "samples/1_epoch_1.json" in str(caught.value)


# -- the corpus: .eval logs beside the same logs in JSON ---------------------------------------

PAIRS = ["inspect_log_formats", "inspect_log_read_sample"]


@pytest.mark.parametrize("name", PAIRS)
def test_an_eval_log_reads_as_its_json_twin(name: str) -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"no corpus at {CORPUS} (it sits beside the project)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from_eval, from_json = load(CORPUS / f"{name}.eval"), load(CORPUS / f"{name}.json")

    # The twins are two runs of one task: message ids are made anew by each run.
    def without_ids(convs: list[Conversation]) -> list[list[Message]]:
        return [[dataclasses.replace(m, id=None) for m in c.messages] for c in convs]

    assert without_ids(from_eval) == without_ids(from_json)
    assert [c.title for c in from_eval] == [c.title for c in from_json]


def test_an_integer_past_64_bits_in_an_eval_member_is_read_exactly() -> None:
    big = 123456789012345678901234
    sample = _sample(1, "C", metadata={"row": big})
    (conv,) = loads(_zip(_members(sample)))
    row = conv.metadata["inspect"]["sample"]["metadata"]["row"]
    assert row == big and type(row) is int  # (as a .json log's is read)
