"""The sessions under some folders (or the standard places), newest activity first."""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from .cache import MISS, SummaryCache, cache_dir
from .costs import warm_up
from .places import SessionFile, session_files, standard_places
from .summarise import summarise
from .summary import Summary


class CancelFlag(Protocol):
    def is_set(self) -> bool: ...


def roots_of(dirs: Sequence[str | Path]) -> list[Path]:
    """The folders given, or the standard places that exist when none are."""
    return [Path(d) for d in dirs] if dirs else standard_places()


def iter_summaries(
    roots: Sequence[Path],
    *,
    cache: SummaryCache | None = None,
    cancel: CancelFlag | None = None,
    found: Callable[[int], None] | None = None,
    workers: int = 1,
) -> Iterator[Summary]:
    """The summary of every session under ``roots``, in the order the files are found.

    ``cache`` (None: ``SummaryCache`` in the user's cache folder) answers for files unchanged
    since it saw them, and learns the rest; it is saved when the walk ends. ``found`` is told
    how many files there are before the first is read. ``workers`` > 1: the files the cache
    does not know are read by that many processes, where the caller runs no other thread (a
    process forked beside threads can inherit a lock held) and they hold enough to be worth
    it.
    """
    cache = SummaryCache(cache_dir()) if cache is None else cache
    files = list(session_files(list(roots)))
    if found is not None:
        found(len(files))
    known: dict[int, Summary | None] = {}
    stamps: dict[int, list[int]] = {}
    for i, file in enumerate(files):
        try:
            stamps[i] = stamp = file.stamp()
        except OSError:
            known[i] = None  # gone since the walk: no session
            continue
        hit = cache.get(str(file.path), stamp)
        if hit is not MISS:
            known[i] = hit  # type: ignore[assignment]
    misses = [files[i] for i in range(len(files)) if i not in known]
    pool = _pool(workers, misses)
    if misses and pool is None:
        warm_up()  # (after any fork: a process forked beside a thread can inherit a held lock)
    read = iter(pool.imap(summarise, misses, chunksize=2) if pool else map(summarise, misses))
    seen: set[str] = set()
    try:
        for i, file in enumerate(files):
            if cancel is not None and cancel.is_set():
                return
            if i in known:
                summary = known[i]
            else:
                summary = next(read)
                cache.put(str(file.path), stamps[i], summary)
            seen.add(str(file.path))
            if summary is not None:
                yield summary
    finally:
        if pool is not None:
            pool.terminate()
        cache.save(keep=seen)


_WORTH_A_PROCESS = 16 << 20
"""Bytes a second process must have to read before it pays for itself (forking and sending
the summaries back cost a few milliseconds)."""


def _pool(workers: int, files: list[SessionFile]) -> Any:
    workers = min(workers, os.cpu_count() or 1)
    if workers < 2 or threading.active_count() > 1 or sys.platform != "linux":
        return None
    size = sum(f.size for f in files)
    workers = min(workers, size // _WORTH_A_PROCESS)
    if workers < 2:
        return None
    return multiprocessing.get_context("fork").Pool(workers, initializer=warm_up)


def newest_first(summaries: list[Summary]) -> list[Summary]:
    """Sorted by last activity, newest first (the file's time where the file says none)."""
    return sorted(summaries, key=sort_key, reverse=True)


def sort_key(s: Summary) -> float:
    for value in (s.updated, s.started):
        if value:
            try:
                stamp = datetime.fromisoformat(value.replace("Z", "+00:00"))
                return stamp.timestamp()
            except ValueError:
                continue
    return s.mtime


def list_sessions(
    dirs: Sequence[str | Path] = (), *, cache: SummaryCache | None = None, workers: int = 1
) -> list[Summary]:
    """Every session under ``dirs`` (the standard places when none), newest first; ``workers``
    as in ``iter_summaries``."""
    summaries = iter_summaries(roots_of(dirs), cache=cache, workers=workers)
    return newest_first(list(summaries))
