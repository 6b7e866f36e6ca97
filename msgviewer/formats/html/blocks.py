"""How each part of a message reads on the page: text as safe Markdown, reasoning and tool
blocks as collapsible sections, each call linked to its result and back, errors marked, media
inline from ``data:`` URIs, or from the files extracted beside the page that the writer is told
of (an SVG in an ``img`` runs no script), everything else as escaped text or JSON."""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from html import escape
from typing import Any
from urllib.parse import quote

from ...core.blocks import (
    Block,
    CitationBlock,
    ErrorBlock,
    ReasoningBlock,
    ServerToolCallBlock,
    ServerToolResultBlock,
    TextBlock,
    ToolCallBlock,
    ToolCallChunkBlock,
    ToolResultBlock,
)
from ...core.links import CallRef, ResultRef, ToolLinks
from ...core.message import InvalidToolCall, Message
from ...core.safetext import visible
from ...core.serialize import block_to_dict
from ..base import Context, message_where
from .markdown import render, safe_url

_MIME = re.compile(r"[A-Za-z0-9.+\-]+/[A-Za-z0-9.+\-]+\Z")
_BASE64 = re.compile(r"[A-Za-z0-9+/=\s_\-]*\Z")
_RELATIVE = re.compile(r"[A-Za-z0-9._\-][A-Za-z0-9._\-/]*\Z")  # a plain relative path


def esc(text: object) -> str:
    """File text as HTML text or attribute value: control characters visible, all escaped
    (a value that is not text, where a file put one, is shown as its JSON-ish self)."""
    shown = "" if text is None else text if isinstance(text, str) else repr(text)
    return escape(visible(shown), quote=True)


def text_html(text: str) -> str:
    return f'<div class="md">{render(text)}</div>'


def pre(text: str) -> str:
    return f"<pre>{esc(text)}</pre>"


def json_pre(value: Any) -> str:
    try:
        shown = json.dumps(value, indent=2, ensure_ascii=False, default=str)
    except (ValueError, TypeError, RecursionError):
        shown = repr(value)
    return pre(shown)


def link(url: str | None, label: str) -> str:
    """A link when the address is safe (web, mail, or a relative file path), else text."""
    if url and (safe_url(url) or (_RELATIVE.match(url) and ".." not in url.split("/"))):
        return f'<a href="{esc(url)}" rel="noopener noreferrer nofollow">{esc(label)}</a>'
    return esc(label if not url else f"{label} ({url})")


class Anchors:
    """The ids of messages, calls and results in conversation ``n``, and their pairing."""

    def __init__(self, n: int, links: ToolLinks) -> None:
        self.n = n
        self.links = links

    def message(self, i: int) -> str:
        return f"c{self.n}-m{i}"

    def block(self, i: int, b: int) -> str:
        return f"c{self.n}-m{i}-b{b}"

    def call_id(self, i: int, b: int | None, c: int | None) -> str:
        return self.block(i, b) if b is not None else f"c{self.n}-m{i}-t{c}"

    def invalid_id(self, i: int, c: int) -> str:
        return f"c{self.n}-m{i}-v{c}"

    def result_id(self, i: int, b: int | None) -> str:
        return self.block(i, b) if b is not None else f"c{self.n}-m{i}-r"

    def _call_ref(self, i: int, b: int | None, c: int | None) -> CallRef | None:
        for ref in self.links.calls_in(i):
            same = ref.block_index == b and (b is not None or ref.call_index == c)
            if same and not ref.invalid:
                return ref
        return None

    def call_status(self, i: int, b: int | None, c: int | None) -> tuple[str, str | None]:
        """The call's status and the id of its result (None if it has none)."""
        ref = self._call_ref(i, b, c)
        if ref is None:
            return "unanswered", None
        result = self.links.result_of(ref)
        target = None if result is None else self.result_id(*_where(result))
        return self.links.status(ref), target

    def call_of_result(self, i: int, b: int | None) -> str | None:
        for ref in self.links.results_in(i):
            if ref.block_index == b:
                call = self.links.call_of(ref)
                if call is None:
                    return None
                if call.invalid:
                    return self.invalid_id(call.message_index, call.call_index or 0)
                return self.call_id(call.message_index, call.block_index, call.call_index)
        return None


def _where(ref: ResultRef) -> tuple[int, int | None]:
    return ref.message_index, ref.block_index


