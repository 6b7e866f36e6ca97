"""Try the slow adversarial cases for real and print a table: case, expected, observed, ok.

Each case does what a hostile or unlucky user would, at real sizes and with real timing (no
test hooks): signals sent to ``msgviewer convert -o`` and to a save in a worker thread (as the
app saves) while a large file is being written, ``kill -9`` then the next save, and another
process changing the file 0.2 s into a document's save of a ~70 MB file; and reading: the big
file truncated while ``stats`` and the app read it, ``/dev/zero`` and ``/dev/urandom``, the app
on a FIFO with no writer left with q and Ctrl+C, data piped into the app (in a pseudo-terminal).

    python scripts/adversarial.py                      # every case
    python scripts/adversarial.py --only race-append   # the cases whose name holds this
    python scripts/adversarial.py --size 20 --keep /tmp/adv

A case adds itself with ``@case(group, name, expected)`` on a function that takes a ``Lab``
(its scratch directory and the big input) and returns ``(observed, ok)``; ``ok`` None means the
case could not be tried this time (the timing missed it): shown as "skip". Exit status 1 when a
case is not ok.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import msgviewer as mv  # noqa: E402
from bench.generate import generate  # noqa: E402
from msgviewer.document import Document, FileChangedError  # noqa: E402
from tests.tui.pty_run import PtyRun  # noqa: E402

Outcome = tuple[str, bool | None]


@dataclass
class Lab:
    """Where a case works: its own empty directory, and the shared big input (never changed)."""

    dir: Path
    big: Path

    def copy_of_big(self, name: str = "big.json") -> Path:
        path = self.dir / name
        shutil.copyfile(self.big, path)
        return path


@dataclass(frozen=True)
class Case:
    group: str
    name: str
    expected: str
    run: Callable[[Lab], Outcome]


CASES: list[Case] = []


def case(group: str, name: str, expected: str) -> Callable[[Callable[[Lab], Outcome]], Callable]:
    """Add the function below to ``CASES`` (in the order of the file)."""

    def add(fn: Callable[[Lab], Outcome]) -> Callable[[Lab], Outcome]:
        CASES.append(Case(group, name, expected, fn))
        return fn

    return add


# -- helpers -------------------------------------------------------------------------------------


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def _temporaries(directory: Path) -> list[str]:
    return sorted(n for n in os.listdir(directory) if n.startswith(".") and "tmp" in n)


def _megabytes(n: int) -> str:
    return f"{n / 1e6:.0f} MB"


def _convert(lab: Lab, out: Path) -> subprocess.Popen[bytes]:
    args = ["convert", str(lab.big), "--to", "openai-chat", "-o", str(out)]
    return subprocess.Popen(
        [sys.executable, "-m", "msgviewer", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=_env(),
    )


def _when_writing(child: subprocess.Popen[bytes], directory: Path, delay: float) -> int | None:
    """Wait until the child's temporary file exists, then ``delay`` more: its size then (None
    if the child ended first)."""
    deadline = time.monotonic() + 120
    while not _temporaries(directory):
        if child.poll() is not None or time.monotonic() > deadline:
            return None
        time.sleep(0.002)
    time.sleep(delay)
    names = _temporaries(directory)
    if not names or child.poll() is not None:
        return None
    try:
        return (directory / names[0]).stat().st_size
    except FileNotFoundError:
        return None


def _ended(code: int | None) -> str:
    if code is not None and code < 0:
        return f"killed by {signal.Signals(-code).name}"
    return f"exit {code}"


# -- writing -------------------------------------------------------------------------------------


def _signal_during_convert(lab: Lab, sig: signal.Signals) -> Outcome:
    out = lab.dir / "out.json"
    out.write_bytes(b"old")
    child = _convert(lab, out)
    size = _when_writing(child, lab.dir, 0.05)
    if size is None:
        child.wait()
        return "the write ended before the signal", None
    child.send_signal(sig)
    code = child.wait(60)
    left = _temporaries(lab.dir)
    kept = out.read_bytes() == b"old"
    observed = (
        f"signal at {_megabytes(size)} written; {_ended(code)}; {len(left)} temporary files; "
        f"out.json {'unchanged' if kept else 'CHANGED'}"
    )
    return observed, code == -sig and not left and kept


@case("writing", "sigterm-convert", "killed by SIGTERM; no temporary file; out.json unchanged")
def sigterm_convert(lab: Lab) -> Outcome:
    return _signal_during_convert(lab, signal.SIGTERM)


@case("writing", "sighup-convert", "killed by SIGHUP; no temporary file; out.json unchanged")
def sighup_convert(lab: Lab) -> Outcome:
    return _signal_during_convert(lab, signal.SIGHUP)


@case("writing", "kill-9-then-convert", "kill -9 leaves one; the next convert -o removes it")
def kill_9_then_convert(lab: Lab) -> Outcome:
    out = lab.dir / "out.json"
    child = _convert(lab, out)
    if _when_writing(child, lab.dir, 0.05) is None:
        child.wait()
        return "the write ended before the kill", None
    child.kill()
    child.wait(60)
    left = len(_temporaries(lab.dir))
    again = _convert(lab, out)
    again.wait(600)
    after = len(_temporaries(lab.dir))
    observed = f"{left} left by kill -9; {after} after the next convert (exit {again.returncode})"
    return observed, left == 1 and after == 0 and again.returncode == 0


THREAD_SAVE = """
import sys, threading
from msgviewer import Message
from msgviewer.document import Document
from msgviewer.formats.safe_write import clean_up_on_signals
clean_up_on_signals()  # as the app does at start
[doc] = Document.load(sys.argv[1])
doc.edit(lambda ms: [*ms, Message.user("more")], "more")
worker = threading.Thread(target=doc.save, daemon=True)
worker.start()
while worker.is_alive():
    worker.join(0.05)
