"""Comparing two long histories against the parse floor.

    python bench/diff.py [--n 100000] [--edits 10] [--rounds 5]

Two histories of ``n`` messages that differ in ``edits`` scattered places (a text changed, a
message inserted, one deleted, a tool argument changed), compared after loading, against
``orjson.loads`` of one of the files (interleaved medians). Target (issue 18): <= 0.5x the
floor. The same comparison with ``ignore_metadata`` and with ids ignored is reported too.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orjson

from bench._common import data_file, figure, interleaved, summary
from msgviewer import Message, ToolCall, diff, load


def edited(messages: list[Message], edits: int, seed: int = 1) -> list[Message]:
    """``messages`` with ``edits`` changes at scattered places, each of a different kind."""
    rng = random.Random(seed)
    out = list(messages)
    places = sorted(rng.sample(range(1, len(out) - 1), edits), reverse=True)
    for k, at in enumerate(places):
        m = out[at]
        kind = k % 4
        if kind == 0:
            out[at] = dataclasses.replace(m, content=m.text + " (edited)")
        elif kind == 1:
            out.insert(at, Message.user("an extra turn"))
        elif kind == 2:
            del out[at]
        elif m.tool_calls:
            call = m.tool_calls[0]
            calls = (ToolCall(call.id, call.name, {**call.args, "edited": True}),)
            out[at] = dataclasses.replace(m, tool_calls=calls + m.tool_calls[1:])
        else:
            out[at] = dataclasses.replace(m, name="renamed")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    path = data_file(args.n, "msgviewer")
    assert path is not None
    data = path.read_bytes()
    [first] = load(path)
    [second] = load(path)  # loaded again: equal messages, not the same objects
    a = list(first.messages)
    b = edited(list(second.messages), args.edits)
    result = diff(a, b)
    assert sum(v for k, v in result.stat.items() if k != "same") >= args.edits, result.stat
    times = interleaved(
        {
            "floor": lambda: orjson.loads(data),
            "diff": lambda: diff(a, b),
            "ignore_metadata": lambda: diff(a, b, ignore_metadata=True),
            "ignore_ids": lambda: diff(a, b, ignore_ids=True),
        },
        args.rounds,
    )
    label = f"diff {args.n:,} vs {len(b):,} msgs, {args.edits} edits / orjson.loads"
    figure(label, times["diff"] / times["floor"], 0.5)
    figure(f"  with ignore_metadata {result.stat}", times["ignore_metadata"] / times["floor"], None)
    figure("  with ignore_ids", times["ignore_ids"] / times["floor"], None)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
