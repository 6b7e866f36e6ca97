"""Pictures in Sixel, the DEC graphics format many terminals draw (headless).

A Sixel picture is not text: it is written at the cursor, over cells the detail pane keeps
blank for it, and the terminal paints its pixels there until text is written over them
(``widgets.picture.SixelPainter`` writes it again then). ``encode`` turns a Pillow image into
the sequence: the picture quantised to at most 256 colours, the colour registers, then bands
of six pixel rows, each colour of a band a line of characters (one per column, its six bits
the rows of that colour) with runs compressed. A band costs a pass over its pixels for each
colour it holds, done by ``bytes.translate`` and integer arithmetic rather than a loop per
pixel; a screenshot takes milliseconds, a noisy photograph of 1000 x 400 pixels most of a
second, which is why the app encodes in a worker thread. Format: the VT330/VT340 Programmer
Reference, chapter 14 (https://vt100.net/docs/vt3xx-gp/chapter14.html).

Only these bytes reach the terminal: digits, the Sixel characters ``?``-``~`` and the
format's own punctuation, in the format's envelope; nothing of a file's content.
"""

from __future__ import annotations

import re
import struct
import sys
from collections.abc import Iterable
from typing import Any

START = "\x1bP0;1;0q"
"""The sequence's opening: pixel aspect from the raster attributes, bits left at 0 left alone
(a terminal that pads the last band to six rows leaves what is under the pad as it is)."""
END = "\x1b\\"

CELL = (10, 20)
"""The pixel size of a cell assumed when the terminal does not tell it."""

_ONLY = [bytes(c) + b"\x01" + bytes(255 - c) for c in range(256)]
"""Translation tables: colour ``c`` to 1, every other byte to 0."""
# four or more alike are shorter as !N than as themselves: runs of no bits (most of a line of a
# colour that is not everywhere) first, by a pattern that is quick to scan, then the others
_GAP = re.compile(rb"\?{4,}")
_RUN = re.compile(rb"([@-~])\1{3,}")


def quantise(image: Any, background: tuple[int, int, int] = (0, 0, 0)) -> Any:
    """``image`` in at most 256 colours (a Pillow image in P mode), anything transparent
    flattened on ``background``."""
    from PIL import Image

    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        rgba = image.convert("RGBA")
        flat = Image.new("RGB", rgba.size, background)
        flat.paste(rgba, mask=rgba.getchannel("A"))
        image = flat
    return image.convert("RGB").quantize(
        256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )


def encode(image: Any, background: tuple[int, int, int] = (0, 0, 0)) -> str:
    """The Sixel sequence that draws ``image`` at its size in pixels."""
    return encode_quantised(quantise(image, background))


def encode_quantised(image: Any) -> str:
    """The Sixel sequence of ``image``, already in P mode (``quantise``)."""
    width, height = image.size
    if not width or not height:
        return ""
    palette = image.getpalette() or []
    pixels = image.tobytes()
    used = sorted({*pixels})
    out = [START, f'"1;1;{width};{height}']
    for n in used:
        r, g, b = (palette[3 * n + k] if 3 * n + k < len(palette) else 0 for k in range(3))
        out.append(f"#{n};2;{_percent(r)};{_percent(g)};{_percent(b)}")
    ones = int.from_bytes(b"?" * width, "big")  # 63 in every column: no bits set
    bands = []
    for top in range(0, height, 6):
        rows = [pixels[y * width : (y + 1) * width] for y in range(top, min(top + 6, height))]
        lines = []
        for colour in sorted(set().union(*rows)):
            # a row's pixels of this colour as bytes of 1, shifted to the row's bit; added
            # up, a byte per column with the band's rows of this colour (no byte carries)
            bits = 0
            for bit, row in enumerate(rows):
                bits |= int.from_bytes(row.translate(_ONLY[colour]), "big") << bit
            line = (bits + ones).to_bytes(width, "big").rstrip(b"?")
            line = _RUN.sub(_run, _GAP.sub(_gap, line))
            lines.append(f"#{colour}" + line.decode("ascii"))
        bands.append("$".join(lines))
    out.append("-".join(bands))
    out.append(END)
    return "".join(out)


def _gap(match: re.Match[bytes]) -> bytes:
    return b"!%d?" % len(match[0])


def _run(match: re.Match[bytes]) -> bytes:
    return b"!%d%c" % (len(match[0]), match[1][0])


def _percent(value: int) -> int:
    return round(value * 100 / 255)


def cell_size(fds: Iterable[int] | None = None) -> tuple[int, int]:
    """The pixel width and height of a cell, from the terminal's window size (the
    ``TIOCGWINSZ`` ioctl on its tty, ``fds`` or else the standard streams: pixels over
    cells), else ``CELL``. Nothing is asked on the input stream, where an answer would arrive
    among the keys."""
    try:
        import fcntl
        import termios
    except ImportError:  # (Windows)
        return CELL
    if fds is None:
        fds = []
        for stream in (sys.__stdout__, sys.__stderr__, sys.__stdin__):
            try:
                fds.append(stream.fileno())  # type: ignore[union-attr]
            except (AttributeError, OSError, ValueError):
                continue
    for fd in fds:
        try:
            packed = fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8)
        except OSError:
            continue
        rows, columns, x_pixels, y_pixels = struct.unpack("HHHH", packed)
        if rows and columns and x_pixels and y_pixels:
            return max(1, x_pixels // columns), max(1, y_pixels // rows)
    return CELL


def at(x: int, y: int, sequence: str) -> str:
    """``sequence`` written with its top left corner at screen cell ``x``, ``y`` (from 0), the
    cursor saved before and put back after."""
    return f"\x1b7\x1b[{y + 1};{x + 1}H{sequence}\x1b8"
