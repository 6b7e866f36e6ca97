"""``DetailPane``: the selected node in full.

Text as Markdown (or raw), tool arguments, results and unknown blocks as highlighted JSON,
reasoning set apart with its signed/redacted/encrypted state, media facts, and a metadata
section. In source mode, the selected message as its original format writes it.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Markdown, Static

from ...core.message import Message
from ..labels import ROLE_GLYPHS, call_signature, reasoning_flags
from ..media import is_media
from ..render import (
    heading,
    json_text,
    media_text,
    metadata_table,
    plain_text,
    source_text,
)
from ..safe import markdown_parser, printable
from ..session import Session
from ..tree_model import ARTIFACT, BLOCK, CALL, CONV, INVALID, LINE, MORE, MSG, Row

MAX_PARTS = 30
"""Blocks and calls of one message the pane lays out; the tree lists every one."""
MARKDOWN_LIMIT = 30_000
"""Longer text is shown raw: laying out a huge Markdown document would stall the UI."""


class DetailPane(VerticalScroll, can_focus=True):
    """Everything about the node under the tree's cursor."""

    DEFAULT_CSS = """
    DetailPane {
        background: $background;
        padding: 0 1;
        & > .title { text-style: bold; }
        & > .section { color: $text-muted; text-style: bold; margin: 1 0 0 0; }
        & > .reasoning {
            color: $text-muted; text-style: italic;
            border-left: outer $secondary; padding: 0 0 0 1;
        }
        & > .json { padding: 0 0 0 1; }
        & > .raw { padding: 0 0 0 1; }
        & > .error { color: $error; }
        & > .note { color: $text-muted; }
        & > Markdown { padding: 0 0 0 1; margin: 0; background: $background; }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.raw = False
        """Show text as typed instead of rendered Markdown."""
        self.source = False
        """Show the selected message as its original format writes it."""
        self.session: Session | None = None
        self.row: Row | None = None
        self._refs_of: tuple[Any, Any] | None = None

    def show(self, session: Session | None, row: Row | None) -> None:
        """Show ``row`` of ``session`` (None: nothing selected)."""
        self.session, self.row = session, row
        self.refresh_content()

    def refresh_content(self) -> None:
        """Build the pane again for the current row and modes."""
        widgets = self._build()
        with self.app.batch_update():
            self.remove_children()
            self.mount_all(widgets)
        self.scroll_home(animate=False, immediate=True)

    # -- building -----------------------------------------------------------------------------

    def _build(self) -> list[Widget]:
        session, row = self.session, self.row
        if session is None or row is None or not _exists(session, row):
            return [Static("Nothing selected.", classes="note")]
        kind, c, m, i, _, _ = row
        conv = session.convs[c]
        if kind == CONV:
            return self._conversation(conv, c)
        message = conv.messages[m]
        out: list[Widget] = [Static(self._title(message, m, len(conv.messages)), classes="title")]
        if self.source:
            text, notes = source_text(message, conv.conversation)
            out.append(
                Static(
                    heading(f"source · as {conv.conversation.format} writes it"), classes="section"
                )
            )
            out += [Static(Text(printable(n)), classes="note") for n in notes]
            out.append(Static(text, classes="json"))
            return out
        if kind == MSG:
            # At most MAX_PARTS blocks and calls: a message may make 100,000 calls, and the
            # tree lists each of them anyway.
            room = MAX_PARTS
            blocks = message.blocks
            for b, block in enumerate(blocks[:room]):
                out += self._block(message, b, block, c, m)
            room -= min(room, len(blocks))
            for k in range(min(room, len(message.tool_calls))):
                out += self._call(message, k, c, m)
            room -= min(room, len(message.tool_calls))
            for k in range(min(room, len(message.invalid_tool_calls))):
                out += self._invalid(message, k)
            parts = len(blocks) + len(message.tool_calls) + len(message.invalid_tool_calls)
            if parts > MAX_PARTS:
                out.append(_more_parts(parts - MAX_PARTS, "blocks and calls"))
            table = metadata_table(message)
            if table.row_count:
                out.append(Static(heading("metadata"), classes="section"))
                out.append(Static(table))
        elif kind in (BLOCK, LINE, MORE):
            if message.blocks:
                out += self._block(message, i, message.blocks[i], c, m)
        elif kind == CALL:
            out += self._call(message, i, c, m)
        elif kind == INVALID:
            out += self._invalid(message, i)
        elif kind == ARTIFACT:
            out.append(Static(heading(f"artifact {i}"), classes="section"))
            out.append(Static(json_text(message.artifacts[i]), classes="json"))
        return out

    def _title(self, message: Message, m: int, total: int) -> Text:
        role = message.role
        text = Text()
        text.append(f"{ROLE_GLYPHS[role]} {role}", style="bold")
        text.append(f"  message {m} of {total}", style="dim")
        for extra in (message.name, message.model):
            if extra:
                text.append(" · ", style="dim")
                text.append(printable(extra))
        return text

    def _conversation(self, conv: Any, c: int) -> list[Widget]:
        conversation = conv.conversation
        title = conversation.title or f"Conversation {c + 1}"
        out: list[Widget] = [
            Static(Text(printable(title), style="bold"), classes="title"),
            Static(Text(f"{len(conversation.messages)} messages · format {conversation.format}")),
        ]
        if conversation.metadata:
            out.append(Static(heading("request metadata"), classes="section"))
            out.append(Static(json_text(conversation.metadata), classes="json"))
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
            if result is None:
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
        """Message ``m``'s calls by (block, call index) and results by block, made once."""
        cached = self._refs_of
        if cached is None or cached[0] is not links or cached[1] != m:
            calls = {
                (r.block_index, r.call_index): r
                for r in reversed(links.calls_in(m))
                if not r.invalid
            }
            results = {r.block_index: r for r in reversed(links.results_in(m))}
            cached = self._refs_of = (links, m, (calls, results))
        return cached[2]

    def _block(self, message: Message, b: int, block: Any, c: int, m: int) -> list[Widget]:
        t = block.type
        if message.role == "tool" and t == "text":  # tool output: shown as it was printed
            return [Static(heading("output"), classes="section"), Static(plain_text(block.text))]
        if t == "text":
            out: list[Widget] = [Static(heading("text"), classes="section")]
            out.append(self._prose(block.text))
            for citation in block.citations:
                out.append(Static(json_text(_plain(citation)), classes="json"))
            return out
        if t == "reasoning":
            flags = reasoning_flags(block) or ["plain"]
            head = heading("reasoning · ", (", ".join(flags), "italic"))
            out = [Static(head, classes="section")]
            if block.text:
                out.append(Static(plain_text(block.text), classes="reasoning"))
            if block.redacted or block.data:
                note = "redacted by the provider" if block.redacted else "encrypted"
                size = len(block.data or "")
                out.append(Static(f"({note}: {size:,} characters of opaque data)", classes="note"))
            if block.signature:
                out.append(
                    Static(
                        Text("signature ", style="bold") + Text(printable(block.signature[:80])),
                        classes="note",
                    )
                )
            return out
        if t in ("tool_call", "server_tool_call"):
            label = "tool call" if t == "tool_call" else "server tool call"
            head = heading(f"⚒ {label} · ", (call_signature(block.name, {}, 80), "bold"))
            head.append(f"  id {printable(str(block.id))}", style="dim")
            head.append_text(self._link_note(c, m, b, None))
            return [Static(head, classes="section"), Static(json_text(block.args), classes="json")]
        if t in ("tool_result", "server_tool_result"):
            label = "tool result" if t == "tool_result" else "server tool result"
            head = heading(label)
            head.append_text(self._link_note(c, m, b if message.role != "tool" else None, None))
            out = [Static(head, classes="section")]
            content = block.content
            if t == "tool_result" and getattr(block, "is_error", False):
                out.append(Static("the tool reported an error", classes="error"))
            if isinstance(content, str):
                out.append(Static(plain_text(content), classes="raw"))
            elif t == "tool_result":
                for sub_index, sub in enumerate(content[:MAX_PARTS]):
                    out += self._block(message, sub_index, sub, c, -1)
                if len(content) > MAX_PARTS:
                    out.append(_more_parts(len(content) - MAX_PARTS, "blocks"))
            else:
                out.append(Static(json_text(content), classes="json"))
            return out
        if is_media(block):
            return [Static(heading(t), classes="section"), Static(media_text(block))]
        if t == "error":
            head = heading("error", (f" {block.code}" if block.code else "", "dim"))
            return [
                Static(head, classes="section"),
                Static(plain_text(block.message), classes="error"),
            ]
        if t == "unknown":
            head = heading("unknown block · ", (block.kind, "bold"))
            return [Static(head, classes="section"), Static(json_text(block.data), classes="json")]
        return [
            Static(heading(t), classes="section"),
            Static(json_text(_plain(block)), classes="json"),
        ]

    def _prose(self, text: str) -> Widget:
        if self.raw or len(text) > MARKDOWN_LIMIT:
            return Static(plain_text(text), classes="raw")
        return Markdown(printable(text), open_links=False, parser_factory=markdown_parser)

    def _call(self, message: Message, k: int, c: int, m: int) -> list[Widget]:
        call = message.tool_calls[k]
        head = heading("⚒ tool call · ", (call.name, "bold"))
        head.append(f"  id {printable(str(call.id))}", style="dim")
        head.append_text(self._link_note(c, m, None, k))
        return [Static(head, classes="section"), Static(json_text(call.args), classes="json")]

    def _invalid(self, message: Message, k: int) -> list[Widget]:
        call = message.invalid_tool_calls[k]
        head = heading("⚠ invalid tool call · ", (call.name or "?", "bold"))
        return [
            Static(head, classes="section"),
            Static(plain_text(call.error or "arguments did not parse"), classes="error"),
            Static(plain_text(call.args or ""), classes="raw"),
        ]


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


def _more_parts(count: int, what: str) -> Static:
    return Static(
        Text(f"… {count:,} more {what}: open the message in the tree to go through them"),
        classes="note",
    )
