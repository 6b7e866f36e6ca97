"""Rich renderables for the detail pane: JSON, headings, usage, metadata, media facts.

Every string from a file goes in through ``Text(...)`` after ``printable``: never as markup.
"""

from __future__ import annotations

import warnings
from typing import Any

import orjson
from rich.highlighter import JSONHighlighter
from rich.table import Table
from rich.text import Text

from ...core.json_numbers import loads_whole
from ...core.message import Message
from ...core.usage import Usage
from ..model import fmt
from ..model.media import media_info
from ..model.preview import Preview, full_json, json_preview, text_preview
from ..model.safe import printable

MORE_HINT = "v shows all, c copies it"
"""How to reach what a preview left out (the keys of the main screen)."""

_json_highlighter = JSONHighlighter()


def json_dumps(value: Any) -> str:
    """Pretty JSON text of the whole value, at any depth (for workers: costs its size)."""
    return full_json(value)


def _more(text: Text, preview: Preview) -> Text:
    if preview.cut:
        text.append(f"\n… {preview.more} ({MORE_HINT})", style="dim")
    return text


def json_text(value: Any) -> Text:
    """A value as highlighted, pretty-printed JSON: a bounded preview of a big or deep one."""
    preview = json_preview(value)
    text = Text(printable(preview.text))
    _json_highlighter.highlight(text)
    return _more(text, preview)


def plain_text(value: str, style: str = "") -> Text:
    """File text shown literally: the first ``PREVIEW_CHARS`` of a long one."""
    preview = text_preview(value)
    return _more(Text(printable(preview.text), style=style), preview)


def heading(*parts: tuple[str, str] | str) -> Text:
    """A section heading from (text, style) pieces; plain strings are program text."""
    text = Text()
    for part in parts:
        if isinstance(part, str):
            text.append(part)
        else:
            text.append(printable(part[0]), style=part[1])
    return text


def usage_table(usage: Usage) -> Table:
    """Token counts of one usage record."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="dim")
    table.add_column(justify="right")
    for label, value in (
        ("input", usage.input_tokens),
        ("output", usage.output_tokens),
        ("cache read", usage.cache_read_tokens),
        ("cache write", usage.cache_write_tokens),
        ("reasoning", usage.reasoning_tokens),
        ("total", usage.total_tokens),
    ):
        table.add_row(label, f"{value:,}")
    return table


def metadata_table(message: Message) -> Table:
    """Ids, name, usage, response metadata, artifacts and other metadata of a message."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for label, value in (
        ("id", message.id),
        ("name", message.name),
        ("tool call id", message.tool_call_id),
        ("model", message.model),
    ):
        if value:
            table.add_row(label, Text(printable(str(value))))
    if message.is_error:
        table.add_row("error", Text("yes: the tool failed", style="bold red"))
    if message.usage is not None:
        table.add_row("usage", usage_table(message.usage))
        if message.usage.extra:
            table.add_row("provider usage", json_text(message.usage.extra))
    if message.response_metadata:
        table.add_row("response", json_text(message.response_metadata))
    if message.artifacts:
        table.add_row("artifacts", json_text(list(message.artifacts)))
    if message.metadata:
        table.add_row("metadata", json_text(message.metadata))
    return table


def media_text(block: Any) -> Text:
    """Facts about a media block; its base64 data is never shown."""
    info = media_info(block)
    text = Text()
    rows = [
        ("type", info.mime_type or "unknown"),
        ("size", fmt.size(info.size) + " (inline base64)" if info.size is not None else None),
        (
            "dimensions",
            f"{info.dimensions[0]} x {info.dimensions[1]} px" if info.dimensions else None,
        ),
        ("url", info.url),
        ("file id", info.file_id),
        ("filename", info.filename),
    ]
    for label, value in rows:
        if value:
            text.append(f"{label:<11}", style="bold")
            text.append(printable(str(value)) + "\n")
    if info.size is not None:
        text.append("w saves it to a file", style="dim")
    if block.extra:
        text.append("\nextra      ", style="bold")
        text.append_text(json_text(block.extra))
    return text


def source_text(message: Message, conv: Any) -> tuple[Text, list[str]]:
    """The message as its original format writes it, and what that format could not carry."""
    from ...formats import Conversation, dumps, get_format

    name = conv.format
    try:
        fmt_ = get_format(name)
    except Exception as exc:
        return Text(printable(str(exc)), style="red"), []
    if not fmt_.can_write:
        return Text(f"The {name} format can be read but not written.", style="dim"), []
    single = Conversation((message,), format=name, metadata=conv.metadata, title=conv.title)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            data = dumps(single, format=name)
        except Exception as exc:  # a writer's refusal is something to show, not a crash
            return Text(printable(f"{type(exc).__name__}: {exc}"), style="red"), []
    notes = [str(w.message) for w in caught]
    return json_text_of_bytes(data), notes


def json_text_of_bytes(data: bytes) -> Text:
    """File bytes as pretty JSON (or pretty JSONL, one record after another)."""
    try:
        return json_text(loads_whole(data))  # (integers past 64 bits shown as written)
    except orjson.JSONDecodeError:
        pass
    out = Text()
    for line in data.splitlines():
        if not line.strip():
            continue
        try:
            out.append_text(json_text(loads_whole(line)))
        except orjson.JSONDecodeError:
            out.append(printable(line.decode("utf-8", "replace")))
        out.append("\n")
    return out
