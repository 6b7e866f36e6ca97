"""Pulling inline media out of conversations into files: each base64 image, audio, video or
file block is written once to a directory, named by its content's hash with an extension for
its type, and the block then refers to it by a relative path, so a fixture stays small and
its diffs readable."""

from __future__ import annotations

import dataclasses
import hashlib
import mimetypes
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.blocks import ToolResultBlock
from ..core.message import Message
from ..formats import Conversation
from ..formats.io import atomic_write

_EXTENSIONS = {
    "image/jpeg": ".jpg",
    "audio/mpeg": ".mp3",
    "audio/wav": ".wav",
    "text/plain": ".txt",
}


@dataclass
class Extracted:
    """The conversations with references in place of inline data, and the files written."""

    conversations: list[Conversation]
    files: list[str] = field(default_factory=list)
    """Paths written (or already there with the same content), in order of first use."""
    references: list[str] = field(default_factory=list)
    """How the blocks now refer to those files (relative paths, ``/``-separated), same order."""


def extension(mime: str | None) -> str:
    """The file extension for a media type (``.bin`` when unknown)."""
    if not mime:
        return ".bin"
    return _EXTENSIONS.get(mime) or mimetypes.guess_extension(mime, strict=False) or ".bin"


def extract_media(
    conversations: Sequence[Conversation], directory: str, *, relative_to: str | None = None
) -> Extracted:
    """Write each inline medium to ``directory``; blocks refer to it relative to
    ``relative_to`` (the directory the output file is written to; the working directory
    when None)."""
    os.makedirs(directory, exist_ok=True)
    base = relative_to if relative_to is not None else os.curdir
    out = Extracted([])
    seen: dict[str, str] = {}

    def pulled(block: Any) -> Any:
        if isinstance(block, ToolResultBlock) and isinstance(block.content, tuple):
            inner = tuple(pulled(b) for b in block.content)
            changed = any(a is not b for a, b in zip(inner, block.content, strict=True))
            return dataclasses.replace(block, content=inner) if changed else block
        raw = block.decoded() if hasattr(block, "decoded") else None
        if raw is None:
            return block
        digest = hashlib.sha256(raw).hexdigest()[:32]
        ref = seen.get(digest)
        if ref is None:
            path = os.path.join(directory, digest + extension(block.mime_type))
            if not (os.path.exists(path) and _same(path, raw)):
                atomic_write(path, raw)
            ref = seen[digest] = os.path.relpath(path, base).replace(os.sep, "/")
            out.files.append(path)
            out.references.append(ref)
        return dataclasses.replace(block, data=None, url=ref)

    for conv in conversations:
        messages = [_message(m, pulled) for m in conv.messages]
        if all(a is b for a, b in zip(messages, conv.messages, strict=True)):
            out.conversations.append(conv)
        else:
            out.conversations.append(dataclasses.replace(conv, messages=tuple(messages)))
    return out


def _message(message: Message, pulled: Any) -> Message:
    if isinstance(message.content, str):
        return message
    blocks = tuple(pulled(b) for b in message.content)
    if all(a is b for a, b in zip(blocks, message.content, strict=True)):
        return message
    return dataclasses.replace(message, content=blocks)


def _same(path: str, raw: bytes) -> bool:
    with open(path, "rb") as f:
        return f.read() == raw
