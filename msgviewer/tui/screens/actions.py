"""What copy and save do with the selected node (kept out of the screen to keep it short)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...core.serialize import block_to_dict, message_to_dict
from ..model.labels import invalid_text
from ..model.media import suggested_filename
from ..model.preview import full_json
from ..model.rows import ARTIFACT, BLOCK, CALL, CONV, INVALID, LINE, MORE, Row, block_text


def copy_payload(row: Row, conv: Any, *, as_json: bool) -> tuple[str, str]:
    """(text to copy, what it is) for the node at ``row``: its text, or its native JSON."""
    kind, _, m, i, _, _ = row
    if kind == CONV:
        from ...core.serialize import to_dict

        value: Any = to_dict(conv.messages, title=conv.conversation.title)
        return _json(value), "the conversation as JSON"
    message = conv.messages[m]
    if kind in (BLOCK, LINE, MORE) and i < len(message.blocks):
        block = message.blocks[i]
        if as_json or not block_text(block):
            return _json(block_to_dict(block)), f"{block.type} block as JSON"
        return block_text(block), f"{block.type} text"
    if kind == CALL:
        call = message.tool_calls[i]
        if as_json:
            return _json({"id": call.id, "name": call.name, "args": call.args}), "tool call as JSON"
        return _json(call.args), "tool arguments"
    if kind == INVALID:
        call = message.invalid_tool_calls[i]
        what = "invalid call arguments" if call.args is not None else "invalid call error"
        return invalid_text(call), what
    if kind == ARTIFACT:
        return _json(message.artifacts[i]), "artifact as JSON"
    if as_json or not message.text:
        return _json(message_to_dict(message)), "message as JSON"
    return message.text, "message text"


def _json(value: Any) -> str:
    return full_json(value)  # any depth: orjson alone stops at 254 levels


def save_media(screen: Any, block: Any, stem: str) -> None:
    """Ask where to save a media block's inline data, then write it there."""
    from .prompt import PromptScreen

    data = block.decoded()
    if data is None:
        where = block.url or (f"file id {block.file_id}" if block.file_id else "nowhere")
        screen.notify(f"No inline data to save: the {block.type} is at {where}", timeout=4)
        return

    def write(path: str | None) -> None:
        if not path:
            return
        target = Path(path).expanduser()
        if target.exists():
            screen.notify(f"{target} exists; choose another name", severity="warning")
            return
        try:
            target.write_bytes(data)
        except OSError as exc:
            screen.notify(f"Could not save: {exc.strerror or exc}", severity="error")
            return
        screen.notify(f"Saved {len(data):,} bytes to {target}", timeout=3)

    prompt = PromptScreen(f"Save {block.type} as", value=suggested_filename(block, stem))
    screen.app.push_screen(prompt, write)
