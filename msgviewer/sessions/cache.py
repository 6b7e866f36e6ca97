"""A small cache of summaries under the user's cache folder, keyed by path, size and time.

Never needed for correctness: a missing, corrupt or unwritable cache is the same as an empty
one, and an entry whose files changed size or time is read again.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import orjson

from .summary import Summary

VERSION = 2
MISS = object()
"""What ``get`` returns for a file the cache does not know (or knew at another size or time)."""


def cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_CACHE_HOME/msgviewer`` (default ``~/.cache/msgviewer``)."""
    env = os.environ if env is None else env
    base = env.get("XDG_CACHE_HOME") or os.path.join(
        env.get("HOME") or os.path.expanduser("~"), ".cache"
    )
    return Path(base) / "msgviewer"


class SummaryCache:
    """Summaries read from and written to ``sessions.json`` in the cache folder."""

    def __init__(self, folder: Path | None) -> None:
        self.file = folder / "sessions.json" if folder is not None else None
        self.entries: dict[str, Any] = {}
        self.changed = False
        if self.file is not None:
            try:
                value = orjson.loads(self.file.read_bytes())
                if isinstance(value, dict) and value.get("version") == VERSION:
                    entries = value.get("entries")
                    self.entries = entries if isinstance(entries, dict) else {}
            except (OSError, orjson.JSONDecodeError):
                self.entries = {}

    def get(self, path: str, stamp: list[int]) -> Summary | object | None:
        """The cached summary (None for a file known not to be a conversation), else ``MISS``."""
        entry = self.entries.get(path)
        if not isinstance(entry, dict) or entry.get("stamp") != stamp:
            return MISS
        try:
            value = entry["summary"]
            return None if value is None else Summary.from_json(value)
        except (KeyError, TypeError):
            return MISS  # an entry of another shape: read the file again

    def put(self, path: str, stamp: list[int], summary: Summary | None) -> None:
        value = None if summary is None else summary.to_json()
        self.entries[path] = {"stamp": stamp, "summary": value}
        self.changed = True

    def save(self, keep: set[str] | None = None) -> None:
        """Write the cache (atomically); failures are ignored: the cache is only a speed-up."""
        if self.file is None or not self.changed:
            return
        entries = self.entries
        if keep is not None and len(entries) > 4 * max(len(keep), 1000):
            entries = {k: v for k, v in entries.items() if k in keep}  # forget long-gone files
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            data = orjson.dumps({"version": VERSION, "entries": entries})
            fd, tmp = tempfile.mkstemp(dir=self.file.parent, prefix=".sessions.")
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                os.replace(tmp, self.file)
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError:
            pass
