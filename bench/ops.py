"""History operations at scale against the parse floor.

    python bench/ops.py [--n 100000] [--rounds 5]

Each operation on a 100k-message history, against ``orjson.loads`` of the file it came from
(interleaved medians). Targets (issue "Performance"): trim, lint, link_tools and usage_totals
each <= 0.3x the floor; count_tokens_approximately and native save are reported, and the
cost of a Claude Code history (its prompts grow past the model's 200k-token tier, where every
token costs the tier's rate) against the parse of its own lines.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orjson

from bench._common import data_file, figure, interleaved, parse_floor, summary
from msgviewer import (
    count_tokens_approximately,
    dump,
    link_tools,
    lint,
    load,
    trim,
    usage_totals,
)
from msgviewer.formats.prices import conversation_cost


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    path = data_file(args.n, "msgviewer")
    assert path is not None
    data = path.read_bytes()
    [conv] = load(path)
    messages = list(conv.messages)
    out = Path(tempfile.mkdtemp()) / "save.json"
    ops = {
        "trim": (lambda: trim(messages, max_tokens=len(data) // 8, include_system=True), 0.3),
        "lint": (lambda: lint(messages), 0.3),
        "link_tools": (lambda: link_tools(messages), 0.3),
        "usage_totals": (lambda: usage_totals(messages), 0.3),
        "count_tokens_approximately": (lambda: count_tokens_approximately(messages), None),
        "native save": (lambda: dump(conv, out), None),
    }
    fns = {"floor": lambda: orjson.loads(data)}
    fns.update({name: fn for name, (fn, _) in ops.items()})
    times = interleaved(fns, args.rounds)
    for name, (_, target) in ops.items():
        figure(f"{name} {args.n:,} msgs / orjson.loads", times[name] / times["floor"], target)
    _cost(args.n, args.rounds)
    return summary()


def _cost(n: int, rounds: int) -> None:
    path = data_file(n, "claude-code")
    assert path is not None
    data = path.read_bytes()
    [conv] = load(path)
    times = interleaved(
        {"floor": lambda: parse_floor(data, True), "cost": lambda: conversation_cost(conv)}, rounds
    )
    figure(
        f"cost of a claude-code history {n:,} msgs / its parse",
        times["cost"] / times["floor"],
        None,
    )


if __name__ == "__main__":
    raise SystemExit(main())
