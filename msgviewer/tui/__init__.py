"""The Textual app. ``run(files, follow=..., format=...)`` opens it and returns an exit code.

Importing this package stays light: textual is imported when the app is, not before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import MsgViewerApp

__all__ = ["MsgViewerApp", "run"]


def run(files: Sequence[str], *, follow: bool = False, format: str | None = None) -> int:
    """Open ``files`` (the bundled sample if none) in the app; the exit code when it closes.

    0 normally; 1 when the file could not be read (the app showed why).
    """
    from ..formats.safe_write import clean_up_on_signals
    from .app import MsgViewerApp

    # Saves run in a worker thread, which cannot set signal handlers: SIGTERM or SIGHUP during
    # one removes its temporary file before the process ends.
    clean_up_on_signals()
    app = MsgViewerApp(list(files), follow=follow, format=format)
    app.run()
    if app.return_code not in (None, 0):
        return app.return_code
    try:
        error = app.main_screen.error
    except StopIteration:
        error = None
    return 1 if error else 0


def __getattr__(name: str) -> Any:
    if name == "MsgViewerApp":
        from .app import MsgViewerApp

        return MsgViewerApp
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
