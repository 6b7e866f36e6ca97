"""The app at 120x40, headless: cold start to first content, and key latency at 1k and 100k.

    python bench/app.py [--sizes 1000,100000] [--rounds 15] [--starts 5] [--views nested,file]
    (--starts 0: keys only; --views: the tree's views to time keys in, results under their
    calls and file order)

Cold start: wall time from starting a fresh process to the first conversation rows painted by
the tree, against a fresh process that only runs ``orjson.loads`` on the same file (medians of
interleaved starts), both from compiled bytecode, for the native file and for OpenAI chat logs
(as generated, DeepSeek-style, and with one odd message: ``bench/_common.VARIANTS``). The same
run records whether the loading text was painted before parsing ended.

Key latency: the large history and a small one (its first n-1 messages and its last, so that
every key, ``end`` included, lands on the same message at both sizes) each open in a process
of their own, as a user's app would (one heap each: in one process, a garbage collection set
off by either app walks both apps' objects). Both wait for their analyses and make a search;
then the parent has them press each key in turn, one size then the other (which goes first
alternates by round), every round starting from the same state (all closed, cursor at the top).
The edit keys delete a message that neither calls nor answers a tool and undo that, each timed
until the analyses it sets off (links, lint, usage) are done and their results shown, in CPU
time of the interface's thread: the analyses run in a worker thread, which keys do not wait
for, but what the interface does with their results (at 1k within the key's own settling) it
does between keys.
A press is timed from the key to a settled screen: every event handled and the screen painted
again until nothing is left to lay out, paint or call back (the detail pane included), in CPU
time of the app's process (other processes on a shared machine inflate wall time; wall medians
are printed too). The first round warms up and is not counted. The figure is the median, over
presses, of a press at the large size against the same press at the small size made next to it.
The ratio of the means is printed beside it: it carries the presses that set off a full garbage
collection, which a median leaves out.
A held ``down`` (20 keys 33 ms apart, as a terminal repeats a key) is timed too, not as a
target: CPU per key, and the wall time from the last key to a settled screen (how far the
screen lags behind a key that is let go). Single presses are made at least 0.15 s apart, as a
user makes them: closer, the app takes them for a held key and lays out the detail pane only
once the cursor rests.
Targets (issue "Performance"): cold start at 100k <= 2.0x the orjson process; a loading
indicator before parsing ends; every key at 100k <= 1.2x the same key at 1k.
"""

from __future__ import annotations

import argparse
import compileall
import itertools
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import CACHE, ROOT, data_file, figure, skipped, summary, variant_file

KEYS = ("down", "pagedown", "end", "expand", "collapse", "jump", "search next", "delete", "undo")

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
from msgviewer.formats.native import typed as _native_typed  # parses into typed records
from msgviewer.formats.openai_chat import typed as _chat_typed
class TimedDecoder:
    def __init__(self, decoder):
        self.decoder = decoder
    def decode(self, data):
        try:
            return self.decoder.decode(data)
        finally:
            seen.setdefault("parsed", time.perf_counter())
for _typed in (_native_typed, _chat_typed):
    _typed._decoder = TimedDecoder(_typed._decoder)

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


def cold_start(path: Path, starts: int, label: str = "") -> None:
    n = int(path.name.split("-")[1])
    # Start from the package's compiled bytecode, as an installed package does (pip compiles
    # it; an editable install writes it on first use unless PYTHONDONTWRITEBYTECODE is set,
    # when every start would compile the package from source again).
    compileall.compile_dir(ROOT / "msgviewer", quiet=1)
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
        f"  cold start {label}{n:,} msgs: app {statistics.median(app):.2f} s, "
        f"orjson process {statistics.median(floor):.2f} s"
    )
    figure(
        f"cold start to first rows {label}{n:,} msgs / cold orjson.loads process",
        statistics.median(app) / statistics.median(floor),
        2.0,
    )
    figure(
        f"  loading text painted before parsing ended ({sum(early)}/{starts} starts)",
        0.0 if all(early) else 1.0,
        0.0,
        unit=" (0 = yes)",
    )


