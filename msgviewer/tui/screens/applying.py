"""``ApplyingScreen``: applies an edit as one undoable step and shows it; undo and redo.

Every edit key ends here: the edit (a pure function from ``core.edits``) goes through the
conversation's ``Document`` (``EditHistory``), then only the changed rows are redrawn and the
analyses run again in their worker. It also says what the cursor is on, whether editing is
possible now, and runs what needs a conversation's tool links once they are made.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core import edits
from ...core.errors import MsgviewerError
from ...core.links import ToolLinks
from ...core.message import Message
from ..model.history import Change
from ..model.rows import CONV, MSG, Row
from ..model.safe import printable
from ..model.session import made_to_last
from ..model.targets import Focus
from .saving import SavingScreen

if TYPE_CHECKING:
    from ..model.search import SearchIndex
    from ..model.tree_model import TreeModel
    from ..widgets.conversation_tree import ConversationTree
    from ..widgets.detail import DetailPane


class ApplyingScreen(SavingScreen):
    """Applying, showing and undoing edits; the edit keys build on it."""

    if TYPE_CHECKING:  # what MainScreen provides
        model: TreeModel | None
        search_index: SearchIndex | None
        query_text: str
        follower: Any

        @property
        def tree(self) -> ConversationTree: ...

        @property
        def detail(self) -> DetailPane: ...

        def _title(self) -> str: ...

        def update_status(self) -> None: ...

        def _analyse(self) -> None: ...

        def _run_search(self, query: str, *, jump: bool) -> None: ...

        def place_results(self, made: dict[int, Any] | None = None) -> None: ...

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "undo":
            return self.session is not None and self.history.can_undo
        if action == "redo":
            return self.session is not None and self.history.can_redo
        return super().check_action(action, parameters)

    # -- what the cursor is on ----------------------------------------------------------------

    def current_conv(self) -> int:
        row = self.tree.current_row
        return row[1] if row else 0

    def _row(self) -> Row | None:
        """The row to edit, or None (and the user told why) when editing is not possible."""
        if self.session is None or self.still_loading():
            return None
        if self.saving:
            self.notify("Saving… edit again when it is done", timeout=2)
            return None
        if self.follower is not None:
            self.notify("Stop following the file (F) to edit it", severity="warning")
            return None
        row = self.tree.current_row
        if row is None or row[0] == CONV:
            self.notify("Choose a message first", timeout=2)
            return None
        return row

    def _row_any(self) -> Row | None:
        """Like ``_row`` but a conversation row will do."""
        if self.saving or self.follower is not None or self.loading_more:
            return self._row()
        return self.tree.current_row

    def _message(self, row: Row) -> Message:
        assert self.session is not None
        return self.session.convs[row[1]].messages[row[2]]

    _link_waiters: dict[int, list[Callable[[ToolLinks], None]]] | None = None

    def with_links(self, c: int, then: Callable[[ToolLinks], None]) -> None:
        """Run ``then`` with conversation ``c``'s tool links as they are now: at once, or when
        the analysis worker has linked the last edit (seconds at 100k messages, off the UI)."""
        assert self.session is not None
        links = self.session.convs[c].links
        if links is not None:
            then(links)
            return
        if self._link_waiters is None:
            self._link_waiters = {}
        self._link_waiters.setdefault(c, []).append(then)
        self.notify("Linking tool calls…", timeout=1.5)

    def links_ready(
        self, session: Any, c: int, messages: Any, links: ToolLinks, nest: Any = None
    ) -> None:
        """The analysis worker linked conversation ``c`` (and ``nest``ed its results): keep
        the links, place the results, run who waited."""
        if session is not self.session or not session.store_links(c, messages, links):
            return
        self.place_results(None if nest is None else {c: nest})
        for then in (self._link_waiters or {}).pop(c, []):
            then(links)

    # -- applying -----------------------------------------------------------------------------

    def apply_edit(
        self,
        c: int,
        fn: edits.EditFn,
        label: str,
        focus: Focus | None = None,
        *,
        whole: bool = False,
    ) -> Change | None:
        """Apply ``fn`` to conversation ``c`` as one undoable edit and show the result
        (``whole``: ``fn`` takes and gives the conversation, not its messages)."""
        if self.still_loading():
            return None
        edit = self.history.edit_conversation if whole else self.history.edit
        try:
            with made_to_last():  # a new version of the history
                change = edit(c, fn, label)  # type: ignore[arg-type]
        except edits.EditRefused as exc:
            self.notify(str(exc), severity="warning")
            return None
        except (MsgviewerError, ValueError, IndexError) as exc:
            self.notify(f"Could not {label.lower()}: {exc}", severity="error")
            return None
        if change is None:
            self.notify("Nothing changed", timeout=1.5)
            return None
        self.show_change(change, focus)
        return change

    def show_change(self, change: Change, focus: Focus | None = None) -> None:
        """Redraw what ``change`` touched, move the cursor to ``focus``, analyse again."""
        assert self.model is not None and self.session is not None
        c = change.conv
        if self._link_waiters:  # they were asked about the history before this change
            self._link_waiters.pop(c, None)
        with made_to_last():  # the rows and the search index made for it
            self.model.splice(c, change.start, change.old_count, change.new_count, change.replaced)
            if self.search_index is not None:
                self.search_index.splice(c, change.start, change.old_count, change.new_count)
        tree = self.tree
        count = len(self.session.convs[c].messages)
        if focus is None:
            focus = (MSG, c, min(change.start, count - 1), 0)
        tree.data_changed()
        tree.rows_changed(moved=False)
        if count and not tree.go_to(*focus):
            tree.go_to(MSG, c, min(focus[2], count - 1))
        self.detail.show(self.session, tree.current_row)
        self.edits_changed()
        self.call_after_refresh(self._analyse_again)

    def _analyse_again(self) -> None:
        """The analyses and the search of the history as it is now, in their workers: started
        once the change is drawn, not while it is. Their threads walk the whole history, and
        beside them the same drawing took the interface's thread about 1.6x the CPU at a million
        messages (the caches and the interpreter's lock shared with a walk over gigabytes)."""
        self._analyse()
        query = self.query_text
        if query:
            self._run_search(query, jump=False)

    def edits_changed(self) -> None:
        """Header, status line and footer say whether there are unsaved changes."""
        dirty = self.has_unsaved()
        self.sub_title = self._title() + ("  ● unsaved changes" if dirty else "")
        self.update_status()
        self.refresh_bindings()

    # -- undo ---------------------------------------------------------------------------------

    def action_undo(self) -> None:
        self._step(undo=True)

    def action_redo(self) -> None:
        self._step(undo=False)

    def _step(self, *, undo: bool) -> None:
        if self.session is None or self.saving:
            return
        with made_to_last():
            change = self.history.undo() if undo else self.history.redo()
        if change is None:
            self.notify("Nothing to undo" if undo else "Nothing to redo", timeout=1.5)
            return
        self.show_change(change)
        self.notify(f"{'Undid' if undo else 'Redid'}: {printable(change.label)}", timeout=2)
