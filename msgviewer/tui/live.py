"""``view(objects)``: the app on a program's own objects; the edited objects when it closes.

The objects become conversations through ``formats.live`` (the format readers), the app opens
on them and blocks until it is closed, and the conversations as edited go back in the kind
the objects were (see ``formats.live.from_conversations``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..formats.live import from_conversations, to_conversations


def view(objects: Any, *, images: bool = True, run: Callable[[Any], None] | None = None) -> Any:
    """Open the app on ``objects``, block until it closes, and return them as edited.

    ``run``: how to run the app (``app.run()`` if None); tests pass a function that drives
    it headless.
    """
    from .app import MsgViewerApp

    convs, kind = to_conversations(objects)
    app = MsgViewerApp(conversations=convs, live=True, images=images)
    if run is None:
        app.run()
    else:
        run(app)
    session = app.session
    edited = [c.conversation for c in session.convs] if session is not None else convs
    return from_conversations(edited, kind)
