"""Load time and memory against the parse floor.

    python bench/load.py [--sizes 1000,10000,100000] [--rounds 5]

Time: ``msgviewer.load`` of a file against ``orjson.loads`` of the same bytes (of each line, for
JSONL), interleaved in one process (medians of CPU time). Memory: retained and peak, each in a
fresh process, against the file size, for every format that reads and writes. Targets: load
of 100k messages <= 1.3x the floor for every format that reads and writes (issue 23: "the
targets hold for every readable format's realistic files"), off-shape variants too (OpenAI
chat whose assistant messages carry their own ``usage`` and ``reasoning_content``; a file with
one odd message); retained <= 2x the file, peak <= 4x.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orjson

from bench._common import (
    VARIANTS,
    data_file,
    figure,
    interleaved,
    is_jsonl,
    machine,
    parse_floor,
    skipped,
    summary,
    variant_file,
)
from msgviewer import FORMATS, load

LOAD_TARGET = 1.3
FORMATS_TIMED = [name for name, (reads, writes, _) in FORMATS.items() if reads and writes]
"""The formats timed (``--formats`` picks some): every one that reads and writes."""


# Peak is the process's VmHWM: ru_maxrss would count the parent's memory (Linux carries the
# high-water mark of the forking process across exec).
def memory_of(path: Path) -> tuple[int, int]:
    """Bytes a fresh process keeps after loading ``path``, and its peak while loading."""
    out = subprocess.run(
        [sys.executable, "-c", _MEMORY_PROBE, str(path), str(Path(__file__).parents[1])],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    retained, peak = (int(x) for x in out)
    return retained, peak


_MEMORY_PROBE = """
import gc, sys
sys.path.insert(0, sys.argv[2])
def status(key):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
import msgviewer
gc.collect()
before = status("VmRSS")
convs = msgviewer.load(sys.argv[1])
gc.collect()
after = status("VmRSS")
print(after - before, status("VmHWM") - before)
"""


def _langchain_loaders(n: int):
    """LangChain's ``messages_from_dict`` on the same history in LangChain's own format, and
    the floor of that file; None when langchain-core is not installed."""
    try:
        from langchain_core.messages import messages_from_dict
    except ImportError:
        return None
    lc = data_file(n, "langchain")
    if lc is None:
        return None
    data = lc.read_bytes()

    def run():
        value = orjson.loads(data)
        items = value if isinstance(value, list) else value.get("messages", value)
        return messages_from_dict(items)

    return {"langchain floor": lambda: orjson.loads(data), "langchain": run}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--formats", help="comma-separated formats (default: every one)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    chosen = args.formats.split(",") if args.formats else list(FORMATS_TIMED)
    print(machine())
    runs = [(fmt, None) for fmt in chosen]
    runs += [(fmt, v) for fmt, vs in VARIANTS.items() for v in vs if fmt in chosen]
    for n in sizes:
        for fmt, variant in runs:
            shown = f"{fmt} ({variant})" if variant else fmt
            name = f"load {shown} {n:,} msgs / orjson.loads"
            path = variant_file(n, fmt, variant) if variant else data_file(n, fmt)
            if path is None:
                skipped(name, f"no writable {fmt} format to generate data")
                continue
            data = path.read_bytes()
            jsonl = is_jsonl(path)
            fns = {
                "floor": lambda d=data, j=jsonl: parse_floor(d, j),
                "load": lambda p=path: load(p),
            }
            if fmt == "msgviewer" and not variant:
                fns.update(_langchain_loaders(n) or {})
            times = interleaved(fns, args.rounds)  # medians of fewer rounds swing by a tenth
            figure(name, times["load"] / times["floor"], LOAD_TARGET if n == max(sizes) else None)
            if "langchain" in times:
                figure(
                    f"  langchain messages_from_dict {n:,} msgs / orjson.loads",
                    times["langchain"] / times["langchain floor"],
                    None,
                )
    n = max(sizes)
    for fmt in chosen:
        path = data_file(n, fmt)
        if path is None:
            continue
        retained, peak = memory_of(path)
        size = path.stat().st_size
        figure(f"memory {fmt} {n:,} msgs retained / file size", retained / size, 2.0)
        figure(f"memory {fmt} {n:,} msgs peak / file size", peak / size, 4.0)
    return summary()


if __name__ == "__main__":
    raise SystemExit(main())
