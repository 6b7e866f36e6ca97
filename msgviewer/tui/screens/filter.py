"""``FilterScreen``: choose which roles and kinds of content the tree shows."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, SelectionList, Static
from textual.widgets.selection_list import Selection

from ..model.rows import Filter
from ..model.session import ALL_CATEGORIES, CATEGORIES, REASONING, TOOL_CALL, TOOL_RESULT
from .once import DismissOnce

ROLES = ("system", "user", "assistant", "tool")
CATEGORY_LABELS = {
    "text": "text",
    "reasoning": "reasoning",
    "tool_call": "tool calls",
    "tool_result": "tool results",
    "media": "images, audio, video, files",
    "other": "other blocks (citations, errors, unknown)",
}

PRESETS: dict[str, Filter] = {
    "everything": Filter(),
    "tool calls": Filter(categories=TOOL_CALL),
    "calls + results": Filter(categories=TOOL_CALL | TOOL_RESULT),
    "no reasoning": Filter(categories=ALL_CATEGORIES & ~REASONING),
}
"""Filters one button (or palette command) away."""


class FilterScreen(DismissOnce, ModalScreen[Filter | None]):
    """Roles and content kinds to show; space toggles, enter applies, escape cancels."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("enter", "apply", "Apply", priority=True),
        *[
            Binding(str(i + 1), f"preset({i})", f"Filter: {name}", show=False)
            for i, name in enumerate(PRESETS)
        ],
    ]
    """Enter applies the filter, escape leaves it as it was, 1-4 apply a preset."""

    DEFAULT_CSS = """
    FilterScreen {
        align: center middle;
        & > Vertical {
            width: 64; height: auto; padding: 1 2;
            border: round $primary; background: $surface;
        }
        SelectionList { height: auto; max-height: 14; margin-bottom: 1; }
        Label { text-style: bold; }
        .keys { color: $text-muted; }
        Horizontal { height: auto; }
        Button { margin-right: 1; min-width: 10; }
    }
    """

    def __init__(self, current: Filter) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        cur = self.current
        with Vertical():
            yield Label("Show messages of these roles, and these kinds of content")
            yield Static(
                "space toggles · enter applies · 1-4 a preset · escape cancels", classes="keys"
            )
            yield SelectionList[str](
                *[Selection(f"role: {r}", f"role:{r}", r in cur.roles) for r in ROLES],
                *[
                    Selection(CATEGORY_LABELS[name], f"cat:{name}", bool(cur.categories & bit))
                    for name, bit in CATEGORIES.items()
                ],
            )
            with Horizontal():
                for i, name in enumerate(PRESETS):
                    yield Button(f"{i + 1} {name}", id=f"preset-{i}", compact=True)

    def on_mount(self) -> None:
        self.query_one(SelectionList).focus()

    def _chosen(self) -> Filter:
        selected = set(self.query_one(SelectionList).selected)
        roles = frozenset(r for r in ROLES if f"role:{r}" in selected)
        cats = 0
        for name, bit in CATEGORIES.items():
            if f"cat:{name}" in selected:
                cats |= bit
        return Filter(roles=roles, categories=cats)

    def action_apply(self) -> None:
        self.dismiss(self._chosen())

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_preset(self, index: int) -> None:
        self.dismiss(list(PRESETS.values())[index])

    @on(Button.Pressed)
    def _preset(self, event: Button.Pressed) -> None:
        self.action_preset(int((event.button.id or "preset-0").rsplit("-", 1)[1]))
