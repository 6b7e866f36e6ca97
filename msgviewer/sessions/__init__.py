"""Sessions on this machine: finding them (folders given, or each tool's standard place),
summarising each for a list (cached), and searching across them.

Above the formats (it reads files by content with the registry), below the app and the
command line, which both show what it finds.
"""

from __future__ import annotations

from .cache import SummaryCache, cache_dir
from .grep import Hit, Matcher, file_hits, grep
from .listing import iter_summaries, list_sessions, newest_first, roots_of
from .places import SessionFile, session_files, standard_places
from .summarise import detect_format, summarise
from .summary import Summary

__all__ = [
    "Hit",
    "Matcher",
    "SessionFile",
    "Summary",
    "SummaryCache",
    "cache_dir",
    "detect_format",
    "file_hits",
    "grep",
    "iter_summaries",
    "list_sessions",
    "newest_first",
    "roots_of",
    "session_files",
    "standard_places",
    "summarise",
]