# Runs in a fresh process per size: one app, driven by commands on stdin, one answer line each
# on stdout. The parent interleaves the two processes, so both sizes see the same machine load,
# while each app has a process (and so a heap, and garbage collections) of its own, as it would
# for a user: in one process, a collection set off by either app walks both apps' objects.
_KEYS_PROCESS = """
import asyncio, json, sys, time
sys.path.insert(0, sys.argv[1])
from textual import events
from textual.widget import Widget
from msgviewer.tui import MsgViewerApp
from msgviewer.tui.model.rows import MSG

def answer(value):
    print("@" + json.dumps(value), flush=True)

def busy(app):
    # Anything queued, or anything the screen has yet to lay out, paint or call back.
    screen = app.screen
    for node in (app, *screen.walk_children(with_self=True)):
        if node._message_queue.qsize() or node._next_callbacks or node._pending_message:
            return True
        if isinstance(node, Widget) and (
            node._repaint_required or node._layout_required or node._scroll_required
            or node._recompose_required or node._refresh_styles_required
        ):
            return True
    if getattr(screen, "detail_pending", False):  # the detail pane waits for the cursor to rest
        return True
    return bool(
        screen._dirty_widgets or screen._layout_required or screen._repaint_required
        or screen._scroll_required or screen._callbacks or screen._recompose_required
    )

async def settle(pilot):
    # Until nothing is left to do: events handled, then the screen painted, again and again
    # for what each paint sets off (the detail pane is built after the tree's refresh, its
    # widgets are mounted, then laid out and painted). Painting is called directly rather than
    # waiting for Textual's refresh timer, and Pilot.press is not used: it waits with sleeps
    # of its own, which would be most of what is measured.
    for _ in range(200):
        await pilot._wait_for_screen()
        pilot.app.screen._on_timer_update()
        if not busy(pilot.app):
            return
        if getattr(pilot.app.screen, "detail_pending", False):
            await asyncio.sleep(0.002)  # its timer is due soon
    raise RuntimeError("the app never settled")

last_key = 0.0

def send(pilot, key):
    global last_key
    event = events.Key(key, key if len(key) == 1 else None)
    event.set_sender(pilot.app)
    pilot.app._driver.send_message(event)
    last_key = time.perf_counter()

async def press(pilot, key):
    # A single press, as a user makes one: not so soon after the last that the app takes it
    # for a held key (then the detail pane waits for the cursor to rest).
    await asyncio.sleep(max(0.0, last_key + 0.15 - time.perf_counter()))
    send(pilot, key)
    await settle(pilot)

async def hold(pilot, key, count, interval):
    # A held key: the terminal repeats it every ``interval`` seconds whether or not the app
    # has caught up. Answers CPU per key and the wall time from the last key to a settled
    # screen (how far the screen lags behind the key when it is let go).
    await asyncio.sleep(max(0.0, last_key + 0.15 - time.perf_counter()))
    cpu = time.process_time()
    start = time.perf_counter()
    for n in range(count):
        send(pilot, key)
        while n + 1 < count and time.perf_counter() < start + (n + 1) * interval:
            await asyncio.sleep(0.001)
    await settle(pilot)
    return [(time.process_time() - cpu) / count, time.perf_counter() - last_key]

async def ready(pilot):
    app = pilot.app
    main_screen = app.main_screen
    while (
        main_screen.session is None
        or not main_screen.session.analysed
        or main_screen.placing_results
    ):
        await asyncio.sleep(0.01)
    await pilot.pause()
    if main_screen.model.nested_view != (sys.argv[3] == "nested"):
        await press(pilot, "o")  # the other view
    for key in ("slash", *"deploy", "enter"):  # a search to step through, made once
        await press(pilot, key)
    while not main_screen.hits:
        await asyncio.sleep(0.01)
    await settle(pilot)
    messages = main_screen.session.convs[0].conversation.messages
    calls = next(m for m, msg in enumerate(messages) if msg.tool_calls)
    # a message that neither calls nor answers a tool (by the links, as the delete key asks):
    # deleted at once, with no question
    links = main_screen.session.convs[0].links
    plain = next(
        m for m in range(1, len(messages)) if not links.calls_in(m) and not links.results_in(m)
    )
    return calls, plain

async def idle(pilot):
    # An edit's analyses (links, results placed again) and its search made again run in
    # workers: done and shown before the next key, whose time would otherwise carry them.
    # Waited for as the workers end, not asked again and again: each time costs the
    # interface's thread some 0.3 ms, which a million messages' analyses (10-15 s) asked ten
    # times a second would add up to a third of a key at 1,000.
    main_screen = pilot.app.main_screen
    while True:
        await pilot.app.workers.wait_for_complete()
        await settle(pilot)  # what the workers handed back, shown (it may start another)
        if main_screen.session.analysed and not main_screen.placing_results:
            break
        await asyncio.sleep(0.01)  # (set off, not yet started)

async def main():
    loop = asyncio.get_running_loop()
    app = MsgViewerApp([sys.argv[2]])
    async with app.run_test(size=(120, 40)) as pilot:
        calls, plain = await ready(pilot)
        answer("ready")
        while True:
            # The app keeps running (its timers too) while the other size is measured.
            command = (await loop.run_in_executor(None, sys.stdin.readline)).split()
            if not command or command[0] == "quit":
                break
            await settle(pilot)  # what came due meanwhile is not the next key's work
            main_screen = pilot.app.main_screen
            if command[0] == "reset":  # every message closed, no match stepped to yet
                main_screen.tree.action_collapse_all()
                main_screen.hit = -1
                await settle(pilot)
                await press(pilot, "home")
                answer("ok")
                continue
            if command[0] == "calls":  # the cursor on the first message with tool calls
                main_screen.tree.go_to(MSG, 0, calls)
                await settle(pilot)
                answer("ok")
                continue
            if command[0] == "plain":  # the cursor on a message of no tool call or result
                main_screen.tree.go_to(MSG, 0, plain)
                await settle(pilot)
                answer("ok")
                continue
            if command[0] == "hold":
                answer(await hold(pilot, "down", int(command[1]), float(command[2])))
                continue
            if command[0] == "edit":  # shown, and its analyses done and shown too
                wall, cpu = time.perf_counter(), time.thread_time()
                await press(pilot, command[1])
                await idle(pilot)
                answer([time.perf_counter() - wall, time.thread_time() - cpu])
                continue
            wall, cpu = time.perf_counter(), time.process_time()
            await press(pilot, command[1])
            answer([time.perf_counter() - wall, time.process_time() - cpu])
        app.exit()
asyncio.run(main())
"""

