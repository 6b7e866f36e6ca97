"""The long random-key run: seeded random key presses on samples, with reproducers.

Each run copies a sample into a scratch directory (also the current directory, where saves
and exports typed at random land), opens it in the app headless and presses ``--count`` keys
from ``tests/reliability/random_keys.py``; then the app must still be running, without an
unhandled exception, and every conversation must survive native dumps → loads. Seeds go up
from ``--seed`` until ``--runs`` runs or ``--time`` seconds are done.

    python scripts/random_keys.py                              # 3 samples, 5 runs each
    python scripts/random_keys.py --time 600 --count 2000      # ten minutes
    python scripts/random_keys.py --sample codex-rollout.jsonl --seed 41 --count 800 --show

Exit status 1 when a run failed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.reliability.random_keys import SAMPLE_NAMES, drive

SAMPLES = Path(__file__).resolve().parents[1] / "msgviewer" / "samples"


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--count", type=int, default=1000, help="keys per run")
    parser.add_argument("--runs", type=int, default=5, help="runs per sample")
    parser.add_argument("--time", type=float, default=None, help="stop after this many seconds")
    parser.add_argument(
        "--sample", action="append", default=[], help="sample file name (repeatable; 'all')"
    )
    parser.add_argument("--show", action="store_true", help="print every key pressed")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    names = args.sample or list(SAMPLE_NAMES)
    if names == ["all"]:
        names = sorted(p.name for p in SAMPLES.iterdir() if p.suffix in (".json", ".jsonl"))
    start = time.monotonic()
    runs = keys = failures = 0

    def out_of_time() -> bool:
        return args.time is not None and time.monotonic() - start > args.time

    for seed in range(args.seed, args.seed + 10**9):
        if (args.time is None and seed - args.seed >= args.runs) or out_of_time():
            break
        for name in names:
            if out_of_time():
                break
            workdir = Path(tempfile.mkdtemp(prefix="msgviewer-keys-"))
            os.chdir(workdir)
            began = time.monotonic()
            result = asyncio.run(drive(SAMPLES / name, workdir, seed, args.count))
            runs += 1
            keys += len(result.pressed)
            took = time.monotonic() - began
            status = "ok" if result.failure is None else f"FAILED: {result.failure}"
            print(f"{name} seed {seed}: {len(result.pressed)} keys in {took:.0f}s {status}")
            if args.show:
                print("  keys: " + " ".join(result.pressed))
            if result.failure is not None:
                failures += 1
                print("  last keys: " + " ".join(result.pressed[-40:]))
                print("  reproduce: " + result.reproducer())
                if result.traceback:
                    print("  " + result.traceback.strip().replace("\n", "\n  ")[-4000:])
            sys.stdout.flush()
    elapsed = time.monotonic() - start
    print(f"{runs} runs, {keys:,} keys pressed in {elapsed:.0f}s; failures: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
