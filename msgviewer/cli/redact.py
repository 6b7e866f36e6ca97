"""``msgviewer redact``: replace secrets, emails and the user's own patterns by stable
placeholders, optionally pull inline media out into files; ``--check`` is a CI gate."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence

from ..core.safetext import visible
from ..document.redaction import leaked, redact_conversations
from ..document.secrets import SecretDetector
from ..formats import dumps
from ..formats.exact import splice
from ..formats.io import read_bytes
from .common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    add_extract_media,
    add_input,
    add_output,
    conversation_label,
    encoded,
    fail,
    new_parser,
    output_format,
    read_input,
    reported_warnings,
    write_output,
)


def _regex(value: str) -> str:
    try:
        re.compile(value)
    except re.error as exc:
        import argparse

        raise argparse.ArgumentTypeError(f"bad regular expression {value!r}: {exc}") from None
    return value


def cmd_redact(argv: Sequence[str]) -> int:
    parser = new_parser(
        "redact",
        "Replace secrets (cloud and provider API keys, GitHub and Slack tokens, JWTs, private "
        "keys, passwords in URLs, random-looking values in key-like places), emails and your "
        "own patterns by stable placeholders such as [REDACTED:github-token:1], everywhere: "
        "text, reasoning, tool arguments and results, metadata, file names, request fields. "
        "Writes the input's format unless --to says otherwise. --check changes nothing and "
        "exits 1 when anything would be redacted.",
        "msgviewer redact run.jsonl --literal ACME-internal --extract-media media -o shared.jsonl",
    )
    add_input(parser)
    add_output(parser)
    parser.add_argument("--to", help="write this format instead of the input's (html too)")
    parser.add_argument(
        "--pattern", action="append", default=[], type=_regex, help="also redact this regex"
    )
    parser.add_argument("--literal", action="append", default=[], help="also redact this text")
    parser.add_argument("--no-emails", action="store_true", help="leave email addresses")
    add_extract_media(parser)
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if anything would change"
    )
    parser.add_argument(
        "--report", action="store_true", help="list what was found where (never the secret)"
    )
    args = parser.parse_args(argv)
    detector = SecretDetector(
        patterns=args.pattern, literals=args.literal, emails=not args.no_emails
    )
    with reported_warnings():
        conversations = read_input(args)
    result = redact_conversations(conversations, detector)
    name = "<stdin>" if args.file == "-" else args.file
    if args.report or args.check:
        # (on stdout unless the redacted file goes there)
        report = sys.stdout if args.output or args.check else sys.stderr
        for f in result.findings:
            where = conversation_label(name, f.conversation, len(conversations))
            print(visible(f"{where}: {f.where()}: {f.kind} -> {f.placeholder}"), file=report)
    for w in result.warnings:
        print(f"msgviewer: warning: {visible(w)}", file=sys.stderr)
    if args.check:
        count = len(result.placeholders)
        print(
            f"{visible(name)}: {count} secret(s) at {len(result.findings)} place(s)"
            if count
            else f"{visible(name)}: clean",
            file=sys.stderr,
        )
        return EXIT_PROBLEMS if result.changed else EXIT_OK
    fmt = output_format(conversations, args.to)
    with reported_warnings():
        data = encoded(result.conversations, fmt, media_dir=args.extract_media, output=args.output)
    if args.file != "-" and conversations and fmt == conversations[0].format:
        # Its own format: the file's bytes wherever nothing was redacted (a small diff)...
        spliced = splice(read_bytes(args.file)[0], dumps(conversations, format=fmt), data)
        # ...unless a secret sits in a part of the file the model does not hold: the
        # writer's own output then, which holds only what was read (and redacted).
        data = data if leaked(spliced, result.placeholders.secrets()) else spliced
    still = leaked(data, result.placeholders.secrets())
    if still:
        return fail(f"{name}: {len(still)} secret(s) would still be written; nothing written")
    write_output(data, args.output)
    return EXIT_OK
