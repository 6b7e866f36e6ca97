"""Content blocks: the typed parts a message's content can be made of.

Every block has a ``type`` tag (a class attribute) and an ``extra`` dict holding the provider
fields the model does not name (``cache_control``, a Gemini ``thoughtSignature``...), so a
round trip through any format keeps them.
"""

from __future__ import annotations

import binascii
from dataclasses import field
from typing import Any, ClassVar

from ._frozen import set_field, value


@value
class CitationBlock:
    """A source a piece of text relies on."""

    type: ClassVar[str] = "citation"
    url: str | None = None
    title: str | None = None
    cited_text: str | None = None
    """The quoted passage, when the provider gives it."""
    start: int | None = None
    """Start offset of the cited span (characters, pages or blocks: see ``extra``)."""
    end: int | None = None
    extra: dict[str, Any] = field(default_factory=dict, kw_only=True)


@value
class TextBlock:
    """Plain text, optionally with the citations that back it."""

    type: ClassVar[str] = "text"
    text: str
    citations: tuple[CitationBlock, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict, kw_only=True)

    def __post_init__(self) -> None:
        if type(self.citations) is not tuple:
            set_field(self, "citations", tuple(self.citations))


def parse_data_uri(uri: str) -> tuple[str | None, str] | None:
    """``data:image/png;base64,AAA`` -> ``("image/png", "AAA")``; None if not base64 data."""
    if not uri.startswith("data:"):
        return None
    header, sep, payload = uri[5:].partition(",")
    if not sep or not header.endswith(";base64"):
        return None
    mime = header[: -len(";base64")] or None
    return mime, payload


class _Media:
    """Shared behaviour of image, audio, video and file blocks."""

    __slots__ = ()
    url: str | None
    data: str | None

    def __post_init__(self) -> None:
        url = self.url
        if url is not None and url.startswith("data:") and self.data is None:
            parsed = parse_data_uri(url)
            if parsed is not None:
                mime, data = parsed
                set_field(self, "url", None)
                set_field(self, "data", data)
                if self.mime_type is None:  # type: ignore[attr-defined]
                    set_field(self, "mime_type", mime)

    @property
    def data_uri(self) -> str | None:
        """The inline data as a ``data:`` URI, if there is inline data."""
        if self.data is None:
            return None
        return f"data:{self.mime_type or 'application/octet-stream'};base64,{self.data}"  # type: ignore[attr-defined]

    def decoded(self) -> bytes | None:
        """The inline data decoded from base64 (None if there is none or it is not base64)."""
        if self.data is None:
            return None
        try:
            return binascii.a2b_base64(self.data)
        except (binascii.Error, ValueError):
            return None

    @property
    def decoded_size(self) -> int | None:
        """Bytes the base64 data decodes to, computed without decoding it."""
        data = self.data
        if data is None:
            return None
        body = data.rstrip()
        padding = len(body) - len(body.rstrip("="))
        # MIME-style base64 breaks lines: the decoder skips whitespace, so the size must too.
        chars = len(body)
        for space in ("\n", "\r", " ", "\t"):
            chars -= body.count(space)
        return max(chars * 3 // 4 - padding, 0)


@value
class ImageBlock(_Media):
    """An image: by url, inline base64 ``data``, or a provider ``file_id``."""

    type: ClassVar[str] = "image"
    url: str | None = None
    data: str | None = None
    """Base64 text, never decoded until asked for."""
    file_id: str | None = None
    mime_type: str | None = None
    filename: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, kw_only=True)


@value
class AudioBlock(_Media):
    """Audio: by url, inline base64 ``data``, or a provider ``file_id``."""

    type: ClassVar[str] = "audio"
    url: str | None = None
    data: str | None = None
    file_id: str | None = None
    mime_type: str | None = None
    filename: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, kw_only=True)


