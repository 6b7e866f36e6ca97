"""``EditingScreen``: the edit keys of the main screen (text, JSON, structure, undo, trim).

The screen works out *what* the cursor is on and asks the user what they need to; the edit
itself is a pure function from ``core.edits`` applied through the conversation's ``Document``
(``EditHistory``), one undoable step each. The keys are declared here; what they do is in
``ContentEditing`` (text and JSON), ``StructureEditing`` (insert, delete, move, role) and
``ApplyingScreen`` (applying, undo); trimming, fixes and the palette's edits are here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from textual import on
from textual.binding import Binding, BindingType

from ...core import edits
from ...core.message import Message
from ..model.rows import MSG
from ..widgets.problems_panel import ProblemsPanel
from .content_edits import ContentEditing
from .structure_edits import StructureEditing


class EditingScreen(StructureEditing, ContentEditing):
    """Edit keys and what they do; ``MainScreen`` adds the tree, the panes and the rest."""

    BINDINGS: list[BindingType] = [
        Binding("e", "edit_text", "Edit", id="edit"),
        Binding("ctrl+o", "edit_external", "Edit in $EDITOR", id="edit-external", show=False),
        Binding("J", "edit_json", "Edit as JSON", id="edit-json", show=False),
        Binding("R", "role_or_id", "Change role / call id", id="role", show=False),
        Binding("i", "insert_after", "Insert message after", id="insert-after", show=False),
        Binding("I", "insert_before", "Insert message before", id="insert-before", show=False),
        Binding("D", "duplicate", "Duplicate message", id="duplicate", show=False),
        Binding("d", "delete", "Delete message/block", id="delete", show=False),
        Binding("alt+up,ctrl+up", "move(-1)", "Move message up", id="move-up", show=False),
        Binding("alt+down,ctrl+down", "move(1)", "Move message down", id="move-down", show=False),
        Binding("T", "trim", "Trim…", id="trim", show=False),
        Binding("ctrl+z", "undo", "Undo", id="undo"),
        Binding("ctrl+y", "redo", "Redo", id="redo", show=False),
    ]
    """Edit the node under the cursor, restructure, trim; undo and redo (shown when
    there is something to undo)."""

    # -- trim, fixes, palette -----------------------------------------------------------------

    def action_trim(self) -> None:
        from .trim import TrimScreen

        if self.session is None or self._row_any() is None:
            return
        c = self.current_conv()
        messages = self.session.convs[c].messages

        def preview(dropped: frozenset[int] | None) -> None:
            self.tree.show_cut(c, dropped)

        def done(options: dict[str, Any] | None) -> None:
            self.tree.show_cut(c, None)
            if options is None:
                return
            from ...core.trim import trim

            label = f"Trim to {options['max_tokens']:,} tokens"
            self.apply_edit(c, lambda msgs: trim(msgs, **options), label)

        self.app.push_screen(TrimScreen(messages, preview), done)

    def action_redact(self) -> None:
        from .redact import RedactScreen, redact_edit

        if self.session is None or self._row_any() is None:
            return
        c = self.current_conv()
        conv = self.session.convs[c].conversation

        def done(detector: Any) -> None:
            if detector is not None:
                self.apply_edit(c, redact_edit(detector), "Redact secrets", whole=True)

        self.app.push_screen(RedactScreen(conv), done)

    @on(ProblemsPanel.FixRequested)
    def _fix_requested(self, event: ProblemsPanel.FixRequested) -> None:
        from ...core.lint import fix_all

        if self._row_any() is None or self.session is None:
            return
        problem, c = event.problem, event.conv
        if problem.fix is None:
            self.notify("This problem has no automatic fix", severity="warning")
            return
        if not event.all_of_kind:
            self.apply_edit(c, problem.fix.apply, problem.fix.label, (MSG, c, problem.index, 0))
            return
        same = [p for p in self.session.convs[c].problems or () if p.code == problem.code]
        self.apply_edit(
            c,
            lambda msgs: fix_all(msgs, same),
            f"Fix {len(same)} {problem.code} problem{'s' if len(same) != 1 else ''}",
        )

    def edit_commands(self) -> Iterator[tuple[str, str, Callable[[], None]]]:
        """Palette commands that edit the whole conversation under the cursor."""
        from ...core.lint import fix_all
        from ...core.ops import filter_messages, merge_runs

        def run(fn: edits.EditFn, label: str) -> Callable[[], None]:
            def go() -> None:
                if self._row_any() is not None:
                    self.apply_edit(self.current_conv(), fn, label)

            return go

        def fix_everything(msgs: list[Message]) -> list[Message]:
            problems = self.session.convs[self.current_conv()].problems or ()
            return fix_all(msgs, problems)

        yield (
            "Edit: Redact…",
            "Find secrets, emails and your own text; see every hit, then replace all (undoable)",
            self.action_redact,
        )
        yield (
            "Edit: merge runs of messages of one role",
            "Consecutive user (or assistant...) messages become one (undoable)",
            run(merge_runs, "Merge runs"),
        )
        yield (
            "Edit: remove system messages",
            "Filter the conversation (undoable)",
            run(lambda ms: filter_messages(ms, exclude_roles=["system"]), "Remove system messages"),
        )
        yield (
            "Edit: remove tool calls and their results",
            "Filter the conversation (undoable)",
            run(
                lambda ms: filter_messages(ms, exclude_tool_calls=True),
                "Remove tool calls and results",
            ),
        )
        yield (
            "Edit: keep only user and assistant messages",
            "Filter the conversation (undoable)",
            run(
                lambda ms: filter_messages(ms, include_roles=["user", "assistant"]),
                "Keep user and assistant messages",
            ),
        )
        yield (
            "Edit: fix every problem",
            "Apply every suggested fix of the problems panel (undoable)",
            run(fix_everything, "Fix every problem"),
        )
