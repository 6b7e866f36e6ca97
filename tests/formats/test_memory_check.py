"""A file too large for the memory free is refused before it is read, in one line with the
figures, rather than read until the system kills the process."""

from __future__ import annotations

import platform
from pathlib import Path

import pytest

from msgviewer.formats import load, memory
from msgviewer.formats.memory import TooLargeError, available_memory, check_fits

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "openai-chat-agent.json"


def test_the_free_memory_is_known_here() -> None:
    free = available_memory()
    assert free is not None and free > 0


def test_a_file_needing_more_than_is_free_is_refused_with_the_figures() -> None:
    with pytest.raises(TooLargeError) as caught:
        check_fits("big.jsonl", 6_000_000_000, available=8_000_000_000)
    text = str(caught.value)
    assert text.startswith("big.jsonl: too large to read whole here: 6.0 GB needs about 18.0 GB")
    assert "8.0 GB is free" in text and memory.SKIP_ENV in text and "\n" not in text


def test_a_file_that_fits_or_is_small_is_read() -> None:
    check_fits("big.jsonl", 2_000_000_000, available=8_000_000_000)
    check_fits("small.json", 1_000_000, available=1_000)  # under CHECK_FROM: no look


def test_the_check_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(memory.SKIP_ENV, "1")
    check_fits("big.jsonl", 6_000_000_000, available=8_000_000_000)


def test_load_asks_before_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "CHECK_FROM", 0)
    monkeypatch.setattr(memory, "available_memory", lambda: 1000)
    with pytest.raises(TooLargeError, match=r"openai-chat-agent\.json: too large"):
        load(SAMPLE)
    monkeypatch.setattr(memory, "available_memory", lambda: 1 << 40)
    assert load(SAMPLE)


def test_iter_load_asks_for_what_it_holds(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """One conversation at a time needs the file's bytes and a little more; a file read whole
    needs a whole read's peak."""
    from msgviewer.formats import dumps, iter_load, loads

    convs = loads(SAMPLE.read_bytes())
    lines = tmp_path / "many.jsonl"
    lines.write_bytes(dumps(convs * 3, format="msgviewer"))
    size = lines.stat().st_size
    monkeypatch.setattr(memory, "CHECK_FROM", 0)
    monkeypatch.setattr(memory, "available_memory", lambda: int(size * 1.5))
    assert len(list(iter_load(lines))) == 3  # one at a time: it fits
    monkeypatch.setattr(memory, "available_memory", lambda: size)
    with pytest.raises(TooLargeError, match=r"many\.jsonl: too large"):
        next(iter_load(lines))
    monkeypatch.setattr(memory, "available_memory", lambda: int(SAMPLE.stat().st_size * 1.5))
    with pytest.raises(TooLargeError, match=r"openai-chat-agent\.json: too large"):
        next(iter_load(SAMPLE))  # one document: read whole


def test_iter_load_reads_a_file_object(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file object has no size to ask about first: it is read within the usual bound."""
    import io

    from msgviewer.formats import dumps, iter_load, loads

    convs = loads(SAMPLE.read_bytes())
    monkeypatch.setattr(memory, "CHECK_FROM", 0)
    monkeypatch.setattr(memory, "available_memory", lambda: 1)
    assert len(list(iter_load(io.BytesIO(dumps(convs * 2, format="msgviewer"))))) == 2


def test_a_large_load_hands_the_freed_pages_back(monkeypatch: pytest.MonkeyPatch) -> None:
    # (what it saves is a figure of bench/load.py's; here, that it is asked for, and when)
    calls: list[None] = []
    monkeypatch.setattr(memory, "give_back_freed", lambda: calls.append(None))
    size = SAMPLE.stat().st_size
    monkeypatch.setattr(memory, "GIVE_BACK_FROM", size + 1)
    load(SAMPLE)
    assert calls == []
    monkeypatch.setattr(memory, "GIVE_BACK_FROM", size)
    (conv,) = load(SAMPLE)
    assert calls == [None] and conv.messages
    with SAMPLE.open("rb") as fh:  # (a file object: its size is what was read of it)
        load(fh)
    assert calls == [None, None]


@pytest.mark.skipif(
    platform.libc_ver()[0] != "glibc", reason="malloc_trim is glibc's: elsewhere nothing is done"
)
def test_handing_freed_pages_back_is_known_here() -> None:
    assert memory._malloc_trim() is not None
    memory.give_back_freed()
