"""The app's data from standard input, its keys from the terminal, as ``less`` does.

``cat run.json | msgviewer -``: the app reads keys from file descriptor 0 (Textual's driver
reads ``sys.__stdin__``), which is the pipe. Before the app starts, the pipe moves to a
descriptor of its own, kept as ``sys.stdin`` (where ``-`` is read from), and descriptor 0
becomes the controlling terminal, ``/dev/tty``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from ..core.errors import FormatError


def keys_from_terminal(files: Sequence[str]) -> None:
    """Make the app's keys come from the terminal when its data comes from standard input
    (``-`` among ``files``); a ``FormatError`` when there is no terminal to read them from."""
    if "-" not in files or os.name != "posix":
        return
    try:
        piped = not os.isatty(0)
        data = os.dup(0)
    except OSError:
        raise FormatError("standard input is closed: there is nothing to read", file="-") from None
    if not piped:
        os.close(data)
        raise FormatError(
            "standard input is the terminal: give a file, or pipe the data in "
            "(cat run.json | msgviewer -)",
            file="-",
        )
    try:
        tty = os.open("/dev/tty", os.O_RDWR)
    except OSError:
        os.close(data)
        raise FormatError(
            "there is no terminal to read the app's keys from (the commands read standard "
            "input without one: msgviewer print -, msgviewer stats -)",
            file="-",
        ) from None
    os.dup2(tty, 0)
    os.close(tty)
    sys.stdin = os.fdopen(data, "r", encoding="utf-8", errors="surrogateescape")
