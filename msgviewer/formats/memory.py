"""Whether a file can be read whole in the memory this machine has free, asked before reading.

Reading a history takes memory a few times its size at the peak (the bytes, the parsed values
and the messages built from them; ``bench/load.py`` measures 2.6-3.6x). A file that needs more
than the machine has free would be read until the system kills the process, with nothing said:
``check_fits`` says so first, in one line, with the figures.
"""

from __future__ import annotations

import ctypes
import functools
import os
from collections.abc import Callable

from ..core.errors import FormatError

PEAK_FACTOR = 3.0
"""Peak memory of a load over the file's size (measured, rounded up: see bench/load.py)."""
CHECK_FROM = 1 << 26
"""Files smaller than this (64 MiB) are read without a look."""
SKIP_ENV = "MSGVIEWER_NO_MEMORY_CHECK"
"""Set (to anything but empty) to read a file whatever memory it looks to need."""


class TooLargeError(FormatError):
    """A file needs more memory to read whole than the machine has free."""


def available_memory() -> int | None:
    """Bytes of memory the system could give now (``MemAvailable``), or None if unknown."""
    try:
        with open("/proc/meminfo", "rb") as fh:
            for line in fh:
                if line.startswith(b"MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:  # (elsewhere: free pages, a lower bound of what could be had)
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def _gb(n: float) -> str:
    return f"{n / 1e9:.1f} GB"


ONE_BY_ONE_FACTOR = 1.25
"""Memory over the file's size that ``iter_load`` needs for a file it reads one conversation at
a time: the file's bytes, and the conversation asked for."""


def check_fits(
    name: str, size: int, available: int | None = None, factor: float = PEAK_FACTOR
) -> None:
    """Raise ``TooLargeError`` if reading ``size`` bytes would need more memory than is free
    (``available``: measured now if not given); ``factor`` times the size is the need."""
    if os.environ.get(SKIP_ENV) or size < CHECK_FROM:
        return
    free = available_memory() if available is None else available
    need = int(size * factor)
    if free is None or need <= free:
        return
    raise TooLargeError(
        f"too large to read whole here: {_gb(size)} needs about {_gb(need)} of memory at the "
        f"peak and {_gb(free)} is free; close other programs, or set {SKIP_ENV}=1 to try anyway",
        file=name,
    )


GIVE_BACK_FROM = 1 << 24
"""Files smaller than this (16 MiB) leave too little freed behind to be worth a look."""


def give_back_freed() -> None:
    """Return the free pages inside the C heap to the system (glibc's ``malloc_trim``).

    A load frees what it parsed once the messages are built: the parsed values' tables and
    long strings, scattered among what the messages keep. glibc keeps that memory for the
    process's own later use unless asked to hand back the whole free pages among it: asked
    once a large file is read, a 100,000-message ShareGPT file keeps 1.95x its size instead
    of 2.34x (the other formats 0.01-0.04x less), for some 15 ms. Where the C library has no
    such call, nothing is done."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL(None).malloc_trim  # type: ignore[no-any-return]
    except (OSError, AttributeError, TypeError):  # (not glibc: macOS, musl, Windows)
        return None
