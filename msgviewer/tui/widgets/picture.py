"""An image drawn inside the detail pane: by Kitty's graphics protocol or Sixel where the
terminal speaks them, else as half blocks.

The pane draws its lines itself from Rich renderables, so an image has to be one. In half
blocks, each cell is a ``▀`` whose colour is the upper pixel and whose background the lower
one: the picture scrolls, selects and crops like text in every terminal. In Kitty's protocol
the picture is sent to the terminal once (``Placements``) and drawn by placeholder cells
(``model.kitty``), text as well. A Sixel picture is not text: the pane keeps its cells
blank and ``SixelPainter`` writes the picture over them between frames (``Place``). Nothing
asks the terminal about itself. Pillow scales and encodes the picture.
"""

from __future__ import annotations

import importlib.util
import io
import random
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from rich.color import Color
from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.style import Style

from ..model import kitty, sixel
from ..model.pictures import MAX_ROWS, cells


def prepare() -> bool:
    """Whether pictures can be drawn: Pillow is there to decode and scale them (found, not
    imported: a worker imports it with the first picture, not the app's start)."""
    return importlib.util.find_spec("PIL") is not None


class Placements:
    """The pictures sent to a Kitty-protocol terminal, each under an id of its own at the
    size it was last drawn: a picture drawn at another size (the pane widened) is sent again
    and its old placement freed, and past ``KEPT`` pictures the least recently drawn is
    freed (the terminal holds each until told); ``clear`` frees them all."""

    KEPT = 16

    def __init__(self, write: Callable[[str], None], *, tmux: bool = False) -> None:
        self.write = write
        self.tmux = tmux
        self._placed: OrderedDict[int, tuple[Any, int, int, int]] = OrderedDict()
        """``id`` of an image -> (the image, columns, rows, its id in the terminal)."""
        # ids from a random start: another program's pictures in the same terminal keep theirs
        self._next = random.randrange(1 << 16, 1 << 23)

    def place(self, image: Any, columns: int, rows: int) -> int:
        """The id of ``image`` placed in ``columns`` x ``rows`` cells, sent now if new."""
        known = self._placed.get(id(image))
        if known is not None and known[0] is image:
            self._placed.move_to_end(id(image))
            if known[1:3] == (columns, rows):
                return known[3]
        if known is not None:
            self._free(id(image))
        image_id = self._next
        self._next += 1
        png = io.BytesIO()
        image.save(png, format="PNG")
        self.write(kitty.transmit(image_id, png.getvalue(), columns, rows, tmux=self.tmux))
        self._placed[id(image)] = (image, columns, rows, image_id)
        while len(self._placed) > self.KEPT:
            self._free(next(iter(self._placed)))
        return image_id

    def _free(self, key: int) -> None:
        image_id = self._placed.pop(key)[3]
        self.write(kitty.delete(image_id, tmux=self.tmux))

    def clear(self) -> None:
        while self._placed:
            self._free(next(iter(self._placed)))


class PictureLines:
    """A decoded image as lines, as wide as the pane allows and ``MAX_ROWS`` high at most:
    Kitty placeholders when ``placements`` is given, blank cells kept for a Sixel picture
    with ``reserve``, else half blocks."""

    def __init__(
        self, image: Any, placements: Placements | None = None, *, reserve: bool = False
    ) -> None:
        self.image = image
        self.placements = placements
        self.reserve = reserve
        self.drawn = (0, 0)
        """The columns and rows it was last drawn in."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        columns, rows = cells(*self.image.size, options.max_width, MAX_ROWS)
        self.drawn = (columns, rows)
        if not columns:
            return
        if self.reserve:
            for _ in range(rows):
                yield Segment(" " * columns)
                yield Segment.line()
            return
        if self.placements is not None:
            image_id = self.placements.place(self.image, columns, rows)
            style = Style(color=Color.from_rgb(*kitty.id_colour(image_id)))
            for row in kitty.placeholder_rows(columns, rows):
                yield Segment(row, style)
                yield Segment.line()
            return
        scaled = self.image.convert("RGB").resize((columns, rows * 2))
        pixels = scaled.load()
        for y in range(0, rows * 2, 2):
            for x in range(columns):
                upper, lower = pixels[x, y], pixels[x, y + 1]
                yield Segment("▀", Style(color=_rgb(upper), bgcolor=_rgb(lower)))
            yield Segment.line()


def _rgb(pixel: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*pixel)


@dataclass(frozen=True)
class Place:
    """Where a Sixel picture shows on the screen: ``image`` drawn in ``columns`` x ``rows``
    cells, of which rows ``top`` to ``bottom`` (excluded) show, the first at cell ``x``,
    ``y``."""

    image: Any
    x: int
    y: int
    columns: int
    rows: int
    top: int
    bottom: int

    def under(self, y: int, x1: int, x2: int) -> bool:
        """Whether cells ``x1`` to ``x2`` (excluded) of screen row ``y`` cover part of it."""
        shows = self.y <= y < self.y + self.bottom - self.top
        return shows and x1 < self.x + self.columns and x2 > self.x


class SixelPainter:
    """Sixel pictures written over the cells the detail pane keeps blank for them.

    ``paint`` runs after each frame: a picture is written when it shows somewhere new (moved,
    cropped otherwise, back from under another screen) or when the frame wrote over its
    cells (text written into a cell replaces its pixels); otherwise the terminal still shows
    it. Encoding runs off the UI thread (``later(job, done)`` runs ``job`` in a worker and
    ``done`` with its result back on the UI thread); the picture is written when it is done,
    if it still shows there."""

    KEPT = 8
    """Encoded pictures kept: scrolling back to a crop seen before writes it at once."""

    def __init__(
        self,
        write: Callable[[str], None],
        places: Callable[[], list[Place]],
        later: Callable[[Callable[[], str], Callable[[str], None]], None],
    ) -> None:
        self.write = write
        self.places = places
        self.later = later
        self._shown: set[tuple[Any, ...]] = set()
        self._encoded: dict[tuple[Any, ...], tuple[Any, str]] = {}
        self._pending: set[tuple[Any, ...]] = set()

    def paint(self, written: Callable[[Place], bool]) -> None:
        """Write the pictures that need it; ``written``: whether the frame wrote over a
        place."""
        cell = sixel.cell_size()
        shown = set()
        for place in self.places():
            key = (id(place.image), place.columns, place.rows, place.top, place.bottom, cell)
            state = (key, place.x, place.y)
            if state in self._shown and not written(place):
                shown.add(state)  # (still there in the terminal)
                continue
            encoded = self._encoded.get(key)
            if encoded is None or encoded[0] is not place.image:
                if key not in self._pending:
                    self._pending.add(key)
                    self.later(partial(_encode, place, cell), partial(self._done, key, place.image))
                continue
            if encoded[1]:
                self.write(sixel.at(place.x, place.y, encoded[1]))
            shown.add(state)
        self._shown = shown

    def _done(self, key: tuple[Any, ...], image: Any, sequence: str) -> None:
        self._pending.discard(key)
        self._encoded[key] = (image, sequence)
        while len(self._encoded) > self.KEPT:
            del self._encoded[next(iter(self._encoded))]
        self.paint(lambda place: False)


def _encode(place: Place, cell: tuple[int, int]) -> str:
    """The Sixel of the rows of ``place`` that show, scaled to its cells in pixels."""
    width, height = cell
    scaled = place.image.convert("RGB").resize((place.columns * width, place.rows * height))
    return sixel.encode(scaled.crop((0, place.top * height, scaled.width, place.bottom * height)))
