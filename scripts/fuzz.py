"""The long fuzz run: many mutants of every sample through every reader.

Each mutant (``tests/reliability/mutations.py``) goes through ``loads`` with auto-detection and
with every readable format named; whatever loads must also save as native JSON. A reader may
return conversations or raise a ``MsgviewerError`` that names where; anything else is a
failure, printed once per kind with a reproducer.

    python scripts/fuzz.py                          # 2,000 mutants per sample
    python scripts/fuzz.py --mutants 100000 --time 600
    python scripts/fuzz.py --sample codex-rollout.jsonl --seed 8141 --mutants 1 --show

Exit status 1 when anything failed.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.reliability.fuzz_checks import check_load, readable_formats, sample_files
from tests.reliability.mutations import mutant


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mutants", type=int, default=2000, help="mutants per sample")
    parser.add_argument("--seed", type=int, default=0, help="first mutant number")
    parser.add_argument("--time", type=float, default=None, help="stop after this many seconds")
    parser.add_argument(
        "--sample", action="append", help="only this sample file (repeatable)", default=[]
    )
    parser.add_argument(
        "--format",
        action="append",
        default=[],
        help='only this reader ("auto" for detection; repeatable)',
    )
    parser.add_argument("--show", action="store_true", help="print each mutant tried")
    return parser.parse_args(argv)


def _signature(problem: str) -> str:
    """Failures of one kind share this: the problem with numbers and quoted values blanked."""
    first = problem.split("\n")[0]
    first = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", first)
    first = re.sub(r"\$\S*", "$…", first)
    return re.sub(r"\d+", "N", first)[:160]


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    samples = [p for p in sample_files() if not args.sample or p.name in args.sample]
    if not samples:
        print(f"no sample matches {args.sample}", file=sys.stderr)
        return 2
    readers: list[str | None] = [None, *readable_formats()]
    if args.format:
        readers = [None if f == "auto" else f for f in args.format]
    data = {p.name: p.read_bytes() for p in samples}
    started = time.monotonic()
    deadline = started + args.time if args.time else None
    tried = mutants = 0
    failures: dict[str, tuple[int, str]] = {}
    stopped_early = False
    for seed in range(args.seed, args.seed + args.mutants):
        if deadline is not None and time.monotonic() > deadline:
            stopped_early = True
            break
        for name, raw in data.items():  # round robin: a time budget covers every sample
            m = mutant(raw, name, seed)
            mutants += 1
            if args.show:
                print(f"{name} seed {seed}: {m.description}\n  {m.data[:300]!r}")
            for fmt in readers:
                tried += 1
                problem = check_load(m.data, fmt)
                if problem is None:
                    continue
                reader = f" --format {fmt}" if fmt else ""
                repro = f"--sample {name} --seed {seed} --mutants 1{reader}  [{m.description}]"
                key = f"{fmt or 'auto'}: {_signature(problem)}"
                count, first = failures.get(key, (0, f"{repro}\n    {problem}"))
                failures[key] = (count + 1, first)
        if (seed - args.seed + 1) % 100 == 0:
            elapsed = time.monotonic() - started
            print(
                f"  {seed - args.seed + 1} seeds, {tried} inputs, "
                f"{sum(c for c, _ in failures.values())} failures, {elapsed:.0f}s",
                flush=True,
            )
    elapsed = time.monotonic() - started
    total = sum(c for c, _ in failures.values())
    print(
        f"{tried} inputs tried ({mutants} mutants of {len(samples)} samples, "
        f"{len(readers)} readers) in {elapsed:.0f}s"
        + (" (time budget reached)" if stopped_early else "")
    )
    print(f"failures: {total} ({len(failures)} kinds)")
    for key, (count, first) in sorted(failures.items()):
        print(f"\n[{count}x] {key}\n  {first}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
