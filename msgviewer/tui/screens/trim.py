"""``TrimScreen``: trim the conversation to a token budget, with a live preview.

The dialog sits at the side so the tree stays in view: every change of the options runs the
core ``trim`` in a worker and the tree marks the messages that would go; the dialog shows the
tokens before and after. It returns the ``trim`` keyword arguments (apply) or None (cancel).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Input, Label, RadioButton, RadioSet, Static

from ...core.errors import MsgviewerError
from ...core.message import Message
from ...core.tokens import count_tokens_approximately
from ...core.trim import trim
from .once import ApplyOrCancel

Preview = Callable[[frozenset[int] | None], None]
"""Told the indexes of the messages that would go (None: no preview)."""


def default_budget(tokens: int) -> int:
    """Half the conversation, rounded to a readable number."""
    half = max(1, tokens // 2)
    step = 1000 if half >= 10_000 else 100 if half >= 1000 else 10
    return max(step, half // step * step)


class TrimScreen(ApplyOrCancel[dict[str, Any] | None]):
    """Budget, strategy and options; the tree behind marks what would go."""

    BINDINGS = [Binding("ctrl+s", "apply", "Apply", priority=True)]
    """Apply the trim (one undoable edit) or cancel it."""

    DEFAULT_CSS = """
    TrimScreen {
        align: right top;
        & > Vertical {
            width: 50; height: 100%; padding: 0 1;
            border: round $primary; background: $surface;
            border-title-style: bold;
        }
        Label { text-style: bold; margin-top: 1; }
        RadioSet, Checkbox { width: 100%; border: none; padding: 0; background: $surface; }
        RadioSet:focus, Checkbox:focus { background: $boost; }
        #summary { margin-top: 1; height: auto; }
        Horizontal { height: auto; margin-top: 1; }
        Button { margin-right: 1; min-width: 10; }
    }
    """

    def __init__(self, messages: Sequence[Message], preview: Preview) -> None:
        super().__init__()
        self.messages = tuple(messages)
        self.preview = preview
        self.tokens = count_tokens_approximately(self.messages)
        self.options: dict[str, Any] | None = None
        self.error = ""

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Trim"
            box.border_subtitle = "ctrl+s applies · escape cancels"
            yield Label("Token budget")
            budget = Input(str(default_budget(self.tokens)), type="integer", id="budget")
            if self.app.is_headless:
                budget.cursor_blink = False  # still pictures in tests
            yield budget
            yield Label("Keep")
            with RadioSet(id="strategy"):
                yield RadioButton("the last messages (newest)", value=True, id="last")
                yield RadioButton("the first messages (oldest)", id="first")
            yield Checkbox("keep the system message", value=True, id="system")
            yield Checkbox("start on a user message", value=True, id="start-user")
            yield Checkbox("keep tool calls with their results", value=True, id="pairs")
            yield Static("", id="summary")
            with Horizontal():
                yield Button("Apply", id="apply", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        # See-through (inline: the app's stylesheet gives every screen a background), so the
        # tree behind shows the preview.
        self.styles.background = "transparent"
        self.query_one("#budget", Input).focus()
        self._changed()

    # -- options ------------------------------------------------------------------------------

    def _read(self) -> dict[str, Any] | None:
        value = self.query_one("#budget", Input).value.strip()
        try:
            budget = int(value)
        except ValueError:
            self.error = "the budget must be a whole number of tokens"
            return None
        if budget < 0:
            self.error = "the budget cannot be negative"
            return None
        last = self.query_one("#last", RadioButton).value
        options: dict[str, Any] = {
            "max_tokens": budget,
            "strategy": "last" if last else "first",
            "keep_tool_pairs": self.query_one("#pairs", Checkbox).value,
        }
        if last:  # the core takes these with "last" only (LangChain's rules)
            options["include_system"] = self.query_one("#system", Checkbox).value
            if self.query_one("#start-user", Checkbox).value:
                options["start_on"] = "user"
        self.error = ""
        return options

    @on(Input.Changed)
    @on(RadioSet.Changed)
    @on(Checkbox.Changed)
    def _changed(self) -> None:
        last = self.query_one("#last", RadioButton).value
        self.query_one("#system", Checkbox).disabled = not last
        self.query_one("#start-user", Checkbox).disabled = not last
        self.options = self._read()
        if self.options is None:
            self._show(None)
            return
        self._preview_worker(self.options)

    @work(thread=True, exclusive=True, group="trim-preview")
    def _preview_worker(self, options: dict[str, Any]) -> None:
        messages = self.messages
        try:
            kept = trim(list(messages), **options)
        except MsgviewerError as exc:
            self.app.call_from_thread(self._failed, options, str(exc))
            return
        ids = {id(m) for m in kept}
        dropped = frozenset(i for i, m in enumerate(messages) if id(m) not in ids)
        after = count_tokens_approximately(kept)
        self.app.call_from_thread(self._previewed, options, dropped, after, len(kept))

    def _failed(self, options: dict[str, Any], error: str) -> None:
        if options is self.options:
            self.error = error
            self._show(None)

    def _previewed(
        self, options: dict[str, Any], dropped: frozenset[int], after: int, kept: int
    ) -> None:
        if options is not self.options:
            return  # the options changed meanwhile: a newer preview is coming
        self.preview(dropped)
        total = len(self.messages)
        text = Text()
        text.append("tokens   ", style="bold")
        text.append(f"{self.tokens:,} → {after:,}")
        text.append(f"  (budget {options['max_tokens']:,})\n", style="dim")
        text.append("messages ", style="bold")
        text.append(f"{total:,} → {kept:,}")
        if dropped:
            text.append(f"\n{len(dropped):,} would go: struck out in the tree", style="red")
        else:
            text.append("\nnothing would go", style="dim")
        self._show(text)

    def _show(self, text: Text | None) -> None:
        if text is None:
            self.preview(None)
            text = Text("✗ " + self.error, style="red") if self.error else Text("")
        self.query_one("#summary", Static).update(text)

    # -- answers ------------------------------------------------------------------------------

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_apply()

    def action_apply(self) -> None:
        options = self._read()
        if options is None:
            self._show(None)
            return
        self.dismiss(options)
