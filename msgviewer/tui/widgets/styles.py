"""Component styles for widgets that draw their own lines."""

from __future__ import annotations

from rich.style import Style
from textual.widget import Widget


def component_style(widget: Widget, component: str) -> Style:
    """``component``'s style to lay over a line's own (partial: a cursor's background still
    shows through), with its colour as the whole style has it. A colour with an alpha
    (``$text-muted``) is text blended over the background, which a partial style has none of:
    muted text came out white."""
    partial = widget.get_component_rich_style(component, partial=True)
    if partial.color is None:
        return partial
    return partial + Style(color=widget.get_component_rich_style(component).color)
