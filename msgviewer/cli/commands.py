"""The subcommands: each takes its own argument list and returns an exit code."""

from __future__ import annotations

import argparse
import sys
import warnings
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn

import orjson

from ..core.errors import MsgviewerError
from ..core.message import Message, normalize_role
from ..core.safetext import visible
from ..formats import (
    FORMATS,
    Conversation,
    FormatWarning,
    LossyConversionWarning,
    dumps,
    get_format,
    load,
)
from ..formats.io import atomic_write

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


def fail(message: str) -> int:
    """Report a fatal error as one line on stderr; the exit code for bad input."""
    print(f"msgviewer: error: {visible(message)}", file=sys.stderr)
    return EXIT_USAGE


class _Parser(argparse.ArgumentParser):
    """argparse that keeps its one-line error and exit code 2, with our prefix."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        print(f"msgviewer {self.prog.split()[-1]}: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _parser(name: str, description: str, example: str) -> argparse.ArgumentParser:
    return _Parser(
        prog=f"msgviewer {name}",
        description=description,
        epilog=f"example:\n  {example}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def _add_input(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="conversation file; - reads standard input")
    parser.add_argument(
        "--format", "--from", dest="format", help="read as this format instead of detecting it"
    )


def _add_output(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", help="write here (atomically) instead of stdout")


@contextmanager
def _reported_warnings(strict: bool = False) -> Iterator[list[str]]:
    """Print warnings to stderr as they come; collect the lossy ones for ``--strict``."""
    lossy: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield lossy
    for w in caught:
        if issubclass(w.category, LossyConversionWarning):
            lossy.append(str(w.message))
            kind = "error" if strict else "warning"
        elif issubclass(w.category, FormatWarning):
            kind = "warning"
        else:
            continue
        print(f"msgviewer: {kind}: {visible(str(w.message))}", file=sys.stderr)


def _read(args: argparse.Namespace) -> list[Conversation]:
    return load(args.file, format=args.format)


def _write(data: bytes, output: str | None) -> None:
    if output and output != "-":
        atomic_write(output, data)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()


def _output_format(conversations: list[Conversation], requested: str | None) -> str:
    """The format to write: the one asked for, else the input's own if writable."""
    if requested:
        return requested
    name = conversations[0].format if conversations else "msgviewer"
    return name if get_format(name).can_write else "msgviewer"


def _label(file: str, conv_index: int, count: int) -> str:
    """How problems name a conversation: the file, plus ``#N`` when it holds several."""
    return file if count == 1 else f"{file}#{conv_index + 1}"


# -- stats -------------------------------------------------------------------------------


def _stats(conversations: list[Conversation]) -> dict[str, Any]:
    from ..core import count_tokens_approximately, link_tools, usage_totals

    roles: Counter[str] = Counter()
    blocks: Counter[str] = Counter()
    calls = answered = errored = 0
    approx = 0
    total: Any = None
    by_model: dict[str, Any] = {}
    for conv in conversations:
        messages = list(conv.messages)
        for m in messages:
            roles[m.role] += 1
            if type(m.content) is str:
                blocks["text"] += bool(m.content)
            else:
                blocks.update(b.type for b in m.content)
        links = link_tools(messages)
        for call in links.calls:
            calls += 1
            result = links.result_for(call.call_id)
            if result is not None:
                answered += 1
                errored += bool(result.is_error)
        totals = usage_totals(messages)
        total = totals.total if total is None else total + totals.total
        for model, usage in totals.by_model.items():
            by_model[model] = by_model[model] + usage if model in by_model else usage
        approx += count_tokens_approximately(messages)
    from ..core.serialize import usage_to_dict

    def usage_numbers(usage: Any) -> dict[str, int]:
        numbers = usage_to_dict(usage) if usage is not None else {}
        numbers.pop("extra", None)
        return numbers

    return {
        "conversations": len(conversations),
        "format": conversations[0].format if conversations else None,
        "messages": {"total": sum(roles.values()), "by_role": dict(sorted(roles.items()))},
        "blocks": dict(sorted((k, v) for k, v in blocks.items() if v)),
        "tool_calls": {
            "total": calls,
            "answered": answered,
            "errored": errored,
            "unanswered": calls - answered,
        },
        "usage": {
            "total": usage_numbers(total),
            "by_model": {k: usage_numbers(v) for k, v in sorted(by_model.items())},
        },
        "approx_tokens": approx,
    }


