"""SIGTERM or SIGHUP during ``convert -o`` or a save in a worker thread (as the app saves)
removes the temporary file, and the process then ends as the signal asks; the temporary file a
``kill -9`` leaves is removed by the next write to the same target.

Timing is not left to luck: the child's flush to disk (the last step of writing the temporary
file, before the rename) is made to wait, and the signal is sent once the child is there. A
child that never gets there (a loaded machine) skips the test rather than fail it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import msgviewer as mv
from bench.generate import generate

ROOT = str(Path(__file__).resolve().parents[2])

# The child: its first fsync (the temporary file's) says where it is, then waits for a signal.
SLOW_FSYNC = """
import os, sys, time
from pathlib import Path
marker = Path(sys.argv[1])
real = os.fsync
def fsync(fd):
    if not marker.exists():
        marker.write_text("writing")
        time.sleep(120)
    real(fd)
os.fsync = fsync
"""

CONVERT = (
    SLOW_FSYNC
    + """
from msgviewer.cli import main
sys.exit(main(sys.argv[2:]))
"""
)

# As the app saves: in a worker thread, with the handlers the app sets at start.
THREAD_SAVE = (
    SLOW_FSYNC
    + """
import threading
from msgviewer import Message
from msgviewer.document import Document
from msgviewer.formats.safe_write import clean_up_on_signals
clean_up_on_signals()
[doc] = Document.load(sys.argv[2])
doc.edit(lambda ms: [*ms, Message.user("more")], "more")
worker = threading.Thread(target=doc.save, daemon=True)
worker.start()
while worker.is_alive():
    worker.join(0.05)
"""
)


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated agent run of a few megabytes."""
    path = tmp_path_factory.mktemp("big") / "big.json"
    mv.dump(mv.Conversation(tuple(generate(1500))), path)
    return path


def _default_signals() -> None:
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def _start(script: str, marker: Path, *args: str) -> subprocess.Popen[bytes]:
    child = subprocess.Popen(
        [sys.executable, "-c", script, str(marker), *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": ROOT},
        # The signals' own actions, even where the tests run ignoring SIGHUP (under nohup),
        # which the child would inherit and keep, as msgviewer keeps an ignored signal ignored
        preexec_fn=_default_signals,
    )
    deadline = time.monotonic() + 60
    while not marker.exists():
        if child.poll() is not None:
            pytest.fail(f"the child ended early: {child.stderr.read().decode()}")  # type: ignore[union-attr]
        if time.monotonic() > deadline:
            child.kill()
            child.wait()
            pytest.skip("the child did not reach its write within 60 s (a loaded machine)")
        time.sleep(0.02)
    return child


def _temporaries(directory: Path) -> list[str]:
    return sorted(n for n in os.listdir(directory) if n.startswith(".") and "tmp" in n)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_signal_during_convert_removes_the_temporary_file(big, tmp_path, sig) -> None:
    out = tmp_path / "out.json"
    out.write_bytes(b"the old version")
    marker = tmp_path.parent / f"{tmp_path.name}.marker"
    child = _start(CONVERT, marker, "convert", str(big), "--to", "msgviewer", "-o", str(out))
    assert len(_temporaries(tmp_path)) == 1  # the write is under way
    child.send_signal(sig)
    assert child.wait(60) == -sig  # ended as the signal asks
    assert _temporaries(tmp_path) == []
    assert out.read_bytes() == b"the old version"


def test_a_signal_during_a_save_in_a_worker_thread_removes_it(big, tmp_path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(big.read_bytes())
    marker = tmp_path.parent / f"{tmp_path.name}.marker"
    child = _start(THREAD_SAVE, marker, str(path))
    assert len(_temporaries(tmp_path)) == 1
    child.send_signal(signal.SIGTERM)
    assert child.wait(60) == -signal.SIGTERM
    assert _temporaries(tmp_path) == []
    assert path.read_bytes() == big.read_bytes()


def test_the_next_write_removes_what_kill_9_left(big, tmp_path) -> None:
    out = tmp_path / "out.json"
    marker = tmp_path.parent / f"{tmp_path.name}.marker"
    child = _start(CONVERT, marker, "convert", str(big), "--to", "msgviewer", "-o", str(out))
    child.kill()  # no handler runs: the temporary file stays
    child.wait(60)
    assert len(_temporaries(tmp_path)) == 1
    again = ["convert", str(big), "--to", "openai-chat", "-o", str(out)]
    done = subprocess.run(
        [sys.executable, "-m", "msgviewer", *again],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": ROOT},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert _temporaries(tmp_path) == []
    assert os.listdir(tmp_path) == ["out.json"]
