"""Make text from a file safe to show: control characters become visible, inert text.

Content comes from files written by models and tools that read the web. Shown raw, an escape
sequence could recolour the terminal, write the clipboard (OSC 52) or plant a hyperlink
(OSC 8), and a bidi override could make text read differently from what it is. ``visible``
replaces every such character with a printable stand-in, so what is shown is what is there.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls, and the bidi embedding/override/isolate
# marks; carriage return too, which can hide what precedes it on the line.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _stand_in(match: re.Match[str]) -> str:
    ch = match.group()
    code = ord(ch)
    if code < 0x20:
        return chr(0x2400 + code)  # control pictures: ␛ for ESC, ␇ for BEL...
    if code == 0x7F:
        return "\u2421"  # ␡
    return f"<U+{code:04X}>"


def visible(text: str) -> str:
    """``text`` with every control and bidi-override character replaced by a visible mark."""
    if _UNSAFE.search(text) is None:
        return text
    return _UNSAFE.sub(_stand_in, text)


def _one_stand_in(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)
    return "\u2421" if code == 0x7F else "\ufffd"


def visible_in_place(text: str) -> str:
    """``text`` with every control and bidi character replaced by *one* visible character.

    For text being edited: the stand-ins keep every other character in its column. C0
    controls and DEL show as control pictures (␛, ␀), C1 controls and bidi marks as ``\ufffd``.
    """
    if _UNSAFE.search(text) is None:
        return text
    return _UNSAFE.sub(_one_stand_in, text)


def one_line(text: str, width: int | None = None) -> str:
    """A visible single-line summary: whitespace runs collapsed, cut to ``width`` with '…'."""
    flat = " ".join(visible(text).split())
    if width is not None and len(flat) > width:
        return flat[: max(0, width - 1)] + "…"
    return flat
