"""What every benchmark shares: data files, interleaved timing, and the figure lines.

Each figure is a ratio against a baseline measured in the same run, so a busy machine slows
both sides alike. Rounds are interleaved (a, b, a, b, ...) and the median is reported. Work in
this process is timed in CPU time (``time.process_time``: user + system, page faults
included), which other processes on a shared machine do not inflate the way they do wall time;
anything timed across processes (cold starts) is wall time.
"""

from __future__ import annotations

import gc
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.generate import generate  # noqa: E402
from msgviewer import Conversation, dumps  # noqa: E402
from msgviewer.formats import FORMATS  # noqa: E402

CACHE = ROOT / "bench" / "out"
_met = {"met": 0, "not met": 0}


def data_file(n: int, fmt: str, seed: int = 0) -> Path | None:
    """A generated history of ``n`` messages in ``fmt`` (cached on disk); None if unwritable."""
    if fmt not in FORMATS or not FORMATS[fmt][1]:
        return None
    CACHE.mkdir(exist_ok=True)
    suffix = "jsonl" if fmt in ("claude-code", "codex") else "json"
    path = CACHE / f"run-{n}-{fmt}-{seed}.{suffix}"
    if not path.exists():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            path.write_bytes(dumps(Conversation(tuple(generate(n, seed))), format=fmt))
    return path


VARIANTS = {
    "openai-chat": ("deepseek", "one-odd", "odd-value", "odd-early"),
    "msgviewer": ("one-odd",),
}
"""Off-shape variants of a format's generated file, as real loggers write them:
``deepseek``: every assistant message with its own ``usage`` and ``reasoning_content``;
``one-odd``: one message in the middle with a key no common shape has (native: an alias
role); ``odd-value``: one assistant message in the middle with the citations of a web search
(``annotations`` not empty: a value of a type no common shape has); ``odd-early``: a key of
the logger's own on the sixth message (among those detection looks at)."""


def variant_file(n: int, fmt: str, variant: str) -> Path | None:
    """``data_file(n, fmt)`` changed as ``variant`` says (cached on disk)."""
    base = data_file(n, fmt)
    if base is None:
        return None
    path = base.with_name(f"{base.stem}-{variant}{base.suffix}")
    if path.exists():
        return path
    value = orjson.loads(base.read_bytes())
    messages = value["messages"] if isinstance(value, dict) else value
    if variant == "deepseek":
        for i, m in enumerate(messages):
            if m.get("role") == "assistant":
                m["reasoning_content"] = f"Considering step {i}: what the last result means."
                m["usage"] = {
                    "prompt_tokens": 1000 + i,
                    "completion_tokens": 50,
                    "total_tokens": 1050 + i,
                    "prompt_tokens_details": {"cached_tokens": 900},
                }
    elif variant == "one-odd" and fmt == "msgviewer":  # (it refuses unknown fields)
        middle = next(m for m in messages[len(messages) // 2 :] if m["role"] == "user")
        middle["role"] = "human"  # an alias, read by the careful decoder
    elif variant == "one-odd":
        middle = messages[len(messages) // 2]
        middle["x_logger_note"] = "kept as the file has it"
    elif variant == "odd-value":
        middle = next(
            m
            for m in messages[len(messages) // 2 :]
            if m["role"] == "assistant" and type(m.get("content")) is str
        )
        cited = {"url": "https://example.com/", "title": "Example", "start_index": 0}
        middle["annotations"] = [
            {"type": "url_citation", "url_citation": {**cited, "end_index": 5}}
        ]
    elif variant == "odd-early":
        messages[5]["x_logger_note"] = "kept as the file has it"
    else:
        raise ValueError(f"no variant {variant!r}")
    path.write_bytes(orjson.dumps(value))
    return path


def is_jsonl(path: Path) -> bool:
    return path.suffix == ".jsonl"


def parse_floor(data: bytes, jsonl: bool) -> object:
    """The floor: ``orjson.loads`` of the file, or of each line of a JSONL file (in place)."""
    if not jsonl:
        return orjson.loads(data)
    view = memoryview(data)
    out = []
    start = 0
    while (end := data.find(b"\n", start)) != -1:
        if end > start:
            out.append(orjson.loads(view[start:end]))
        start = end + 1
    if start < len(data):
        out.append(orjson.loads(view[start:]))
    return out


def timed(fn: Callable[[], object]) -> float:
    gc.collect()
    start = time.process_time()
    result = fn()
    elapsed = time.process_time() - start
    del result
    gc.unfreeze()  # loaders freeze what they build; let the next round start clean
    gc.collect()
    return elapsed


def interleaved(fns: dict[str, Callable[[], object]], rounds: int = 5) -> dict[str, float]:
    """Median seconds of each function, measured in interleaved rounds."""
    samples: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            samples[name].append(timed(fn))
    return {name: statistics.median(times) for name, times in samples.items()}


def figure(name: str, value: float, target: float | None, unit: str = "x") -> bool:
    """Print one figure line: its value, its target, and whether the target is met."""
    if target is None:
        print(f"{name:<58} {value:8.2f}{unit}  (no target)")
        return True
    ok = value <= target
    _met["met" if ok else "not met"] += 1
    print(
        f"{name:<58} {value:8.2f}{unit}  target <= {target:.2f}{unit}  {'met' if ok else 'NOT MET'}"
    )
    return ok


def machine() -> str:
    """One line naming the machine the figures were measured on."""
    import os
    import platform

    try:
        with open("/proc/meminfo") as fh:
            total = int(fh.readline().split()[1]) * 1024
        memory = f", {total / 2**30:.0f} GiB memory"
    except (OSError, ValueError, IndexError):
        memory = ""
    cpu = platform.processor() or platform.machine()
    return (
        f"machine: {os.cpu_count()} cores ({cpu}){memory}, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d')}"
    )


def skipped(name: str, why: str) -> None:
    print(f"{name:<58} skipped: {why}")


def summary() -> int:
    print(f"\n{_met['met']} met, {_met['not met']} not met")
    return 0 if _met["not met"] == 0 else 1
