"""An image drawn as half blocks inside the detail pane.

The pane draws its lines itself from Rich renderables, so an image has to be one: each cell is
a ``▀`` whose colour is the upper pixel and whose background the lower one, so the picture
scrolls, selects and crops like text in every terminal, and nothing asks the terminal about
itself. (Kitty and Sixel pictures need a widget of their own, placed where the terminal draws
them: they do not fit lines drawn by a ``ScrollView``.) Pillow scales the picture.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.style import Style

from ..model.pictures import MAX_ROWS, cells


def prepare() -> bool:
    """Whether pictures can be drawn: Pillow is there to decode and scale them (found, not
    imported: a worker imports it with the first picture, not the app's start)."""
    return importlib.util.find_spec("PIL") is not None


class PictureLines:
    """A decoded image as half-block lines, as wide as the pane allows and ``MAX_ROWS`` high
    at most."""

    def __init__(self, image: Any) -> None:
        self.image = image

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        columns, rows = cells(*self.image.size, options.max_width, MAX_ROWS)
        if not columns:
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
