"""Image blocks decoded for drawing in the detail pane, and the cells they take (headless).

Decoding runs in a worker thread (``decode``): base64 to bytes to a Pillow image, shrunk at once
to at most ``MAX_PIXELS`` on its longer side, so a 20-megapixel screenshot costs the UI nothing
and the drawing works on a small image. ``cells`` says how many columns and rows it is drawn
in: at most the pane's width and ``MAX_ROWS`` rows, the aspect ratio kept.
"""

from __future__ import annotations

import base64
import binascii
import io
import math
from dataclasses import dataclass
from typing import Any

MAX_ROWS = 20
"""The most rows an image takes in the pane (two pixel rows a row, drawn as half blocks)."""
MAX_PIXELS = 400
"""Decoded images are shrunk to this on their longer side: more than the pane ever draws."""


@dataclass(frozen=True)
class Picture:
    """A decoded image ready to draw, or why there is none."""

    image: Any = None
    """A Pillow image in RGB mode, or None."""
    error: str = ""


def drawable(block: Any) -> bool:
    """Whether ``block`` is an image with data in the file (a url is never fetched)."""
    return getattr(block, "type", None) == "image" and bool(getattr(block, "data", None))


def decode(block: Any) -> Picture:
    """``block``'s image decoded and shrunk; a ``Picture`` with an error if it will not decode."""
    try:
        from PIL import Image
    except ImportError:  # (a dependency, but a distribution may leave it out)
        return Picture(error="images are drawn with Pillow, which is not installed")
    try:
        raw = base64.b64decode(block.data, validate=False)
    except (binascii.Error, ValueError):
        return Picture(error="the data is not valid base64")
    try:
        with Image.open(io.BytesIO(raw)) as opened:
            opened.draft("RGB", (MAX_PIXELS, MAX_PIXELS))  # JPEG: decode at a smaller scale
            image = opened.convert("RGB")
        image.thumbnail((MAX_PIXELS, MAX_PIXELS))
    except Exception as exc:  # Pillow raises many kinds (a bomb, a truncated file...)
        return Picture(error=f"the image does not decode: {type(exc).__name__}")
    return Picture(image)


def cells(width: int, height: int, max_columns: int, max_rows: int = MAX_ROWS) -> tuple[int, int]:
    """Columns and rows to draw a ``width`` x ``height`` pixel image in: a cell is about
    twice as high as wide, so a row holds two pixel rows; never wider than ``max_columns``,
    higher than ``max_rows`` or bigger than the image itself."""
    if width <= 0 or height <= 0 or max_columns <= 0:
        return 0, 0
    columns = min(max_columns, width)
    rows = max(1, math.ceil(columns * height / width / 2))
    if rows > max_rows:
        rows = max_rows
        columns = max(1, min(columns, round(rows * 2 * width / height)))
    return columns, rows
