"""Parallel tool calls: reading, writing and the checks ``stats`` and ``lint`` run, as one
turn's calls grow, against the parse floor.

    python bench/parallel_calls.py [--sizes 10000,20000,40000,100000] [--quick] [--rounds 3]
                                   [--formats anthropic,gemini]

For each format that reads and writes tool calls: a file holding one assistant message that
makes N parallel calls, then their N results (``generate.parallel_calls``, written in that
format). Timed, interleaved with ``orjson.loads`` of the same file (of each line, for JSONL):
``load`` of the file, ``save`` (writing it in its own format), ``convert`` (writing it in
another format: every writer is some format's target), ``links`` (``link_tools`` and the
status of every call, as ``stats`` counts them), ``lint`` and ``usage`` (``usage_totals``).

Each row prints, per size, the seconds and the ratio to the floor at that size; then the
growth t(largest)/t(smallest), about the size ratio (10 from 10k to 100k) for linear work and
its square (100) for quadratic work, as reading and writing were (converting 20k calls to
Anthropic took 6.8 s; 100k did not finish in two minutes); then the drift, how much the ratio
to the floor grew (growth over the floor's own growth): about 1 for linear work, the size ratio
for quadratic work. The drift is the figure with a target (<= 2): the floor's growth takes out
what the machine adds at every size (caches missed more often by larger data, other
processes), which inflates the growth of linear work too.
"""

from __future__ import annotations

import argparse
import gc
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import CACHE, figure, interleaved, parse_floor, summary
from bench.generate import parallel_calls
from msgviewer import Conversation, dumps, link_tools, lint, load, usage_totals

# Source format -> the format it is converted to: every writer is a target once.
CONVERT = {
    "msgviewer": "anthropic",
    "openai-chat": "gemini",
    "openai-responses": "sharegpt",
    "anthropic": "openai-chat",
    "gemini": "claude-code",
    "gemini-cli": "msgviewer",
    "langchain": "pydantic-ai",
    "claude-code": "openai-responses",
    "codex": "langchain",
    "pydantic-ai": "codex",
    "inspect": "gemini-cli",
    "sharegpt": "inspect",
}
OPS = ("load", "save", "convert", "links", "lint", "usage")


def calls_file(n: int, fmt: str) -> Path:
    """``generate.parallel_calls(n)`` written in ``fmt`` (cached on disk)."""
    CACHE.mkdir(exist_ok=True)
    suffix = "jsonl" if fmt in ("claude-code", "codex") else "json"
    path = CACHE / f"parallel-{n}-{fmt}.{suffix}"
    if not path.exists():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a format that cannot carry reasoning says so
            path.write_bytes(dumps(Conversation(tuple(parallel_calls(n))), format=fmt))
    return path


def _statuses(messages: list) -> int:
    links = link_tools(messages)
    return sum(links.status(call) == "answered" for call in links.calls)


def measure(fmt: str, n: int, rounds: int) -> dict[str, float]:
    """Median seconds of the floor and of each operation on ``n`` calls in ``fmt``."""
    path = calls_file(n, fmt)
    data = path.read_bytes()
    jsonl = path.suffix == ".jsonl"
    [conv] = load(path)
    messages = list(conv.messages)
    links = link_tools(messages)
    if len(links.calls) != n or len(links.unanswered_calls) or len(links.orphan_results):
        raise SystemExit(f"{fmt}: {n} calls read back as {links!r}")
    target = CONVERT[fmt]

    def write(to: str) -> bytes:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return dumps(conv, format=to)

    fns = {
        "floor": lambda: parse_floor(data, jsonl),
        "load": lambda: load(path),
        "save": lambda: write(fmt),
        "convert": lambda: write(target),
        "links": lambda: _statuses(messages),
        "lint": lambda: lint(messages),
        "usage": lambda: usage_totals(messages),
    }
    # Each timed call starts with everything already made out of the collector's way, as the
    # command line has it (``load`` freezes what it builds): otherwise its passes over the
    # conversation held here, put back after each round, land on whatever is timed next.
    return interleaved({name: _frozen_first(fn) for name, fn in fns.items()}, rounds)


def _frozen_first(fn: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        gc.freeze()
        return fn()

    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,20000,40000,100000")
    parser.add_argument("--quick", action="store_true", help="sizes 10000,40000, one round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--formats", default=",".join(CONVERT), help="comma-separated")
    args = parser.parse_args()
    sizes = [10_000, 40_000] if args.quick else [int(s) for s in args.sizes.split(",")]
    rounds = 1 if args.quick else args.rounds
    formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    unknown = [f for f in formats if f not in CONVERT]
    if unknown:
        parser.error(f"no parallel-call data for {', '.join(unknown)}")
    head = "".join(f"{f'{n:,} calls':>19}" for n in sizes)
    print(f"{'format':<17}{'operation':<22}{head}{'growth':>9}{'drift':>8}")
    lo, hi = min(sizes), max(sizes)
    drifts: list[tuple[str, float]] = []
    for fmt in formats:
        times = {n: measure(fmt, n, rounds) for n in sizes}
        floor_growth = times[hi]["floor"] / times[lo]["floor"]
        cells = "".join(f"{times[n]['floor']:>10.3f}s {'':>7}" for n in sizes)
        print(f"{fmt:<17}{'orjson.loads':<22}{cells}{floor_growth:>8.1f}x")
        for op in OPS:
            label = f"convert > {CONVERT[fmt]}" if op == "convert" else op
            cells = "".join(
                f"{times[n][op]:>10.3f}s {times[n][op] / times[n]['floor']:>6.2f}x" for n in sizes
            )
            growth = times[hi][op] / times[lo][op]
            drift = growth / floor_growth
            print(f"{'':<17}{label:<22}{cells}{growth:>8.1f}x{drift:>7.2f}x")
            drifts.append((f"{fmt} {label}", drift))
    print(
        f"\ngrowth = t({hi:,}) / t({lo:,}): linear {hi / lo:.0f}, quadratic {(hi / lo) ** 2:.0f}; "
        f"drift = growth / floor growth: linear 1, quadratic {hi / lo:.0f}\n"
    )
    for name, value in drifts:
        figure(f"drift {name}", value, 2.0)
    return summary()


if __name__ == "__main__":
    raise SystemExit(main())
