"""A JSONL file read piece by piece gives what the whole file's bytes give."""

from __future__ import annotations

from pathlib import Path

import pytest

from msgviewer import load, loads
from msgviewer.formats import jsonl_file
from msgviewer.formats.io import RawLine, parse
from msgviewer.formats.jsonl_file import parse_jsonl_file

SAMPLES = Path(__file__).resolve().parents[2] / "msgviewer" / "samples"
JSONL_SAMPLES = ("claude-code-session.jsonl", "codex-rollout.jsonl", "openai-finetune.jsonl")


@pytest.fixture(autouse=True)
def _small_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    # pieces of a few bytes: every line boundary falls inside, at or across a piece's end
    monkeypatch.setattr(jsonl_file, "PIECE", 7)


def _same(path: Path) -> None:
    whole = parse(path.read_bytes(), str(path))
    pieces = parse_jsonl_file(str(path), str(path))
    assert pieces is not None and whole.is_jsonl
    assert pieces.lines == whole.lines
    assert pieces.owned and pieces.file == whole.file == str(path)
    assert [_plain(r) for r in pieces.records] == [_plain(r) for r in whole.records]
    assert [_plain(r) for r in pieces.bad or ()] == [_plain(r) for r in whole.bad or ()]


def _plain(record: object) -> object:
    if type(record) is RawLine:
        return ("raw", record.text, str(record.error), record.error.line)
    return record


@pytest.mark.parametrize("name", JSONL_SAMPLES)
def test_the_samples_read_in_pieces_are_read_as_whole(name: str) -> None:
    path = SAMPLES / name
    _same(path)
    assert load(path) == loads(path.read_bytes())


def test_odd_lines_keep_their_numbers(tmp_path: Path) -> None:
    long = '{"type": "user", "text": "' + "x" * 100 + '"}'
    data = (
        "\ufeff"  # a byte-order mark
        '{"a": 1}\r\n'
        "\n"
        "   \n"
        f"{long}\n"
        '{"broken": \n'  # not JSON: kept as a raw line, with its number
        '{"n": 12345678901234567890123}\n'  # past 64 bits: read exactly
        '{"last": "no newline'  # cut off: the last line, incomplete
    )
    path = tmp_path / "odd.jsonl"
    path.write_bytes(data.encode())
    _same(path)
    parsed = parse_jsonl_file(str(path), str(path))
    assert parsed is not None
    assert list(parsed.lines) == [1, 4, 5, 6, 7]
    assert parsed.records[3] == {"n": 12345678901234567890123}
    assert [b.error.line for b in parsed.bad or ()] == [5, 7]
    assert "incomplete" in str(parsed.bad[-1].error)


@pytest.mark.parametrize(
    "data",
    [
        b'{"messages": []}',  # one document
        b'{\n  "format": "msgviewer"\n}\n',  # one document, indented
        b'{"a": 1}\n   \n',  # one line, then blank space
        b"",
        '{"a": 1}\n{"b": 2}\n'.encode("utf-16"),  # UTF-16: converted whole
        b"\x00\x01binary",
    ],
)
def test_anything_but_plain_jsonl_is_left_to_the_whole_read(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "file"
    path.write_bytes(data)
    assert parse_jsonl_file(str(path)) is None


def test_a_missing_file_or_a_directory_is_left_to_the_whole_read(tmp_path: Path) -> None:
    assert parse_jsonl_file(str(tmp_path / "missing.jsonl")) is None
    assert parse_jsonl_file(str(tmp_path)) is None