def _stats_table(file: str, stats: dict[str, Any]) -> str:
    lines = [f"{visible(file)}  ({stats['format']}, {stats['conversations']} conversation(s))"]

    def section(title: str, rows: dict[str, Any]) -> None:
        lines.append(f"\n{title}")
        width = max((len(k) for k in rows), default=0)
        lines.extend(f"  {visible(str(k)).ljust(width)}  {v:>10,}" for k, v in rows.items())

    section("messages", {**stats["messages"]["by_role"], "total": stats["messages"]["total"]})
    if stats["blocks"]:
        section("blocks", stats["blocks"])
    section("tool calls", stats["tool_calls"])
    if stats["usage"]["total"]:
        section("usage", stats["usage"]["total"])
        for model, numbers in stats["usage"]["by_model"].items():
            section(f"usage: {model}", numbers)
    lines.append(f"\napproximate tokens  {stats['approx_tokens']:,}")
    return "\n".join(lines) + "\n"


def cmd_stats(argv: Sequence[str]) -> int:
    parser = _parser(
        "stats",
        "Messages by role, blocks by type, tool calls (answered, errored, unanswered), usage "
        "totals by model, and an approximate token count.",
        "msgviewer stats session.jsonl --json | jq .usage.total",
    )
    _add_input(parser)
    parser.add_argument("--json", action="store_true", help="stable JSON instead of a table")
    args = parser.parse_args(argv)
    with _reported_warnings():
        conversations = _read(args)
    stats = _stats(conversations)
    if args.json:
        _write(orjson.dumps(stats, option=orjson.OPT_INDENT_2) + b"\n", None)
    else:
        sys.stdout.write(_stats_table(args.file, stats))
    return EXIT_OK


# -- convert -----------------------------------------------------------------------------


def cmd_convert(argv: Sequence[str]) -> int:
    parser = _parser(
        "convert",
        "Convert a conversation file to another format. What the target cannot carry is "
        "reported on stderr; --strict makes that a failure (exit 1, nothing written).",
        "msgviewer convert run.json --to anthropic -o run.anthropic.json",
    )
    _add_input(parser)
    parser.add_argument("--to", required=True, help="target format (see `msgviewer formats`)")
    _add_output(parser)
    parser.add_argument("--strict", action="store_true", help="fail if data would be lost")
    args = parser.parse_args(argv)
    with _reported_warnings():
        conversations = _read(args)
    with _reported_warnings(strict=args.strict) as lossy:
        data = dumps(conversations, format=args.to)
    if args.strict and lossy:
        print(f"msgviewer: nothing written: {len(lossy)} thing(s) would be lost", file=sys.stderr)
        return EXIT_PROBLEMS
    _write(data, args.output)
    return EXIT_OK


# -- trim --------------------------------------------------------------------------------


def _role(value: str) -> str:
    try:
        return normalize_role(value)
    except MsgviewerError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def cmd_trim(argv: Sequence[str]) -> int:
    parser = _parser(
        "trim",
        "Cut a history to a token budget, with the semantics of the core trim (LangChain's "
        "trim_messages). Writes the input's format unless --to says otherwise.",
        "msgviewer trim run.json --max-tokens 8000 --include-system --start-on user -o short.json",
    )
    _add_input(parser)
    parser.add_argument("--max-tokens", type=int, required=True, help="token budget (>= 0)")
    parser.add_argument("--strategy", choices=("first", "last"), default="last")
    parser.add_argument("--include-system", action="store_true", help="keep the system message")
    parser.add_argument("--start-on", type=_role, help="the kept part starts on this role")
    parser.add_argument("--end-on", type=_role, help="the kept part ends on this role")
    parser.add_argument("--allow-partial", action="store_true", help="split the edge message")
    parser.add_argument(
        "--keep-tool-pairs", action="store_true", help="never separate a tool call from its result"
    )
    parser.add_argument("--to", help="write this format instead of the input's")
    _add_output(parser)
    args = parser.parse_args(argv)
    if args.max_tokens < 0:
        parser.error("--max-tokens must be >= 0")
    from ..core import trim

    with _reported_warnings():
        conversations = _read(args)
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
                keep_tool_pairs=args.keep_tool_pairs,
            ),
        )
        for conv in conversations
    ]
    with _reported_warnings():
        data = dumps(trimmed, format=_output_format(conversations, args.to))
    _write(data, args.output)
    return EXIT_OK


