"""Every key of the app in one place, for the help screen and the command palette.

Both are generated from the widgets' own ``BINDINGS``, so a new binding appears in the help
screen and the palette without being listed twice. The app's own keys (``APP_BINDINGS``) are
defined here and used by the app, so this module needs nothing from ``app``: the app gives
``key_groups()`` to the help screen and ``commands()`` to the palette.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from textual.binding import Binding, BindingType

APP_BINDINGS: list[BindingType] = [
    Binding("question_mark,f1", "help", "Help", id="help"),
    Binding("q", "quit", "Quit", id="quit"),
]
"""The app's own keys, help and quit; ctrl+p opens the command palette with every action."""


@dataclass(frozen=True)
class KeyGroup:
    """A titled set of bindings and the node (``"app"``, ``"screen"``, ``"tree"``) running them."""

    title: str
    target: str
    bindings: tuple[Binding, ...]


def _bindings(cls: type) -> tuple[Binding, ...]:
    return _bindings_of(getattr(cls, "BINDINGS", []))


def _bindings_of(bindings: list[BindingType]) -> tuple[Binding, ...]:
    out = []
    for b in bindings:
        if isinstance(b, Binding):
            out.append(b)
        else:  # a (key, action, description) tuple
            out.append(Binding(*b))
    return tuple(out)


def key_groups() -> list[KeyGroup]:
    """The app's key groups, in the order the help screen shows them."""
    from .screens.editing import EditingScreen
    from .screens.main import MainScreen
    from .screens.saving import SavingScreen
    from .screens.timeline import TimelineScreen
    from .screens.usage import UsageScreen
    from .widgets.conversation_tree import ConversationTree
    from .widgets.detail import DetailPane
    from .widgets.problems_panel import ProblemsPanel

    return [
        KeyGroup("Moving in the tree", "tree", _bindings(ConversationTree)),
        KeyGroup("Search, filter, views", "screen", _bindings(MainScreen)),
        KeyGroup("Editing", "screen", _bindings(EditingScreen)),
        KeyGroup("Saving", "screen", _bindings(SavingScreen)),
        KeyGroup("Detail pane (tab focuses it)", "detail", _bindings(DetailPane)),
        KeyGroup("Problems panel", "problems", _bindings(ProblemsPanel)),
        KeyGroup("Usage view", "usage", _bindings(UsageScreen)),
        KeyGroup("Timeline view", "timeline", _bindings(TimelineScreen)),
        KeyGroup("Anywhere", "app", _bindings_of(APP_BINDINGS)),
    ]


def commands() -> Iterator[tuple[KeyGroup, Binding]]:
    """(group, binding) for every binding that makes sense as a palette command."""
    for group in key_groups():
        if group.target in ("usage", "timeline", "problems", "detail"):  # a view's keys
            continue
        for binding in group.bindings:
            if binding.description and binding.action not in ("command_palette",):
                yield group, binding
