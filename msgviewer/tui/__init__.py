"""The Textual app. ``run(files, follow=..., format=...)`` opens it and returns an exit code;
``run_diff(a, b, names, options)`` opens it on the diff of two conversations.

Importing this package stays light: textual is imported when the app is, not before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import MsgViewerApp

__all__ = ["MsgViewerApp", "run", "run_diff"]


def run(
    files: Sequence[str],
    *,
    follow: bool = False,
    format: str | None = None,
    browse: Sequence[str] | None = None,
    prices: str | None = None,
    images: bool = True,
) -> int:
    """Open ``files`` (the bundled sample if none) in the app, or with ``browse`` the session
    browser on those folders; the exit code when it closes.

    ``images``: draw image blocks in the detail pane. ``prices``: a TOML file of price
    overrides (else ``MSGVIEWER_PRICES``'s), read before the app opens so a bad one is a
    one-line error.

    0 normally; 1 when the file could not be read (the app showed why).
    """
    from ..formats.prices import prices_from
    from ..formats.safe_write import clean_up_on_signals
    from .app import MsgViewerApp

    overrides = prices_from(prices)
    # Saves run in a worker thread, which cannot set signal handlers: SIGTERM or SIGHUP during
    # one removes its temporary file before the process ends.
    clean_up_on_signals()
    app = MsgViewerApp(
        list(files), follow=follow, format=format, browse=browse, prices=overrides, images=images
    )
    app.run()
    if app.return_code not in (None, 0):
        return app.return_code
    try:
        error = app.main_screen.error
    except StopIteration:
        error = None
    return 1 if error else 0


def run_diff(a: Any, b: Any, names: tuple[str, str], options: dict[str, bool]) -> int:
    """Open the app on the diff of conversations ``a`` and ``b`` (both also open in the
    normal view); the exit code when it closes."""
    from ..formats.safe_write import clean_up_on_signals
    from .app import MsgViewerApp

    clean_up_on_signals()
    app = MsgViewerApp(conversations=[a, b], compare=(names, options))
    app.run()
    return app.return_code or 0


def __getattr__(name: str) -> Any:
    if name == "MsgViewerApp":
        from .app import MsgViewerApp

        return MsgViewerApp
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
