"""Deterministic synthetic agent runs of any size, in any writable format.

    python bench/generate.py 100000 --format openai-chat -o /tmp/run-100k.json
    python bench/generate.py 40000 --parallel --format gemini -o /tmp/calls-40k.json

The mix follows real agent runs: a long system prompt, user turns, assistant turns with
reasoning and parallel tool calls, tool results of 200-4000 characters, an image now and then,
and usage on every assistant message. The same ``n`` and ``seed`` always give the same history.
"""

from __future__ import annotations

import argparse
import base64
import random
import struct
import sys
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from msgviewer import (
    Conversation,
    ImageBlock,
    Message,
    ReasoningBlock,
    TextBlock,
    ToolCall,
    Usage,
    dumps,
)

WORDS = [
    "the",
    "agent",
    "reads",
    "file",
    "config",
    "module",
    "test",
    "error",
    "value",
    "request",
    "response",
    "cache",
    "token",
    "function",
    "call",
    "result",
    "search",
    "query",
    "index",
    "build",
    "deploy",
    "check",
    "parse",
    "render",
    "stream",
    "context",
    "model",
    "tool",
    "output",
    "input",
    "shell",
    "path",
    "line",
    "branch",
    "commit",
    "diff",
    "patch",
]
_TOOLS = ("read_file", "run_shell", "search_code", "write_file", "web_search", "list_dir")
_MODELS = ("gpt-5", "claude-sonnet-4-5", "gemini-2.5-pro")


def _png(width: int, height: int) -> str:
    """A tiny valid PNG of the given size, base64-encoded."""

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    raw = b"".join(b"\x00" + b"\x80" * (width * 3) for _ in range(height))
    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )
    return base64.b64encode(png).decode()


def _text(rng: random.Random, chars: int) -> str:
    words: list[str] = []
    size = 0
    while size < chars:
        word = rng.choice(WORDS)
        words.append(word)
        size += len(word) + 1
        if rng.random() < 0.08:
            words[-1] += ".\n"
    return " ".join(words)[:chars]


def generate(n: int, seed: int = 0) -> list[Message]:
    """A history of exactly ``n`` messages (``n >= 1``)."""
    rng = random.Random(seed)
    image = _png(16, 12)
    messages: list[Message] = [Message.system(_text(rng, 6000))]
    context = 1500
    turn = 0
    while len(messages) < n:
        turn += 1
        if turn % 10 == 1 or (messages[-1].role == "assistant" and not messages[-1].tool_calls):
            blocks: list = [TextBlock(_text(rng, rng.randint(40, 400)))]
            if turn % 25 == 1:
                blocks.append(ImageBlock(data=image, mime_type="image/png"))
            messages.append(Message.user(tuple(blocks), id=f"msg-{len(messages)}"))
            continue
        calls = tuple(
            ToolCall(
                f"call_{len(messages)}_{k}",
                rng.choice(_TOOLS),
                {"path": f"src/{rng.choice(WORDS)}.py", "query": _text(rng, 30), "limit": k + 1},
            )
            for k in range(rng.choice((0, 1, 1, 2, 3)))
        )
        content: list = [ReasoningBlock(_text(rng, rng.randint(100, 800)), signature="sig" * 8)]
        if not calls or rng.random() < 0.3:
            content.append(TextBlock(_text(rng, rng.randint(50, 600))))
        output = rng.randint(50, 900)
        context += output + sum(rng.randint(200, 4000) // 4 for _ in calls)
        model = _MODELS[turn % 7 == 0]
        messages.append(
            Message.assistant(
                tuple(content),
                id=f"msg-{len(messages)}",
                tool_calls=calls,
                usage=Usage(
                    input_tokens=context,
                    output_tokens=output,
                    cache_read_tokens=context * 3 // 4,
                    reasoning_tokens=output // 3,
                ),
                response_metadata={
                    "model": model,
                    "finish_reason": "tool_calls" if calls else "stop",
                },
            )
        )
        for call in calls:
            if len(messages) >= n:
                break
            messages.append(
                Message.tool(
                    _text(rng, rng.randint(200, 4000)),
                    tool_call_id=call.id,
                    name=call.name,
                    is_error=rng.random() < 0.05,
                )
            )
    return messages[:n]


def parallel_calls(n: int, seed: int = 0) -> list[Message]:
    """One turn of ``n`` parallel tool calls: a system prompt and a user request, one
    assistant message making the ``n`` calls, their ``n`` results in call order (one in
    twenty an error), and the assistant's answer."""
    rng = random.Random(seed)
    calls = tuple(
        ToolCall(
            f"call_{k}",
            rng.choice(_TOOLS),
            {"path": f"src/{rng.choice(WORDS)}_{k}.py", "query": _text(rng, 24)},
        )
        for k in range(n)
    )
    usage = Usage(input_tokens=4000, output_tokens=30 * n, cache_read_tokens=3000)
    messages = [
        Message.system(_text(rng, 2000)),
        Message.user(_text(rng, 200), id="msg-1"),
        Message.assistant(
            (ReasoningBlock(_text(rng, 300), signature="sig" * 8),),
            id="msg-2",
            tool_calls=calls,
            usage=usage,
            response_metadata={"model": _MODELS[1], "finish_reason": "tool_calls"},
        ),
    ]
    messages += [
        Message.tool(
            _text(rng, rng.randint(60, 300)),
            tool_call_id=call.id,
            name=call.name,
            is_error=rng.random() < 0.05,
        )
        for call in calls
    ]
    messages.append(
        Message.assistant(
            _text(rng, 400),
            id="msg-3",
            usage=Usage(input_tokens=4000 + 60 * n, output_tokens=120),
            response_metadata={"model": _MODELS[1], "finish_reason": "stop"},
        )
    )
    return messages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "n", type=int, help="number of messages (of parallel calls with --parallel)"
    )
    parser.add_argument(
        "--parallel", action="store_true", help="one turn of n parallel tool calls and results"
    )
    parser.add_argument("--format", default="msgviewer", help="any writable format")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-o", "--output", help="file to write (default: standard output)")
    args = parser.parse_args(argv)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a format that cannot carry reasoning says so; fine here
        make = parallel_calls if args.parallel else generate
        data = dumps(Conversation(tuple(make(args.n, args.seed))), format=args.format)
    if args.output:
        Path(args.output).write_bytes(data)
    else:
        sys.stdout.buffer.write(data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
