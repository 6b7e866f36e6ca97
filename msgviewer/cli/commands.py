"""The subcommands: each takes its own argument list and returns an exit code."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

import orjson

from ..core.message import Message
from ..core.safetext import inert_json, visible
from ..formats import (
    FORMATS,
    Conversation,
    dumps,
    get_format,
    lossy_warnings,
)
from ..formats.exact import splice
from ..formats.io import read_bytes
from .common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    add_color,
    add_extract_media,
    add_input,
    add_output,
    conversation_label,
    encoded,
    new_parser,
    output_format,
    read_input,
    reported_warnings,
    role_arg,
    wants_colour,
    write_output,
)
from .diff import cmd_diff
from .redact import cmd_redact
from .sessions import cmd_grep, cmd_sessions
from .stats import cmd_stats

# -- convert -----------------------------------------------------------------------------


def cmd_convert(argv: Sequence[str]) -> int:
    parser = new_parser(
        "convert",
        "Convert a conversation file to another format. What the target cannot carry is "
        "reported on stderr; --strict makes that a failure (exit 1, nothing written), and so "
        "is input not understood (a line that cannot be read).",
        "msgviewer convert run.json --to anthropic -o run.anthropic.json",
    )
    add_input(parser)
    parser.add_argument("--to", required=True, help="target format (see `msgviewer formats`)")
    add_output(parser)
    parser.add_argument(
        "--strict", action="store_true", help="fail if data would be lost or was not understood"
    )
    add_extract_media(parser)
    args = parser.parse_args(argv)
    with reported_warnings(strict=args.strict) as unread:
        conversations = read_input(args)
    if args.strict and unread:
        print(f"msgviewer: nothing written: {len(unread)} part(s) not read", file=sys.stderr)
        return EXIT_PROBLEMS
    with reported_warnings(strict=args.strict) as lossy:
        data = encoded(conversations, args.to, media_dir=args.extract_media, output=args.output)
    if args.file != "-" and conversations and args.to == conversations[0].format:
        # To its own format: the file's own bytes wherever nothing changed (the writer would
        # re-indent it, respell its numbers...): all of it unless media were pulled out.
        written = dumps(conversations, format=args.to) if args.extract_media else data
        data = splice(read_bytes(args.file)[0], written, data)
    if args.strict and lossy:
        print(f"msgviewer: nothing written: {len(lossy)} thing(s) would be lost", file=sys.stderr)
        return EXIT_PROBLEMS
    write_output(data, args.output)
    return EXIT_OK


# -- trim --------------------------------------------------------------------------------


def cmd_trim(argv: Sequence[str]) -> int:
    parser = new_parser(
        "trim",
        "Cut a history to a token budget, with the semantics of the core trim (LangChain's "
        "trim_messages), keeping each tool call with its result as the app does (--split-pairs "
        "for LangChain's own behaviour). Writes the input's format unless --to says otherwise.",
        "msgviewer trim run.json --max-tokens 8000 --include-system --start-on user -o short.json",
    )
    add_input(parser)
    parser.add_argument("--max-tokens", type=int, required=True, help="token budget (>= 0)")
    parser.add_argument("--strategy", choices=("first", "last"), default="last")
    parser.add_argument("--include-system", action="store_true", help="keep the system message")
    parser.add_argument("--start-on", type=role_arg, help="the kept part starts on this role")
    parser.add_argument("--end-on", type=role_arg, help="the kept part ends on this role")
    parser.add_argument("--allow-partial", action="store_true", help="split the edge message")
    pairs = parser.add_mutually_exclusive_group()
    pairs.add_argument(
        "--split-pairs",
        action="store_true",
        help="cut between a tool call and its result as LangChain does (may leave an unanswered "
        "call or an orphan result: an invalid fixture for most providers)",
    )
    # The default since tool pairs are kept; still accepted so existing scripts run unchanged.
    pairs.add_argument("--keep-tool-pairs", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--to", help="write this format instead of the input's")
    add_output(parser)
    args = parser.parse_args(argv)
    if args.max_tokens < 0:
        parser.error("--max-tokens must be >= 0")
    from ..core import trim

    with reported_warnings():
        conversations = read_input(args)
    trimmed = [
        _replace_messages(
            conv,
            trim(
                list(conv.messages),
                max_tokens=args.max_tokens,
                strategy=args.strategy,
                include_system=args.include_system,
                start_on=args.start_on,
                end_on=args.end_on,
                allow_partial=args.allow_partial,
                keep_tool_pairs=not args.split_pairs,
            ),
        )
        for conv in conversations
    ]
    with reported_warnings():
        data = dumps(trimmed, format=output_format(conversations, args.to))
    write_output(data, args.output)
    return EXIT_OK


def _replace_messages(conv: Conversation, messages: Sequence[Message]) -> Conversation:
    import dataclasses

    return dataclasses.replace(conv, messages=tuple(messages))


# -- lint --------------------------------------------------------------------------------


def _apply_fixes(
    conv: Conversation, provider: str | None, fmt: str
) -> tuple[Conversation, int, list[str]]:
    """Apply suggested fixes one at a time, re-linting after each, until none applies.

    A fix that would make the written file lose what it did not lose before (a placeholder
    result turning a response into a request body, say) is not applied: it is returned as a
    line saying why. Each fix is checked so only when the fixes together would lose something
    (checking one costs a whole write).
    """
    baseline = _losses(conv, fmt)
    fixed, applied, _ = _fixing(conv, provider, None)
    if not _losses(fixed, fmt) - baseline:
        return fixed, applied, []
    return _fixing(conv, provider, lambda c: _losses(c, fmt) - baseline)


def _fixing(
    conv: Conversation, provider: str | None, lost: Callable[[Conversation], set[str]] | None
) -> tuple[Conversation, int, list[str]]:
    """The fixes applied one by one (each refused where ``lost`` names what it would lose)."""
    from ..core import lint

    applied = 0
    held_back: list[str] = []
    seen: set[tuple[str, int]] = set()
    for _ in range(10 * len(conv.messages) + 10):  # every fix removes a problem; a cap all the same
        fixable = [p for p in lint(conv.messages, provider=provider) if p.fix is not None]
        fixable = [p for p in fixable if (p.code, p.index) not in seen]
        if not fixable:
            break
        problem = fixable[0]
        fixed = _replace_messages(conv, problem.fix.apply(list(conv.messages)))  # type: ignore[union-attr]
        if fixed.messages == conv.messages:
            seen.add((problem.code, problem.index))  # a fix that changes nothing: skip it
            continue
        losses = lost(fixed) if lost is not None else set()
        if losses:
            seen.add((problem.code, problem.index))
            lines = "; ".join(sorted(losses))
            held_back.append(f"{problem.code} at {problem.index}: not fixed ({lines})")
            continue
        conv = fixed
        applied += 1
    return conv, applied, held_back


def _losses(conv: Conversation, fmt: str) -> set[str]:
    """What writing ``conv`` as ``fmt`` drops, by kind (where it is found left out)."""
    return {
        w.split(": ", 1)[-1].removesuffix("; dropped") for w in lossy_warnings(conv, format=fmt)
    }


def cmd_lint(argv: Sequence[str]) -> int:
    parser = new_parser(
        "lint",
        "Problems a provider would reject (unanswered tool calls, orphan results, duplicate "
        "ids, bad arguments, role order...), one per line as FILE:MESSAGE_INDEX: code: text "
        "(FILE#N when the file holds several conversations). Exit 1 when there are any. "
        "--fix applies the suggested fixes and writes the result (stdout or -o).",
        "msgviewer lint fixture.json --provider anthropic --fix -o fixture.json",
    )
    add_input(parser)
    parser.add_argument("--provider", choices=("openai", "anthropic", "gemini"))
    parser.add_argument("--fix", action="store_true", help="apply the suggested fixes")
    parser.add_argument("--to", help="with --fix: write this format instead of the input's")
    parser.add_argument(
        "--strict", action="store_true", help="count parts of the file not understood as problems"
    )
    add_output(parser)
    args = parser.parse_args(argv)
    if args.output and not args.fix:
        parser.error("-o needs --fix (lint writes only a fixed file)")
    from ..core import lint

    with reported_warnings(strict=args.strict) as unread:
        conversations = read_input(args)
    name = "<stdin>" if args.file == "-" else args.file
    report = sys.stderr if args.fix and not args.output else sys.stdout
    remaining = len(unread) if args.strict else 0
    fixed: list[Conversation] = []
    target = output_format(conversations, args.to) if args.fix else ""
    for i, conv in enumerate(conversations):
        messages = list(conv.messages)
        if args.fix:
            conv, applied, held_back = _apply_fixes(conv, args.provider, target)
            messages = list(conv.messages)
            where = conversation_label(name, i, len(conversations))
            if applied:
                print(f"{visible(where)}: applied {applied} fix(es)", file=sys.stderr)
            for line in held_back:
                print(f"{visible(where)}: {visible(line)}", file=sys.stderr)
            fixed.append(conv)
        for p in lint(messages, provider=args.provider):
            remaining += 1
            where = f"{conversation_label(name, i, len(conversations))}:{p.index}"
            print(f"{visible(where)}: {p.code}: {visible(p.text)}", file=report)
    if args.fix:
        with reported_warnings():
            write_output(dumps(fixed, format=target), args.output)
    return EXIT_PROBLEMS if remaining else EXIT_OK


# -- print -------------------------------------------------------------------------------


def cmd_print(argv: Sequence[str]) -> int:
    parser = new_parser(
        "print",
        "A readable transcript: colour when stdout is a terminal, plain text otherwise. "
        "Control characters in the content are shown, never sent to the terminal.",
        "msgviewer print --color always session.jsonl | less -R",
    )
    add_input(parser)
    add_color(parser)
    args = parser.parse_args(argv)
    from .transcript import print_transcript

    with reported_warnings():
        conversations = read_input(args)
    colour = wants_colour(args)
    print_transcript(conversations, colour=colour)
    return EXIT_OK


# -- formats -----------------------------------------------------------------------------


def cmd_formats(argv: Sequence[str]) -> int:
    parser = new_parser(
        "formats",
        "The supported formats: whether each reads and writes, and what it cannot carry.",
        "msgviewer formats --json",
    )
    parser.add_argument("--json", action="store_true", help="stable JSON instead of a table")
    args = parser.parse_args(argv)
    rows = []
    for name in FORMATS:
        fmt = get_format(name)
        rows.append(
            {
                "name": name,
                "read": fmt.can_read,
                "write": fmt.can_write,
                "description": fmt.description,
                "cannot_carry": fmt.cannot_carry,
            }
        )
    if args.json:
        write_output(inert_json(orjson.dumps(rows, option=orjson.OPT_INDENT_2) + b"\n"), None)
        return EXIT_OK
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        mode = ("r" if r["read"] else "-") + ("w" if r["write"] else "-")
        print(f"{r['name'].ljust(width)}  {mode}  {r['description']}")
        if r["cannot_carry"]:
            print(f"{''.ljust(width)}      cannot carry: {r['cannot_carry']}")
    return EXIT_OK


COMMANDS: dict[str, Callable[[Sequence[str]], int]] = {
    "stats": cmd_stats,
    "convert": cmd_convert,
    "trim": cmd_trim,
    "lint": cmd_lint,
    "print": cmd_print,
    "diff": cmd_diff,
    "formats": cmd_formats,
    "sessions": cmd_sessions,
    "grep": cmd_grep,
    "redact": cmd_redact,
}