def _replace_messages(conv: Conversation, messages: Sequence[Message]) -> Conversation:
    import dataclasses

    return dataclasses.replace(conv, messages=tuple(messages))


# -- lint --------------------------------------------------------------------------------


def _apply_fixes(messages: list[Message], provider: str | None) -> tuple[list[Message], int]:
    """Apply suggested fixes one at a time, re-linting after each, until none applies."""
    from ..core import lint

    applied = 0
    seen: set[tuple[str, int]] = set()
    for _ in range(10 * len(messages) + 10):  # every fix removes a problem; a cap all the same
        fixable = [p for p in lint(messages, provider=provider) if p.fix is not None]
        fixable = [p for p in fixable if (p.code, p.index) not in seen]
        if not fixable:
            break
        problem = fixable[0]
        before = messages
        messages = list(problem.fix.apply(list(messages)))
        if messages == before:
            seen.add((problem.code, problem.index))  # a fix that changes nothing: skip it
        else:
            applied += 1
    return messages, applied


def cmd_lint(argv: Sequence[str]) -> int:
    parser = _parser(
        "lint",
        "Problems a provider would reject (unanswered tool calls, orphan results, duplicate "
        "ids, bad arguments, role order...), one per line as FILE:MESSAGE_INDEX: code: text "
        "(FILE#N when the file holds several conversations). Exit 1 when there are any. "
        "--fix applies the suggested fixes and writes the result (stdout or -o).",
        "msgviewer lint fixture.json --provider anthropic --fix -o fixture.json",
    )
    _add_input(parser)
    parser.add_argument("--provider", choices=("openai", "anthropic", "gemini"))
    parser.add_argument("--fix", action="store_true", help="apply the suggested fixes")
    parser.add_argument("--to", help="with --fix: write this format instead of the input's")
    _add_output(parser)
    args = parser.parse_args(argv)
    if args.output and not args.fix:
        parser.error("-o needs --fix (lint writes only a fixed file)")
    from ..core import lint

    with _reported_warnings():
        conversations = _read(args)
    name = "<stdin>" if args.file == "-" else args.file
    report = sys.stderr if args.fix and not args.output else sys.stdout
    remaining = 0
    fixed: list[Conversation] = []
    for i, conv in enumerate(conversations):
        messages = list(conv.messages)
        if args.fix:
            messages, applied = _apply_fixes(messages, args.provider)
            if applied:
                label = _label(name, i, len(conversations))
                print(f"{visible(label)}: applied {applied} fix(es)", file=sys.stderr)
            fixed.append(_replace_messages(conv, messages))
        for p in lint(messages, provider=args.provider):
            remaining += 1
            where = f"{_label(name, i, len(conversations))}:{p.index}"
            print(f"{visible(where)}: {p.code}: {visible(p.text)}", file=report)
    if args.fix:
        with _reported_warnings():
            _write(dumps(fixed, format=_output_format(conversations, args.to)), args.output)
    return EXIT_PROBLEMS if remaining else EXIT_OK


# -- print -------------------------------------------------------------------------------


def cmd_print(argv: Sequence[str]) -> int:
    parser = _parser(
        "print",
        "A readable transcript: colour when stdout is a terminal, plain text otherwise. "
        "Control characters in the content are shown, never sent to the terminal.",
        "msgviewer print session.jsonl | less -R",
    )
    _add_input(parser)
    parser.add_argument(
        "--color", choices=("auto", "always", "never"), default="auto", help="colour output"
    )
    args = parser.parse_args(argv)
    from .transcript import print_transcript

    with _reported_warnings():
        conversations = _read(args)
    colour = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    print_transcript(conversations, colour=colour)
    return EXIT_OK


# -- formats -----------------------------------------------------------------------------


def cmd_formats(argv: Sequence[str]) -> int:
    parser = _parser(
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
        _write(orjson.dumps(rows, option=orjson.OPT_INDENT_2) + b"\n", None)
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
    "formats": cmd_formats,
}
