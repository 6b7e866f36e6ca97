"""A million messages: load, memory, operations, save, first content and keys against targets.

    python bench/million.py [--n 1000000] [--rounds 3] [--starts 3] [--key-rounds 5]
                            [--skip load,memory,ops,save,first,keys] [--views nested,file]

The generated agent run (``bench/generate.py``) of ``--n`` messages as native JSON and as
Claude Code JSONL (1.8 GB each at a million; made once and cached in bench/out). Targets
(issue 23):

- load <= 1.3x ``orjson.loads`` of the file (of each line for JSONL), interleaved CPU medians;
- memory retained <= 1.5x the file size, peak <= 2.5x (a fresh process per format);
- trim, lint, link_tools, usage_totals <= 0.3x the parse; save after one edit <= 1.5x the
  parse (native, CPU; the parse is ``orjson.loads`` of the file);
- first content: wall time from starting the app to its first conversation rows, Claude Code
  JSONL of n messages against the same for 10,000 messages (medians of ``--starts``) <= 1.5x;
- every key at n <= 1.2x the same key at 1,000 messages (``bench/app.py``'s measure).
"""

from __future__ import annotations

import argparse
import gc
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orjson

from bench._common import (
    ROOT,
    data_file,
    figure,
    interleaved,
    is_jsonl,
    machine,
    parse_floor,
    summary,
)
from bench.app import _COLD_PROCESS, VIEWS, _start, key_latency
from msgviewer import Document, link_tools, lint, load, trim, usage_totals

FORMATS = ("msgviewer", "claude-code")


def _load(n: int, rounds: int) -> None:
    for fmt in FORMATS:
        path = data_file(n, fmt)
        assert path is not None
        data = path.read_bytes()
        jsonl = is_jsonl(path)
        print(f"  {fmt}: {path.name}, {len(data) / 1e9:.2f} GB")
        times = interleaved(
            {"floor": lambda d=data, j=jsonl: parse_floor(d, j), "load": lambda p=path: load(p)},
            rounds,
        )
        print(f"    orjson {times['floor']:.2f} s, load {times['load']:.2f} s (CPU)")
        figure(f"load {fmt} {n:,} msgs / orjson.loads", times["load"] / times["floor"], 1.3)
        del data


def _memory(n: int) -> None:
    from bench.load import memory_of

    for fmt in FORMATS:
        path = data_file(n, fmt)
        assert path is not None
        retained, peak = memory_of(path)
        size = path.stat().st_size
        figure(f"memory {fmt} {n:,} msgs retained / file size", retained / size, 1.5)
        figure(f"memory {fmt} {n:,} msgs peak / file size", peak / size, 2.5)


def _ops_and_save(n: int, rounds: int, do_ops: bool, do_save: bool) -> None:
    path = data_file(n, "msgviewer")
    assert path is not None
    data = path.read_bytes()
    if do_ops:
        [conv] = load(path)
        messages = list(conv.messages)
        ops = {
            "trim": lambda: trim(messages, max_tokens=len(data) // 8, include_system=True),
            "lint": lambda: lint(messages),
            "link_tools": lambda: link_tools(messages),
            "usage_totals": lambda: usage_totals(messages),
        }
        times = interleaved({"floor": lambda: orjson.loads(data), **ops}, rounds)
        for name in ops:
            figure(f"{name} {n:,} msgs / orjson.loads", times[name] / times["floor"], 0.3)
        del conv, messages
    if do_save:
        work = Path(tempfile.mkdtemp()) / path.name
        ratios = []
        try:
            for i in range(rounds):
                shutil.copyfile(path, work)
                [doc] = Document.load(work)
                floor = _cpu(lambda: orjson.loads(data))

                def edit(msgs, i=i):
                    msgs = list(msgs)
                    k = len(msgs) // 2 + i
                    msgs[k] = replace(msgs[k], content=f"edited {i}")
                    return msgs

                doc.edit(edit, "edit")
                ratios.append(_cpu(doc.save) / floor)
                del doc
                gc.unfreeze()
                gc.collect()
        finally:
            shutil.rmtree(work.parent, ignore_errors=True)
        figure(
            f"native save after one edit {n:,} msgs / orjson.loads", statistics.median(ratios), 1.5
        )


def _cpu(fn) -> float:  # type: ignore[no-untyped-def]
    gc.collect()
    start = time.process_time()
    fn()
    return time.process_time() - start


def _first_content(n: int, starts: int) -> None:
    small, large = data_file(10_000, "claude-code"), data_file(n, "claude-code")
    assert small is not None and large is not None
    times: dict[Path, list[float]] = {small: [], large: []}
    for _ in range(starts):
        for path in times:
            args = [sys.executable, "-c", _COLD_PROCESS, str(path), str(ROOT)]
            times[path].append(_start(args, "content")[0])
    a, b = statistics.median(times[small]), statistics.median(times[large])
    print(f"  first rows: 10,000 msgs {a:.2f} s, {n:,} msgs {b:.2f} s (wall)")
    figure(f"first content claude-code {n:,} msgs / 10,000 msgs", b / a, 1.5)


def _keys(n: int, rounds: int, views: list[str]) -> None:
    small, large = data_file(1_000, "msgviewer"), data_file(n, "msgviewer")
    assert small is not None and large is not None
    for view in views:
        key_latency(small, large, rounds, view)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--starts", type=int, default=3)
    parser.add_argument("--key-rounds", type=int, default=5)
    parser.add_argument("--skip", default="", help="parts to leave out, comma-separated")
    parser.add_argument("--views", default="nested,file", help="the tree's views to time keys in")
    args = parser.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    views = [v for v in args.views.split(",") if v]
    if not views or any(v not in VIEWS for v in views):
        parser.error(f"--views takes {', '.join(VIEWS)} (comma-separated)")
    print(machine())
    if "load" not in skip:
        _load(args.n, args.rounds)
    if "memory" not in skip:
        _memory(args.n)
    if not {"ops", "save"} <= skip:
        _ops_and_save(args.n, args.rounds, "ops" not in skip, "save" not in skip)
    if "first" not in skip:
        _first_content(args.n, args.starts)
    if "keys" not in skip:
        _keys(args.n, args.key_rounds, views)
    return summary()


if __name__ == "__main__":
    raise SystemExit(main())
