"""The headless loader on inputs that are not regular files, and a load left behind."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from msgviewer import FormatError
from msgviewer.tui.model.loader import Cancelled, in_daemon_thread, load_session

SAMPLE = Path(__file__).resolve().parents[3] / "msgviewer" / "samples" / "demo-agent-run.json"


def test_a_load_stuck_for_ever_is_left_when_cancelled() -> None:
    cancel = threading.Event()
    stuck = threading.Event()  # never set: the work blocks as an open of a FIFO would
    threading.Timer(0.2, cancel.set).start()
    started = time.monotonic()
    with pytest.raises(Cancelled):
        in_daemon_thread(stuck.wait, cancel)
    assert time.monotonic() - started < 5
    left = [t for t in threading.enumerate() if t.name == "msgviewer-load"]
    assert left and all(t.daemon for t in left)  # it never keeps the process alive
    stuck.set()


def test_the_work_s_result_and_errors_come_back() -> None:
    never = threading.Event()
    assert in_daemon_thread(lambda: 42, never) == 42
    with pytest.raises(FormatError, match="bad"):
        in_daemon_thread(lambda: (_ for _ in ()).throw(FormatError("bad")), never)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_read_once_with_no_file_to_save_to(tmp_path: Path) -> None:
    fifo = tmp_path / "run.fifo"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as fh:
            fh.write(SAMPLE.read_bytes())

    def unblock(done: threading.Event) -> None:
        # A loader that opened the FIFO a second time would wait for ever for another
        # writer: one that writes nothing ends the wait, and the test fails instead of hanging.
        while not done.wait(20):
            with contextlib.suppress(OSError):  # (no reader waiting)
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    done = threading.Event()
    threading.Thread(target=unblock, args=(done,), daemon=True).start()
    try:
        session = load_session([str(fifo)])
    finally:
        done.set()
    writer.join(10)
    assert session.message_count == 15
    assert all(c.document.path is None for c in session.convs)


@pytest.mark.skipif(sys.platform != "linux", reason="/dev/zero as on Linux")
def test_an_endless_device_is_a_clear_error_not_a_hang() -> None:
    # (in a process of its own: a loader that read it without a bound would never return)
    script = "from msgviewer.tui.model.loader import load_session; load_session(['/dev/zero'])"
    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(SAMPLE.parents[2])},
    )
    assert b"FormatError: /dev/zero: binary data, not JSON text" in result.stderr