# (figure name or None, key); None: not timed. Each round starts from the same state (see
# ``reset``), so a round presses the same keys on the same rows as every other round: rounds
# differ by the machine's noise alone, not by what earlier rounds opened.
STEPS = [
    (None, "reset"),
    ("down", "down"),
    ("pagedown", "pagedown"),
    ("end", "end"),
    (None, "calls"),
    ("expand", "right"),
    ("collapse", "left"),
    ("jump", "t"),
    ("jump", "t"),
    ("search next", "n"),
]
EDIT_STEPS = [
    (None, "plain"),
    ("delete", "edit d"),
    ("undo", "edit ctrl+z"),
]
"""Timed in rounds of their own, after those of ``STEPS``: an edit leaves objects for the
collector that set off a full collection a few keys later, which would land on whichever
navigation key comes then (some 10 ms at 100k) and not on the same one from run to run."""


VIEWS = {"nested": "results under their calls", "file": "file order"}
"""The tree's views (the ``o`` key switches), by the name ``--views`` takes."""

HOLD_KEYS = 20
HOLD_INTERVAL = 0.033
"""A held key: how many repeats, how far apart (a terminal's usual repeat rate, 30 a second)."""


class _KeysApp:
    """One ``_KEYS_PROCESS``: the app on one file, pressing keys when told."""

    def __init__(self, path: Path, view: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _KEYS_PROCESS, str(ROOT), str(path), view],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ask(self, command: str | None) -> object:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if command is not None:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        for line in self.proc.stdout:  # anything not ours (a stray print) is skipped
            if line.startswith("@"):
                return json.loads(line[1:])
        raise RuntimeError(f"the key benchmark process ended (exit {self.proc.wait()})")

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("quit\n")
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def small_history(large: Path, n: int) -> Path:
    """The first ``n - 1`` messages of ``large`` and its last one, as a file (cached).

    Every key then does the same thing at both sizes: the same message under the cursor, and
    ``end`` lands on a message of the same content (the 1k history of ``bench/generate.py``
    ends with a short user turn, the 100k one with a reasoning, text and tool-call turn, and
    laying out a different message is no measure of the history's length).
    """
    path = CACHE / f"keys-{n}-of-{large.name}"
    if not path.exists():
        from msgviewer import Conversation, dumps, load

        conv = load(large)
        conv = conv[0] if isinstance(conv, list) else conv
        messages = conv.messages[: n - 1] + conv.messages[-1:]
        path.write_bytes(dumps(Conversation(messages), format="msgviewer"))
    return path


