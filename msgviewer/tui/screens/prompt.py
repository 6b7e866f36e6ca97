"""``PromptScreen``: a one-line question (go to message, save as); returns the answer or None."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from ..widgets.safe_markup import VisibleHighlighter
from .once import DismissOnce


class PromptScreen(DismissOnce, ModalScreen[str | None]):
    """Ask for one line of text; enter answers, escape cancels."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    """Escape closes the prompt without an answer."""

    DEFAULT_CSS = """
    PromptScreen {
        align: center middle;
        & > Vertical {
            width: 72; max-width: 95%; height: auto; padding: 1 2;
            border: round $primary; background: $surface;
        }
        /* the whole question, wrapped: a call id and where its result is can be long */
        Label { width: 100%; margin-bottom: 1; text-style: bold; }
    }
    """

    def __init__(
        self, title: str, *, value: str = "", placeholder: str = "", numeric: bool = False
    ) -> None:
        super().__init__()
        self.title_text = title
        self.value = value
        self.placeholder = placeholder
        self.numeric = numeric

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text, markup=False)
            yield Input(
                value=self.value,
                placeholder=self.placeholder,
                type="integer" if self.numeric else "text",
                highlighter=VisibleHighlighter(),  # the value may come from a file
            )

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
