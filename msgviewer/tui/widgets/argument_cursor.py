"""``ArgumentCursor``: a line cursor over a tool call's arguments in the focused detail pane.

With the pane focused on a tool call, ``j`` and ``k`` step over the lines of its arguments'
JSON that start a value (a key, an array item, the object itself), as jless does; ``yp``
then copies that argument's path in the file and ``yy`` its value (the screen's copy keys
ask ``argument_at_cursor``). Past the last argument, and on anything that is not a call,
the keys scroll as a pager's. Which line stands for which argument is the model's
(``model.arguments``); this only moves and draws the cursor.
"""

from __future__ import annotations

from typing import Any

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from ..model.arguments import Steps, call_arguments, line_steps
from ..model.preview import PREVIEW_DEPTH, json_preview
from ..model.rows import BLOCK, CALL
from .styles import component_style


class ArgumentCursor:
    """The pane's argument cursor (a mixin of ``DetailPane``)."""

    arguments: Any = None
    """The arguments of the call the pane shows (None: the pane shows no call)."""
    arg_steps: list[Steps | None] = []
    """For each line of the arguments' JSON the pane shows, the argument it starts."""
    arg_starts: list[int] = []
    """The pane line each of those begins on, and one past the last."""
    arg_cursor = 0
    """The line of the arguments' JSON the cursor is on."""

    def _find_arguments(self) -> None:
        """The arguments of the pane's row, if it is a call, and the lines that stand for
        them (as many as the pane's bounded preview shows, whole)."""
        self.arguments, self.arg_steps, self.arg_cursor = None, [], 0
        row, session = self.row, self.session
        if row is None or session is None or row[0] not in (CALL, BLOCK) or self.source:
            return
        try:
            message = session.convs[row[1]].messages[row[2]]
        except IndexError:
            return
        args = call_arguments(message, row[0], row[3])
        if args is None:
            return
        preview = json_preview(args)
        shown = preview.text.count("\n") + 1 - preview.cut  # a line cut short is no argument
        self.arguments, self.arg_steps = args, line_steps(args, shown, PREVIEW_DEPTH)

    def argument_at_cursor(self) -> Steps | None:
        """The steps to the argument under the cursor; None when the pane shows no call."""
        if self.arguments is None or not self.arg_steps:
            return None
        return self.arg_steps[self.arg_cursor]

    def action_line(self, direction: int) -> None:
        """``j`` (1) or ``k`` (-1): the next or previous argument, else a line of scroll."""
        steps = self.arg_steps
        if self.arguments is not None and len(self.arg_starts) > len(steps):
            at = self.arg_cursor + direction
            while 0 <= at < len(steps) and steps[at] is None:
                at += direction
            if 0 <= at < len(steps):
                self.arg_cursor = at
                self._show_cursor()
                self.refresh()
                return
        if direction > 0:
            self.scroll_down(animate=False)
        else:
            self.scroll_up(animate=False)

    def _show_cursor(self) -> None:
        """Scroll so the cursor's line is on screen."""
        start, end = self.arg_starts[self.arg_cursor], self.arg_starts[self.arg_cursor + 1]
        height = self.scrollable_content_region.height
        top = self.scroll_offset.y
        if start < top:
            self.scroll_to(y=start, animate=False)
        elif end > top + height:
            self.scroll_to(y=max(start, end - height), animate=False)

    def _cursor_on(self, strip: Strip, index: int) -> Strip:
        """``strip`` (pane line ``index``) with the cursor's background, if it is there."""
        if self.arguments is None or not self.has_focus or not self.arg_steps:
            return strip
        at = self.arg_cursor
        if len(self.arg_starts) <= at + 1:
            return strip
        if not self.arg_starts[at] <= index < self.arg_starts[at + 1]:
            return strip
        bgcolor = component_style(self, "detail--cursor").bgcolor
        return Strip(Segment.apply_style(list(strip), post_style=Style(bgcolor=bgcolor)))

    def on_focus(self) -> None:
        self.refresh()  # the cursor shows only while the pane has the focus

    def on_blur(self) -> None:
        self.refresh()
