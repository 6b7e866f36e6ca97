"""Huge and pathological inputs, built at any size: the suite uses small ones, the script full ones.

Each builder returns the bytes of a file a user could be handed: one enormous string, a big
inline image, a value nested a thousand deep, a JSONL session with one enormous line, and one
message making a hundred thousand tool calls.
"""

from __future__ import annotations

import base64
import random
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from msgviewer.formats.io import json_bytes

MB = 1_000_000


def _native(messages: list[dict[str, Any]], title: str) -> bytes:
    # json_bytes: orjson writes 254 levels at most, the nesting here is a thousand deep.
    return json_bytes({"format": "msgviewer", "version": 1, "title": title, "messages": messages})


def _log_text(size: int, seed: int = 0) -> str:
    """``size`` characters of tool output: numbered log lines of varied length."""
    rng = random.Random(seed)
    words = ["GET", "/api/items", "200", "ok", "cache", "miss", "retry", "ms", "user", "id"]
    lines, total, n = [], 0, 0
    while total < size:
        line = f"{n:08d} " + " ".join(rng.choice(words) for _ in range(rng.randint(3, 20)))
        lines.append(line)
        total += len(line) + 1
        n += 1
    return "\n".join(lines)[:size]


def huge_string(size: int) -> bytes:
    """A tool output of ``size`` characters in lines, and a user message of one line as long."""
    one_line = ("lorem ipsum dolor sit amet " * (size // 27 + 1))[:size]
    return _native(
        [
            {"role": "user", "content": one_line},
            {
                "role": "assistant",
                "content": "Reading the log.",
                "tool_calls": [{"id": "call_1", "name": "read_log", "args": {"path": "/var/log"}}],
            },
            {"role": "tool", "content": _log_text(size), "tool_call_id": "call_1"},
            {"role": "assistant", "content": "The log is long."},
        ],
        "one huge string",
    )


def _png(width: int, height: int, payload: int) -> bytes:
    """A real PNG header (so dimensions show) padded with ``payload`` bytes of noise."""
    header = b"\x89PNG\r\n\x1a\n"
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", len(ihdr)) + b"IHDR" + ihdr
    chunk += struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    return header + chunk + random.Random(1).randbytes(payload)


def huge_image(size: int) -> bytes:
    """A user message with an inline PNG of ``size`` bytes (base64: a third more)."""
    data = base64.b64encode(_png(4000, 3000, size)).decode()
    return _native(
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is in this picture?"},
                    {"type": "image", "data": data, "mime_type": "image/png", "filename": "a.png"},
                ],
            },
            {"role": "assistant", "content": "A very large photograph."},
        ],
        "one huge image",
    )


def nested(depth: int) -> Any:
    """A value ``depth`` levels deep, alternating objects and arrays."""
    value: Any = "bottom"
    for level in range(depth):
        value = {"level": level, "next": value} if level % 2 else [value, level]
    return value


def deep_nesting(depth: int) -> bytes:
    """Tool arguments, a server tool result, an unknown block and metadata ``depth`` deep."""
    return _native(
        [
            {"role": "user", "content": "Walk the tree."},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Walking."},
                    {
                        "type": "server_tool_result",
                        "tool_call_id": "srv_1",
                        "content": nested(depth),
                    },
                    {"type": "unknown", "kind": "x-tree", "data": {"tree": nested(depth)}},
                ],
                "tool_calls": [{"id": "call_1", "name": "walk", "args": {"tree": nested(depth)}}],
                "metadata": {"tree": nested(depth)},
            },
            {"role": "tool", "content": "done", "tool_call_id": "call_1"},
        ],
        "nested a thousand deep",
    )


def _cc_line(kind: str, uuid: str, parent: str | None, message: dict[str, Any]) -> bytes:
    return orjson.dumps(
        {
            "parentUuid": parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": "/home/dana/src/app",
            "sessionId": "5a1c9a52-7d3e-4b8a-9c61-2e5f0d8b7a13",
            "version": "2.0.14",
            "type": kind,
            "message": message,
            "uuid": uuid,
            "timestamp": "2025-10-14T09:12:03.511Z",
        }
    )


def huge_jsonl_line(size: int) -> bytes:
    """A Claude Code session whose tool result line is ``size`` bytes long."""
    u = [f"00000000-0000-4000-8000-00000000000{i}" for i in range(4)]
    lines = [
        _cc_line("user", u[0], None, {"role": "user", "content": "Dump the table."}),
        _cc_line(
            "assistant",
            u[1],
            u[0],
            {
                "id": "msg_01",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [
                    {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"cmd": "dump"}}
                ],
                "stop_reason": "tool_use",
                "usage": {"input_tokens": 10, "output_tokens": 5},
            },
        ),
        _cc_line(
            "user",
            u[2],
            u[1],
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": _log_text(size)}
                ],
            },
        ),
        _cc_line(
            "assistant",
            u[3],
            u[2],
            {
                "id": "msg_02",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [{"type": "text", "text": "That is a big table."}],
                "stop_reason": "end_turn",
                "usage": {"input_tokens": 20, "output_tokens": 6},
            },
        ),
    ]
    return b"\n".join(lines) + b"\n"


def many_tool_calls(count: int) -> bytes:
    """One assistant message making ``count`` tool calls, each answered by a tool message."""
    calls = [
        {"id": f"call_{i}", "name": "lookup", "args": {"key": f"k{i}", "page": i % 7}}
        for i in range(count)
    ]
    results = [
        {"role": "tool", "content": f"value {i}", "tool_call_id": f"call_{i}", "name": "lookup"}
        for i in range(count)
    ]
    return _native(
        [
            {"role": "user", "content": "Look every key up."},
            {"role": "assistant", "content": "Looking them up.", "tool_calls": calls},
            *results,
            {"role": "assistant", "content": "All looked up."},
        ],
        "many tool calls",
    )


@dataclass(frozen=True)
class Huge:
    """One kind of huge input: its file name, builder, and the sizes used where."""

    name: str
    build: Callable[[int], bytes]
    full: int
    """The size the issue names (bytes, depth or count)."""
    suite: int
    """A size the test suite can afford."""


KINDS = (
    Huge("huge-string.json", huge_string, 50 * MB, 5 * MB),
    Huge("huge-image.json", huge_image, 10 * MB, 1 * MB),
    Huge("deep-nesting.json", deep_nesting, 1000, 1000),
    Huge("huge-line.jsonl", huge_jsonl_line, 100 * MB, 5 * MB),
    Huge("many-tool-calls.json", many_tool_calls, 100_000, 10_000),
)
"""Every kind, with the full size of the issue and the size the suite uses."""
