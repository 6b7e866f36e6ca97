"""What every subcommand shares: exit codes, one-line errors, argument parsers with examples,
reading the input (a file or ``-``), writing the output, and reporting lossy conversions."""

from __future__ import annotations

import argparse
import errno
import os
import sys
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import NoReturn

from ..core.errors import FormatError, MsgviewerError, WriteError
from ..core.message import normalize_role
from ..core.safetext import visible
from ..document.media import extract_media
from ..formats import (
    Conversation,
    FormatWarning,
    LossyConversionWarning,
    detect,
    dumps,
    get_format,
    load,
)
from ..formats.io import read_bytes
from ..formats.safe_write import write_file

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


def fail(message: str) -> int:
    """Report a fatal error as one line on stderr; the exit code for bad input."""
    print(f"msgviewer: error: {visible(message)}", file=sys.stderr)
    return EXIT_USAGE


class Parser(argparse.ArgumentParser):
    """argparse that keeps its one-line error and exit code 2, with our prefix."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        print(f"msgviewer {self.prog.split()[-1]}: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def new_parser(name: str, description: str, example: str) -> argparse.ArgumentParser:
    return Parser(
        prog=f"msgviewer {name}",
        description=description,
        epilog=f"example:\n  {example}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def role_arg(value: str) -> str:
    """An argparse ``type`` for a role (``human`` is ``user``...): argparse's one-line error if
    it is not one."""
    try:
        return normalize_role(value)
    except MsgviewerError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_input(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="conversation file; - reads standard input")
    parser.add_argument(
        "--format", "--from", dest="format", help="read as this format instead of detecting it"
    )


def add_prices(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--prices",
        metavar="FILE",
        help='TOML file of [models."NAME"] rates (input, output, cache_read, cache_write per '
        "million tokens) overriding or adding prices; default: $MSGVIEWER_PRICES",
    )


def add_color(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--color", choices=("auto", "always", "never"), default="auto", help="colour output"
    )


def wants_colour(args: argparse.Namespace) -> bool:
    """``--color``: always, never, or (auto) when stdout is a terminal."""
    return args.color == "always" or (args.color == "auto" and sys.stdout.isatty())


def add_output(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", help="write here (atomically) instead of stdout")


def add_extract_media(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--extract-media",
        metavar="DIR",
        help="write inline media to DIR and refer to them by path (an HTML page shows them)",
    )


def encoded(
    conversations: Sequence[Conversation],
    fmt: str,
    *,
    media_dir: str | None = None,
    output: str | None = None,
) -> bytes:
    """``conversations`` written in ``fmt``; with ``media_dir``, each inline medium is first
    written there as a file and referred to relative to where ``output`` goes (an HTML page
    then draws those files, and only those)."""
    if not media_dir:
        return dumps(conversations, format=fmt)
    base = os.path.dirname(os.path.abspath(output)) if output and output != "-" else None
    extracted = extract_media(conversations, media_dir, relative_to=base)
    if fmt == "html":
        from ..formats.html import page  # (Markdown's parser loads only for a page)

        return page(extracted.conversations, local_media=extracted.references)
    return dumps(extracted.conversations, format=fmt)


@contextmanager
def reported_warnings(strict: bool = False) -> Iterator[list[str]]:
    """Print warnings to stderr as they come; collect for ``--strict`` the ones that mean
    something is lost: lossy conversions, and input that was not understood (a line of a
    session that cannot be read...), both then reported as errors."""
    lossy: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield lossy
    for w in caught:
        if issubclass(w.category, (LossyConversionWarning, FormatWarning)):
            lossy.append(str(w.message))
            kind = "error" if strict else "warning"
        else:
            continue
        print(f"msgviewer: {kind}: {visible(str(w.message))}", file=sys.stderr)


def read_input(args: argparse.Namespace) -> list[Conversation]:
    if args.file == "-" and sys.stdin is None:  # started with its standard input closed (`<&-`)
        raise FormatError("standard input is closed", file="<stdin>")
    return load(args.file, format=args.format)


def detected_format(file: str) -> str | None:
    """The format of a file that held no conversation (the conversations name it otherwise);
    None for standard input, a pipe or a device, which cannot be read twice."""
    return None if file == "-" or not os.path.isfile(file) else detect(read_bytes(file)[0])


def write_output(data: bytes, output: str | None) -> None:
    """``data`` to the file ``output`` (see ``safe_write``), or to standard output."""
    if output and output != "-":
        write_file(output, data)
        return
    out = sys.stdout
    if out.isatty():  # what a file says must not reach the terminal as escapes
        data = visible(data.decode("utf-8", errors="replace")).encode("utf-8")
    try:
        out.buffer.write(data)
        out.buffer.flush()
    except BrokenPipeError:
        raise  # the reader went away (`| head`): not an error
    except OSError as exc:
        raise stdout_error(exc) from None


class ClosedOutput:
    """Standard output of a process started without one (``>&-``), where Python leaves
    ``sys.stdout`` None: every write fails as on a closed descriptor, and is reported."""

    def isatty(self) -> bool:
        return False

    def write(self, data: object) -> int:
        raise OSError(errno.EBADF, "it is closed")

    def fileno(self) -> int:
        raise OSError(errno.EBADF, "it is closed")

    def flush(self) -> None:
        pass

    @property
    def buffer(self) -> ClosedOutput:
        return self


def stdout_error(exc: OSError) -> WriteError:
    """A failed write to standard output (a full disk, a closed descriptor), said in one line;
    standard output is pointed at /dev/null so that Python's last flush at exit, of what
    could not be written, cannot fail again with a traceback."""
    with suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    what = (exc.strerror or str(exc)).lower()
    return WriteError(f"cannot write to standard output: {what}")


def output_format(conversations: list[Conversation], requested: str | None) -> str:
    """The format to write: the one asked for, else the input's own if writable."""
    if requested:
        return requested
    name = conversations[0].format if conversations else "msgviewer"
    return name if get_format(name).can_write else "msgviewer"


def conversation_label(file: str, conv_index: int, count: int) -> str:
    """How problems name a conversation: the file, plus ``#N`` when it holds several."""
    return file if count == 1 else f"{file}#{conv_index + 1}"
