"""What the detail pane shows for a row: its parts (a title, sections, JSON, prose, notes).

``DetailParts`` builds the list of ``Part`` for the row under the tree's cursor with Rich
renderables (``render``); ``DetailPane`` draws them. Nothing here needs Textual.
"""

from __future__ import annotations

import os
import weakref
from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType
from rich.markdown import Markdown
from rich.text import Text

from ...core.call_order import call_places
from ...core.message import Message
from ..model.media import is_media
from ..model.pictures import Picture, drawable
from ..model.rows import ARTIFACT, BLOCK, CALL, CONV, INVALID, LINE, MORE, MSG, Row
from ..model.safe import printable
from ..model.session import Session
from ..model.summaries import ROLE_GLYPHS, call_signature, reasoning_flags
from ..model.tool_output import tool_output
from .picture import PictureLines, Placements
from .render import heading, json_text, media_text, metadata_table, plain_text, source_text
from .safe_markup import markdown_parser

MAX_PARTS = 30
"""Blocks and calls of one message the pane lays out; the tree lists every one."""
MARKDOWN_LIMIT = 30_000
"""Longer text is shown raw: laying out a huge Markdown document would stall the UI."""


@dataclass(frozen=True)
class Part:
    """One piece of the pane: what to draw, and how (a ``detail--`` style, or none)."""

    body: RenderableType
    kind: str = ""


class SafeMarkdown(Markdown):
    """Rich's Markdown parsed by ``markdown_parser``: raw HTML shown as text, links inert."""

    def __init__(self, text: str) -> None:
        super().__init__("", hyperlinks=False)
        self.markup = text
        self.parsed = markdown_parser().parse(text)


