"""``collections_paused()``: automatic garbage collections paused while objects that form no
cycles are made by the thousand (links, lint problems, diff changes, wire values, analyses).

A collection on the way would only walk them, and walk them again at each generation: at
100,000 messages that was half the time of making them. Collections resume after, if they
were on (the flag is the process's: a pause in one thread pauses every thread).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collections_paused"]


@contextmanager
def collections_paused() -> Iterator[None]:
    """Collections paused for the ``with`` block, and resumed after if they were on."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
