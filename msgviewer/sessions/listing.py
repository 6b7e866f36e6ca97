"""The sessions under some folders (or the standard places), newest activity first."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Protocol

from .cache import MISS, SummaryCache, cache_dir
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
) -> Iterator[Summary]:
    """The summary of every session under ``roots``, in the order the files are found.

    ``cache`` (None: ``SummaryCache`` in the user's cache folder) answers for files unchanged
    since it saw them, and learns the rest; it is saved when the walk ends. ``found`` is told
    how many files there are before the first is read.
    """
    cache = SummaryCache(cache_dir()) if cache is None else cache
    files = list(session_files(list(roots)))
    if found is not None:
        found(len(files))
    seen: set[str] = set()
    try:
        for file in files:
            if cancel is not None and cancel.is_set():
                return
            summary = _summary(file, cache)
            seen.add(str(file.path))
            if summary is not None:
                yield summary
    finally:
        cache.save(keep=seen)


def _summary(file: SessionFile, cache: SummaryCache) -> Summary | None:
    key = str(file.path)
    try:
        stamp = file.stamp()
    except OSError:
        return None
    hit = cache.get(key, stamp)
    if hit is not MISS:
        return hit  # type: ignore[return-value]
    summary = summarise(file)
    cache.put(key, stamp, summary)
    return summary


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
    dirs: Sequence[str | Path] = (), *, cache: SummaryCache | None = None
) -> list[Summary]:
    """Every session under ``dirs`` (the standard places when none), newest first."""
    return newest_first(list(iter_summaries(roots_of(dirs), cache=cache)))
