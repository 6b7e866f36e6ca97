"""The app at 120x40, headless: cold start to first content, and key latency at 1k and 100k.

    python bench/app.py [--sizes 1000,100000] [--rounds 5] [--starts 3]

Cold start: wall time from starting a fresh process to the first conversation rows painted by
the tree, against a fresh process that only runs ``orjson.loads`` on the same file (medians of
interleaved starts). The same run records whether the loading text was painted before parsing
ended. Key latency: one process opens the smallest and the largest file in two apps side by side,
waits for their analyses, then times each key from the press to the repaint of the screen
(tree and detail pane), pressed in one app then the other, in rounds; the figure is the median
at the largest size against the median at the smallest.
Targets (issue "Performance"): cold start at 100k <= 2.0x the orjson process; a loading
indicator before parsing ends; every key at 100k <= 1.2x the same key at 1k.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import ROOT, data_file, figure, skipped, summary

KEYS = ("down", "pagedown", "end", "expand", "collapse", "jump", "search next")

_FLOOR_PROCESS = """
import sys, orjson
with open(sys.argv[1], "rb") as fh:
    orjson.loads(fh.read())
print("done", flush=True)
"""

# Runs in a fresh process: the app on a file, until the tree first paints conversation rows.
_COLD_PROCESS = """
import asyncio, json, sys, time
sys.path.insert(0, sys.argv[2])
from msgviewer.formats import registry
from msgviewer.tui import MsgViewerApp
from msgviewer.tui.widgets.conversation_tree import ConversationTree

seen = {}
render_line = ConversationTree.render_line
def watched(self, y):
    strip = render_line(self, y)
    if self.model is None and self.placeholder:
        seen.setdefault("indicator", time.perf_counter())
    elif self.model is not None and self.model.rows:
        seen.setdefault("content", time.perf_counter())
    return strip
ConversationTree.render_line = watched
parse = registry.parse  # the JSON parse of a file (before the messages are built)
def timed_parse(*args, **kw):
    try:
        return parse(*args, **kw)
    finally:
        seen.setdefault("parsed", time.perf_counter())
registry.parse = timed_parse

async def main():
    app = MsgViewerApp([sys.argv[1]])
    async with app.run_test(size=(120, 40)) as pilot:
        while "content" not in seen:
            await asyncio.sleep(0.001)
            app.screen._on_timer_update()  # paint what is due, as a terminal refresh would
        print(json.dumps(seen), flush=True)
        app.exit()
asyncio.run(main())
"""


def _start(args: list[str], marker: str) -> tuple[float, str]:
    """Wall seconds from starting a process to its first output line, and the line."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - start
    proc.stdout.read()
    proc.stdout.close()
    if proc.wait() != 0 or marker not in line:
        raise RuntimeError(f"unexpected output from a benchmark process: {line!r}")
    return elapsed, line


def cold_start(path: Path, starts: int) -> None:
    n = int(path.name.split("-")[1])
    floor_args = [sys.executable, "-c", _FLOOR_PROCESS, str(path)]
    app_args = [sys.executable, "-c", _COLD_PROCESS, str(path), str(ROOT)]
    floor, app, early = [], [], []
    for _ in range(starts):
        floor.append(_start(floor_args, "done")[0])
        elapsed, line = _start(app_args, "content")
        app.append(elapsed)
        seen = json.loads(line)
        early.append("indicator" in seen and seen["indicator"] < seen["parsed"])
    print(
        f"  cold start {n:,} msgs: app {statistics.median(app):.2f} s, "
        f"orjson process {statistics.median(floor):.2f} s"
    )
    figure(
        f"cold start to first rows {n:,} msgs / cold orjson.loads process",
        statistics.median(app) / statistics.median(floor),
        2.0,
    )
    figure(
        f"  loading text painted before parsing ended ({sum(early)}/{starts} starts)",
        0.0 if all(early) else 1.0,
        0.0,
        unit=" (0 = yes)",
    )


