"""Write ``msgviewer/samples/demo-agent-run.json``: the conversation ``msgviewer`` opens by default.

A coding agent fixing a bug: a system prompt, a user request with a screenshot and a voice note,
signed and redacted reasoning, parallel tool calls, a failing test run, a long file read, a
server-side web search with citations, two models, tool artifacts, and a call left unanswered.
Run it again after changing it; the JSON is committed.
"""

from __future__ import annotations

import base64
import struct
import zlib
from pathlib import Path

from msgviewer import (
    AudioBlock,
    CitationBlock,
    Conversation,
    FileBlock,
    ImageBlock,
    Message,
    ReasoningBlock,
    ServerToolCallBlock,
    ServerToolResultBlock,
    TextBlock,
    ToolCall,
    Usage,
    dumps,
)

TARGET = Path(__file__).resolve().parent.parent / "msgviewer" / "samples" / "demo-agent-run.json"
SONNET = "claude-sonnet-4-5"
HAIKU = "claude-haiku-4-5"


def png(width: int, height: int) -> bytes:
    """A small real PNG: a spreadsheet-like grid with one highlighted (broken) row."""
    rows = []
    for y in range(height):
        row = bytearray([0])
        for x in range(width):
            if y % 8 == 0 or x % 32 == 0:
                row += bytes((200, 200, 200))
            elif 24 <= y < 32:
                row += bytes((250, 210, 210))
            else:
                row += bytes((255, 255, 255))
        rows.append(bytes(row))
    raw = b"".join(rows)

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def wav(seconds: float, rate: int = 8000) -> bytes:
    """A short silent mono 8-bit WAV (a voice note stand-in)."""
    samples = bytes([128]) * int(seconds * rate)
    fmt = struct.pack("<HHIIHH", 1, 1, rate, rate, 1, 8)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"data" + struct.pack("<I", len(samples)) + samples
    return b"RIFF" + struct.pack("<I", len(body)) + body


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


CSV_PY = '''"""CSV export of the customer table."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from .models import Customer

HEADER = ["id", "name", "email", "country", "created"]


def _row(customer: Customer) -> list[str]:
    return [
        str(customer.id),
        customer.name,
        customer.email,
        customer.country or "",
        customer.created.isoformat(),
    ]


def export_customers(customers: Iterable[Customer]) -> bytes:
    """The customers as CSV bytes, ready to download."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(HEADER)
    for customer in customers:
        try:
            writer.writerow(_row(customer))
        except UnicodeEncodeError:
            # TODO: some names break the export; skip them for now
            continue
    return buffer.getvalue().encode("ascii", errors="ignore")
'''
# A long tool output: the file, numbered like a real read_file tool prints it, plus the rest of
# the module the agent asked for.
_EXTRA = "\n".join(
    f"def report_{n}(rows: list[dict]) -> str:\n    return '\\n'.join(map(str, rows[{n}::7]))\n"
    for n in range(24)
)
READ_FILE_OUTPUT = "\n".join(
    f"{i:>4}\t{line}" for i, line in enumerate((CSV_PY + "\n" + _EXTRA).splitlines(), 1)
)

GREP_OUTPUT = """src/export/csv.py:33:    return buffer.getvalue().encode("ascii", errors="ignore")
src/export/xlsx.py:41:    sheet.title = title.encode("ascii", "replace").decode()
src/api/download.py:18:    body = export_customers(query.all())
tests/export/test_csv.py:9:def test_export_has_header():"""

PYTEST_FAILURE = """============================= test session starts ==============================
collected 4 items

tests/export/test_csv.py ...F                                            [100%]

=================================== FAILURES ===================================
________________________ test_export_keeps_unicode_names _______________________

    def test_export_keeps_unicode_names():
        rows = export_customers([make_customer(name="Zoë Ångström")])
>       assert "Zoë Ångström" in rows.decode("utf-8")
E       AssertionError: assert 'Zoë Ångström' in 'id,name,email,country,created\\r\\n1,Zo...'

tests/export/test_csv.py:22: AssertionError
=========================== short test summary info ============================
FAILED tests/export/test_csv.py::test_export_keeps_unicode_names - AssertionError
========================= 1 failed, 3 passed in 0.41s ========================="""

