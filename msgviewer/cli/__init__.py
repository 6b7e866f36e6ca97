"""The ``msgviewer`` command.

``msgviewer [FILE...]`` opens the app; ``msgviewer SUBCOMMAND ...`` runs one of the commands
for scripts and CI (``stats``, ``convert``, ``trim``, ``lint``, ``print``, ``formats``).

Exit codes: 0 success; 1 problems found (``lint``) or data would be lost (``--strict``);
2 bad usage or unreadable input, reported as one line on stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..core.errors import MsgviewerError
from ..formats.io import INT_DIGITS
from .commands import COMMANDS
from .common import fail
from .terminal import keys_from_terminal


def _view_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="msgviewer",
        description=(
            "Look inside LLM conversations. With no file, opens a bundled sample. "
            f"Commands: {', '.join(COMMANDS)} (msgviewer COMMAND --help)."
        ),
        epilog="example: msgviewer ~/.claude/projects/myproj/session.jsonl --follow",
    )
    parser.add_argument("files", nargs="*", help="conversation files (any supported format)")
    parser.add_argument("--follow", "-f", action="store_true", help="tail a growing JSONL file")
    parser.add_argument("--format", help="read as this format instead of detecting it")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # Files hold integers of any length, which msgviewer reads, shows and writes as they are;
    # Python converts at most 4,300 digits to or from text unless told (a guard against slow
    # conversions of untrusted numbers): the command line and the app take as many as reading does.
    if 0 < getattr(sys, "get_int_max_str_digits", lambda: 0)() < INT_DIGITS:  # (3.11 and later)
        sys.set_int_max_str_digits(INT_DIGITS)  # (0, no limit at all, is left as it is)
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        if args_list and args_list[0] in COMMANDS:
            return COMMANDS[args_list[0]](args_list[1:])
        args = _view_parser().parse_args(args_list)
        keys_from_terminal(args.files)  # (`cat run.json | msgviewer -`: keys from the terminal)
        from ..tui import run  # the app is imported only when it is wanted

        return run(args.files, follow=args.follow, format=args.format)
    except MsgviewerError as exc:
        return fail(str(exc))
    except BrokenPipeError:
        # `msgviewer print big.json | head`: the reader went away; that is not an error
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
