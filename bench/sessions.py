"""Listing and searching many sessions against ``grep -c -F`` over the same files.

    python bench/sessions.py [--scale 1.0] [--dir /tmp/msgviewer-sessions]

Generates (once, kept in --dir) 1,000 sessions of about 1 MB each at scale 1 (Claude Code
projects with sub-agent files, Codex dated folders, Gemini CLI chats), then times, each in a
fresh process: ``msgviewer sessions --json`` with no cache (cold), again with the cache it
left (cached), and ``msgviewer grep`` of a word found in 1% of the sessions, each against
``grep -c -F`` of the same word over the same files. Target (issue 19): cold listing and grep
within 3x. The page cache is dropped before each cold round when running as root; otherwise
the figures say "warm page cache".
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._common import figure, summary  # noqa: E402
from bench.generate import WORDS  # noqa: E402

RARE = "quetzalcoatl"


def _text(rng: random.Random, n: int) -> str:
    return " ".join(rng.choices(WORDS, k=n // 6))


def _claude(rng: random.Random, i: int, size: int, rare: bool) -> tuple[list[bytes], str]:
    sid = str(uuid.UUID(int=rng.getrandbits(128)))
    cwd = f"/home/dev/project-{i % 40}"
    base = dict(isSidechain=False, userType="external", cwd=cwd, sessionId=sid, version="2.0.14")
    lines, parent, t, total = [], None, 0, 0

    def add(kind: str, message: dict) -> None:
        nonlocal parent, t, total
        u = str(uuid.UUID(int=rng.getrandbits(128)))
        t += 7
        ts = f"2026-01-{1 + i % 28:02d}T{(t // 3600) % 24:02d}:{(t // 60) % 60:02d}:{t % 60:02d}Z"
        rec = {"parentUuid": parent, **base, "type": kind, "message": message, "uuid": u}
        rec["timestamp"] = ts
        line = orjson.dumps(rec)
        lines.append(line)
        total += len(line) + 1
        parent = u

    add("user", {"role": "user", "content": f"Session {i}: {_text(rng, 120)}"})
    n = 0
    while total < size:
        n += 1
        call = f"toolu_{n:06d}"
        usage = {"input_tokens": 4, "cache_read_input_tokens": 1000 + n, "output_tokens": 80}
        add(
            "assistant",
            {
                "id": f"msg_{i}_{n}",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5-20250929",
                "content": [
                    {"type": "text", "text": _text(rng, 300)},
                    {"type": "tool_use", "id": call, "name": "Bash", "input": {"command": "ls"}},
                ],
                "usage": usage,
            },
        )
        out = _text(rng, rng.randint(2000, 9000))
        if rare and n == 3:
            out += f" {RARE} "
        content = [{"tool_use_id": call, "type": "tool_result", "content": out}]
        add("user", {"role": "user", "content": content})
    return lines, sid


def _codex(rng: random.Random, i: int, size: int, rare: bool) -> list[bytes]:
    def line(kind: str, payload: dict) -> bytes:
        return orjson.dumps(
            {
                "timestamp": f"2025-12-{1 + i % 28:02d}T10:00:00.000Z",
                "type": kind,
                "payload": payload,
            }
        )

    out = [
        line(
            "session_meta",
            {"id": str(i), "timestamp": "2025-12-01T10:00:00Z", "cwd": f"/home/dev/cx-{i % 30}"},
        ),
        line(
            "response_item",
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": _text(rng, 100)}],
            },
        ),
        line("turn_context", {"cwd": f"/home/dev/cx-{i % 30}", "model": "gpt-5-codex"}),
    ]
    total, n = sum(map(len, out)), 0
    while total < size:
        n += 1
        args = orjson.dumps({"command": ["bash", "-lc", "ls"]}).decode()
        text = _text(rng, rng.randint(2000, 9000)) + (f" {RARE}" if rare and n == 3 else "")
        for rec in (
            line(
                "response_item",
                {"type": "function_call", "name": "shell", "arguments": args, "call_id": f"c{n}"},
            ),
            line(
                "response_item",
                {"type": "function_call_output", "call_id": f"c{n}", "output": text},
            ),
            line(
                "event_msg",
                {
                    "type": "token_count",
                    "info": {
                        "total_token_usage": {"input_tokens": 100 * n, "output_tokens": 9 * n}
                    },
                },
            ),
        ):
            out.append(rec)
            total += len(rec) + 1
    return out


def _gemini(rng: random.Random, i: int, size: int, rare: bool) -> bytes:
    messages, total, n = [], 0, 0
    messages.append(
        {
            "id": "u0",
            "timestamp": "2026-02-01T09:00:00Z",
            "type": "user",
            "content": _text(rng, 100),
        }
    )
    while total < size:
        n += 1
        text = _text(rng, rng.randint(2000, 9000)) + (f" {RARE}" if rare and n == 3 else "")
        messages.append(
            {
                "id": f"g{n}",
                "timestamp": "2026-02-01T09:00:00Z",
                "type": "gemini",
                "content": text,
                "model": "gemini-2.5-pro",
                "tokens": {
                    "input": 100,
                    "output": 20,
                    "cached": 0,
                    "thoughts": 0,
                    "tool": 0,
                    "total": 120,
                },
            }
        )
        total += len(text) + 200
    return orjson.dumps(
        {
            "sessionId": str(i),
            "projectHash": f"{i:064x}",
            "startTime": "2026-02-01T09:00:00Z",
            "lastUpdated": "2026-02-01T10:00:00Z",
            "messages": messages,
        },
        option=orjson.OPT_INDENT_2,
    )


def generate(home: Path, count: int, size: int) -> None:
    """``count`` sessions of about ``size`` bytes under ``home``'s standard places."""
    rng = random.Random(19)
    for i in range(count):
        rare = i % 100 == 7
        kind = i % 20
        if kind < 14:
            lines, sid = _claude(rng, i, size, rare)
            folder = home / ".claude" / "projects" / f"-home-dev-project-{i % 40}"
            folder.mkdir(parents=True, exist_ok=True)
            if kind == 0:  # a sub-agent run: a fifth of the session in a file of its own
                cut = len(lines) * 4 // 5
                sub = folder / sid / "subagents"
                sub.mkdir(parents=True, exist_ok=True)
                (sub / "agent-a1.jsonl").write_bytes(b"\n".join(lines[cut:]) + b"\n")
                lines = lines[:cut]
            (folder / f"{sid}.jsonl").write_bytes(b"\n".join(lines) + b"\n")
        elif kind < 19:
            folder = home / ".codex" / "sessions" / "2025" / "12" / f"{1 + i % 28:02d}"
            folder.mkdir(parents=True, exist_ok=True)
            data = b"\n".join(_codex(rng, i, size, rare)) + b"\n"
            (folder / f"rollout-2025-12-01T10-00-00-{i:05d}.jsonl").write_bytes(data)
        else:
            folder = home / ".gemini" / "tmp" / f"{i:064x}" / "chats"
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"session-{i:05d}.json").write_bytes(_gemini(rng, i, size, rare))