class BlockWriter:
    """Writes the parts of the messages of one conversation."""

    def __init__(
        self, anchors: Anchors, ctx: Context, local_media: Collection[str] = frozenset()
    ) -> None:
        self.a = anchors
        self.ctx = ctx
        self.local_media = local_media
        """References to media files written beside the page: drawn, not only linked."""

    def blocks(self, blocks: Sequence[Block], i: int, *, nested: bool = False) -> list[str]:
        return [self.block(b, i, None if nested else n) for n, b in enumerate(blocks)]

    def block(self, block: Block, i: int, b: int | None) -> str:
        if isinstance(block, TextBlock):
            cites = "".join(self.citation(c) for c in block.citations)
            return text_html(block.text) + (f'<ul class="cites">{cites}</ul>' if cites else "")
        if isinstance(block, ReasoningBlock):
            return self.reasoning(block)
        if isinstance(block, (ToolCallBlock, ServerToolCallBlock)):
            server = isinstance(block, ServerToolCallBlock)
            if b is None:  # (a call inside a result: shown, not linked)
                return self.call(None, block.name, block.args, i, server=server)
            return self.call(self.a.block(i, b), block.name, block.args, i, server=server)
        if isinstance(block, (ToolResultBlock, ServerToolResultBlock)):
            error = block.is_error if isinstance(block, ToolResultBlock) else False
            rid = None if b is None else self.a.result_id(i, b)
            back = None if b is None else self.a.call_of_result(i, b)
            return self.result(rid, back, block.content, i, error=error)
        if isinstance(block, ToolCallChunkBlock):
            label = f"tool call fragment {block.name or ''}".strip()
            body = pre(block.args or "")
            return f"<details open><summary><b>{esc(label)}</b></summary>{body}</details>"
        if isinstance(block, ErrorBlock):
            code = f" ({esc(str(block.code))})" if block.code is not None else ""
            return (
                f'<div class="error"><span class="badge error">error{code}</span> '
                f"{esc(block.message)}</div>"
            )
        if isinstance(block, CitationBlock):
            return f'<ul class="cites">{self.citation(block)}</ul>'
        if block.type in ("image", "audio", "video", "file"):
            return self.media(block, i, b)
        return (
            f"<details><summary><b>{esc(block.type)}</b> block</summary>"
            f"{json_pre(block_to_dict(block))}</details>"
        )

    def citation(self, c: CitationBlock) -> str:
        label = c.title or c.url or "source"
        quote = f"<blockquote>{esc(c.cited_text)}</blockquote>" if c.cited_text else ""
        return f"<li>{link(c.url, label)}{quote}</li>"

    def reasoning(self, r: ReasoningBlock) -> str:
        notes = []
        if r.redacted or (r.data and not r.text):
            notes.append("redacted" if r.redacted else "encrypted")
        if r.signature:
            notes.append("signed")
        note = f" ({esc(', '.join(notes))})" if notes else ""
        body = text_html(r.text) if r.text else '<p class="meta">(no readable text)</p>'
        return (
            f'<details class="reasoning"><summary><b>reasoning</b>{note}</summary>{body}</details>'
        )

    def call(self, cid: str | None, name: str, args: Any, i: int, *, server: bool = False) -> str:
        kind = "server tool call" if server else "tool call"
        status, target = ("", None)
        if cid is not None:
            b, c = _position(cid)
            status, target = self.a.call_status(i, b, c)
        jump = f'<a class="jump" href="#{target}">&rarr; result</a>' if target else ""
        badge = ""
        if status == "error":
            badge = ' <span class="badge error">error</span>'
        elif status == "unanswered":
            badge = ' <span class="badge">never answered</span>'
        ident = f' id="{cid}"' if cid else ""
        return (
            f'<details class="tool-call{" error" if status == "error" else ""}"{ident} open>'
            f"<summary><b>{esc(name)}</b> {kind}{badge}</summary>{jump}{json_pre(args)}</details>"
        )

    def invalid_call(self, cid: str, bad: InvalidToolCall, i: int) -> str:
        # (no text when the file kept none: Inspect's error holds it, over several lines)
        args = pre(bad.args) if bad.args is not None else ""
        error = bad.error or ""
        said = pre(error) if "\n" in error else f"<p>{esc(error)}</p>"
        return (
            f'<details class="tool-call error" id="{cid}" open><summary><b>{esc(bad.name or "?")}'
            f'</b> tool call <span class="badge error">invalid arguments</span></summary>'
            f"{args}{said}</details>"
        )

    def result(
        self, rid: str | None, back: str | None, content: Any, i: int, *, error: bool
    ) -> str:
        jump = f'<a class="jump" href="#{back}">&larr; call</a>' if back else ""
        badge = ' <span class="badge error">error</span>' if error else ""
        if isinstance(content, str):
            body = pre(content)
        elif isinstance(content, tuple) and all(hasattr(x, "type") for x in content):
            body = "".join(self.blocks(content, i, nested=True))
        else:
            body = json_pre(content)
        ident = f' id="{rid}"' if rid else ""
        cls = "tool-result error" if error else "tool-result"
        return (
            f'<details class="{cls}"{ident} open><summary><b>result</b>{badge}</summary>'
            f"{jump}{body}</details>"
        )

    def tool_message(self, m: Message, i: int) -> str:
        content: Any = m.content
        if isinstance(content, tuple) and all(isinstance(x, TextBlock) for x in content):
            content = m.text
        back = self.a.call_of_result(i, None)
        return self.result(self.a.result_id(i, None), back, content, i, error=m.is_error)

    def media(self, block: Any, i: int, b: int | None) -> str:
        mime = block.mime_type if block.mime_type and _MIME.match(block.mime_type) else None
        label = block.filename or block.type
        size = block.decoded_size
        info = f"{label} ({mime or 'unknown type'}" + (f", {size:,} bytes)" if size else ")")
        data = block.data
        uri = None
        if data is not None and mime and _BASE64.match(data):
            uri = f"data:{mime};base64,{''.join(data.split())}"
        elif data is None and mime and block.url in self.local_media:
            uri = quote(block.url)  # (a file path: "#", "?" or "%" in it are not the URL's)
        if uri is not None and mime and mime.startswith("image/"):
            return f'<img class="media" alt="{esc(label)}" src="{escape(uri)}">'
        if uri is not None and mime and mime.startswith(("audio/", "video/")):
            tag = "audio" if mime.startswith("audio/") else "video"
            player = f'<{tag} controls src="{escape(uri)}"></{tag}>'
            return f'{player}<div class="meta">{esc(info)}</div>'
        if data is not None and b is not None:
            self.ctx.lossy("inline file data (shown by name and size only)", message_where(i, b))
        return f'<div class="media meta">{link(block.url, info)}</div>'


def _position(cid: str) -> tuple[int | None, int | None]:
    """(block, call index) from an anchor id made by ``Anchors``."""
    tail = cid.rsplit("-", 1)[-1]
    if tail.startswith("b"):
        return int(tail[1:]), None
    return None, int(tail[1:])
