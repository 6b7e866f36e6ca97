"""Pictures in Kitty's graphics protocol, by Unicode placeholders (headless).

A terminal that speaks the protocol (Kitty, Ghostty) is sent the image once, out of band
(``transmit``), as a *virtual placement* of so many columns and rows; the picture is then drawn
by writing placeholder cells (``placeholder_rows``): the character U+10EEEE whose foreground
colour names the image and whose combining marks name the cell's row (and, on a row's first
cell, its column: the next cells of a row follow on). Placeholders are text: they scroll,
crop and redraw with the lines of the detail pane, which is why this way is the one that fits
a pane that draws its own lines. Specification:
https://sw.kovidgoyal.net/kitty/graphics-protocol/#unicode-placeholders

Which way a terminal gets (``protocol``) is told by its environment, never by asking it:
an answer to a question would arrive among the keys the app reads.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping

PLACEHOLDER = "\U0010eeee"

# The protocol's row and column numbers, first ones: its table of combining marks (Unicode's
# combining class 230 marks without a decomposition, minus those normalisation may fuse with a
# letter) begins with the thirty of U+0300-U+036F (tests/tui/model/test_kitty.py derives them).
DIACRITICS = tuple(
    chr(c)
    for c in (
        0x0305, 0x030D, 0x030E, 0x0310, 0x0312, 0x033D, 0x033E, 0x033F, 0x0346, 0x034A,
        0x034B, 0x034C, 0x0350, 0x0351, 0x0352, 0x0357, 0x035B, 0x0363, 0x0364, 0x0365,
        0x0366, 0x0367, 0x0368, 0x0369, 0x036A, 0x036B, 0x036C, 0x036D, 0x036E, 0x036F,
    )
)  # fmt: skip

CHUNK = 4096
"""Base64 characters sent in one escape sequence (the protocol's limit)."""


def protocol(env: Mapping[str, str]) -> str:
    """``"kitty"`` for a terminal known by its environment to draw Kitty placeholders, else
    ``"blocks"`` (half blocks, which every terminal draws). ``MSGVIEWER_IMAGES`` set to either
    decides instead; inside tmux only that does (tmux passes the pictures on only when its
    ``allow-passthrough`` option is on)."""
    chosen = env.get("MSGVIEWER_IMAGES", "").strip().lower()
    if chosen in ("kitty", "blocks"):
        return chosen
    if env.get("TMUX"):
        return "blocks"
    kitty = env.get("TERM") == "xterm-kitty" or "KITTY_WINDOW_ID" in env
    return "kitty" if kitty or env.get("TERM_PROGRAM", "").lower() == "ghostty" else "blocks"


def transmit(image_id: int, png: bytes, columns: int, rows: int, *, tmux: bool = False) -> str:
    """The escape sequences that send ``png`` as image ``image_id`` with a virtual placement
    of ``columns`` x ``rows`` cells (the terminal answers nothing: ``q=2``)."""
    data = base64.standard_b64encode(png).decode("ascii")
    chunks = [data[i : i + CHUNK] for i in range(0, len(data), CHUNK)] or [""]
    out = []
    for n, chunk in enumerate(chunks):
        more = int(n < len(chunks) - 1)
        if n == 0:
            keys = f"a=T,U=1,f=100,t=d,q=2,i={image_id},c={columns},r={rows},m={more}"
        else:
            keys = f"q=2,m={more}"
        out.append(_wrap(f"\x1b_G{keys};{chunk}\x1b\\", tmux))
    return "".join(out)


def delete(image_id: int, *, tmux: bool = False) -> str:
    """The escape sequence that frees image ``image_id`` and its placements."""
    return _wrap(f"\x1b_Ga=d,d=I,q=2,i={image_id}\x1b\\", tmux)


def _wrap(sequence: str, tmux: bool) -> str:
    """Inside tmux, a sequence is passed on to the terminal in tmux's own envelope."""
    if not tmux:
        return sequence
    return "\x1bPtmux;" + sequence.replace("\x1b", "\x1b\x1b") + "\x1b\\"


def placeholder_rows(columns: int, rows: int) -> list[str]:
    """The text of each row of a placement: its first cell names row and column 0, the rest
    follow on."""
    rows = min(rows, len(DIACRITICS))
    rest = PLACEHOLDER * (columns - 1)
    return [PLACEHOLDER + DIACRITICS[r] + DIACRITICS[0] + rest for r in range(rows)]


def id_colour(image_id: int) -> tuple[int, int, int]:
    """The foreground colour that names image ``image_id`` (24 bits)."""
    return (image_id >> 16) & 0xFF, (image_id >> 8) & 0xFF, image_id & 0xFF
