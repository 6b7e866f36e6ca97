"""``DismissOnce``: a screen that closes once, however many keys asked it to.

Textual's ``Screen.dismiss`` calls back with the result and pops *the top screen*, whoever
that is. Keys typed fast (enter enter, escape escape) are all queued before the first one
closes the dialog, so the second would call back again (apply a trim twice, answer a
question twice) and pop the screen under the dialog, or fail with ``ScreenStackError`` when
that was the last. With this mixin only the first dismiss of a screen that is on top counts.
"""

from __future__ import annotations

from typing import Any

from textual.await_complete import AwaitComplete


class DismissOnce:
    """Mixin (before ``ModalScreen``/``Screen``): later dismisses, or one while another screen
    is on top, do nothing."""

    _dismissed = False

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if self._dismissed or self.app.screen is not self:  # type: ignore[attr-defined]
            return AwaitComplete()
        self._dismissed = True
        return super().dismiss(result)  # type: ignore[misc]
