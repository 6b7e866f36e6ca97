"""The ``msgviewer`` command: ``msgviewer [FILE...]`` opens the app."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def _view_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="msgviewer",
        description="Look inside LLM conversations. With no file, opens a bundled sample.",
    )
    parser.add_argument("files", nargs="*", help="conversation files (any supported format)")
    parser.add_argument("--follow", "-f", action="store_true", help="tail a growing JSONL file")
    parser.add_argument("--format", help="read as this format instead of detecting it")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _view_parser().parse_args(argv)
    from .tui import run  # the app is imported only when it is wanted

    return run(args.files, follow=args.follow, format=args.format)


if __name__ == "__main__":
    sys.exit(main())
