"""An image drawn inside the detail pane: by Kitty's graphics protocol where the terminal
speaks it, else as half blocks.

The pane draws its lines itself from Rich renderables, so an image has to be one. In half
blocks, each cell is a ``▀`` whose colour is the upper pixel and whose background the lower
one: the picture scrolls, selects and crops like text in every terminal. In Kitty's protocol
the picture is sent to the terminal once (``Placements``) and drawn by placeholder cells
(``model.kitty``), text as well. Nothing asks the terminal about itself. Pillow scales and
encodes the picture.
"""

from __future__ import annotations

import importlib.util
import io
import random
from collections.abc import Callable
from typing import Any

from rich.color import Color
from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.style import Style

from ..model import kitty
from ..model.pictures import MAX_ROWS, cells


def prepare() -> bool:
    """Whether pictures can be drawn: Pillow is there to decode and scale them (found, not
    imported: a worker imports it with the first picture, not the app's start)."""
    return importlib.util.find_spec("PIL") is not None


class Placements:
    """The pictures sent to a Kitty-protocol terminal: each (image, columns, rows) once, under
    an id of its own; all of them freed by ``clear``."""

    def __init__(self, write: Callable[[str], None], *, tmux: bool = False) -> None:
        self.write = write
        self.tmux = tmux
        self._ids: dict[tuple[int, int, int], tuple[Any, int]] = {}
        # ids from a random start: another program's pictures in the same terminal keep theirs
        self._next = random.randrange(1 << 16, 1 << 23)

    def place(self, image: Any, columns: int, rows: int) -> int:
        """The id of ``image`` placed in ``columns`` x ``rows`` cells, sent now if new."""
        key = (id(image), columns, rows)
        known = self._ids.get(key)
        if known is not None and known[0] is image:
            return known[1]
        image_id = self._next
        self._next += 1
        png = io.BytesIO()
        image.save(png, format="PNG")
        self.write(kitty.transmit(image_id, png.getvalue(), columns, rows, tmux=self.tmux))
        self._ids[key] = (image, image_id)
        return image_id

    def clear(self) -> None:
        for _, image_id in self._ids.values():
            self.write(kitty.delete(image_id, tmux=self.tmux))
        self._ids.clear()


class PictureLines:
    """A decoded image as lines, as wide as the pane allows and ``MAX_ROWS`` high at most:
    Kitty placeholders when ``placements`` is given, else half blocks."""

    def __init__(self, image: Any, placements: Placements | None = None) -> None:
        self.image = image
        self.placements = placements

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        columns, rows = cells(*self.image.size, options.max_width, MAX_ROWS)
        if not columns:
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