SYSTEM = """You are Patchwork, a careful coding agent working in the user's repository.

- Read code before changing it; keep changes small and covered by a test.
- Use the tools: `read_file`, `grep`, `edit_file`, `run_tests`, `git_commit`,
  `create_pull_request`. Several independent calls may run in parallel.
- Never push to `main` directly."""

TOOLS = [
    {"name": "read_file", "description": "Read a file", "input_schema": {"type": "object"}},
    {"name": "grep", "description": "Search the repository", "input_schema": {"type": "object"}},
    {"name": "edit_file", "description": "Replace text in a file", "input_schema": {}},
    {"name": "run_tests", "description": "Run pytest on a path", "input_schema": {}},
    {"name": "git_commit", "description": "Commit staged changes", "input_schema": {}},
    {"name": "create_pull_request", "description": "Open a PR", "input_schema": {}},
    {"type": "web_search_20250305", "name": "web_search", "max_uses": 3},
]


def usage(inp: int, out: int, cache_read: int = 0, cache_write: int = 0, reasoning: int = 0):
    """Normalised usage plus the Anthropic numbers it came from (input excludes the cache)."""
    return Usage(
        input_tokens=inp,
        output_tokens=out,
        cache_read_tokens=cache_read,
        cache_write_tokens=cache_write,
        reasoning_tokens=reasoning,
        extra={
            "input_tokens": inp - cache_read - cache_write,
            "output_tokens": out,
            "cache_read_input_tokens": cache_read,
            "cache_creation_input_tokens": cache_write,
        },
    )


def meta(model: str, n: int, stop: str = "tool_use") -> dict:
    return {"model": model, "id": f"msg_01DemoRun{n:04d}", "stop_reason": stop}


