"""``DismissOnce``: a screen that closes once, however many keys asked it to.

Textual's ``Screen.dismiss`` calls back with the result and pops *the top screen*, whoever
that is. Keys typed fast (enter enter, escape escape) are all queued before the first one
closes the dialog, so the second would call back again (apply a trim twice, answer a
question twice) and pop the screen under the dialog, or fail with ``ScreenStackError`` when
that was the last. With this mixin only the first dismiss of a screen that is on top counts.

``ApplyOrCancel`` is the dialog built on it that answers by a button or a key: Cancel or escape
answers None, the other button (or the screen's own key for ``apply``) ``action_apply``.
"""

from __future__ import annotations

from typing import Any, TypeVar

from textual import on
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Button

Answer = TypeVar("Answer")


class DismissOnce:
    """Mixin (before ``ModalScreen``/``Screen``): later dismisses, or one while another screen
    is on top, do nothing."""

    _dismissed = False

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if self._dismissed or self.app.screen is not self:  # type: ignore[attr-defined]
            return AwaitComplete()
        self._dismissed = True
        return super().dismiss(result)  # type: ignore[misc]


class ApplyOrCancel(DismissOnce, ModalScreen[Answer]):
    """A dialog with a Cancel button (id ``cancel``) and one that applies; subclasses define
    ``action_apply`` (and may bind a key to ``apply``)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "cancel":
            self.action_cancel()
        else:
            self.action_apply()

    def action_apply(self) -> None:
        raise NotImplementedError

    def action_cancel(self) -> None:
        self.dismiss(None)
