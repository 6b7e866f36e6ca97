"""``ConversationTree``: the virtualised tree of conversations, messages and blocks.

A ``ScrollView`` that draws only the lines on screen (``render_line``) from the flat row list of
a ``TreeModel``; drawn lines are cached. At 100,000 messages a key press costs what it costs
at ten: moving the cursor touches two lines, expanding splices one message's rows.
"""

from __future__ import annotations

import re

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ..model.labels import RowLabels
from ..model.navigation import partner
from ..model.rows import CONV, MSG, Node, Row, node_of
from ..model.tree_model import TreeModel
from .row_strip import STYLE_NAMES, row_strip
from .styles import component_style


class ConversationTree(ScrollView, can_focus=True):
    """Conversations, messages and content blocks, one row each, drawn lazily."""

    BINDINGS: list[BindingType] = [
        Binding("up,k", "cursor_up", "Up", show=False),
        Binding("down,j", "cursor_down", "Down", show=False),
        Binding("left,h", "collapse", "Collapse", show=False),
        Binding("right,l", "expand", "Expand", show=False),
        Binding("enter,space", "toggle", "Open/close", show=False),
        Binding("home,g", "first", "First", show=False),
        Binding("end,G", "last", "Last", show=False),
        Binding("pageup,ctrl+b", "page_up", "Page up", show=False),
        Binding("pagedown,ctrl+f", "page_down", "Page down", show=False),
        Binding("left_square_bracket", "previous_message", "Previous message", show=False),
        Binding("right_square_bracket", "next_message", "Next message", show=False),
        Binding("t", "jump_pair", "Call ⇄ result"),
        Binding("E", "expand_all", "Expand all", show=False),
        Binding("C", "collapse_all", "Collapse all", show=False),
    ]
    """Tree keys: arrows or vim keys move, enter/space open and close, ``t`` follows a tool
    call to its result and back."""

    COMPONENT_CLASSES = {f"conversation--{name}" for name in STYLE_NAMES}

    DEFAULT_CSS = """
    ConversationTree {
        background: $surface;
        scrollbar-gutter: stable;
        overflow-x: hidden;
        & > .conversation--role-system { color: $text-muted; text-style: bold; }
        & > .conversation--role-user { color: $text-success; text-style: bold; }
        & > .conversation--role-assistant { color: $text-accent; text-style: bold; }
        & > .conversation--role-tool { color: $text-warning; text-style: bold; }
        & > .conversation--index { color: $text-muted; }
        & > .conversation--arrow { color: $text-muted; }
        & > .conversation--summary { color: $foreground; }
        & > .conversation--dim { color: $text-muted; }
        & > .conversation--kind { color: $text-secondary; }
        & > .conversation--call { color: $text-warning; }
        & > .conversation--ok { color: $text-success; }
        & > .conversation--warn { color: $text-warning; text-style: bold; }
        & > .conversation--error { color: $text-error; text-style: bold; }
        & > .conversation--reasoning { color: $text-muted; text-style: italic; }
        & > .conversation--media { color: $text-primary; }
        & > .conversation--tokens { color: $text-muted; }
        & > .conversation--cost { color: $text-success; }
        & > .conversation--line { color: $foreground; }
        & > .conversation--gutter { color: $text-muted; }
        & > .conversation--conv { color: $text-primary; text-style: bold; }
        & > .conversation--cursor { background: $primary-muted; }
        & > .conversation--pair { background: $warning-muted; }
        & > .conversation--match { text-style: reverse; }  /* not the pair's colour */
        & > .conversation--cut { color: $text-error; text-style: strike; }
        &:focus > .conversation--cursor { background: $block-cursor-background; }
    }
    """

    placeholder: reactive[str] = reactive("")
    """Shown while there is nothing to draw yet (what the loader is doing)."""

    class CursorMoved(Message):
        """The cursor is on another row (``row`` is None when the tree is empty)."""

        def __init__(self, tree: ConversationTree, row: Row | None) -> None:
            super().__init__()
            self.tree = tree
            self.row = row

        @property
        def control(self) -> ConversationTree:
            return self.tree

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.model: TreeModel | None = None
        self.labels: RowLabels | None = None
        self.cursor = 0
        self.highlight: re.Pattern[str] | None = None
        """What a search highlights in the rows."""
        self._pair: Node | None = None
        self._cut: tuple[int, frozenset[int]] | None = None
        self._cache: LRUCache[tuple, Strip] = LRUCache(1024)
        # Lines by what they show, kept when the analyses arrive: most rows read as before
        # (a long history's links and its totals come seconds apart, a redraw each)
        self._drawn: LRUCache[tuple, Strip] = LRUCache(1024)
        self._styles: dict[str, Style] | None = None

    # -- data ---------------------------------------------------------------------------------

    def set_model(self, model: TreeModel, cursor: int = 0) -> None:
        """Show ``model`` with the cursor on row ``cursor``."""
        self.model = model
        self.labels = RowLabels(model)
        self._cache.clear()
        self.cursor = max(0, min(cursor, len(model.rows) - 1))
        self.rows_changed()

    def rows_changed(self, moved: bool = True) -> None:
        """The row list changed (expand, filter, new messages): redraw and resize.

        Drawn lines stay cached: a row's line depends on the row, not on where it is.
        """
        rows = self.model.rows if self.model else []
        if rows:
            self.cursor = max(0, min(self.cursor, len(rows) - 1))
        self.virtual_size = Size(self.scrollable_content_region.width, len(rows))
        self._update_pair()
        self.scroll_to_cursor()
        self.refresh()
        if moved:
            self.post_message(self.CursorMoved(self, self.current_row))

    def data_changed(self) -> None:
        """Analyses arrived or the theme changed: redraw every line, rows unchanged."""
        if self.model is not None:
            self.labels = RowLabels(self.model)
        self._cache.clear()
        self._update_pair()
        self.refresh()

    def show_cut(self, conv: int, messages: frozenset[int] | None) -> None:
        """Strike out messages of ``conv`` (what a trim would remove); None clears."""
        self._cut = None if messages is None else (conv, messages)
        self._cache.clear()
        self.refresh()

    @property
    def current_row(self) -> Row | None:
        rows = self.model.rows if self.model else []
        return rows[self.cursor] if 0 <= self.cursor < len(rows) else None

    # -- drawing ------------------------------------------------------------------------------

    def watch_placeholder(self) -> None:
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None
        self._cache.clear()
        self._drawn.clear()

    def _style(self, name: str) -> Style:
        if self._styles is None:
            self._styles = {n: component_style(self, f"conversation--{n}") for n in STYLE_NAMES}
        return self._styles.get(name) or Style()

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        index = self.scroll_offset.y + y
        rows = self.model.rows if self.model else []
        if index >= len(rows):
            if self.model is None and y == 1 and self.placeholder:
                line = Text.assemble(("  ◌ ", self._style("dim")), (self.placeholder, ""))
                return Strip(list(line.render(self.app.console))).crop_extend(
                    0, width, self.rich_style
                )
            return Strip.blank(width, self.rich_style)
        row = rows[index]
        node = node_of(row)
        cut = self._cut
        flags = (
            index == self.cursor,
            node == self._pair or (self._pair is not None and self._pair_message(node)),
            cut is not None and row[0] != CONV and row[1] == cut[0] and row[2] in cut[1],
        )
        expanded = self.model.is_expanded(row) if self.model else False
        key = (row, width, flags, expanded, self.has_focus, self.highlight)
        strip = self._cache.get(key)
        if strip is None:
            strip = self._render_row(row, width, *flags)
            self._cache[key] = strip
        return strip

    def _pair_message(self, node: Node) -> bool:
        pair = self._pair
        return pair is not None and node[0] == MSG and pair[0] != MSG and node[1:3] == pair[1:3]

    def _render_row(self, row: Row, width: int, cursor: bool, pair: bool, cut: bool) -> Strip:
        assert self.labels is not None
        left, right = self.labels.left_right(row)
        key = (tuple(left), tuple(right), width, cursor, pair, cut, self.has_focus, self.highlight)
        strip = self._drawn.get(key)
        if strip is None:
            strip = row_strip(
                left,
                right,
                self._style,
                width,
                self.rich_style,
                self.app.console,
                self.highlight,
                cursor=cursor,
                pair=pair,
                cut=cut,
            )
            self._drawn[key] = strip
        return strip

    # -- cursor -------------------------------------------------------------------------------

    def move_cursor(self, index: int) -> None:
        """Put the cursor on row ``index`` (clamped), scroll it into view, and say so."""
        rows = self.model.rows if self.model else []
        if not rows:
            return
        index = max(0, min(index, len(rows) - 1))
        if index == self.cursor:
            return
        old = self.cursor
        self.cursor = index
        old_pair = self._pair
        self._update_pair()
        if old_pair != self._pair:
            self.refresh()
        else:
            self.refresh_line(old)
            self.refresh_line(index)
        self.scroll_to_cursor()
        self.post_message(self.CursorMoved(self, rows[index]))

    def scroll_to_cursor(self) -> None:
        height = self.scrollable_content_region.height
        top = round(self.scroll_y)
        if height <= 0:
            return
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)

    def _update_pair(self) -> None:
        row = self.current_row
        self._pair = partner(self.model, row) if (row and self.model) else None

    def on_resize(self, event: events.Resize) -> None:
        self._cache.clear()
        rows = self.model.rows if self.model else []
        self.virtual_size = Size(self.scrollable_content_region.width, len(rows))
        self.scroll_to_cursor()

    # -- actions ------------------------------------------------------------------------------

    def action_cursor_up(self) -> None:
        self.move_cursor(self.cursor - 1)

    def action_cursor_down(self) -> None:
        self.move_cursor(self.cursor + 1)

    def action_first(self) -> None:
        self.move_cursor(0)

    def action_last(self) -> None:
        if self.model:
            self.move_cursor(len(self.model.rows) - 1)

    def action_page_up(self) -> None:
        self.move_cursor(self.cursor - max(1, self.scrollable_content_region.height - 1))

    def action_page_down(self) -> None:
        self.move_cursor(self.cursor + max(1, self.scrollable_content_region.height - 1))

    def action_expand(self) -> None:
        """Open the row; on an open row, step to its first child."""
        row = self.current_row
        if not self.model or row is None or not self.model.expandable(row):
            return
        if self.model.expand(self.cursor):
            self.rows_changed(moved=False)
        else:
            self.move_cursor(self.cursor + 1)

    def action_collapse(self) -> None:
        if not self.model or not self.current_row:
            return
        if self.model.collapse(self.cursor):
            self.rows_changed(moved=False)
            return
        parent = self.model.parent(self.cursor)
        if parent is not None:
            self.move_cursor(parent)

    def action_toggle(self) -> None:
        if self.model and self.current_row and self.model.toggle(self.cursor):
            self.rows_changed(moved=False)

    def _step_message(self, step: int) -> None:
        rows = self.model.rows if self.model else []
        i = self.cursor + step
        while 0 <= i < len(rows):
            if rows[i][0] == MSG:
                self.move_cursor(i)
                return
            i += step

    def action_previous_message(self) -> None:
        self._step_message(-1)

    def action_next_message(self) -> None:
        self._step_message(1)

    def action_jump_pair(self) -> None:
        """Follow a tool call to its result, or a result back to its call."""
        row = self.current_row
        if not self.model or row is None:
            return
        target = partner(self.model, row)
        if target is None:
            links = self.model.session.convs[row[1]].links
            if links is None:
                self.notify("Still linking tool calls…", timeout=2)
            else:
                self.notify("No paired tool call or result here", timeout=2)
            return
        self.go_to(*target)

    def go_to(self, kind: int, conv: int, msg: int, idx: int = 0, line: int = 0) -> bool:
        """Reveal a node (opening what holds it) and put the cursor on it."""
        if self.model is None:
            return False
        before = len(self.model.rows)
        pos = self.model.reveal(kind, conv, msg, idx, line)
        if pos is None:
            return False
        if len(self.model.rows) != before:
            self.cursor = pos
            self.rows_changed()
        else:
            self.move_cursor(pos)
        self.center_cursor()
        return True

    def center_cursor(self) -> None:
        height = self.scrollable_content_region.height
        top = round(self.scroll_y)
        if not top <= self.cursor < top + height - 2:
            self.scroll_to(y=max(0, self.cursor - height // 3), animate=False, immediate=True)

    def action_expand_all(self) -> None:
        if self.model:
            self._keeping_cursor(self.model.expand_all)

    def action_collapse_all(self) -> None:
        if self.model:
            self._keeping_cursor(self.model.collapse_all)

    def _keeping_cursor(self, change) -> None:  # type: ignore[no-untyped-def]
        """Apply a change that rebuilds the rows, keeping the cursor on its message."""
        assert self.model is not None
        row = self.current_row
        change()
        if row is not None:
            pos = self.model.reveal_message(row[1], row[2])
            self.cursor = pos if pos is not None else 0
        self.rows_changed()
        self.center_cursor()

    def keep_place_through(self, change) -> bool:  # type: ignore[no-untyped-def]
        """Apply a change of view that rebuilds the rows (``change()`` False: it did not),
        keeping the cursor on the node it was on, wherever the node now sits; False if the
        rows did not change."""
        if self.model is None:
            return False
        row = self.current_row
        if change() is False:
            return False
        pos = None
        if row is not None and row[0] != CONV:
            pos = self.model.reveal(row[0], row[1], row[2], row[3], row[4])
        elif row is not None:
            pos = self.model.find(row, self.cursor)
        self.cursor = pos if pos is not None else 0
        self.rows_changed()
        self.center_cursor()
        return True

    def keep_cursor_through(self, change) -> None:  # type: ignore[no-untyped-def]
        """Public form of ``_keeping_cursor`` for filters and new data."""
        self._keeping_cursor(change)

    # -- mouse --------------------------------------------------------------------------------

    def on_click(self, event: events.Click) -> None:
        index = self.scroll_offset.y + event.y
        if not self.model or index >= len(self.model.rows):
            return
        self.move_cursor(index)
        row = self.model.rows[index]
        indent = 2 * row[5]
        if event.chain >= 2 or indent <= event.x < indent + 2:
            self.action_toggle()