def build() -> Conversation:
    messages = [
        Message.system(SYSTEM),
        Message.user(
            [
                TextBlock(
                    "The customer CSV export drops people with non-ASCII names — Zoë Ångström "
                    "is missing from yesterday's download (screenshot attached, row 4 is where "
                    "she should be). Can you fix it and open a PR?"
                ),
                ImageBlock(data=b64(png(160, 96)), mime_type="image/png", filename="export.png"),
            ],
            id="user-0001",
        ),
        Message.assistant(
            [
                ReasoningBlock(
                    text=(
                        "The user reports rows silently missing from a CSV export when names "
                        "contain non-ASCII characters. Likely causes: an explicit ASCII encode, "
                        "or an exception swallowed per row. I should read the exporter and grep "
                        "for encode calls at the same time, since they are independent."
                    ),
                    signature="EqQBCkYIBxgCKkDmTz1vq3Yx9wq0dGVtby1zaWduYXR1cmUtbm90LXJlYWw=",
                ),
                TextBlock("I'll read the exporter and look for other places that force ASCII."),
            ],
            id="msg_01DemoRun0001",
            tool_calls=[
                ToolCall("toolu_01ReadCsv", "read_file", {"path": "src/export/csv.py"}),
                ToolCall("toolu_02GrepEnc", "grep", {"pattern": r"encode\(", "path": "src/"}),
            ],
            usage=usage(2412, 188, cache_write=2048, reasoning=74),
            response_metadata=meta(SONNET, 1),
        ),
        Message.tool(
            READ_FILE_OUTPUT,
            tool_call_id="toolu_01ReadCsv",
            name="read_file",
            artifacts=[{"path": "src/export/csv.py", "lines": READ_FILE_OUTPUT.count("\n") + 1}],
        ),
        Message.tool(GREP_OUTPUT, tool_call_id="toolu_02GrepEnc", name="grep"),
        Message.assistant(
            [
                ReasoningBlock(redacted=True, data="RWRhY3RlZCByZWFzb25pbmcgYmxvYg=="),
                TextBlock(
                    'Found it: `export_customers` encodes with `ascii, errors="ignore"`, and a '
                    "`UnicodeEncodeError` handler skips rows. Let me confirm with a failing test "
                    "first."
                ),
            ],
            id="msg_01DemoRun0002",
            tool_calls=[
                ToolCall("toolu_03Pytest", "run_tests", {"path": "tests/export/test_csv.py"})
            ],
            usage=usage(5630, 96, cache_read=2048, cache_write=3420),
            response_metadata=meta(SONNET, 2),
        ),
        Message.tool(
            PYTEST_FAILURE, tool_call_id="toolu_03Pytest", name="run_tests", is_error=True
        ),
        Message.assistant(
            [
                TextBlock(
                    "The test fails as expected. I'll encode as UTF-8 with a BOM so Excel "
                    "opens it correctly, and stop skipping rows."
                )
            ],
            id="msg_01DemoRun0003",
            tool_calls=[
                ToolCall(
                    "toolu_04EditCsv",
                    "edit_file",
                    {
                        "path": "src/export/csv.py",
                        "old": '    return buffer.getvalue().encode("ascii", errors="ignore")',
                        "new": '    return buffer.getvalue().encode("utf-8-sig")',
                    },
                )
            ],
            usage=usage(6140, 231, cache_read=5468),
            response_metadata=meta(SONNET, 3),
        ),
        Message.tool("Applied 1 edit to src/export/csv.py", tool_call_id="toolu_04EditCsv"),
        Message.assistant(
            [
                ServerToolCallBlock(
                    "srvtoolu_01Search",
                    "web_search",
                    {"query": "python csv utf-8-sig excel opens non-ascii correctly"},
                ),
                ServerToolResultBlock(
                    "srvtoolu_01Search",
                    [
                        {
                            "type": "web_search_result",
                            "url": "https://docs.python.org/3/library/codecs.html",
                            "title": "codecs — Codec registry and base classes",
                        },
                        {
                            "type": "web_search_result",
                            "url": "https://docs.python.org/3/library/csv.html",
                            "title": "csv — CSV File Reading and Writing",
                        },
                    ],
                ),
                TextBlock(
                    "UTF-8 with a byte order mark is what Excel needs to detect the encoding.",
                    citations=[
                        CitationBlock(
                            url="https://docs.python.org/3/library/codecs.html",
                            title="codecs — Codec registry and base classes",
                            cited_text="utf-8-sig: the BOM is written on encoding",
                        )
                    ],
                ),
            ],
            id="msg_01DemoRun0004",
            tool_calls=[ToolCall("toolu_05Pytest", "run_tests", {"path": "tests/export/"})],
            usage=usage(6980, 142, cache_read=6140),
            response_metadata=meta(SONNET, 4),
        ),
        Message.tool(
            "collected 4 items\n\ntests/export/test_csv.py ....  [100%]\n\n4 passed in 0.38s",
            tool_call_id="toolu_05Pytest",
            name="run_tests",
        ),
        Message.assistant(
            "Tests pass. Committing with a short message.",
            id="msg_01DemoRun0005",
            tool_calls=[
                ToolCall(
                    "toolu_06Commit",
                    "git_commit",
                    {"message": "Keep non-ASCII names in the CSV export (UTF-8 with BOM)"},
                )
            ],
            usage=usage(7420, 64, cache_read=6980),
            response_metadata=meta(HAIKU, 5),
        ),
        Message.tool(
            "[fix/csv-unicode 3f2a9c1] Keep non-ASCII names in the CSV export\n"
            " 2 files changed, 14 insertions(+), 6 deletions(-)",
            tool_call_id="toolu_06Commit",
            name="git_commit",
            artifacts=[{"commit": "3f2a9c1", "branch": "fix/csv-unicode", "files_changed": 2}],
        ),
        Message.user(
            [
                TextBlock("Great. Please attach the export spec to the PR description too."),
                FileBlock(
                    file_id="file_011CNha8iCJcU1wXNR6q4V8w",
                    mime_type="application/pdf",
                    filename="export-spec.pdf",
                ),
                AudioBlock(data=b64(wav(0.25)), mime_type="audio/wav", filename="note.wav"),
            ],
            id="user-0002",
        ),
        Message.assistant(
            "Opening the pull request with the spec linked.",
            id="msg_01DemoRun0006",
            tool_calls=[
                ToolCall(
                    "toolu_07OpenPr",
                    "create_pull_request",
                    {
                        "title": "Keep non-ASCII names in the CSV export",
                        "base": "main",
                        "head": "fix/csv-unicode",
                        "attachments": ["file_011CNha8iCJcU1wXNR6q4V8w"],
                    },
                )
            ],
            usage=usage(8210, 118, cache_read=7420),
            response_metadata=meta(SONNET, 6),
        ),
    ]
    return Conversation(
        tuple(messages),
        format="msgviewer",
        metadata={"model": SONNET, "tools": TOOLS, "max_tokens": 8192},
        title="Fix the CSV export of non-ASCII names",
    )


if __name__ == "__main__":
    TARGET.write_bytes(dumps(build()))
    print(f"wrote {TARGET}")
