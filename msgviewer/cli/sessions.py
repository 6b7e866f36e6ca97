"""``msgviewer sessions`` and ``msgviewer grep``: every conversation on this machine, listed
and searched (the folders given, or each tool's standard place)."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
from collections.abc import Sequence

import orjson

from ..core.cost import format_usd
from ..core.prices import PriceOverride
from ..core.safetext import inert_json, visible
from ..formats.prices import ENV_VAR, prices_from
from ..sessions import Matcher, Summary, grep, list_sessions, roots_of, session_files
from ..sessions.costs import session_cost
from .common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    add_prices,
    new_parser,
    role_arg,
    write_output,
)

PLACES = (
    "With no folder: ~/.claude/projects, $CODEX_HOME/sessions (~/.codex/sessions), "
    "~/.gemini/tmp and $INSPECT_LOG_DIR (./logs), those that exist."
)


def _json_out(rows: list[dict]) -> None:
    write_output(inert_json(orjson.dumps(rows, option=orjson.OPT_INDENT_2) + b"\n"), None)


def _dirs(parser: argparse.ArgumentParser, dirs: Sequence[str]) -> None:
    import os

    for d in dirs:
        if not os.path.exists(d):
            parser.error(f"no such file or folder: {visible(d)}")


# -- sessions ----------------------------------------------------------------------------


def cmd_sessions(argv: Sequence[str]) -> int:
    parser = new_parser(
        "sessions",
        "List the sessions (conversation files, found by content) under the folders given, "
        "newest activity first. Claude Code sub-agent files are counted with their session. "
        "Cost at genai-prices' bundled prices, overridden by --prices or "
        f"${ENV_VAR}. " + PLACES,
        "msgviewer sessions ~/.claude/projects --limit 20",
    )
    parser.add_argument("dirs", nargs="*", metavar="DIR", help="folders (or files) to look in")
    parser.add_argument("--json", action="store_true", help="a JSON list instead of a table")
    parser.add_argument("--limit", type=int, metavar="N", help="only the N newest")
    add_prices(parser)
    args = parser.parse_args(argv)
    if args.limit is not None and args.limit < 0:
        parser.error("--limit must be >= 0")
    _dirs(parser, args.dirs)
    prices = prices_from(args.prices)
    found = list_sessions(args.dirs, workers=os.cpu_count() or 1)
    if args.limit is not None:
        found = found[: args.limit]
    if args.json:
        rows = []
        for s in found:
            row = s.to_json()
            for internal in ("mtime", "cost_by_model", "unpriced_models"):
                del row[internal]
            row["cost_usd"], row["unpriced"] = session_cost(s, prices)
            rows.append(row)
        _json_out(rows)
        return EXIT_OK
    if not found:
        where = "the folders given" if args.dirs else "the standard places"
        print(f"msgviewer: no sessions found in {where}", file=sys.stderr)
        return EXIT_OK
    # (cut to the terminal's width on a terminal; whole lines into a pipe or a file)
    width = shutil.get_terminal_size((120, 24)).columns if sys.stdout.isatty() else None
    for line in table(found, width, prices):
        print(line)
    return EXIT_OK


def when(value: str | None) -> str:
    """An ISO time as ``YYYY-MM-DD HH:MM`` (as written: the file's own time zone)."""
    if not value:
        return "-"
    return value[:16].replace("T", " ")


def _file_time(mtime: float) -> str | None:
    from datetime import datetime

    return datetime.fromtimestamp(mtime).isoformat() if mtime else None


def tokens(n: int) -> str:
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M"
    if n >= 10_000:
        return f"{n // 1000}k"
    return str(n)


def cost(s: Summary, prices: dict[str, PriceOverride] | None = None) -> str:
    """The session's dollars for the table; ``—`` when nothing in it is priced."""
    dollars, _ = session_cost(s, prices)
    return "—" if dollars is None else format_usd(dollars)


def table(
    found: list[Summary], width: int | None, prices: dict[str, PriceOverride] | None = None
) -> list[str]:
    """The human listing: when, project, format, messages, tokens, cost, model, first
    prompt."""
    import os

    home = os.path.expanduser("~")
    rows = []
    for s in found:
        project = (s.project or "").replace(home, "~", 1) if home != "/" else s.project or ""
        total = s.input_tokens + s.output_tokens
        rows.append(
            [
                when(s.updated or s.started or _file_time(s.mtime)),
                visible(project)[-28:],
                s.format,
                str(s.messages),
                tokens(total) if total else "-",
                cost(s, prices),
                visible(s.models[0] if s.models else "-")[:24],
                visible(s.title or "(no prompt)"),
            ]
        )
    head = ["WHEN", "PROJECT", "FORMAT", "MSGS", "TOKENS", "COST", "MODEL", "FIRST PROMPT"]
    widths = [max(len(r[i]) for r in [*rows, head]) for i in range(7)]
    right = {3, 4, 5}
    out = []
    for r in [head, *rows]:
        cells = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=False))
        ]
        line = "  ".join([*cells, r[7]])
        out.append(line if width is None else line[: max(width - 1, 40)])
    return out


# -- grep --------------------------------------------------------------------------------


def cmd_grep(argv: Sequence[str]) -> int:
    parser = new_parser(
        "grep",
        "Search message text, reasoning, tool names, arguments and results across sessions; "
        "one line per matching message, PATH:#INDEX ROLE: snippet. Exit 0 when something "
        "matched, 1 when nothing did, 2 on bad usage. " + PLACES,
        "msgviewer grep -i 'drop table' ~/.claude/projects --tool Bash",
    )
    parser.add_argument("pattern", help="text to find (a regular expression with --regex)")
    parser.add_argument("dirs", nargs="*", metavar="DIR", help="folders (or files) to look in")
    parser.add_argument("-i", "--ignore-case", action="store_true", help="ignore case")
    parser.add_argument("--regex", action="store_true", help="PATTERN is a regular expression")
    parser.add_argument("--role", type=role_arg, help="only messages of this role")
    parser.add_argument("--tool", metavar="NAME", help="only calls of this tool and their results")
    parser.add_argument("--json", action="store_true", help="a JSON list instead of lines")
    args = parser.parse_args(argv)
    _dirs(parser, args.dirs)
    try:
        matcher = Matcher(args.pattern, ignore_case=args.ignore_case, regex=args.regex)
    except re.error as exc:
        parser.error(f"bad regular expression: {exc}")
    files = list(session_files(roots_of(args.dirs)))
    count = 0
    rows: list[dict] = []
    for hits in grep(files, matcher, role=args.role, tool=args.tool):
        count += len(hits)
        if args.json:
            rows.extend(h.to_json() for h in hits)
            continue
        for h in hits:
            where = h.path if h.conversations == 1 else f"{h.path}#{h.conversation + 1}"
            print(f"{visible(where)}:#{h.message} {h.role}: {visible(h.snippet)}")
        sys.stdout.flush()
    if args.json:
        _json_out(rows)
    return EXIT_OK if count else EXIT_PROBLEMS


__all__ = ["EXIT_USAGE", "cmd_grep", "cmd_sessions"]