@value
class VideoBlock(_Media):
    """Video: by url, inline base64 ``data``, or a provider ``file_id``."""

    type: ClassVar[str] = "video"
    url: str | None = None
    data: str | None = None
    file_id: str | None = None
    mime_type: str | None = None
    filename: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, kw_only=True)


@value
class FileBlock(_Media):
    """A document or other file: by url, inline base64 ``data``, or a provider ``file_id``."""

    type: ClassVar[str] = "file"
    url: str | None = None
    data: str | None = None
    file_id: str | None = None
    mime_type: str | None = None
    filename: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, kw_only=True)


@value
class ReasoningBlock:
    """Model reasoning: readable ``text``, and/or opaque ``data`` (redacted or encrypted)."""

    type: ClassVar[str] = "reasoning"
    text: str = ""
    signature: str | None = None
    """Provider signature that must be sent back unchanged (Anthropic thinking)."""
    redacted: bool = False
    data: str | None = None
    """Opaque content: redacted thinking or encrypted reasoning, kept verbatim."""
    extra: dict[str, Any] = field(default_factory=dict, kw_only=True)


@value
class ToolCallBlock:
    """A client-side tool call inside the content (Anthropic ``tool_use``...)."""

    type: ClassVar[str] = "tool_call"
    id: str | None
    name: str
    args: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict, kw_only=True)


@value
class ToolCallChunkBlock:
    """A streamed fragment of a tool call; ``args`` is a piece of JSON text."""

    type: ClassVar[str] = "tool_call_chunk"
    id: str | None = None
    name: str | None = None
    args: str | None = None
    index: int | None = None
    extra: dict[str, Any] = field(default_factory=dict, kw_only=True)


@value
class ServerToolCallBlock:
    """A tool the provider ran itself (web search, code execution...)."""

    type: ClassVar[str] = "server_tool_call"
    id: str | None
    name: str
    args: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict, kw_only=True)


@value
class ServerToolResultBlock:
    """The result of a server-side tool call; ``content`` is any JSON value."""

    type: ClassVar[str] = "server_tool_result"
    tool_call_id: str | None
    content: Any
    status: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, kw_only=True)


@value
class ToolResultBlock:
    """The result of a client-side tool call inside the content (Anthropic ``tool_result``)."""

    type: ClassVar[str] = "tool_result"
    tool_call_id: str | None
    content: str | tuple[Block, ...]
    is_error: bool = False
    extra: dict[str, Any] = field(default_factory=dict, kw_only=True)

    def __post_init__(self) -> None:
        if type(self.content) is list:
            set_field(self, "content", tuple(self.content))


@value
class ErrorBlock:
    """An error the provider or the harness reported in place of content."""

    type: ClassVar[str] = "error"
    message: str
    code: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, kw_only=True)


@value
class UnknownBlock:
    """A block of a kind msgviewer does not model, kept verbatim."""

    type: ClassVar[str] = "unknown"
    kind: str
    """The provider's own type name."""
    data: Any
    """The original value, untouched."""
    extra: dict[str, Any] = field(default_factory=dict, kw_only=True)


Block = (
    TextBlock
    | ImageBlock
    | AudioBlock
    | VideoBlock
    | FileBlock
    | ReasoningBlock
    | CitationBlock
    | ToolCallBlock
    | ToolCallChunkBlock
    | ServerToolCallBlock
    | ServerToolResultBlock
    | ToolResultBlock
    | ErrorBlock
    | UnknownBlock
)

BLOCK_TYPES: dict[str, type] = {
    cls.type: cls
    for cls in (
        TextBlock,
        ImageBlock,
        AudioBlock,
        VideoBlock,
        FileBlock,
        ReasoningBlock,
        CitationBlock,
        ToolCallBlock,
        ToolCallChunkBlock,
        ServerToolCallBlock,
        ServerToolResultBlock,
        ToolResultBlock,
        ErrorBlock,
        UnknownBlock,
    )
}
"""Block class by its ``type`` tag."""

MEDIA_TYPES = frozenset({"image", "audio", "video", "file"})
