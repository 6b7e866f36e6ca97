"""Large files (once memory-mapped, now read whole) load as their bytes do."""

from __future__ import annotations

from pathlib import Path

import pytest

from msgviewer import Conversation, FormatError, Message, dumps, load, loads
from msgviewer.formats.io import parse, read_buffer

BIG = 1 << 20  # files this large were mapped (a truncation then killed the process)


def _conversation(i: int) -> Conversation:
    messages = (
        Message.user(f"question {i} " + "x" * 2000, id=f"u{i}"),
        Message.assistant(f"answer {i} " + "y" * 2000, id=f"a{i}"),
    )
    return Conversation(messages, title=f"conversation {i}")


def _jsonl(count: int) -> bytes:
    return dumps([_conversation(i) for i in range(count)])


def _write(tmp_path: Path, data: bytes, name: str = "big.json") -> Path:
    assert len(data) >= BIG, "the test needs a file as large as those once mapped"
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_a_large_file_is_read_as_bytes(tmp_path: Path) -> None:
    small, name = read_buffer(__file__)
    assert isinstance(small, bytes) and name == __file__
    path = _write(tmp_path, _jsonl(300))
    data, _ = read_buffer(path)
    assert type(data) is bytes and data == path.read_bytes()


def test_large_json_document_loads_like_its_bytes(tmp_path: Path) -> None:
    conv = Conversation(tuple(m for i in range(300) for m in _conversation(i).messages))
    path = _write(tmp_path, dumps(conv) + b"\n\n  \n")
    assert load(path) == loads(path.read_bytes())
    assert len(load(path)[0].messages) == 600


def test_large_jsonl_with_blank_and_crlf_lines(tmp_path: Path) -> None:
    lines = _jsonl(300).split(b"\n")
    data = b"\r\n".join(lines[:100]) + b"\n\n   \n" + b"\n".join(lines[100:])
    path = _write(tmp_path, data, "big.jsonl")
    loaded = load(path)
    assert loaded == loads(data)
    assert [c.title for c in loaded] == [f"conversation {i}" for i in range(300)]


def test_large_file_with_byte_order_mark(tmp_path: Path) -> None:
    data = _jsonl(300)
    path = _write(tmp_path, b"\xef\xbb\xbf" + data, "bom.jsonl")
    assert load(path) == loads(data)


def test_large_blank_file_is_empty_input(tmp_path: Path) -> None:
    path = _write(tmp_path, b" \n\t" * (BIG // 3 + 1))
    with pytest.raises(FormatError, match="the input is empty"):
        load(path)


def test_large_jsonl_error_names_the_line(tmp_path: Path) -> None:
    lines = _jsonl(300).split(b"\n")
    lines[250] = lines[250][:-5]  # cut inside the record
    path = _write(tmp_path, b"\n".join(lines), "broken.jsonl")
    with pytest.raises(FormatError) as info:
        load(path)
    assert info.value.line == 251
    assert str(path) in str(info.value)


def test_large_jsonl_incomplete_last_line(tmp_path: Path) -> None:
    data = _jsonl(300)
    path = _write(tmp_path, data + data.split(b"\n")[0][:100], "growing.jsonl")
    with pytest.raises(FormatError, match="still being written"):
        load(path)


def test_error_after_blank_lines_names_its_own_line(tmp_path: Path) -> None:
    lines = _jsonl(300).split(b"\n")
    lines[200] = b""  # blank lines count as lines
    lines[201] = b"   "
    lines[260] = lines[260][:-5]
    path = _write(tmp_path, b"\n".join(lines), "blank-then-broken.jsonl")
    with pytest.raises(FormatError) as info:
        load(path)
    assert info.value.line == 261


@pytest.mark.parametrize(
    ("data", "records"),
    [
        (b'{"role": "user", "content": "hi"}\n\n', None),  # one value, blank lines after
        (b'[{"role": "user",\n "content": "hi"}]\n', None),  # pretty JSON: line 1 is no value
        (b'{"a": 1}\n{"b": 2}\n', [{"a": 1}, {"b": 2}]),
    ],
)
def test_jsonl_is_told_from_json_by_its_first_line(data: bytes, records: object) -> None:
    parsed = parse(data)
    assert parsed.records == records
    if records is None:
        assert parsed.value is not None
