"""One row of the conversation tree drawn as a ``Strip``: its label pieces in their styles.

The row's text is cut to the width with an ellipsis, its right-hand pieces (counts, status)
kept at the right edge; search matches are highlighted, and the cursor, the call-result pair
and a trim preview's cut are laid over it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.strip import Strip

from ..model.labels import Piece

STYLE_NAMES = (
    "role-system",
    "role-user",
    "role-assistant",
    "role-tool",
    "index",
    "arrow",
    "summary",
    "dim",
    "kind",
    "call",
    "ok",
    "warn",
    "error",
    "reasoning",
    "media",
    "tokens",
    "cost",
    "line",
    "gutter",
    "conv",
    "cursor",
    "pair",
    "match",
    "cut",
)
"""The tree's component styles (``conversation--<name>``): what label pieces name."""


def row_strip(
    left: Sequence[Piece],
    right: Sequence[Piece],
    style: Callable[[str], Style],
    width: int,
    base: Style,
    console: Console,
    highlight: re.Pattern[str] | None,
    *,
    cursor: bool,
    pair: bool,
    cut: bool,
) -> Strip:
    """The row with ``left`` and ``right`` pieces (text, style name) at ``width`` cells."""
    text = Text.assemble(*[(t, style(s)) for t, s in left if t], no_wrap=True, end="")
    right_text = Text.assemble(*[(t, style(s)) for t, s in right if t], end="")
    right_len = right_text.cell_len
    if highlight is not None:
        text.highlight_regex(highlight, style("match"))
    room = max(0, width - right_len - (1 if right_len else 0))
    if text.cell_len > room:
        text.truncate(max(0, room - 1))
        text.append("…", style("dim"))
    text.pad_right(room - text.cell_len)
    if right_len:
        text.append(" ")
        text.append_text(right_text)
    segments = list(text.render(console))
    strip = Strip(segments).crop_extend(0, width, base)
    if cursor:
        strip = strip.apply_style(base + style("cursor"))
    elif pair:
        strip = strip.apply_style(base + style("pair"))
    if cut:  # over the row's own colours: what would go reads as struck out
        strip = Strip(Segment.apply_style(list(strip), post_style=style("cut")), width)
    return strip.simplify()
