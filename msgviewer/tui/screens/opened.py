"""``OpenedScreen``: a session opened from the session browser, optionally at one message.

It is the main screen on one file; ``escape``, when there is no search to clear, goes back to
the browser (which kept its place), unless there are unsaved edits.
"""

from __future__ import annotations

from typing import Any

from ..model.rows import MSG
from ..model.session import Session
from .main import MainScreen


class OpenedScreen(MainScreen):
    """The main screen on one session, with a way back to the list."""

    def __init__(
        self,
        path: str,
        *,
        at: tuple[int, int] | None = None,
        prices: dict[str, Any] | None = None,
    ) -> None:
        super().__init__([path], prices=prices)
        self.at = at

    def _loaded(self, session: Session) -> None:
        super()._loaded(session)
        if self.at is not None:
            conv, message = self.at
            if conv < len(session.convs) and message < len(session.convs[conv].messages):
                self.tree.go_to(MSG, conv, message)

    def action_clear(self) -> None:
        if self.query_text or self.query_one("#search").has_class("-shown"):
            super().action_clear()
        elif self.has_unsaved():
            self.notify("Save or undo your edits before going back to the list", severity="warning")
        else:
            self.dismiss()
