"""``ExportScreen``: choose a format and a file to save as or export to.

Returns ``(path, format)`` or None. The format list shows what each format cannot carry, so
the user knows before writing; the saving code still checks the actual conversation for losses
and asks before writing a lossy file.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...formats import Format, all_formats
from ..safe import printable


def writable_formats(*, readable: bool) -> list[Format]:
    """Formats that can be written (and read back, for ``readable``), by name."""
    return sorted(
        (f for f in all_formats() if f.can_write and (f.can_read or not readable)),
        key=lambda f: f.name,
    )


def extension_for(fmt: Format) -> str:
    """The usual file extension of a format."""
    if fmt.name == "markdown":
        return ".md"
    return ".jsonl" if fmt.stream else ".json"


def path_for(path: str, fmt: Format) -> str:
    """``path`` with the extension of ``fmt``."""
    stem, ext = os.path.splitext(path)
    if ext in (".json", ".jsonl", ".md"):
        return stem + extension_for(fmt)
    return path + extension_for(fmt)


class ExportScreen(ModalScreen[tuple[str, str] | None]):
    """A format list and a file name; enter in the name (or Write) answers, escape cancels."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    """Escape closes the dialog without writing."""

    DEFAULT_CSS = """
    ExportScreen {
        align: center middle;
        & > Vertical {
            width: 84; height: auto; max-height: 95%; padding: 0 2;
            border: round $primary; background: $surface;
            border-title-style: bold;
        }
        Label { margin-top: 1; text-style: bold; }
        OptionList { height: 9; }
        #about { color: $text-muted; height: auto; margin-top: 1; }
        #note { color: $text-warning; height: auto; }
        Horizontal { height: auto; margin-top: 1; }
        Button { margin-right: 1; min-width: 12; }
    }
    """

    def __init__(
        self,
        title: str,
        path: str,
        format: str,
        formats: Sequence[Format],
        note: str = "",
    ) -> None:
        super().__init__()
        self.title_text = title
        self.formats = list(formats)
        names = [f.name for f in self.formats]
        self.format = format if format in names else names[0]
        self.path = path_for(path, self.formats[names.index(self.format)])
        self.note = note
        self._auto_path = self.path

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = self.title_text
            box.border_subtitle = "enter writes · escape cancels"
            yield Label("Format")
            yield OptionList(
                *[Option(Text(f"{f.name:<18} {f.description}"), id=f.name) for f in self.formats],
                id="formats",
            )
            yield Static("", id="about")
            yield Label("File")
            path = Input(value=self.path, id="path")
            if self.app.is_headless:
                path.cursor_blink = False  # still pictures in tests
            yield path
            if self.note:
                yield Static(Text(printable(self.note)), id="note")
            with Horizontal():
                yield Button("Write", id="write", variant="primary")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        options = self.query_one("#formats", OptionList)
        options.highlighted = [f.name for f in self.formats].index(self.format)
        self._describe()
        self.query_one("#path", Input).focus()

    @property
    def chosen(self) -> Format:
        return next(f for f in self.formats if f.name == self.format)

    def _describe(self) -> None:
        fmt = self.chosen
        text = Text()
        if fmt.cannot_carry:
            text.append("cannot carry: ", style="bold")
            text.append(printable(fmt.cannot_carry))
        else:
            text.append("carries everything msgviewer keeps")
        self.query_one("#about", Static).update(text)

    @on(OptionList.OptionHighlighted, "#formats")
    def _format_changed(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is None or event.option.id == self.format:
            return
        self.format = event.option.id
        field = self.query_one("#path", Input)
        if field.value == self._auto_path:  # the user has not typed a name of their own
            self._auto_path = path_for(field.value, self.chosen)
            field.value = self._auto_path
        self._describe()

    @on(OptionList.OptionSelected, "#formats")
    def _format_chosen(self) -> None:
        self.query_one("#path", Input).focus()

    @on(Input.Submitted, "#path")
    def _submitted(self) -> None:
        self._answer()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "write":
            self._answer()
        else:
            self.dismiss(None)

    def _answer(self) -> None:
        path = self.query_one("#path", Input).value.strip()
        if not path:
            self.notify("Give a file name", severity="warning")
            return
        self.dismiss((os.path.expanduser(path), self.format))

    def action_cancel(self) -> None:
        self.dismiss(None)
