"""``SearchBar``: the search input, with a key that makes its query a regular expression."""

from __future__ import annotations

from textual.binding import Binding, BindingType
from textual.widgets import Input

from ..model.search import REGEX_PREFIX


class SearchBar(Input):
    """The search input: plain text, or a regular expression after ``re:`` (ctrl+r toggles)."""

    BINDINGS: list[BindingType] = [
        Binding("ctrl+r", "toggle_regex", "Regex on/off", id="search-regex"),
    ]

    def action_toggle_regex(self) -> None:
        value = self.value
        if value.startswith(REGEX_PREFIX):
            self.value = value[len(REGEX_PREFIX) :]
        else:
            self.value = REGEX_PREFIX + value
        self.cursor_position = len(self.value)
