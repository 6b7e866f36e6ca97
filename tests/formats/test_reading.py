"""Reading input that fights back: a file truncated while it is read, endless devices and
pipes, text in UTF-16 or UTF-32, numbers that are not the integers a format wants."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from msgviewer import FormatError, load, loads
from msgviewer.formats.io import read_buffer
from msgviewer.formats.reading import READ_LIMIT_VARIABLE, read_limit

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "msgviewer" / "samples"
AGENT = SAMPLES / "openai-chat-agent.json"


def _msgviewer(*args: str, timeout: float = 60, **kwargs) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), **kwargs.pop("env", {})}
    return subprocess.run(
        [sys.executable, "-m", "msgviewer", *args],
        capture_output=True,
        timeout=timeout,
        env=env,
        **kwargs,
    )


def _big_chat(path: Path, messages: int = 40_000) -> Path:
    turns = [
        {"role": "user" if i % 2 == 0 else "assistant", "content": f"message {i} " + "w" * 40}
        for i in range(messages)
    ]
    path.write_bytes(orjson.dumps(turns))
    return path


# -- item 5: a file truncated while it is read ----------------------------------------------


def test_a_large_file_is_read_not_mapped(tmp_path: Path) -> None:
    path = _big_chat(tmp_path / "big.json")
    assert path.stat().st_size > 1 << 20
    data, name = read_buffer(path)
    assert type(data) is bytes and data == path.read_bytes() and name == str(path)


_TRUNCATE_AFTER_OPENING = """
import os, sys
import msgviewer.formats.loading as loading
read = loading.read_buffer
def read_then_truncate(source):
    data, name = read(source)
    os.truncate(source, 0)  # shrunk by someone else between opening and parsing
    return data, name