"""


@case("writing", "sigterm-thread-save", "killed by SIGTERM; no temporary file; file unchanged")
def sigterm_thread_save(lab: Lab) -> Outcome:
    path = lab.copy_of_big()
    before = path.stat()
    child = subprocess.Popen(
        [sys.executable, "-c", THREAD_SAVE, str(path)],
        stderr=subprocess.PIPE,
        env=_env(),
    )
    size = _when_writing(child, lab.dir, 0.05)
    if size is None:
        child.wait()
        return "the save ended before the signal", None
    child.send_signal(signal.SIGTERM)
    code = child.wait(60)
    left = _temporaries(lab.dir)
    after = path.stat()
    kept = (after.st_ino, after.st_size) == (before.st_ino, before.st_size)
    observed = (
        f"signal at {_megabytes(size)} written; {_ended(code)}; {len(left)} temporary files; "
        f"file {'unchanged' if kept else 'REPLACED'}"
    )
    return observed, code == -signal.SIGTERM and not left and kept


def _race(lab: Lab, change: Callable[[Path], None], delay: float = 0.2) -> Outcome:
    """Save an edited document of the big file while ``change`` alters the file ``delay``
    seconds into the save. Theirs is kept if the file ends holding what it held just after
    their change (refused; or saved before it, their change then made to the new version)."""
    path = lab.copy_of_big()
    [doc] = Document.load(path)
    doc.edit(lambda ms: [*ms, mv.Message.user("mine")], "mine")
    theirs: list[bytes] = []

    def interfere() -> None:
        change(path)
        theirs.append(path.read_bytes())

    timer = threading.Timer(delay, interfere)
    start = time.perf_counter()
    timer.start()
    try:
        doc.save()
        outcome = "saved"
    except FileChangedError:
        outcome = "refused: changed on disk"
    took = time.perf_counter() - start
    timer.join()
    if not theirs:
        return f"the change never ran ({outcome} in {took:.2f} s)", None
    kept = path.read_bytes() == theirs[0]
    left = _temporaries(lab.dir)
    observed = f"{outcome} after {took:.2f} s; their change {'kept' if kept else 'LOST'}"
    return observed + (f"; {len(left)} temporary files" if left else ""), kept and not left


@case("writing", "race-append", "an append 0.2 s into the save is refused, not overwritten")
def race_append(lab: Lab) -> Outcome:
    def append(path: Path) -> None:
        with open(path, "ab") as fh:
            fh.write(b'\n{"appended": "by another process"}\n')

    return _race(lab, append)


@case("writing", "race-in-place", "a same-size change, time set back, during the save is refused")
def race_in_place(lab: Lab) -> Outcome:
    def rewrite(path: Path) -> None:
        info = path.stat()
        with open(path, "r+b") as fh:
            head = fh.read(4096)
            if b'"system"' not in head:
                raise ValueError("no system message at the start of the input to change")
            fh.seek(0)
            fh.write(head.replace(b'"system"', b'"SYSTEM"', 1))
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))

    return _race(lab, rewrite)


# -- reading -------------------------------------------------------------------------------------


def _msgviewer(*args: str, **kwargs) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "msgviewer", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**_env(), **kwargs.pop("env", {})},
        cwd=ROOT,  # (``-m`` imports from the working directory first)
        **kwargs,
    )


@case("reading", "truncate-during-stats", "12 runs, truncated 0.2-1.3 s in: 0 crashes")
def truncate_during_stats(lab: Lab) -> Outcome:
    crashes: list[object] = []
    errors = whole = 0
    for run in range(12):
        path = lab.copy_of_big()
        size = path.stat().st_size
        child = _msgviewer("stats", str(path))
        time.sleep(0.2 + 0.1 * run)
        os.truncate(path, size // 3)
        _, err = child.communicate(timeout=300)
        if child.returncode == 2 and len(err.decode().splitlines()) == 1:
            errors += 1  # (truncated before it was read: the rest is not JSON)
        elif child.returncode == 0:
            whole += 1  # (truncated after: the data as it was read)
        else:
            crashes.append(child.returncode if child.returncode < 0 else err[-200:])
    observed = f"{len(crashes)} crashes {crashes or ''}, {errors} one-line errors, {whole} read"
    return observed, not crashes


@case("reading", "dev-zero", "stats /dev/zero: exit 2, one line, at once")
def dev_zero(lab: Lab) -> Outcome:
    started = time.monotonic()
    child = _msgviewer("stats", "/dev/zero")
    try:
        _, err = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        return "still reading after 60 s", False
    lines = err.decode().splitlines()
    observed = f"exit {child.returncode} in {time.monotonic() - started:.1f} s: {lines[-1:]}"
    return observed, child.returncode == 2 and len(lines) == 1


@case("reading", "dev-urandom", "stats /dev/urandom: exit 2 at the bound (1 GiB), one line")
def dev_urandom(lab: Lab) -> Outcome:
    started = time.monotonic()
    child = _msgviewer("stats", "/dev/urandom")
    try:
        _, err = child.communicate(timeout=180)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        return "still reading after 180 s", False
    lines = err.decode().splitlines()
    ok = child.returncode == 2 and len(lines) == 1 and "stopped reading after" in lines[0]
    return f"exit {child.returncode} in {time.monotonic() - started:.1f} s", ok


def _fifo_left_with(lab: Lab, key: bytes) -> Outcome:
    fifo = lab.dir / "fifo"
    os.mkfifo(fifo)
    run = PtyRun(str(fifo))
    try:
        if not run.wait_for(b"Reading", 60):
            return "the app did not start in 60 s", None
        run.type(key)
        if not run.exited(20):
            return "still running 20 s after the key", False
        traceback = b"Traceback" in run.output
        observed = f"exit {run.status}, terminal restored {run.restored()}, traceback {traceback}"
        return observed, run.restored() and not traceback
    finally:
        run.close()


@case("reading", "fifo-q", "app on a FIFO with no writer, q: exits, terminal restored")
def fifo_q(lab: Lab) -> Outcome:
    return _fifo_left_with(lab, b"q")


@case("reading", "fifo-ctrl-c", "app on a FIFO with no writer, Ctrl+C: exits, terminal restored")
def fifo_ctrl_c(lab: Lab) -> Outcome:
    return _fifo_left_with(lab, b"\x03")


@case("reading", "truncate-during-app-load", "truncated 0.5 s into the app's load, then q: exits")
def truncate_during_app_load(lab: Lab) -> Outcome:
    path = lab.copy_of_big()
    run = PtyRun(str(path))
    try:
        if not run.wait_for(b"Reading", 60):
            return "the app did not start in 60 s", None
        time.sleep(0.5)
        os.truncate(path, path.stat().st_size // 3)
        run.read_for(5)
        run.type(b"q")
        if not run.exited(60):
            return "still running 60 s after q", False
        killed = run.status is not None and run.status < 0
        return (
            f"exit {run.status}, terminal restored {run.restored()}",
            not killed and run.restored(),
        )
    finally:
        run.close()


@case("reading", "pipe-into-app", "cat demo.json | msgviewer -: shown, keys from the terminal")
def pipe_into_app(lab: Lab) -> Outcome:
    read_end, write_end = os.pipe()
    run = PtyRun("-", stdin_fd=read_end)
    os.close(read_end)
    os.write(write_end, (ROOT / "msgviewer" / "samples" / "demo-agent-run.json").read_bytes())
    os.close(write_end)
    try:
        shown = run.wait_for(b"15 messages", 60)
        alive = not run.exited(1)
        run.type(b"q")
        ended = run.exited(20)
        observed = f"shown {shown}, running after the data {alive}, quit on q {ended}"
        return observed, shown and alive and ended and run.restored()
    finally:
        run.close()


# -- running ---------------------------------------------------------------------------------


def _big_input(directory: Path, megabytes: float) -> Path:
    """A generated agent run of about ``megabytes`` in msgviewer's format."""
    path = directory / "big.json"
    n = max(100, int(megabytes * 1e6 / 1800))  # about 1.8 kB a message
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mv.dump(mv.Conversation(tuple(generate(n))), path)
    return path


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", default=[], help="cases whose name holds this")
    parser.add_argument("--group", help="only this group of cases (writing, reading...)")
    parser.add_argument("--size", type=float, default=70.0, help="input size in MB (70)")
    parser.add_argument("--keep", help="work in this directory and keep it")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    chosen = [
        c
        for c in CASES
        if (not args.only or any(o in c.name for o in args.only))
        and (args.group is None or c.group == args.group)
    ]
    work = Path(args.keep or tempfile.mkdtemp(prefix="msgviewer-adversarial-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        print(f"generating a {args.size:.0f} MB input in {work}...", file=sys.stderr)
        big = _big_input(work, args.size)
        rows = []
        for c in chosen:
            lab = Lab(work / c.name, big)
            lab.dir.mkdir(exist_ok=True)
            print(f"{c.name}...", file=sys.stderr)
            try:
                observed, ok = c.run(lab)
            except Exception as exc:  # a case that breaks is a finding too
                observed, ok = f"{type(exc).__name__}: {exc}", False
            rows.append((c.name, c.expected, observed, ok))
        _table(rows)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 1 if any(ok is False for *_, ok in rows) else 0


def _table(rows: list[tuple[str, str, str, bool | None]]) -> None:
    header = ("case", "expected", "observed", "ok")
    shown = [(n, e, o, "skip" if ok is None else "yes" if ok else "NO") for n, e, o, ok in rows]
    widths = [max(len(r[i]) for r in [header, *shown]) for i in range(4)]
    for row in [header, tuple("-" * w for w in widths), *shown]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())


if __name__ == "__main__":
    sys.exit(main())
