"""``SafeTextArea``: a ``TextArea`` that draws control characters as visible stand-ins.

The editors show text from files: an escape sequence or a bidi override in it must not reach
the terminal while it is being edited. The document keeps the text exactly (that is what is
saved); each line is drawn with every control or bidi character replaced by one visible
character (``core.safetext.visible_in_place``). Textual counts a control character as zero
cells wide, so on a line holding one the cursor may be drawn a cell off.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import TextArea

from ...core.safetext import visible_in_place


class SafeTextArea(TextArea):
    """A text area whose lines are drawn visible, never passed through raw."""

    def get_line(self, line_index: int) -> Text:
        line = super().get_line(line_index)
        line.plain = visible_in_place(line.plain)
        return line