# Runs in one fresh process: both apps open side by side, every key pressed in one then the
# other (interleaved), printing JSON {key: [[seconds small...], [seconds large...]]}.
_KEYS_PROCESS = """
import asyncio, json, sys, time
sys.path.insert(0, sys.argv[1])
from textual import events
from msgviewer.tui import MsgViewerApp
from msgviewer.tui.tree_model import MSG

ROUNDS = int(sys.argv[2])
STEPS = [("down", "down"), ("pagedown", "pagedown"), ("end", "end"), (None, "calls"),
         ("expand", "right"), ("collapse", "left"), ("jump", "t"), ("jump", "t"),
         ("search next", "n")]

async def settle(pilot):
    # Events handled, then the screen painted; again, for what a paint schedules (the detail
    # pane is laid out after the tree's refresh). Pilot.press is not used: it waits for the
    # process to look idle with sleeps of its own, which would be most of what is measured.
    for _ in range(3):
        await pilot._wait_for_screen()
        pilot.app.screen._on_timer_update()

async def press(pilot, key):
    event = events.Key(key, key if len(key) == 1 else None)
    event.set_sender(pilot.app)
    pilot.app._driver.send_message(event)
    await settle(pilot)

async def ready(pilot):
    app = pilot.app
    main_screen = app.main_screen
    while main_screen.session is None or not main_screen.session.analysed:
        await asyncio.sleep(0.01)
    await pilot.pause()
    for key in ("slash", *"deploy", "enter"):  # a search to step through, made once
        await press(pilot, key)
    while not main_screen.hits:
        await asyncio.sleep(0.01)
    await settle(pilot)
    messages = main_screen.session.convs[0].conversation.messages
    return next(m for m, msg in enumerate(messages) if msg.tool_calls)

async def main():
    times = {}
    apps = [MsgViewerApp([path]) for path in sys.argv[3:5]]
    async with apps[0].run_test(size=(120, 40)) as small:
        async with apps[1].run_test(size=(120, 40)) as large:
            pilots = (small, large)
            calls = [await ready(pilot) for pilot in pilots]
            for _ in range(ROUNDS):
                for pilot in pilots:
                    await press(pilot, "home")
                for name, key in STEPS:
                    for i, pilot in enumerate(pilots):
                        if name is None:  # the cursor on the first message with tool calls
                            pilot.app.main_screen.tree.go_to(MSG, 0, calls[i])
                            await settle(pilot)
                            continue
                        start = time.perf_counter()
                        await press(pilot, key)
                        elapsed = time.perf_counter() - start
                        times.setdefault(name, [[], []])[i].append(elapsed)
            apps[1].exit()
        apps[0].exit()
    print(json.dumps(times), flush=True)
asyncio.run(main())
"""


def key_latency(small: Path, large: Path, rounds: int) -> None:
    out = subprocess.run(
        [sys.executable, "-c", _KEYS_PROCESS, str(ROOT), str(rounds), str(small), str(large)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    times = json.loads(out.strip().splitlines()[-1])
    n_small = int(small.name.split("-")[1])
    n_large = int(large.name.split("-")[1])
    for key in KEYS:
        a, b = (statistics.median(t) for t in times[key])
        print(f"  key {key:<12} {n_small:>7,}: {a * 1e3:6.1f} ms  {n_large:>7,}: {b * 1e3:6.1f} ms")
        figure(f"key {key} at {n_large:,} / at {n_small:,} msgs", b / a, 1.2)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,100000")
    parser.add_argument("--rounds", type=int, default=15, help="key rounds per size")
    parser.add_argument("--starts", type=int, default=5, help="cold starts of each process")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    paths = [data_file(n, "msgviewer") for n in sizes]
    if any(p is None for p in paths):
        skipped("app", "no native format to generate data")
        return summary()
    cold_start(paths[-1], args.starts)  # type: ignore[arg-type]
    if len(paths) > 1:
        key_latency(paths[0], paths[-1], args.rounds)  # type: ignore[arg-type]
    return summary()


if __name__ == "__main__":
    raise SystemExit(main())
