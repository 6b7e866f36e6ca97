"""``RedactScreen``: find secrets, emails and the user's own text in the conversation, list
every hit before anything changes, then replace them all as one undoable edit.

The hits come from the same detector and walk as ``msgviewer redact`` (``document.secrets``,
``core.redact``), computed in a worker on every change of the options. Each hit is listed by
message, place, kind and placeholder, with the first characters of what it found (the list is
on the user's own screen; the file is not touched until Redact). The title and the request
fields are redacted with the messages, as ``msgviewer redact`` does.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...core.redact import Finding
from ...document.redaction import redact_conversations
from ...document.secrets import SecretDetector
from ...formats import Conversation
from ..model.safe import printable
from .once import ApplyOrCancel


def detector_for(literal: str, pattern: str, emails: bool) -> SecretDetector:
    """The detector for the dialog's options (a bad pattern raises ``re.error``)."""
    return SecretDetector(
        patterns=[pattern] if pattern else [],
        literals=[literal] if literal else [],
        emails=emails,
    )


def redact_edit(detector: SecretDetector) -> Callable[[Conversation], Conversation]:
    """The edit of the whole conversation: its messages, title and request fields redacted
    (the same walk, so the same placeholders, as the preview)."""
    return lambda conv: redact_conversations([conv], detector).conversations[0]


def _hint(secret: str) -> str:
    head = secret[:4].replace("\n", " ")
    return f"{head}… ({len(secret)} characters)"


class RedactScreen(ApplyOrCancel[SecretDetector | None]):
    """Options, the list of hits, Redact or Cancel; answers the detector to apply."""

    BINDINGS = [Binding("ctrl+s", "apply", "Redact", priority=True)]
    """Redact every hit listed (one undoable edit) or cancel."""

    DEFAULT_CSS = """
    RedactScreen {
        align: center middle;
        & > Vertical {
            width: 100; height: 90%; padding: 0 1;
            border: round $primary; background: $surface;
            border-title-style: bold;
        }
        Label { text-style: bold; margin-top: 1; }
        Checkbox { width: 100%; border: none; padding: 0; background: $surface; }
        #hits { height: 1fr; text-wrap: nowrap; text-overflow: ellipsis; }
        #summary { height: auto; margin-top: 1; }
        Horizontal { height: auto; margin-top: 1; }
        Button { margin-right: 1; min-width: 10; }
    }
    """

    def __init__(self, conversation: Conversation):
        super().__init__()
        self.conversation = conversation
        self.detector: SecretDetector | None = None
        self.findings: list[Finding] = []
        self.error = ""

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Redact"
            box.border_subtitle = "ctrl+s redacts every hit · escape cancels"
            yield Label("Also redact this text (literal)")
            yield Input(id="literal", placeholder="e.g. a customer's name")
            yield Label("Also redact this pattern (regular expression)")
            yield Input(id="pattern", placeholder=r"e.g. ACME-\d{6}")
            yield Checkbox("email addresses", value=True, id="emails")
            yield Label("Hits (nothing changes until Redact)")
            yield OptionList(id="hits")
            yield Static("", id="summary")
            with Horizontal():
                yield Button("Redact", id="apply", variant="error", disabled=True)
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        for field in self.query(Input):
            if self.app.is_headless:
                field.cursor_blink = False  # still pictures in tests
        self._changed()

    @on(Input.Changed)
    @on(Checkbox.Changed)
    def _changed(self) -> None:
        literal = self.query_one("#literal", Input).value
        pattern = self.query_one("#pattern", Input).value
        try:
            detector = detector_for(literal, pattern, self.query_one("#emails", Checkbox).value)
        except re.error as exc:
            self.detector, self.error = None, f"bad pattern: {exc}"
            self._show([], {}, [])
            return
        self.detector, self.error = detector, ""
        self._preview_worker(detector)

    @work(thread=True, exclusive=True, group="redact-preview")
    def _preview_worker(self, detector: SecretDetector) -> None:
        done = redact_conversations([self.conversation], detector)
        secrets = done.placeholders.secret_of()
        self.app.call_from_thread(self._previewed, detector, done.findings, secrets, done.warnings)

    def _previewed(
        self,
        detector: SecretDetector,
        found: list[Finding],
        secrets: dict[str, str],
        warnings: list[str],
    ) -> None:
        if detector is not self.detector:
            return  # the options changed meanwhile: a newer preview is coming
        self.findings = found
        self._show(found, secrets, warnings)

    def _show(self, found: list[Finding], secrets: dict[str, str], warnings: list[str]) -> None:
        hits = self.query_one("#hits", OptionList)
        hits.clear_options()
        options = []
        for f in found:
            line = Text()
            line.append(f"#{f.message:<5}" if f.message is not None else "req   ", style="bold")
            line.append(f"{f.kind:<16}", style="red")
            line.append(printable(f.placeholder).ljust(30))
            line.append(printable(f.path).ljust(28) + " ")
            line.append(printable(_hint(secrets.get(f.placeholder, ""))), style="dim")
            options.append(Option(line))
        hits.add_options(options)
        summary = Text()
        if self.error:
            summary.append("✗ " + self.error, style="red")
        elif found:
            count = len(set(f.placeholder for f in found))
            summary.append(f"{count} secret(s) at {len(found)} place(s)", style="bold")
            outside = sum(f.message is None for f in found)
            if outside:
                summary.append(f", {outside} in the title or request fields (req)")
            if warnings:
                summary.append(f"\n{len(warnings)} reasoning signature(s) would be dropped")
        else:
            summary.append("nothing to redact", style="dim")
        self.query_one("#summary", Static).update(summary)
        self.query_one("#apply", Button).disabled = not found

    def action_apply(self) -> None:
        if self.detector is not None and self.findings:
            self.dismiss(self.detector)
