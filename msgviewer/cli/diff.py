"""``msgviewer diff A B``: how two conversation files differ, message by message.

Readable by default (colour on a terminal, plain when piped): one header per changed, added or
removed message with its index on each side, then what differs: words removed and added in a
text, JSON paths of arguments and results, usage deltas. ``--stat`` prints the counts only,
``--json`` the whole diff as data, ``--view`` opens the diff screen of the app. Exit 0 when the
two are the same, 1 when they differ, 2 on bad usage or unreadable input.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..core.diff import Change, HistoryDiff, diff
from ..core.diff_text import Segment, detail_segments, summary
from ..core.errors import InvalidArgumentError
from ..core.message import Message
from ..core.safetext import inert_json, one_line, visible
from ..formats import Conversation, load
from ..formats.io import json_bytes
from .common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    add_color,
    new_parser,
    reported_warnings,
    wants_colour,
    write_output,
)
from .transcript import print_segments

STYLES = {
    "removed": "red",
    "added": "green",
    "changed": "yellow",
    "header": "bold",
    "path": "cyan",
    "dim": "dim",
}


def cmd_diff(argv: Sequence[str]) -> int:
    parser = new_parser(
        "diff",
        "Compare two conversations (any two formats): messages matched by id, else by content, "
        "so an inserted turn is one addition. Exit 0 when they are the same, 1 when they "
        "differ, 2 on bad input.",
        "msgviewer diff fixture.json new-run.anthropic.json --ignore-metadata",
    )
    parser.add_argument("a", metavar="A", help="the first file (the fixture); - reads stdin")
    parser.add_argument("b", metavar="B", help="the second file (the new run); - reads stdin")
    parser.add_argument("--ignore-ids", action="store_true", help="do not compare ids")
    parser.add_argument("--ignore-usage", action="store_true", help="do not compare usage")
    parser.add_argument(
        "--ignore-metadata",
        action="store_true",
        help="do not compare metadata, nor what either format cannot carry",
    )
    parser.add_argument("--stat", action="store_true", help="print the counts only")
    parser.add_argument("--json", action="store_true", help="print the diff as JSON")
    parser.add_argument("--view", action="store_true", help="open the diff in the app")
    parser.add_argument("--format-a", help="read A as this format instead of detecting it")
    parser.add_argument("--format-b", help="read B as this format instead of detecting it")
    parser.add_argument(
        "--conversation",
        type=int,
        default=1,
        metavar="N",
        help="compare the N-th conversation of each file (default 1)",
    )
    add_color(parser)
    args = parser.parse_args(argv)
    if args.a == "-" and args.b == "-":
        parser.error("only one side can be - (standard input is read once)")
    if args.conversation < 1:
        parser.error("--conversation counts from 1")
    if sum((args.stat, args.json, args.view)) > 1:
        parser.error("choose one of --stat, --json and --view")
    with reported_warnings():
        a = _conversation(args.a, args.format_a, args.conversation)
        b = _conversation(args.b, args.format_b, args.conversation)
    options = {
        "ignore_ids": args.ignore_ids,
        "ignore_usage": args.ignore_usage,
        "ignore_metadata": args.ignore_metadata,
    }
    if args.view:
        from ..tui import run_diff  # the app is imported only when it is wanted

        return run_diff(a, b, (_name(args.a), _name(args.b)), options)
    result = diff(a, b, **options)
    if args.json:
        write_output(inert_json(json_bytes(result.to_dict(), pretty=True)), None)
    elif args.stat:
        print(stat_line(result))
    else:
        colour = wants_colour(args)
        _print(report(result, a.messages, b.messages, _name(args.a), _name(args.b)), colour)
    return EXIT_OK if result.same else EXIT_PROBLEMS


def _name(file: str) -> str:
    return "<stdin>" if file == "-" else file


def _conversation(file: str, fmt: str | None, number: int) -> Conversation:
    conversations = load(file, format=fmt)
    if not conversations:
        raise InvalidArgumentError(f"{_name(file)}: holds no conversation")
    if number > len(conversations):
        raise InvalidArgumentError(
            f"{_name(file)}: --conversation {number}, but it holds {len(conversations)}"
        )
    return conversations[number - 1]


def stat_line(result: HistoryDiff) -> str:
    """``same 4, changed 2, added 2, removed 0``."""
    return ", ".join(f"{op} {n}" for op, n in result.stat.items())


# -- the readable report -------------------------------------------------------------------


def report(
    result: HistoryDiff,
    a: Sequence[Message],
    b: Sequence[Message],
    name_a: str,
    name_b: str,
) -> Iterator[Segment]:
    """The readable diff as (style, text) segments; file text made visible, never markup."""
    yield "header", f"--- a {visible(name_a)}\n+++ b {visible(name_b)}\n"
    for change in result.changes:
        if change.op != "same":
            yield from _change(change, a, b)
    yield "dim", stat_line(result) + "\n"


def _change(change: Change, a: Sequence[Message], b: Sequence[Message]) -> Iterator[Segment]:
    ia = "-" if change.a_index is None else str(change.a_index)
    ib = "-" if change.b_index is None else str(change.b_index)
    message = a[change.a_index] if change.b_index is None else b[change.b_index]  # type: ignore[index]
    yield change.op, f"@@ {change.op} a[{ia}] b[{ib}] {message.role}"
    if change.op in ("added", "removed"):
        mark = "+" if change.op == "added" else "-"
        yield "", "\n"
        yield change.op, f"{mark} {one_line(summary(message), 100)}\n"
        return
    yield "", "\n"
    for d in change.details:
        yield from detail_segments(d)


def _print(segments: Iterator[Segment], colour: bool) -> None:
    print_segments(((STYLES.get(style, ""), text) for style, text in segments), colour=colour)