loading.read_buffer = read_then_truncate
print(len(loading.load(sys.argv[1])[0].messages))
"""


def test_a_file_truncated_while_it_is_read_is_no_crash(tmp_path: Path) -> None:
    path = _big_chat(tmp_path / "big.json")
    result = subprocess.run(
        [sys.executable, "-c", _TRUNCATE_AFTER_OPENING, str(path)],
        capture_output=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0, f"died with {result.returncode}: {result.stderr[-500:]!r}"
    assert result.stdout.strip() == b"40000"  # the data as it was read


# -- item 6: endless inputs -------------------------------------------------------------------


def test_dev_zero_is_refused_at_once() -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    result = _msgviewer("stats", "/dev/zero", timeout=30)
    assert result.returncode == 2
    assert result.stderr.decode().splitlines() == [
        "msgviewer: error: /dev/zero: binary data, not JSON text: it begins with NUL bytes"
    ]


def test_an_endless_device_is_read_up_to_the_bound() -> None:
    if not os.path.exists("/dev/urandom"):
        pytest.skip("no /dev/urandom here")
    result = _msgviewer("stats", "/dev/urandom", env={READ_LIMIT_VARIABLE: "4M"}, timeout=30)
    assert result.returncode == 2
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1 and "/dev/urandom: stopped reading after 4 MiB" in lines[0]
    assert READ_LIMIT_VARIABLE in lines[0]


def test_a_pipe_past_the_bound_is_refused_and_one_within_it_read() -> None:
    data = AGENT.read_bytes()
    padded = data + b" " * (3 << 20)  # whitespace after the value: still the same file
    over = _msgviewer("stats", "-", input=padded, env={READ_LIMIT_VARIABLE: "2M"})
    assert over.returncode == 2
    assert b"<stdin>: stopped reading after 2 MiB" in over.stderr
    within = _msgviewer("stats", "-", input=padded, env={READ_LIMIT_VARIABLE: "8M"})
    assert within.returncode == 0, within.stderr
    assert within.stdout.startswith(b"-  (openai-chat")


def test_a_regular_file_is_never_bounded(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "padded.json"
    path.write_bytes(AGENT.read_bytes() + b" " * (2 << 20))
    monkeypatch.setenv(READ_LIMIT_VARIABLE, "1M")
    assert load(path) == load(AGENT)
    with path.open("rb") as fh:  # standard input redirected from it, too
        result = _msgviewer("stats", "-", stdin=fh, env={READ_LIMIT_VARIABLE: "1M"})
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("text", "limit"),
    [
        ("", 1 << 30),
        ("1000", 1000),
        ("64K", 64 << 10),
        ("3 MiB", 3 << 20),
        ("2g", 2 << 30),
        ("0", None),
    ],
)
def test_the_bound_is_set_by_the_environment(monkeypatch, text: str, limit: int | None) -> None:
    monkeypatch.setenv(READ_LIMIT_VARIABLE, text)
    assert read_limit() == limit


def test_a_bound_that_is_no_size_says_so(monkeypatch) -> None:
    monkeypatch.setenv(READ_LIMIT_VARIABLE, "lots")
    with pytest.raises(FormatError, match="MSGVIEWER_READ_LIMIT='lots' is not a size"):
        read_limit()


# -- item 9: UTF-16 and UTF-32; numbers --------------------------------------------------------

ENCODINGS = ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"]
LABELS = {
    "utf-16-le": "UTF-16 (little-endian)",
    "utf-16-be": "UTF-16 (big-endian)",
    "utf-32-le": "UTF-32 (little-endian)",
    "utf-32-be": "UTF-32 (big-endian)",
}


@pytest.mark.parametrize("codec", ENCODINGS)
@pytest.mark.parametrize("sample", ["openai-chat-agent.json", "claude-code-session.jsonl"])
def test_utf16_and_utf32_with_a_byte_order_mark_are_read(
    tmp_path: Path, codec: str, sample: str
) -> None:
    text = (SAMPLES / sample).read_text(encoding="utf-8")
    path = tmp_path / sample
    path.write_bytes("\ufeff".encode(codec) + text.encode(codec))
    assert load(path) == load(SAMPLES / sample)
    assert loads(path.read_bytes()) == load(SAMPLES / sample)


@pytest.mark.parametrize("codec", ENCODINGS)
def test_utf16_and_utf32_without_a_byte_order_mark_are_named(tmp_path: Path, codec: str) -> None:
    path = tmp_path / "wide.json"
    path.write_bytes(AGENT.read_text(encoding="utf-8").encode(codec))
    with pytest.raises(FormatError) as info:
        load(path)
    assert f"looks like {LABELS[codec]} text without a byte-order mark" in str(info.value)
    assert str(info.value).startswith(str(path))


def test_broken_utf16_says_where(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_bytes(b"\xff\xfe" + '{"a": "'.encode("utf-16-le") + b"\x00\xdc" + b'"\x00}\x00')
    with pytest.raises(FormatError, match=r"not valid UTF-16 \(little-endian\) at byte 16"):
        load(path)


def _with_usage(sample: str, old: bytes, new: bytes) -> bytes:
    data = (SAMPLES / sample).read_bytes()
    assert old in data
    return data.replace(old, new, 1)


# (sample, a token count in it as it is written there)
USAGE_SAMPLES = [
    ("openai-chat-completion.json", b'"prompt_tokens": '),
    ("openai-responses-response.json", b'"input_tokens": '),
    ("anthropic-response.json", b'"input_tokens": '),
    ("gemini-response.json", b'"promptTokenCount": '),
    ("demo-agent-run.json", b'"input_tokens": '),
]


@pytest.mark.parametrize(("sample", "key"), USAGE_SAMPLES)
def test_a_token_count_that_is_a_float_says_what_it_got(sample: str, key: bytes) -> None:
    data = (SAMPLES / sample).read_bytes()
    start = data.index(key) + len(key)
    end = start
    while data[end : end + 1].isdigit() or data[end : end + 1] == b" ":
        end += 1
    broken = data[:start] + b" 1.5" + data[end:]
    with pytest.raises(FormatError) as info:
        loads(broken)
    assert "must be an integer, not 1.5" in str(info.value)


def test_an_integer_past_64_bits_is_named_so() -> None:
    from msgviewer.core.errors import number_text

    assert number_text(10**30, "an integer") == "an integer past 64 bits: 100000000000…"
    assert number_text(-(2**63), "an integer") == "an integer"
    assert number_text(2.0, "an integer") == "2.0"
    assert number_text(10**5000, "a number").endswith("about 5,000 digits")
    # where a string was wanted, a number past 64 bits is named as one
    data = _with_usage("demo-agent-run.json", b'"id": "', b'"id": 1' + b"0" * 30 + b', "x": "')
    with pytest.raises(FormatError, match="an integer past 64 bits: 100000000000"):
        loads(data)