def key_latency(small: Path, large: Path, rounds: int, view: str, warmup: int = 1) -> None:
    n_small = int(small.name.split("-")[1])
    n_large = int(large.name.split("-")[1])
    apps = [_KeysApp(small_history(large, n_small), view), _KeysApp(large, view)]
    try:
        for app in apps:
            app.ask(None)  # "ready": loaded, analysed, a search made
        # times[key][size] = [(wall, cpu), ...], one per press
        times: dict[str, tuple[list[tuple[float, float]], ...]] = {}
        for steps, r in itertools.product((STEPS, EDIT_STEPS), range(warmup + rounds)):
            # Which size goes first alternates, so neither always follows the other's press.
            order = apps if r % 2 == 0 else apps[::-1]
            for name, key in steps:
                for app in order:
                    if name is None:
                        app.ask(key)
                        continue
                    command = key if key.startswith("edit ") else f"key {key}"
                    wall, cpu = app.ask(command)  # type: ignore[misc]
                    if r >= warmup:
                        times.setdefault(name, ([], []))[apps.index(app)].append((wall, cpu))
        # held[size] = [(cpu per key, lag), ...]
        held: tuple[list[list[float]], ...] = ([], [])
        for r in range(warmup + rounds):
            for app in apps if r % 2 == 0 else apps[::-1]:
                app.ask("reset")
                result = app.ask(f"hold {HOLD_KEYS} {HOLD_INTERVAL}")
                if r >= warmup:
                    held[apps.index(app)].append(result)  # type: ignore[arg-type]
    finally:
        for app in apps:
            app.close()
    print(
        f"  {VIEWS[view]}: CPU ms of the app's process (edit keys: of its interface's thread) "
        "from a key to a settled screen, median "
        f"(mean) of {rounds} rounds after {warmup} warm-up; wall ms median"
    )
    for key in KEYS:
        small_cpu, large_cpu = ([c for _, c in samples] for samples in times[key])
        cols = []
        for n, samples in zip((n_small, n_large), times[key], strict=True):
            cpu = [c for _, c in samples]
            wall = statistics.median(w for w, _ in samples)
            cols.append(
                f"{n:>7,}: {statistics.median(cpu) * 1e3:5.1f} "
                f"({statistics.fmean(cpu) * 1e3:5.1f}) wall {wall * 1e3:5.1f}"
            )
        # The means carry what a median leaves out, the presses that set off a full garbage
        # collection (one in five or so): shown, not judged, as they move with machine load.
        means = statistics.fmean(large_cpu) / statistics.fmean(small_cpu)
        print(f"  key {key:<12} {'  '.join(cols)}  means {means:.2f}x")
        # Each press at the large size against the same press at the small size, made next to
        # it: machine load that comes and goes weighs on both sides of each ratio alike.
        ratios = [b / a for a, b in zip(small_cpu, large_cpu, strict=True)]
        name = f"key {key} at {n_large:,} / at {n_small:,} msgs ({view})"
        figure(name, statistics.median(ratios), 1.2)
    # Not a target: how a held key feels (the tree should follow it, the screen should settle
    # soon after it is let go).
    cols = []
    for n, samples in zip((n_small, n_large), held, strict=True):
        per_key = statistics.median(c for c, _ in samples)
        lag = statistics.median(lag for _, lag in samples)
        cols.append(f"{n:>7,}: CPU {per_key * 1e3:5.1f} ms/key, settled {lag * 1e3:5.1f} ms after")
    print(f"  held down ({HOLD_KEYS} keys {HOLD_INTERVAL * 1e3:.0f} ms apart)  {'  '.join(cols)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,100000")
    parser.add_argument("--rounds", type=int, default=15, help="key rounds per size")
    parser.add_argument(
        "--starts", type=int, default=5, help="cold starts of each process (0: skip them)"
    )
    parser.add_argument("--views", default="nested,file", help="nested, file, or both")
    args = parser.parse_args()
    views = [v for v in args.views.split(",") if v]
    if not views or any(v not in VIEWS for v in views):
        parser.error(f"--views takes {', '.join(VIEWS)} (comma-separated)")
    sizes = sorted(int(s) for s in args.sizes.split(","))
    paths = [data_file(n, "msgviewer") for n in sizes]
    if any(p is None for p in paths):
        skipped("app", "no native format to generate data")
        return summary()
    if args.starts > 0:
        cold_start(paths[-1], args.starts)  # type: ignore[arg-type]
        # an OpenAI chat log as it is generated, with every assistant message's own usage and
        # reasoning, and with one message of a value no common shape has (a web search's
        # citations): the last costs what its message costs, not a slower way for the file
        chat = [(data_file(sizes[-1], "openai-chat"), "openai-chat ")]
        for variant in ("deepseek", "odd-value"):
            chat.append(
                (variant_file(sizes[-1], "openai-chat", variant), f"openai-chat ({variant}) ")
            )
        for logged, label in chat:
            if logged is not None:
                cold_start(logged, args.starts, label)
    if len(paths) > 1:
        for view in views:
            key_latency(paths[0], paths[-1], args.rounds, view)  # type: ignore[arg-type]
    return summary()


if __name__ == "__main__":
    raise SystemExit(main())
