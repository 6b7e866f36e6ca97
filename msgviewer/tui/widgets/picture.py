"""An image drawn as half blocks (textual-image's ``HalfcellImage``) inside the detail pane.

The pane draws its lines itself from Rich renderables, so an image has to be one: the half
block renderer gives coloured ``▀`` cells, which scroll, select and crop like text in every
terminal. (textual-image's Kitty and Sixel renderers need a widget of their own, placed where
the terminal draws the picture: they do not fit lines drawn by a ``ScrollView``.)

``prepare()`` must run before the app starts: importing textual-image asks the terminal what
it can do and how big its cells are, which it cannot once Textual reads the terminal.
"""

from __future__ import annotations

import logging
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult

from ..model.pictures import MAX_ROWS, cells


def prepare() -> bool:
    """Load textual-image while the terminal is still free to answer; False if it is missing."""
    # A terminal that does not answer its queries is not an error worth a traceback on the
    # user's screen (textual-image logs one as a warning): the image is drawn all the same.
    logging.getLogger("textual_image").addHandler(logging.NullHandler())
    logging.getLogger("textual_image").propagate = False
    try:
        import textual_image.renderable  # noqa: F401  (detects the terminal at import)
        from textual_image._terminal import get_cell_size

        get_cell_size()  # (cached: drawing asks again, when the terminal is Textual's)
    except Exception:  # missing, or a terminal that would not answer: facts only, no image
        return False
    return True


class PictureLines:
    """A decoded image as half-block lines, as wide as the pane allows and ``MAX_ROWS`` high
    at most."""

    def __init__(self, image: Any) -> None:
        self.image = image

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from textual_image.renderable.halfcell import Image as HalfcellImage

        columns, rows = cells(*self.image.size, options.max_width, MAX_ROWS)
        if columns:
            yield from HalfcellImage(self.image, width=columns, height=rows).__rich_console__(
                console, options
            )
