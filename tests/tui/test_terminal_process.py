"""The real ``msgviewer`` in a pseudo-terminal: a load that never ends can still be left with
q or Ctrl+C (the process ends, the terminal is put back), and data piped in while the keys
come from the terminal."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .pty_run import PtyRun

pytestmark = pytest.mark.skipif(
    sys.platform != "linux", reason="pseudo-terminals and FIFOs as on Linux"
)

SAMPLE = Path(__file__).resolve().parents[2] / "msgviewer" / "samples" / "demo-agent-run.json"
STATUS_LINE = b"palette"  # the key bar's last entry: the app has drawn its screen


@pytest.fixture
def runs() -> Iterator[list[PtyRun]]:
    started: list[PtyRun] = []
    yield started
    for run in started:
        run.close()


def _started(runs: list[PtyRun], *args: str, stdin_fd: int | None = None) -> PtyRun:
    run = PtyRun(*args, stdin_fd=stdin_fd)
    runs.append(run)
    return run


@pytest.mark.parametrize(("key", "code"), [(b"q", 0), (b"\x03", 130)], ids=["q", "ctrl+c"])
def test_a_fifo_with_no_writer_can_be_left(
    tmp_path: Path, runs: list[PtyRun], key: bytes, code: int
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    run = _started(runs, str(fifo))
    if not run.wait_for(b"Reading fifo", 60):
        pytest.skip("the app did not start within a minute (a busy machine)")
    run.type(key)
    assert run.exited(20), "the process is still running after the key"
    assert run.status == code
    assert run.restored(), "the terminal was left in the app's screen"
    assert b"Traceback" not in run.output


def test_data_from_a_pipe_and_keys_from_the_terminal(runs: list[PtyRun]) -> None:
    read_end, write_end = os.pipe()
    run = _started(runs, "-", stdin_fd=read_end)
    os.close(read_end)
    os.write(write_end, SAMPLE.read_bytes())  # (it holds many a "q")
    os.close(write_end)
    if not run.wait_for(STATUS_LINE, 60):
        assert not run.exited(0), f"the app ended at once: {bytes(run.output[-300:])!r}"
        pytest.skip("the app did not start within a minute (a busy machine)")
    assert run.wait_for(b"15 messages", 30), "the piped data was not shown"
    assert not run.exited(1), "the app quit by itself (the data was read as keys)"
    run.type(b"q")
    assert run.exited(20) and run.status == 0
    assert run.restored()


def test_data_from_a_pipe_with_no_terminal_is_a_clear_error(tmp_path: Path) -> None:
    import subprocess

    result = subprocess.run(
        [sys.executable, "-m", "msgviewer", "-"],
        input=SAMPLE.read_bytes(),
        capture_output=True,
        timeout=60,
        start_new_session=True,  # no controlling terminal: /dev/tty cannot be opened
        env={**os.environ, "PYTHONPATH": str(SAMPLE.parents[2])},
    )
    assert result.returncode == 2
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1 and "no terminal to read the app's keys from" in lines[0]
