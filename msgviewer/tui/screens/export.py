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
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ...formats import Format, all_formats
from ..model.safe import printable
from .once import ApplyOrCancel


def writable_formats(*, readable: bool) -> list[Format]:
    """Formats that can be written (and read back, for ``readable``), by name."""
    return sorted(
        (f for f in all_formats() if f.can_write and (f.can_read or not readable)),
        key=lambda f: f.name,
    )


def extension_for(fmt: Format) -> str:
    """The usual file extension of a format."""
    if fmt.name in ("markdown", "html"):
        return ".md" if fmt.name == "markdown" else ".html"
    return ".jsonl" if fmt.stream else ".json"


def path_for(path: str, fmt: Format, *, tagged: bool = False) -> str:
    """``path`` with the extension of ``fmt`` (and, ``tagged``, the format's name before it:
    an export never defaults to the file it was made from; a page or a Markdown transcript
    has its own extension already)."""
    stem, ext = os.path.splitext(path)
    if ext not in (".json", ".jsonl", ".md", ".html"):
        stem = path
    for other in all_formats():  # a name tagged on by an earlier choice
        if tagged and stem.endswith(f".{other.name}"):
            stem = stem[: -len(other.name) - 1]
    tag = tagged and fmt.name not in ("markdown", "html")
    return stem + (f".{fmt.name}" if tag else "") + extension_for(fmt)


class ExportScreen(ApplyOrCancel[tuple[str, str] | None]):
    """A format list and a file name; enter in the name (or Write) answers, escape cancels."""

    DEFAULT_CSS = """
    ExportScreen {
        align: center middle;
        & > Vertical {
            width: 84; height: auto; max-height: 95%; padding: 0 2;
            border: round $primary; background: $surface;
            border-title-style: bold;
        }
        Label { margin-top: 1; text-style: bold; }
        OptionList { height: 9; text-wrap: nowrap; text-overflow: ellipsis; }
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
        *,
        tagged: bool = False,
    ) -> None:
        """``tagged``: default file names carry the format's name (exports)."""
        super().__init__()
        self.title_text = title
        self.formats = list(formats)
        names = [f.name for f in self.formats]
        self.format = format if format in names else names[0]
        self.tagged = tagged
        # (a file name may hold escape sequences: the suggestion is shown, and saved to, with
        # them made visible)
        self.path = printable(path_for(path, self.formats[names.index(self.format)], tagged=tagged))
        self.note = note
        self._auto_path = self.path

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = Text(printable(self.title_text))  # a str would be markup
            box.border_subtitle = "↑↓ format · tab file name · enter writes · escape cancels"
            yield Label("Format")
            yield OptionList(
                *[
                    Option(
                        Text(f"{f.name:<18} {f.description}", no_wrap=True, overflow="ellipsis"),
                        id=f.name,
                    )
                    for f in self.formats
                ],
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
        options.focus()

    @property
    def chosen(self) -> Format:
        return next(f for f in self.formats if f.name == self.format)

    def _describe(self) -> None:
        fmt = self.chosen
        text = Text()
        text.append("cannot carry: ", style="bold")
        text.append(printable(fmt.cannot_carry or "nothing"))
        self.query_one("#about", Static).update(text)

    @on(OptionList.OptionHighlighted, "#formats")
    def _format_changed(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is None or event.option.id == self.format:
            return
        self.format = event.option.id
        field = self.query_one("#path", Input)
        if field.value == self._auto_path:  # the user has not typed a name of their own
            self._auto_path = path_for(field.value, self.chosen, tagged=self.tagged)
            field.value = self._auto_path
        self._describe()

    @on(OptionList.OptionSelected, "#formats")
    def _format_chosen(self, event: OptionList.OptionSelected) -> None:
        # enter on a format writes, as the dialog says (the name is there, ready, below)
        if event.option.id is not None and event.option.id != self.format:
            self._format_changed(event)  # type: ignore[arg-type]
        self.action_apply()

    @on(Input.Submitted, "#path")
    def _submitted(self) -> None:
        self.action_apply()

    def action_apply(self) -> None:
        path = self.query_one("#path", Input).value.strip()
        if not path:
            self.notify("Give a file name", severity="warning")
            return
        self.dismiss((os.path.expanduser(path), self.format))
