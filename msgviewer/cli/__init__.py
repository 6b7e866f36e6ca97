"""The ``msgviewer`` command.

``msgviewer [FILE...]`` opens the app (``msgviewer DIR``, or no file when a standard place
holds sessions: the session browser); ``msgviewer SUBCOMMAND ...`` runs one of the commands
for scripts and CI (``stats``, ``convert``, ``trim``, ``lint``, ``print``, ``diff``,
``formats``, ``sessions``, ``grep``).

Exit codes: 0 success; 1 problems found (``lint``), data would be lost (``--strict``) or the
two files differ (``diff``); 2 bad usage, unreadable input or output that cannot be written (a
full disk, a read-only directory, a closed standard output), reported as one line on stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..core.errors import MsgviewerError
from ..formats.io import INT_DIGITS
from .commands import COMMANDS
from .common import ClosedOutput, add_prices, fail, stdout_error
from .terminal import keys_from_terminal


def _view_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="msgviewer",
        description=(
            "Look inside LLM conversations. With a folder, or no file when ~/.claude, ~/.codex,"
            " ~/.gemini or ./logs hold sessions, opens the session browser; else a bundled sample. "
            f"Commands: {', '.join(COMMANDS)} (msgviewer COMMAND --help)."
        ),
        epilog="example: msgviewer ~/.claude/projects/myproj/session.jsonl --follow",
    )
    parser.add_argument("files", nargs="*", help="conversation files (any supported format)")
    parser.add_argument("--follow", "-f", action="store_true", help="tail a growing JSONL file")
    parser.add_argument("--format", help="read as this format instead of detecting it")
    parser.add_argument(
        "--no-images",
        dest="images",
        action="store_false",
        help="show image blocks as facts only, not drawn in the detail pane",
    )
    add_prices(parser)
    return parser


def _browse(files: list[str]) -> list[str] | None:
    """Folders to browse: the folders given, or none (the standard places) when no file is
    given and some standard place holds a session; None to open files (or the bundled sample:
    an empty ``~/.claude/projects`` would show an empty list)."""
    import os

    if files:
        return files if all(os.path.isdir(f) for f in files) else None
    from ..sessions import session_files, standard_places

    places = standard_places()
    return [] if places and next(session_files(places), None) is not None else None


def main(argv: Sequence[str] | None = None) -> int:
    # Files hold integers of any length, which msgviewer reads, shows and writes as they are;
    # Python converts at most 4,300 digits to or from text unless told (a guard against slow
    # conversions of untrusted numbers): the command line and the app take as many as reading does.
    if 0 < getattr(sys, "get_int_max_str_digits", lambda: 0)() < INT_DIGITS:  # (3.11 and later)
        sys.set_int_max_str_digits(INT_DIGITS)  # (0, no limit at all, is left as it is)
    args_list = list(sys.argv[1:] if argv is None else argv)
    if sys.stdout is None:  # started with standard output closed: writing to it is an error
        sys.stdout = ClosedOutput()  # type: ignore[assignment]
    try:
        if args_list and args_list[0] in COMMANDS:
            code = COMMANDS[args_list[0]](args_list[1:])
            _flush_stdout()  # here, not at exit: a failure is then reported like any other
            return code
        args = _view_parser().parse_args(args_list)
        keys_from_terminal(args.files)  # (`cat run.json | msgviewer -`: keys from the terminal)
        from ..tui import run  # the app is imported only when it is wanted

        browse = _browse(args.files)
        if browse is not None:
            return run([], browse=browse, prices=args.prices, images=args.images)
        return run(
            args.files,
            follow=args.follow,
            format=args.format,
            prices=args.prices,
            images=args.images,
        )
    except MsgviewerError as exc:
        return fail(str(exc))
    except BrokenPipeError:
        # `msgviewer print big.json | head`: the reader went away; that is not an error
        sys.stderr.close()
        return 0
    except OSError as exc:  # any other failure to read or write: one line, never a traceback
        if not exc.filename:  # a print() that failed: files are named, standard output is not
            return fail(str(stdout_error(exc)))
        return fail(f"{exc.filename}: {(exc.strerror or str(exc)).lower()}")
    except KeyboardInterrupt:
        return 130


def _flush_stdout() -> None:
    """What ``print`` left in standard output's buffer, written now (to a full disk...)."""
    if sys.stdout is None:
        return
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise stdout_error(exc) from None


if __name__ == "__main__":
    sys.exit(main())
