"""``ProblemsPanel``: the core ``lint`` results; choosing one jumps to its message."""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ..safe import one_line
from ..session import Session


class ProblemsPanel(OptionList):
    """One line per problem: severity, message number, code and what is wrong."""

    DEFAULT_CSS = """
    ProblemsPanel {
        height: 9;
        border: none;
        border-top: solid $warning-muted;
        border-title-color: $text-warning;
        background: $surface;
        &:focus { border: none; border-top: solid $warning; }
    }
    """

    class Chosen(Message):
        """A problem was chosen: go to ``conv``'s message ``index`` (``block``)."""

        def __init__(self, conv: int, index: int, block: int | None) -> None:
            super().__init__()
            self.conv = conv
            self.index = index
            self.block = block

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Problems"
        self._targets: list[tuple[int, int, int | None]] = []

    def set_problems(self, session: Session) -> int:
        """List the problems of every conversation; returns how many there are."""
        self.clear_options()
        self._targets = []
        options = []
        multi = len(session.convs) > 1
        for c, conv in enumerate(session.convs):
            for problem in conv.problems or ():
                error = problem.severity == "error"
                text = Text()
                text.append(
                    "✗ error  " if error else "⚠ warning", style="bold red" if error else "yellow"
                )
                where = f" {c + 1}:{problem.index:<4}" if multi else f" #{problem.index:<5}"
                text.append(where, style="dim")
                text.append(f"{problem.code:<20} ", style="bold")
                text.append(one_line(problem.text, 300))
                if problem.fix is not None:
                    text.append(f"  fix: {one_line(problem.fix.label, 80)}", style="dim")
                options.append(Option(text))
                self._targets.append((c, problem.index, problem.block))
        if not options:
            options.append(Option(Text("No problems found.", style="dim"), disabled=True))
        self.add_options(options)
        self.highlighted = 0 if self._targets else None
        count = len(self._targets)
        self.border_title = f"Problems ({count})"
        return count

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self._targets):
            self.post_message(self.Chosen(*self._targets[event.option_index]))
