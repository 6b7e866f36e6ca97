"""Opening the diff screen: ``msgviewer diff --view A B``, and the palette's "Compare with
file…" (the conversation in view, edits included, against a file read for the purpose).

When the diff screen closes on a message, the normal view shows it: in ``--view`` both
conversations are open (the second file's side is preferred), after "Compare with file…" only
the first is, so a message found only in the file is named in a notification instead.
"""

from __future__ import annotations

from typing import Any

from ...core.diff import diff
from ...core.errors import MsgviewerError
from ...formats import load
from ..model.rows import MSG
from .diff import DiffScreen, Target


def show_diff(
    main: Any,
    conv_a: int,
    b: Any,
    names: tuple[str, str],
    options: dict[str, bool] | None = None,
    conv_b: int | None = None,
) -> None:
    """Push the diff of conversation ``conv_a`` of the session against messages ``b``;
    ``conv_b``: the session's conversation holding ``b``, when it is open too."""
    a = main.session.convs[conv_a].messages
    result = diff(a, b, **(options or {}))

    def opened(target: Target | None) -> None:
        if target is None:
            return
        ia, ib = target
        if conv_b is not None and ib is not None:
            main.tree.go_to(MSG, conv_b, ib)
        elif ia is not None:
            main.tree.go_to(MSG, conv_a, ia)
        else:
            main.notify(f"Message {ib} is only in {names[1]}", timeout=3)
            return
        main.tree.focus()

    main.app.push_screen(DiffScreen(result, a, b, names), opened)


def compare_with_file(main: Any) -> None:
    """Ask for a file and show the conversation in view against its first conversation."""
    from .prompt import PromptScreen

    if main.session is None or not main.session.convs:
        return
    row = main.tree.current_row
    conv = row[1] if row else 0

    def chosen(path: str | None) -> None:
        if not path:
            return
        try:
            conversations = load(path)
        except MsgviewerError as exc:
            main.notify(str(exc), severity="error")
            return
        if not conversations:
            main.notify(f"{path} holds no conversation", severity="warning")
            return
        here = main.session.convs[conv]
        mine = here.conversation.title or "the conversation in view"
        show_diff(main, conv, conversations[0].messages, (mine, path))

    main.app.push_screen(PromptScreen("Compare with file", placeholder="path"), chosen)