def _files(home: Path) -> list[str]:
    return sorted(str(p) for p in home.rglob("*") if p.is_file())


def _drop_page_cache() -> bool:
    try:
        os.sync()
        Path("/proc/sys/vm/drop_caches").write_text("3\n")
        return True
    except OSError:
        return False


def _run(cmd: list[str], env: dict[str, str], cold: bool) -> float:
    if cold:
        _drop_page_cache()
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd[:4])}... failed: {done.stderr.decode()[-500:]}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="1.0: 1,000 sessions, ~1 GB")
    parser.add_argument("--dir", default="/tmp/msgviewer-bench-sessions", help="where to generate")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    count = max(20, int(1000 * args.scale))
    home = Path(args.dir) / f"home-{count}"
    if not home.exists():
        print(f"generating {count} sessions in {home}…", flush=True)
        tmp = home.with_name(home.name + ".part")
        shutil.rmtree(tmp, ignore_errors=True)
        generate(tmp, count, 1_000_000)
        tmp.rename(home)
    files = _files(home)
    size = sum(os.path.getsize(f) for f in files)
    cache = Path(args.dir) / "cache"
    env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(cache), "PYTHONPATH": str(ROOT)}
    env["CODEX_HOME"] = str(home / ".codex")
    env["INSPECT_LOG_DIR"] = str(home / "no-logs")
    root = _drop_page_cache()
    page = "page cache dropped" if root else "warm page cache"
    print(f"{count} sessions, {len(files)} files, {size / 1e6:.0f} MB ({page})")
    mv = [sys.executable, "-m", "msgviewer"]
    base = ["grep", "-c", "-F", RARE, *files]
    rows: dict[str, list[float]] = {k: [] for k in ("grep", "list", "cached", "mvgrep")}
    for _ in range(args.rounds):
        shutil.rmtree(cache, ignore_errors=True)
        rows["grep"].append(_run(base, env, root))
        rows["list"].append(_run([*mv, "sessions", "--json"], env, root))
        rows["cached"].append(_run([*mv, "sessions", "--json"], env, False))
        rows["mvgrep"].append(_run([*mv, "grep", RARE], env, root))
    med = {k: sorted(v)[len(v) // 2] for k, v in rows.items()}
    print(
        f"grep -c -F: {med['grep']:.2f} s; sessions: {med['list']:.2f} s cold, "
        f"{med['cached']:.2f} s cached; grep: {med['mvgrep']:.2f} s"
    )
    figure(f"sessions, cold ({page}) / grep -c -F", med["list"] / med["grep"], 3.0)
    figure("sessions, cached / grep -c -F", med["cached"] / med["grep"], None)
    figure(f"grep (1% of sessions hit, {page}) / grep -c -F", med["mvgrep"] / med["grep"], 3.0)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
