"""Pictures in Kitty's graphics protocol, by Unicode placeholders (headless).

A terminal that speaks the protocol (Kitty, Ghostty) is sent the image once, out of band
(``transmit``), as a *virtual placement* of so many columns and rows; the picture is then drawn
by writing placeholder cells (``placeholder_rows``): the character U+10EEEE whose foreground
colour names the image and whose combining marks name the cell's row (and, on a row's first
cell, its column: the next cells of a row follow on). Placeholders are text: they scroll,
crop and redraw with the lines of the detail pane, which is why this way is the one that fits
a pane that draws its own lines. Specification:
https://sw.kovidgoyal.net/kitty/graphics-protocol/#unicode-placeholders

Which way a terminal gets (``protocol``: these placeholders, Sixel, or half blocks) is told by
its environment, never by asking it: an answer to a question would arrive among the keys the
app reads.
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
    """How pictures reach the terminal whose environment is ``env``: ``"kitty"`` (its
    placeholders), ``"sixel"`` (``model.sixel``) for terminals known to draw those, else
    ``"blocks"`` (half blocks, which every terminal draws). ``MSGVIEWER_IMAGES`` set to one of
    them decides instead; inside a multiplexer (tmux, screen, zellij) only that does: the
    environment names the terminal the multiplexer was started in, and tmux passes pictures
    on only when set up to (its ``allow-passthrough`` option; Sixel from version 3.4)."""
    chosen = env.get("MSGVIEWER_IMAGES", "").strip().lower()
    if chosen in ("kitty", "sixel", "blocks"):
        return chosen
    if env.get("TMUX") or env.get("STY") or env.get("ZELLIJ"):
        return "blocks"
    term = env.get("TERM", "")
    program = env.get("TERM_PROGRAM", "").lower()
    if term == "xterm-kitty" or "KITTY_WINDOW_ID" in env or program == "ghostty":
        return "kitty"
    return "sixel" if _draws_sixel(env, term, program) else "blocks"


def _draws_sixel(env: Mapping[str, str], term: str, program: str) -> bool:
    """Whether the environment names a terminal that draws Sixel in every version that sets
    it. xterm draws Sixel only when started as a VT340 (``-ti vt340``), which its
    environment does not say; VS Code's terminal only with a setting: both are left to
    ``MSGVIEWER_IMAGES``."""
    if term in ("foot", "foot-extra"):  # foot's own terminfo names; Sixel since 1.2 (2020)
        return True
    if program == "wezterm":  # Sixel in every release that sets TERM_PROGRAM
        return True
    if program == "iterm.app":  # Sixel since 3.3 (2019)
        return True
    if "MLTERM" in env:  # mlterm sets it to its version; Sixel since 3.1 (2012)
        return True
    version = env.get("KONSOLE_VERSION", "")  # Konsole: Sixel from 22.04, "220400"
    if version.isdigit() and int(version) >= 220400:
        return True
    # Windows Terminal: Sixel from 1.22 (2024); the variable does not say which version, and
    # an earlier one drops the sequence unread, leaving the picture's cells blank
    return "WT_SESSION" in env


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
