"""``CopyKeys``: the copy keys of the main screen, ``c`` (text) and ``y`` (JSON), with jless's
two-key ``yy`` (the value) and ``yp`` (its JSON path in the file).

``y`` copies the value at once, as it always did, and for ``YANK_WAIT`` seconds listens for a
``p`` that copies the path instead. The path is worked out in a worker (``model.jsonpath``
writes the conversation up to the node twice, which takes a moment on a long run).

With the detail pane focused on a tool call, the node is the argument under the pane's cursor
(``widgets.argument_cursor``): ``yp`` copies its path inside the call
(``$.messages[3].content[1].input.command``), ``yy`` its JSON and ``c`` its text.
"""

from __future__ import annotations

from typing import Any

from textual import events, work

from ..model import fmt
from ..model.arguments import Steps, argument_value, steps_text
from ..model.rows import Row
from .actions import copy_payload

YANK_WAIT = 0.8
"""Seconds after ``y`` in which ``p`` copies the path (and is not the problems key)."""


class CopyKeys:
    """Copy text, JSON and JSON paths of the node under the tree's cursor (a screen mixin)."""

    _yank_timer: Any = None
    """Set while ``y`` listens for its second key."""

    def action_copy_text(self) -> None:
        self._copy(as_json=False)

    def action_copy_json(self) -> None:
        """``y``: the value, at once (as ``y`` always did); a ``p`` soon after puts the
        value's JSON path in its place, a second ``y`` leaves the value."""
        self._yank_done()
        self._copy(as_json=True)
        self._yank_timer = self.set_timer(YANK_WAIT, self._yank_done)

    def _yank_done(self) -> None:
        if self._yank_timer is not None:
            self._yank_timer.stop()
            self._yank_timer = None

    def on_key(self, event: events.Key) -> None:
        # the key after y: p copies the path (and is not the problems key this time); any
        # other key ends the wait and does what it always does
        if self._yank_timer is None:
            return
        if event.key == "p":
            event.stop()
            event.prevent_default()
            self._yank_done()
            self.copy_path()
        elif event.key != "y":
            self._yank_done()

    def copy_path(self) -> None:
        """Copy the JSON path, in the file, of the node under the cursor."""
        selection = self._selection()
        if selection is None or self.session is None:
            return
        argument = self._argument()
        row, steps = argument if argument is not None else (selection[0], None)
        # the path is in the row's own file: its conversations alone, counted from its first
        convs, c = self.session.file_of(row[1])
        self._path_worker(convs, (row[0], c, *row[2:]), steps)

    def _argument(self) -> tuple[Row, Steps] | None:
        """The call's row and the argument under the detail pane's cursor, when the pane has
        the focus and shows a call."""
        detail = self.detail
        if not detail.has_focus or detail.row is None:
            return None
        steps = detail.argument_at_cursor()
        return None if steps is None else (detail.row, steps)

    @work(thread=True, exclusive=True, group="json-path")
    def _path_worker(self, convs: list[Any], row: Row, steps: Steps | None) -> None:
        # (writes the conversation up to the node twice: off the UI for a long one)
        from ..model.arguments import argument_path
        from ..model.jsonpath import node_path

        try:
            path = node_path(convs, row) if steps is None else argument_path(convs, row, steps)
        except Exception as exc:  # a writer's refusal is something to say, not a crash
            why = f"No JSON path to copy: {exc}"
            self.app.call_from_thread(self.notify, why, severity="warning", timeout=3)
            return
        self.app.call_from_thread(self._copied_path, path)

    def _copied_path(self, path: str) -> None:
        self.app.copy_to_clipboard(path)
        self.notify(f"Copied the path {path}", timeout=2)

    def _copy(self, *, as_json: bool) -> None:
        selection = self._selection()
        if selection is None:
            return
        argument = self._argument()
        if argument is not None:
            steps = argument[1]
            text = argument_value(self.detail.arguments, steps, as_json=as_json)
            what = f"the argument {steps_text(steps)}" if steps else "the arguments"
            what += " as JSON" if as_json else ""
        else:
            text, what = copy_payload(*selection, as_json=as_json)
        self.app.copy_to_clipboard(text)
        self.notify(f"Copied {what} ({fmt.plural(len(text), 'character')})", timeout=2)
