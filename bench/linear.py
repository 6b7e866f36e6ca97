"""Linear in every dimension: load time as each dimension of a history doubles.

    python bench/linear.py [--rounds 5] [--formats msgviewer,openai-chat,anthropic,claude-code]

For each dimension (parallel tool calls in one turn, blocks in one message, conversations in
one file, the length of one line, the nesting of tool arguments) a history is made at a base
size and at twice it, written in each format, and loaded (``msgviewer.load``, CPU medians of
interleaved rounds). Target (issue 23): the doubled file takes at most ~2.2x the base one.
A format that cannot hold a dimension (one conversation per file, say) is skipped for it.
Below each figure, the growth of ``orjson.loads`` of the same two files, measured in the same
rounds: what the machine's caches and allocator make of twice the data, which no reader can
do better than.

Base sizes are where one load takes a tenth of a second or more: below that (4,000 parallel
calls load in ~5 ms, 16,000 in ~35 ms), the processor's caches decide the ratio, and
``orjson.loads`` of the same files itself grows 2.2-4.3x.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import figure, interleaved, is_jsonl, machine, parse_floor, skipped, summary
from msgviewer import Conversation, Message, dumps, load
from msgviewer.core.blocks import TextBlock
from msgviewer.core.message import ToolCall

TARGET = 2.2


def parallel_calls(k: int) -> list[Conversation]:
    calls = tuple(
        ToolCall(id=f"call_{i:06d}", name="read_file", args={"path": f"src/m{i}.py"})
        for i in range(k)
    )
    results = [
        Message.tool(f"contents of m{i}", tool_call_id=c.id, name=c.name)
        for i, c in enumerate(calls)
    ]
    msgs = [Message.user("Read every module."), Message.assistant("", tool_calls=calls)]
    return [Conversation((*msgs, *results, Message.assistant("Read them all.")))]


def blocks(k: int) -> list[Conversation]:
    content = tuple(TextBlock(f"paragraph {i}: " + "words " * 8) for i in range(k))
    return [Conversation((Message.user("Write it out."), Message.assistant(content)))]


def conversations(k: int) -> list[Conversation]:
    return [
        Conversation((Message.user(f"question {i}"), Message.assistant(f"answer {i}")))
        for i in range(k)
    ]


def line_length(k: int) -> list[Conversation]:
    text = ("a long tool output line " * (k // 24 + 1))[:k]
    return [Conversation((Message.user("Dump the log."), Message.assistant(text)))]


def nesting(k: int) -> list[Conversation]:
    args: dict = {"leaf": 1}
    for i in range(k):
        args = {f"level{i}": args, "n": i}
    call = ToolCall(id="call_0", name="deep", args=args)
    msgs = (Message.user("Go deep."), Message.assistant("", tool_calls=(call,)))
    return [Conversation((*msgs, Message.tool("done", tool_call_id="call_0", name="deep")))]


DIMENSIONS: dict[str, tuple[Callable[[int], list[Conversation]], int]] = {
    "parallel tool calls": (parallel_calls, 64_000),
    "blocks per message": (blocks, 10_000),
    "conversations per file": (conversations, 10_000),
    "line length (chars)": (line_length, 8_000_000),
    "nesting of arguments": (nesting, 120),
}


def _write(convs: list[Conversation], fmt: str, where: Path, name: str) -> Path | None:
    if len(convs) > 1 and fmt not in ("msgviewer", "openai-chat", "sharegpt"):
        return None  # (a format of one conversation per file)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            data = dumps(convs[0] if len(convs) == 1 else convs, format=fmt)
        except Exception:  # a format that cannot write it: not this dimension's figure
            return None
    path = where / f"{name}.{'jsonl' if fmt == 'claude-code' or len(convs) > 1 else 'json'}"
    path.write_bytes(data)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--formats", default="msgviewer,openai-chat,anthropic,claude-code")
    parser.add_argument(
        "--dimensions", default=",".join(DIMENSIONS), help="which (comma-separated)"
    )
    args = parser.parse_args()
    print(machine())
    where = Path(tempfile.mkdtemp())
    chosen = args.dimensions.split(",")
    for dimension, (make, base) in DIMENSIONS.items():
        if dimension not in chosen:
            continue
        for fmt in args.formats.split(","):
            name = f"load {fmt}, {dimension} {base:,} -> {2 * base:,}"
            small = _write(make(base), fmt, where, "small")
            large = _write(make(2 * base), fmt, where, "large")
            if small is None or large is None:
                skipped(name, f"{fmt} cannot hold it")
                continue
            small_data, large_data = small.read_bytes(), large.read_bytes()
            jsonl = is_jsonl(small)
            try:
                times = interleaved(
                    {
                        "small": lambda p=small: load(p),
                        "large": lambda p=large: load(p),
                        "small floor": lambda d=small_data, j=jsonl: parse_floor(d, j),
                        "large floor": lambda d=large_data, j=jsonl: parse_floor(d, j),
                    },
                    args.rounds,
                )
            except Exception as exc:  # (the figure says it could not be read, not why here)
                skipped(name, f"not read: {type(exc).__name__}: {str(exc)[:60]}")
                continue
            figure(name, times["large"] / max(times["small"], 1e-9), TARGET)
            floor = times["large floor"] / max(times["small floor"], 1e-9)
            figure("  orjson.loads of the same files", floor, None)
    return summary()


if __name__ == "__main__":
    raise SystemExit(main())
