"""``DetailPane``: the selected node in full.

Text as Markdown (or raw), tool arguments, results and unknown blocks as highlighted JSON,
reasoning set apart with its signed/redacted/encrypted state, media facts, and a metadata
section. In source mode, the selected message as its original format writes it. What it shows
is built by ``DetailParts`` (``detail_parts``); this module draws it.

The pane draws its lines itself, like the tree: a cursor move renders the node's parts to
lines once and paints them, with no widgets mounted and no layout of the screen (mounting a
widget per section made every key cost a layout or two, most of a key's time).
"""

from __future__ import annotations

import re
from typing import Any

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events, work
from textual.binding import Binding, BindingType
from textual.errors import NoWidget
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.selection import Selection
from textual.strip import Strip

from ..model.pictures import Picture, decode
from ..model.rows import Row
from ..model.session import Session
from .argument_cursor import ArgumentCursor
from .detail_parts import DetailParts, Part
from .picture import PictureLines, Place, Placements
from .styles import component_style

# How each kind of part is set: (indent, a blank line before, a bar down its left side).
_LAYOUT = {
    "section": (0, True, False),
    "json": (1, False, False),
    "args": (1, False, False),
    "raw": (1, False, False),
    "markdown": (1, False, False),
    "reasoning": (2, False, True),
    "image": (1, False, False),
}

PICTURES_KEPT = 16
"""Decoded images the pane keeps, the latest first: going back to one shows it at once."""