class DetailParts:
    """The parts of the row ``row`` of ``session``, in the pane's modes (``raw``, ``source``)."""

    session: Session | None
    row: Row | None
    raw: bool
    source: bool
    images: bool
    _refs_of: tuple[Any, Any] | None

    def _build(self) -> list[Part]:
        session, row = self.session, self.row
        if session is not None and not session.convs:  # an eval log that ran no sample, say
            name = os.path.basename(session.path) if session.path else "this file"
            return [Part(printable(f"No conversations in {name}."), "note")]
        if session is None or row is None or not _exists(session, row):
            return [Part("Nothing selected.", "note")]
        kind, c, m, i, _, _ = row
        conv = session.convs[c]
        if kind == CONV:
            return self._conversation(conv, c)
        message = conv.messages[m]
        out: list[Part] = [Part(self._title(message, m, len(conv.messages)), "title")]
        if self.source:
            text, notes = source_text(message, conv.conversation)
            out.append(
                Part(heading(f"source · as {conv.conversation.format} writes it"), "section")
            )
            out += [Part(Text(printable(n)), "note") for n in notes]
            out.append(Part(text, "json"))
            return out
        if kind == MSG:
            # At most MAX_PARTS blocks and calls: a message may make 100,000 calls, and the
            # tree lists each of them anyway.
            room = MAX_PARTS
            blocks = message.blocks
            for b, block in enumerate(blocks[:room]):
                out += self._block(message, b, block, c, m)
            room -= min(room, len(blocks))
            places = (  # (in the file's order; the first few of 100,000 without a list of all)
                call_places(message)[:room]
                if message.invalid_tool_calls
                else [(False, k) for k in range(min(room, len(message.tool_calls)))]
            )
            for invalid, k in places:
                out += self._invalid(message, k) if invalid else self._call(message, k, c, m)
            parts = len(blocks) + len(message.tool_calls) + len(message.invalid_tool_calls)
            if parts > MAX_PARTS:
                out.append(_more_parts(parts - MAX_PARTS, "blocks and calls"))
            table = metadata_table(message)
            if table.row_count:
                out.append(Part(heading("metadata"), "section"))
                out.append(Part(table))
        elif kind in (BLOCK, LINE, MORE):
            if message.blocks:
                out += self._block(message, i, message.blocks[i], c, m)
        elif kind == CALL:
            out += self._call(message, i, c, m)
        elif kind == INVALID:
            out += self._invalid(message, i)
        elif kind == ARTIFACT:
            out.append(Part(heading(f"artifact {i}"), "section"))
            out.append(Part(json_text(message.artifacts[i]), "json"))
        return out

    def _title(self, message: Message, m: int, total: int) -> Text:
        role = message.role
        text = Text()
        # the spaces end the bold piece: a piece starting with spaces loses them in some SVG
        # renderers ("toolmessage 4 of 13")
        text.append(f"{ROLE_GLYPHS[role]} {role}  ", style="bold")
        text.append(f"message {m} of {total}", style="dim")
        for extra in (message.name, message.model):
            if extra:
                text.append(" · ", style="dim")
                text.append(printable(extra))
        return text

    def _conversation(self, conv: Any, c: int) -> list[Part]:
        conversation = conv.conversation
        title = conv.name(c)
        out: list[Part] = [
            Part(Text(printable(title), style="bold"), "title"),
            Part(Text(f"{len(conversation.messages)} messages · format {conversation.format}")),
        ]
        if conversation.metadata:
            out.append(Part(heading("request metadata"), "section"))
            out.append(Part(json_text(conversation.metadata), "json"))
        return out

    def _link_note(self, c: int, m: int, block: int | None, call_index: int | None) -> Text:
        """Where a call's result is (or a result's call), for the heading."""
        links = self.session.convs[c].links if self.session else None
        if links is None:
            return Text("")
        calls, results = self._refs(links, m)
        ref = calls.get((block, call_index))
        if ref is not None:
            result = links.result_of(ref)
            if result is None:  # (a server call may have run with no result of its own)
                status = links.status(ref)
                if status == "answered":
                    return Text("  ran (no result of its own)", style="green")
                if status == "error":
                    return Text("  failed (no result of its own)", style="bold red")
                return Text("  never answered", style="bold yellow")
            style = "bold red" if result.is_error else "green"
            what = "error in" if result.is_error else "answered in"
            return Text(f"  {what} message {result.message_index} (t jumps)", style=style)
        ref = results.get(block)
        if ref is None:
            return Text("")
        call = links.call_of(ref)
        if call is None:
            return Text("  answers no call", style="bold yellow")
        style = "bold red" if ref.is_error else "green"
        return Text(
            f"  answers {printable(call.name or 'a call')} in message {call.message_index}"
            " (t jumps)",
            style=style,
        )

    def _refs(self, links: Any, m: int) -> tuple[dict[Any, Any], dict[Any, Any]]:
        """Message ``m``'s calls by (block, call index) and results by block, made once.

        The links are held weakly: after an edit, the analysis worker frees the old ones (a
        million messages' links take 0.4 s to free), and a strong hold here would have them
        freed on the interface's thread instead, by the next message shown with calls."""
        cached = self._refs_of
        if cached is None or cached[0]() is not links or cached[1] != m:
            calls = {
                (r.block_index, r.call_index): r
                for r in reversed(links.calls_in(m))
                if not r.invalid
            }
            results = {r.block_index: r for r in reversed(links.results_in(m))}
            cached = self._refs_of = (weakref.ref(links), m, (calls, results))
        return cached[2]

    def _block(self, message: Message, b: int, block: Any, c: int, m: int) -> list[Part]:
        t = block.type
        if message.role == "tool" and t == "text":  # tool output: shown as it was printed
            return self._output(heading("output"), block.text, message, "")
        if t == "text":
            out: list[Part] = [Part(heading("text"), "section")]
            out.append(self._prose(block.text))
            for citation in block.citations:
                out.append(Part(json_text(_plain(citation)), "json"))
            return out
        if t == "reasoning":
            flags = reasoning_flags(block) or ["plain"]
            head = heading("reasoning · ", (", ".join(flags), "italic"))
            out = [Part(head, "section")]
            if block.text:
                out.append(Part(plain_text(block.text), "reasoning"))
            if block.redacted or block.data:
                note = "redacted by the provider" if block.redacted else "encrypted"
                size = len(block.data or "")
                out.append(Part(f"({note}: {size:,} characters of opaque data)", "note"))
            if block.signature:
                out.append(
                    Part(
                        Text("signature ", style="bold") + Text(printable(block.signature[:80])),
                        "note",
                    )
                )
            return out
        if t in ("tool_call", "server_tool_call"):
            label = "tool call" if t == "tool_call" else "server tool call"
            head = heading(f"⚒ {label} · ", (call_signature(block.name, {}, 80), "bold"))
            head.append(f"  id {printable(str(block.id))}", style="dim")
            head.append_text(self._link_note(c, m, b, None))
            return [Part(head, "section"), Part(json_text(block.args), "args")]
        if t in ("tool_result", "server_tool_result"):
            label = "tool result" if t == "tool_result" else "server tool result"
            head = heading(label)
            head.append_text(self._link_note(c, m, b if message.role != "tool" else None, None))
            out = [Part(head, "section")]
            content = block.content
            if t == "tool_result" and getattr(block, "is_error", False):
                out.append(Part("the tool reported an error", "error"))
            if isinstance(content, str):
                out += self._output(None, content, message, "raw")
            elif t == "tool_result":
                for sub_index, sub in enumerate(content[:MAX_PARTS]):
                    out += self._block(message, sub_index, sub, c, -1)
                if len(content) > MAX_PARTS:
                    out.append(_more_parts(len(content) - MAX_PARTS, "blocks"))
            else:
                out.append(Part(json_text(content), "json"))
            return out
        if is_media(block):
            return [Part(heading(t), "section"), *self._picture(block), Part(media_text(block))]
        if t == "error":
            head = heading("error", (f" {block.code}" if block.code else "", "dim"))
            return [
                Part(head, "section"),
                Part(plain_text(block.message), "error"),
            ]
        if t == "unknown":
            head = heading("unknown block · ", (block.kind, "bold"))
            return [Part(head, "section"), Part(json_text(block.data), "json")]
        return [
            Part(heading(t), "section"),
            Part(json_text(_plain(block)), "json"),
        ]

    def _picture(self, block: Any) -> list[Part]:
        """An image block's picture: drawn if decoded, else asked for (decoding runs off the
        UI thread and shows the pane again when done); nothing with images off."""
        if not self.images or not drawable(block):
            return []
        picture = self.picture_of(block)
        if picture is None:
            return [Part("decoding the image…", "note")]
        if picture.image is None:
            return [Part(printable(f"(not drawn: {picture.error})"), "note")]
        lines = PictureLines(picture.image, self.placements(), reserve=self.reserves())
        return [Part(lines, "image")]

    def picture_of(self, block: Any) -> Picture | None:
        """The decoded picture of ``block``, or None while it is decoded (the pane's job)."""
        raise NotImplementedError

    def placements(self) -> Placements | None:
        """Where pictures go by Kitty's graphics protocol; None: drawn in half blocks."""
        return None

    def reserves(self) -> bool:
        """Whether pictures are drawn over blank cells the pane keeps for them (Sixel)."""
        return False

    def _output(self, head: Text | None, text: str, message: Message, kind: str) -> list[Part]:
        """A tool's output: what it printed (out of a JSON wrapper, if it came in one) under
        the facts around it (exit code, duration...)."""
        output = tool_output(text, message.metadata)
        out = [Part(head, "section")] if head is not None else []
        if output.facts:
            facts = Text()
            for i, (name, value) in enumerate(output.facts):
                facts.append(" · " if i else "", style="dim")
                facts.append(printable(name), style="dim")
                facts.append(" ")
                facts.append(printable(value), style="bold")
            out.append(Part(facts, "note"))
        out.append(Part(plain_text(output.text), kind))
        return out

    def _prose(self, text: str) -> Part:
        if self.raw or len(text) > MARKDOWN_LIMIT:
            return Part(plain_text(text), "raw")
        return Part(SafeMarkdown(printable(text)), "markdown")

    def _call(self, message: Message, k: int, c: int, m: int) -> list[Part]:
        call = message.tool_calls[k]
        head = heading("⚒ tool call · ", (call.name, "bold"))
        head.append(f"  id {printable(str(call.id))}", style="dim")
        head.append_text(self._link_note(c, m, None, k))
        return [Part(head, "section"), Part(json_text(call.args), "args")]

    def _invalid(self, message: Message, k: int) -> list[Part]:
        call = message.invalid_tool_calls[k]
        head = heading("⚠ invalid tool call · ", (call.name or "?", "bold"))
        parts = [
            Part(head, "section"),
            Part(plain_text(call.error or "arguments did not parse"), "error"),
        ]
        if call.args is not None:  # (Inspect keeps none: its error quotes the text)
            parts.append(Part(plain_text(call.args), "raw"))
        return parts


def _plain(block: Any) -> Any:
    from ...core.serialize import block_to_dict

    return block_to_dict(block)


def _exists(session: Session, row: Row) -> bool:
    """Whether ``row`` still names something: an edit or a reload may have taken it away
    between a cursor move and the pane being laid out."""
    kind, c, m, i, _, _ = row
    if not 0 <= c < len(session.convs):
        return False
    if kind == CONV:
        return True
    messages = session.convs[c].messages
    if not 0 <= m < len(messages):
        return False
    message = messages[m]
    if kind in (BLOCK, LINE, MORE):
        return i < len(message.blocks) or not message.blocks
    counts = {
        CALL: len(message.tool_calls),
        INVALID: len(message.invalid_tool_calls),
        ARTIFACT: len(message.artifacts),
    }
    return i < counts.get(kind, 1)


def _more_parts(count: int, what: str) -> Part:
    return Part(
        Text(f"… {count:,} more {what}: open the message in the tree to go through them"),
        "note",
    )
