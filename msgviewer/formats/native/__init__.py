"""``msgviewer``: our own versioned JSON (one conversation per file, or JSONL, one per line).

Detection, reading and writing are here; ``typed`` decodes a file straight into typed records,
the quick way ``load`` takes first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.serialize import FORMAT_NAME, check_header, messages_from_list, to_dict
from ..base import Context, Conversation, Format
from ..io import json_bytes, jsonl_bytes


def splice_edit(
    original: bytes, bases: Sequence[Conversation], news: Sequence[Conversation]
) -> Any:
    """``edits.splice_edit``, imported with the first save of an edit (not with every load)."""
    from .edits import splice_edit as splice

    return splice(original, bases, news)


def sniff(value: Any) -> bool:
    return isinstance(value, dict) and value.get("format") == FORMAT_NAME


def read(value: Any, ctx: Context) -> list[Conversation]:
    if isinstance(value, list):  # a JSON array of documents
        out = []
        for i, item in enumerate(value):
            try:
                out.extend(read(item, ctx))
            except Exception as exc:
                if hasattr(exc, "located"):
                    raise exc.located(path_prefix=f"$[{i}]") from None
                raise
        return out
    check_header(value)
    metadata = value.get("metadata") or {}
    title = value.get("title")
    if not isinstance(metadata, dict):
        raise ctx.error("metadata must be an object", "$.metadata")
    if title is not None and not isinstance(title, str):
        raise ctx.error("title must be a string", "$.title")
    messages = messages_from_list(value.get("messages"), "$.messages")
    return [Conversation(tuple(messages), FORMAT_NAME, metadata, title)]


def _document(conv: Conversation) -> dict[str, Any]:
    return to_dict(conv.messages, title=conv.title, metadata=conv.metadata)


def write(conversations: Sequence[Conversation], ctx: Context) -> bytes:
    if len(conversations) == 1:
        # Replay fixtures live in repositories: pretty-printed for readable diffs.
        return json_bytes(_document(conversations[0]), pretty=True)
    return jsonl_bytes([_document(c) for c in conversations])


FORMAT = Format(
    name=FORMAT_NAME,
    description="msgviewer's own versioned JSON (JSONL: one conversation per line)",
    sniff=sniff,
    read=read,
    write=write,
    multi=True,
    cannot_carry="nothing: every field and block is kept",
    splice_edit=splice_edit,
)