class DetailPane(ArgumentCursor, DetailParts, ScrollView, can_focus=True):
    """Everything about the node under the tree's cursor."""

    BINDINGS: list[BindingType] = [
        Binding(
            "j",
            "line(1)",
            "Scroll down",
            show=False,
            tooltip="Scroll down; on a tool call, the next argument (then yp, yy, c copy it)",
        ),
        Binding("k", "line(-1)", "Scroll up", show=False, tooltip="Scroll up; the argument before"),
        Binding("g", "scroll_home", "Top", show=False),
        Binding("G", "scroll_end", "Bottom", show=False),
        Binding("ctrl+d", "half_page(1)", "Half a page down", show=False),
        Binding("ctrl+u", "half_page(-1)", "Half a page up", show=False),
        Binding("space", "page_down", "Page down", show=False),
        Binding("b", "page_up", "Page up", show=False),
    ]
    """Pager keys, when the pane has the focus (tab, or a click); on a tool call ``j`` and
    ``k`` move a cursor over its arguments (``argument_cursor``) for ``yp`` and ``yy``."""

    COMPONENT_CLASSES = {
        "detail--match",
        "detail--title",
        "detail--section",
        "detail--reasoning",
        "detail--bar",
        "detail--error",
        "detail--note",
        "detail--cursor",
    }
    DEFAULT_CSS = """
    DetailPane {
        background: $background;
        padding: 0 1;
        overflow-x: hidden;
        scrollbar-gutter: stable;
        & > .detail--title { text-style: bold; }
        & > .detail--match { text-style: reverse; }
        & > .detail--section { color: $text-muted; text-style: bold; }
        & > .detail--reasoning { color: $text-muted; text-style: italic; }
        & > .detail--bar { color: $secondary; }
        & > .detail--error { color: $error; }
        & > .detail--note { color: $text-muted; }
        & > .detail--cursor { background: $block-cursor-background; }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.raw = False
        """Show text as typed instead of rendered Markdown."""
        self.source = False
        """Show the selected message as its original format writes it."""
        self.session: Session | None = None
        self.row: Row | None = None
        self.parts: list[Part] = []
        """What the pane shows now."""
        self._lines: list[Strip] = []
        self._width = 0
        self._drawn_in: tuple[Style, ...] = ()
        self._refs_of: tuple[Any, Any] | None = None
        self.arg_steps = []
        self.arg_starts = []
        self.highlight: re.Pattern[str] | None = None
        """What a search highlights in the pane."""
        self._placements: Placements | None = None
        self._reserved: list[tuple[PictureLines, int, int]] = []
        """Sixel pictures' blank cells: the picture, its first line and its indent."""
        self._pictures: dict[int, tuple[Any, Picture | None]] = {}
        """Decoded images by ``id`` of their block (the block kept, so the id stays its own);
        None while one decodes."""

    @property
    def images(self) -> bool:
        """Whether image blocks are drawn (the app's setting)."""
        return bool(getattr(self.app, "images", True))

    def placements(self) -> Placements | None:
        if getattr(self.app, "graphics", "blocks") != "kitty":
            return None
        if self._placements is None:
            import os

            write = getattr(self.app, "write_to_terminal", None)
            if write is None:
                return None
            self._placements = Placements(write, tmux=bool(os.environ.get("TMUX")))
        return self._placements

    def reserves(self) -> bool:
        return getattr(self.app, "graphics", "blocks") == "sixel"

    def sixel_places(self) -> list[Place]:
        """Where the Sixel pictures of the pane show on the screen now: the rows of each in
        view and not under anything else (a notification), never the screen's last row (a
        picture that reaches it would scroll the terminal)."""
        if not self._reserved:
            return []
        region = self.scrollable_content_region
        first = self.scroll_offset.y
        last = min(first + region.height, first + self.screen.size.height - 1 - region.y)
        places = []
        for lines, start, indent in self._reserved:
            columns, rows = lines.drawn
            top, bottom = max(start, first), min(start + rows, last)
            if top >= bottom or not columns:
                continue
            place = Place(
                lines.image, region.x + indent, region.y + top - first, columns, rows,
                top - start, bottom - start,
            )  # fmt: skip
            if self._uncovered(place):
                places.append(place)
        return places

    def _uncovered(self, place: Place) -> bool:
        """Whether the pane is what the screen shows at the place's first and last column."""
        get_widget_at = self.screen.get_widget_at
        try:
            for y in range(place.y, place.y + place.bottom - place.top):
                for x in (place.x, place.x + place.columns - 1):
                    if get_widget_at(x, y)[0] is not self:
                        return False
        except NoWidget:  # (nothing there: a moment of the layout)
            return False
        return True

    def on_unmount(self) -> None:
        if self._placements is not None:
            self._placements.clear()  # (the terminal keeps a picture until it is freed)

    def picture_of(self, block: Any) -> Picture | None:
        entry = self._pictures.get(id(block))
        if entry is not None and entry[0] is block:
            return entry[1]
        self._pictures[id(block)] = (block, None)
        while len(self._pictures) > PICTURES_KEPT:
            del self._pictures[next(iter(self._pictures))]
        self._decode(block)
        return None

    @work(thread=True, group="pictures")
    def _decode(self, block: Any) -> None:
        picture = decode(block)
        self.app.call_from_thread(self._decoded, block, picture)

    def _decoded(self, block: Any, picture: Picture) -> None:
        self._pictures[id(block)] = (block, picture)
        if any(p.kind == "note" and p.body == "decoding the image…" for p in self.parts):
            # the pane shows a picture still decoding: draw it, the pane where it was
            y = self.scroll_y
            self.parts = self._build()
            self._lay_out()
            self.scroll_to(0, y, animate=False, immediate=True)

    def action_half_page(self, direction: int) -> None:
        height = max(1, self.scrollable_content_region.height // 2)
        self.scroll_relative(y=direction * height, animate=False)

    def set_highlight(self, pattern: re.Pattern[str] | None) -> None:
        if pattern != self.highlight:
            self.highlight = pattern
            self.refresh()

    def show(self, session: Session | None, row: Row | None) -> None:
        """Show ``row`` of ``session`` (None: nothing selected)."""
        self.session, self.row = session, row
        self.refresh_content()

    def refresh_content(self) -> None:
        """Build the pane again for the current row and modes."""
        self.parts = self._build()
        self._find_arguments()
        self._drop_selection()
        self._lay_out()
        self.scroll_to(0, 0, animate=False, immediate=True)

    @property
    def plain(self) -> str:
        """The pane's text as drawn, one line of the pane per line."""
        return "\n".join(strip.text.rstrip() for strip in self._lines)

    # -- drawing ------------------------------------------------------------------------------

    def _lay_out(self) -> None:
        """Render the parts to lines at the pane's width."""
        width = self.scrollable_content_region.width
        self._width = width
        self._drawn_in = self._colours()
        lines: list[Strip] = []
        self.arg_starts = []
        self._reserved = []
        if width > 0:
            console = self.app.console
            base = self.rich_style
            bar_style = base + component_style(self, "detail--bar")
            for part in self.parts:
                indent, gap, bar = _LAYOUT.get(part.kind, (0, False, False))
                if indent >= width:  # no room beside an indent or a bar: the text alone
                    indent, bar = 0, False
                style = base
                component = f"detail--{part.kind}"
                if component in self.COMPONENT_CLASSES:
                    style = base + component_style(self, component)
                if gap and lines:
                    lines.append(Strip.blank(width, base))
                options = console.options.update_width(max(1, width - indent))
                prefix = [Segment("▌ ", bar_style)] if bar else [Segment(" " * indent, base)]
                body = Text(part.body) if isinstance(part.body, str) else part.body  # no markup
                pieces = [body]
                if part.kind == "args" and self.arguments is not None and not self.arg_starts:
                    # a line at a time, to know where each line of the arguments begins
                    pieces = body.split("\n", allow_blank=True)
                for piece in pieces:
                    if len(pieces) > 1:
                        self.arg_starts.append(len(lines))
                    for segments in console.render_lines(piece, options, style=style, pad=False):
                        line = Strip([*prefix, *segments]) if indent else Strip(segments)
                        lines.append(line.crop_extend(0, width, base))
                if len(pieces) > 1:
                    self.arg_starts.append(len(lines))
                if isinstance(body, PictureLines) and body.reserve and body.drawn[0]:
                    self._reserved.append((body, len(lines) - body.drawn[1], indent))
        self._lines = lines
        self.virtual_size = Size(width, len(lines))
        self.refresh()

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        if index >= len(self._lines):
            return Strip.blank(self.scrollable_content_region.width, self.rich_style)
        strip = self._cursor_on(self._lines[index], index)
        if self.highlight is not None:
            strip = _highlighted(strip, self.highlight, component_style(self, "detail--match"))
        selection = self.text_selection
        span = selection.get_span(index) if selection is not None else None
        if span is not None:  # text selected with the mouse, drawn as the screen draws it
            # the span counts characters (as ``plain`` does); the strip is cut in cells
            text = strip.text
            length = strip.cell_length
            start = min(cell_len(text[: span[0]]), length)
            end = length if span[1] == -1 else max(start, cell_len(text[: span[1]]))
            before, chosen, after = strip.divide([start, min(end, length), length])
            # the selection's background over the text's own colours
            bgcolor = self.screen.get_component_rich_style("screen--selection").bgcolor
            chosen = Strip(Segment.apply_style(list(chosen), post_style=Style(bgcolor=bgcolor)))
            strip = Strip.join([before, chosen, after])
        # where each character is in ``plain``: how the screen maps a mouse drag to text
        return strip.apply_offsets(0, index)

    def get_selection(self, selection: Selection) -> tuple[str, str] | None:
        """The text under a mouse selection (for the screen's copy)."""
        return selection.extract(self.plain), "\n"

    def selection_updated(self, selection: Selection | None) -> None:
        self.refresh()

    def _drop_selection(self) -> None:
        """Forget a mouse selection: its lines and columns name text no longer there."""
        if self.is_mounted and self.text_selection is not None:
            selections = dict(self.screen.selections)
            del selections[self]
            self.screen.selections = selections

    def notify_style_update(self) -> None:
        super().notify_style_update()
        # the lines carry the colours they were drawn in: draw them again when those change (a
        # new theme), not on every update (focus comes and goes; a long text takes a while)
        if self.is_mounted and self.parts and self._colours() != self._drawn_in:
            self._lay_out()

    def _colours(self) -> tuple[Style, ...]:
        """The styles the lines are drawn in."""
        components = sorted(self.COMPONENT_CLASSES)
        return (self.rich_style, *(component_style(self, c) for c in components))

    def on_resize(self, event: events.Resize) -> None:
        if self.scrollable_content_region.width != self._width:
            self._drop_selection()
            self._lay_out()


def _highlighted(strip: Strip, pattern: re.Pattern[str], style: Style) -> Strip:
    """``strip`` with what ``pattern`` matches in its text drawn in ``style``, nothing moved."""
    text = strip.text
    cuts: list[int] = []
    for match in pattern.finditer(text):
        if match.end() > match.start():
            cuts += [cell_len(text[: match.start()]), cell_len(text[: match.end()])]
    if not cuts:
        return strip
    pieces = strip.divide([*cuts, strip.cell_length])
    # the pieces alternate: before a match, the match, between matches, the next match...
    return Strip.join(
        Strip(Segment.apply_style(list(piece), post_style=style)) if i % 2 else piece
        for i, piece in enumerate(pieces)
    )
