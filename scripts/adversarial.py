"""Try msgviewer as a hostile or unlucky user would, with the slow cases (signals, truncation,
races, endless inputs) the unit tests leave out, and print a table: case, expected, observed.

    python scripts/adversarial.py              # every case
    python scripts/adversarial.py --only fifo  # the cases whose name holds "fifo"
    MSGVIEWER_TESTED=/path/to/other/checkout python scripts/adversarial.py   # another version

Each case is a function returning (case, expected, observed, ok). Exit status 1 when any case
is not ok. Linux only (FIFOs, /dev/zero, pseudo-terminals).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# The msgviewer under test (another checkout, to compare): its processes import it from here.
TESTED = Path(os.environ.get("MSGVIEWER_TESTED", ROOT))

import orjson  # noqa: E402

from tests.tui.pty_run import PtyRun  # noqa: E402

Result = tuple[str, str, str, bool]
WORK = Path(tempfile.mkdtemp(prefix="msgviewer-adversarial-"))
ENV = {**os.environ, "PYTHONPATH": str(TESTED)}


def _msgviewer(*args: str, timeout: float = 120, **kwargs) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "msgviewer", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**ENV, **kwargs.pop("env", {})},
        cwd=TESTED,  # (``-m`` imports from the working directory first)
        **kwargs,
    )


def _big_file(messages: int = 100_000) -> Path:
    """A Chat Completions file of ``messages`` turns of 1.5 kB (about 160 MB): parsing it
    takes a good part of a second, a wide window for a truncation to land in."""
    path = WORK / f"big-{messages}.json"
    if not path.exists():
        turns = [
            {"role": "user" if i % 2 == 0 else "assistant", "content": f"turn {i} " + "w" * 1500}
            for i in range(messages)
        ]
        path.write_bytes(orjson.dumps(turns))
    return path


# -- reading ----------------------------------------------------------------------------------


def truncation_during_stats() -> Result:
    """12 runs of ``msgviewer stats big.json``, the file truncated 0.2 s to 1.3 s in."""
    original = _big_file().read_bytes()
    path = WORK / "truncated.json"
    crashes, errors, whole = [], 0, 0
    for run in range(12):
        path.write_bytes(original)
        proc = _msgviewer("stats", str(path))
        time.sleep(0.2 + 0.1 * run)
        os.truncate(path, len(original) // 3)
        _, err = proc.communicate(timeout=300)
        if proc.returncode < 0 or proc.returncode not in (0, 2):
            crashes.append(proc.returncode)
        elif proc.returncode == 2 and len(err.decode().splitlines()) == 1:
            errors += 1
        elif proc.returncode == 0:
            whole += 1
        else:
            crashes.append(f"{proc.returncode}: {err[-200:]!r}")
    observed = f"{len(crashes)} crashes {crashes or ''}, {errors} one-line errors, {whole} read"
    return ("truncate big.json 0.2-1.3 s into stats (12 runs)", "0 crashes", observed, not crashes)


def dev_zero() -> Result:
    started = time.monotonic()
    proc = _msgviewer("stats", "/dev/zero")
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        return ("stats /dev/zero", "exit 2, one line, at once", "still reading after 60 s", False)
    took = time.monotonic() - started
    lines = err.decode().splitlines()
    ok = proc.returncode == 2 and len(lines) == 1
    return (
        "stats /dev/zero",
        "exit 2, one line, at once",
        f"exit {proc.returncode} in {took:.1f} s: {lines[-1:]}",
        ok,
    )


def dev_urandom() -> Result:
    """The default bound (1 GiB) on an endless device of random bytes."""
    started = time.monotonic()
    proc = _msgviewer("stats", "/dev/urandom")
    try:
        _, err = proc.communicate(timeout=180)
    except subprocess.TimeoutExpired:
        proc.kill()
        return ("stats /dev/urandom", "exit 2 at the bound", "still reading after 180 s", False)
    took = time.monotonic() - started
    lines = err.decode().splitlines()
    ok = proc.returncode == 2 and len(lines) == 1 and "stopped reading after" in lines[0]
    return (
        "stats /dev/urandom (default bound)",
        "exit 2, one line",
        f"exit {proc.returncode} in {took:.1f} s",
        ok,
    )


def _fifo_left_with(key: bytes, label: str) -> Result:
    fifo = WORK / f"fifo-{label}"
    if not fifo.exists():
        os.mkfifo(fifo)
    case = f"app on a FIFO with no writer, {label}"
    expected = "exits, terminal restored"
    run = PtyRun(str(fifo), root=TESTED)
    try:
        if not run.wait_for(b"Reading", 60):
            return (case, expected, "the app did not start in 60 s", False)
        run.type(key)
        if not run.exited(20):
            return (case, expected, "still running 20 s after the key", False)
        traceback = b"Traceback" in run.output
        observed = f"exit {run.status}, restored {run.restored()}, traceback {traceback}"
        return (case, expected, observed, run.restored() and not traceback)
    finally:
        run.close()


def fifo_q() -> Result:
    return _fifo_left_with(b"q", "q")


def fifo_ctrl_c() -> Result:
    return _fifo_left_with(b"\x03", "ctrl+c")


def truncation_during_app_load() -> Result:
    """The app opening big.json, the file truncated 0.5 s in, then q."""
    path = WORK / "truncated-app.json"
    path.write_bytes(_big_file().read_bytes())
    case, expected = "truncate big.json while the app loads it, then q", "exits, terminal restored"
    run = PtyRun(str(path), root=TESTED)
    try:
        run.wait_for(b"Reading", 60)
        time.sleep(0.5)
        os.truncate(path, path.stat().st_size // 3)
        run.read_for(5)
        run.type(b"q")
        if not run.exited(60):
            return (case, expected, "still running 60 s after q", False)
        killed = run.status is not None and run.status < 0
        observed = f"exit {run.status}, restored {run.restored()}"
        return (case, expected, observed, not killed and run.restored())
    finally:
        run.close()


def piped_data_keys_from_terminal() -> Result:
    case, expected = (
        "cat demo.json | msgviewer -",
        "shows 15 messages, quits on q from the terminal",
    )
    read_end, write_end = os.pipe()
    run = PtyRun("-", stdin_fd=read_end, root=TESTED)
    os.close(read_end)
    os.write(write_end, (ROOT / "msgviewer" / "samples" / "demo-agent-run.json").read_bytes())
    os.close(write_end)
    try:
        shown = run.wait_for(b"15 messages", 60)
        alive = not run.exited(1)
        run.type(b"q")
        ended = run.exited(20)
        observed = f"shown {shown}, alive after data {alive}, quit on q {ended}"
        return (case, expected, observed, shown and alive and ended and run.restored())
    finally:
        run.close()


CASES: list[Callable[[], Result]] = [
    truncation_during_stats,
    dev_zero,
    dev_urandom,
    fifo_q,
    fifo_ctrl_c,
    truncation_during_app_load,
    piped_data_keys_from_terminal,
]


def main(argv: list[str] | None = None) -> int:
    try:
        return _run(argv)
    finally:
        shutil.rmtree(WORK, ignore_errors=True)


def _run(argv: list[str] | None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="run only the cases whose function name holds this")
    args = parser.parse_args(argv)
    rows: list[Result] = []
    for case in CASES:
        if args.only and args.only not in case.__name__:
            continue
        try:
            rows.append(case())
        except Exception as exc:  # a case that breaks is a row, not the end of the run
            rows.append((case.__name__, "", f"{type(exc).__name__}: {exc}", False))
        print(f"  {'ok' if rows[-1][3] else 'FAIL':4}  {rows[-1][0]}", file=sys.stderr)
    widths = [
        max(len(str(r[i])) for r in [("case", "expected", "observed", True), *rows])
        for i in range(3)
    ]
    print(f"{'case':{widths[0]}}  {'expected':{widths[1]}}  {'observed':{widths[2]}}  ok")
    for case_name, expected, observed, ok in rows:
        cells = (f"{case_name:{widths[0]}}", f"{expected:{widths[1]}}", f"{observed:{widths[2]}}")
        print("  ".join(cells), "yes" if ok else "NO", sep="  ")
    return 0 if all(r[3] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
