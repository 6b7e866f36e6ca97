"""What each tree row says: one line per row, as (text, style name) pieces.

Headless: the tree widget maps style names (``role-user``, ``dim``, ``error``...) to theme
styles. Every piece of file text here has been through ``printable``/``one_line``; the
summaries the labels show (a message's, a call's, a block's) are made in ``summaries``.
"""

from __future__ import annotations

from typing import Any

from ...core.cost import format_usd
from ...core.message import InvalidToolCall, Message
from . import fmt
from .media import is_media
from .rows import ARTIFACT, BLOCK, CALL, CONV, INVALID, LINE, MORE, MSG, Row, block_lines
from .safe import line_text, one_line
from .summaries import (
    ROLE_GLYPHS,
    SUMMARY_CHARS,
    call_signature,
    compact_json,
    media_label,
    message_summary,
    reasoning_flags,
    result_text,
)
from .tree_model import TreeModel

try:
    from ...core.tokens import count_tokens_approximately
except ImportError:  # an older core without estimates: show exact counts only
    count_tokens_approximately = None  # type: ignore[assignment]

Piece = tuple[str, str]


class RowLabels:
    """Builds the pieces of each row from the model and the session's analyses."""

    def __init__(self, model: TreeModel) -> None:
        self.model = model
        self.index_width = max(
            (len(str(len(c.messages) - 1)) for c in model.session.convs), default=1
        )
        # Per-message facts that cost what the message costs (a message may make 100,000
        # calls): worked out once per message object. Labels are rebuilt when analyses change.
        self._memo: dict[tuple[str, int], tuple[Any, Any]] = {}

    def _once(self, what: str, message: Message, compute: Any) -> Any:
        key = (what, id(message))
        hit = self._memo.get(key)
        if hit is not None and hit[0] is message:
            return hit[1]
        value = compute()
        self._memo[key] = (message, value)
        return value

    def left_right(self, row: Row) -> tuple[list[Piece], list[Piece]]:
        """The pieces on the left (tree, summary) and on the right (badges) of a row."""
        kind = row[0]
        if kind == CONV:
            return self._conv(row), []
        if kind == MSG:
            return self._message(row)
        if kind == BLOCK:
            return self._block(row)
        if kind == CALL:
            return self._call(row)
        if kind == INVALID:
            return self._invalid(row)
        if kind == ARTIFACT:
            return self._artifact(row), []
        if kind == LINE:
            return self._line(row), []
        if kind == MORE:
            return self._more(row), []
        return [("?", "dim")], []

    # -- pieces -------------------------------------------------------------------------------

    def _arrow(self, row: Row) -> Piece:
        model = self.model
        if not model.expandable(row):
            return ("  ", "dim")
        return ("▾ " if model.is_expanded(row) else "▸ ", "arrow")

    def _indent(self, row: Row) -> str:
        return "  " * row[5]

    def _conv(self, row: Row) -> list[Piece]:
        data = self.model.session.convs[row[1]]
        conv = data.conversation
        title = one_line(data.name(row[1]), 100)
        return [
            self._arrow(row),
            (title, "conv"),
            (f"  {fmt.plural(len(conv.messages), 'message')} · {conv.format}", "dim"),
        ]

    def _message(self, row: Row) -> tuple[list[Piece], list[Piece]]:
        _, c, m, _, _, _ = row
        message = self.model.message(c, m)
        role = message.role
        data = self.model.session.convs[c]
        left: list[Piece] = [
            (self._indent(row), ""),
            self._arrow(row),
            (f"{m:>{self.index_width}} ", "index"),
            (f"{ROLE_GLYPHS[role]} {role:<10}", f"role-{role}"),
        ]
        if message.name and role != "tool":
            # "alice:" set apart from the text after it, which may start with any word
            left.append((one_line(message.name, 30) + ": ", "dim"))
        right: list[Piece] = []
        links = data.links
        if role == "tool":
            name = message.name or (self._called_name(links, m) if links is not None else None)
            left.append((one_line(name or "tool", 30) + " ", "call"))
            if links is not None:
                right.extend(self._result_badge(links, c, m, None))
            elif message.is_error:
                right.append(("✗ error", "error"))
        elif links is not None:
            results = self._once(
                "client-results", message, lambda: [r for r in links.results_in(m) if not r.server]
            )
            if results:  # results carried as blocks (Anthropic, Claude Code)
                right.extend(self._result_badge(links, c, m, results[0].block_index))
                if len(results) > 1:
                    right.append((f"+{len(results) - 1} ", "dim"))
        left.append((message_summary(message), "summary" if role != "system" else "dim"))
        calls = len(message.tool_calls) + len(message.invalid_tool_calls)
        if calls:
            right.append(self._once("calls", message, lambda: self._calls_badge(data, m, calls)))
        right.append(self._once("tokens", message, lambda: self._tokens(message)))
        if self.model.show_cost and role == "assistant":
            right.append(self._cost(data, m, message))
        return left, right

    def _cost(self, data: Any, m: int, message: Message) -> Piece:
        # What the call cost, once priced: blank for a message without usage (or not yet
        # analysed), "unpriced" for a model without a known price.
        cost = data.cost
        if cost is None:
            return (f"{'':>9}", "cost")
        dollars = cost.of(m)
        if dollars is None:
            usage = message.usage
            text = "unpriced" if usage is not None and not usage.is_empty() else ""
            return (f"{text:>9}", "dim")
        return (f"{format_usd(dollars):>9}", "cost")

    def _calls_badge(self, data: Any, m: int, n: int) -> Piece:
        links = data.links
        style = "call"
        if links is not None:
            statuses = {links.status(ref) for ref in links.calls_in(m) if not ref.server}
            if "error" in statuses:
                style = "error"
            elif "unanswered" in statuses:
                style = "warn"
            else:
                style = "ok"
        return (f"⚒{n} ", style)

    @staticmethod
    def _called_name(links: Any, m: int) -> str | None:
        """The tool a result message answers, named by its call (formats that do not name
        the tool on the result: OpenAI chat, Codex...)."""
        for ref in links.results_in(m):
            call = links.call_of(ref)
            if call is not None and call.name:
                return call.name
        return None

    def _result_badge(self, links: Any, c: int, m: int, block: int | None) -> list[Piece]:
        message = self.model.message(c, m)
        refs = self._once(
            "results", message, lambda: {r.block_index: r for r in reversed(links.results_in(m))}
        )
        ref = refs.get(block)
        if ref is None:
            return []
        call = links.call_of(ref)
        if call is None:
            return [("↩ no call ", "warn")]
        style = "error" if ref.is_error else "ok"
        mark = "✗" if ref.is_error else "↩"
        return [(f"{mark} #{call.message_index} ", style)]

    def _tokens(self, message: Message) -> Piece:
        # A message's own size: the output tokens a model reported for it, else an estimate.
        usage = message.usage
        if usage is not None and usage.output_tokens:
            return (f"{fmt.tokens(usage.output_tokens):>6}", "tokens")
        if count_tokens_approximately is None:
            return ("", "dim")
        return (f"{'~' + fmt.tokens(count_tokens_approximately([message])):>6}", "dim")

    def _block(self, row: Row) -> tuple[list[Piece], list[Piece]]:
        _, c, m, b, _, _ = row
        message = self.model.message(c, m)
        block = message.blocks[b]
        t = block.type
        left: list[Piece] = [(self._indent(row), ""), self._arrow(row)]
        right: list[Piece] = []
        links = self.model.session.convs[c].links
        if t == "text":
            left.append(("text ", "kind"))
            left.append((one_line(block.text, SUMMARY_CHARS), "summary"))
            if block.citations:
                right.append((f"{fmt.plural(len(block.citations), 'citation')} ", "dim"))
        elif t == "reasoning":
            flags = reasoning_flags(block)
            left.append(("reasoning ", "reasoning"))
            if flags:
                left.append(("[" + ", ".join(flags) + "] ", "dim"))
            left.append((one_line(block.text, SUMMARY_CHARS) if block.text else "", "reasoning"))
        elif t in ("tool_call", "server_tool_call"):
            label = "⚒ " if t == "tool_call" else "⚒ server "
            left.append((label, "call"))
            left.append((call_signature(block.name, block.args), "summary"))
            if links is not None:
                right.extend(self._call_status(links, c, m, b, None))
        elif t in ("tool_result", "server_tool_result"):
            name = "output" if message.role == "tool" else t.replace("_", " ")
            left.append((name + " ", "kind"))
            lines = block_lines(block)
            if t == "server_tool_result":
                left.append((compact_json(block.content), "summary"))
            elif message.role != "tool":
                left.append((one_line(result_text(block), SUMMARY_CHARS), "summary"))
            if lines and len(lines) > 1:
                right.append((fmt.plural(len(lines), "line") + " ", "dim"))
            if links is not None and message.role != "tool":
                right.extend(self._result_badge(links, c, m, b))
        elif is_media(block):
            left.append((f"{t} ", "media"))
            left.append((media_label(block), "summary"))
        elif t == "error":
            left.append(("error ", "error"))
            left.append((one_line(block.message), "summary"))
        elif t == "citation":
            left.append(("citation ", "kind"))
            left.append((one_line(block.title or block.url or "", 100), "summary"))
        elif t == "unknown":
            left.append((f"unknown:{one_line(block.kind, 40)} ", "warn"))
            left.append((compact_json(block.data), "dim"))
        else:
            left.append((f"{t} ", "kind"))
            left.append((compact_json(getattr(block, "args", None) or ""), "dim"))
        return left, right

    def _call_status(
        self,
        links: Any,
        c: int,
        m: int,
        block: int | None,
        call_index: int | None,
        invalid: bool = False,
    ) -> list[Piece]:
        refs = self._once(
            "calls-at",
            self.model.message(c, m),
            lambda: {
                (r.block_index, r.call_index, r.invalid): r for r in reversed(links.calls_in(m))
            },
        )
        ref = refs.get((block, call_index, invalid))
        if ref is None:
            return []
        result = links.result_of(ref)
        if result is None:
            status = links.status(ref)  # a server call may have run with no result of its own
            if status == "answered":
                return [("✓ ran ", "ok")]
            if status == "error":
                return [("✗ failed ", "error")]
            return [("… no result ", "warn")]
        if result.is_error:
            return [(f"✗ #{result.message_index} ", "error")]
        return [(f"✓ #{result.message_index} ", "ok")]

    def _call(self, row: Row) -> tuple[list[Piece], list[Piece]]:
        _, c, m, k, _, _ = row
        call = self.model.message(c, m).tool_calls[k]
        left: list[Piece] = [
            (self._indent(row), ""),
            self._arrow(row),
            ("⚒ ", "call"),
            (call_signature(call.name, call.args), "summary"),
        ]
        right: list[Piece] = []
        data = self.model.session.convs[c]
        members = data.nested.get((m, k))
        if members:
            right.append((f"sub-agent · {fmt.plural(len(members), 'message')} ", "dim"))
        if data.links is not None:
            right.extend(self._call_status(data.links, c, m, None, k))
        return left, right

    def _invalid(self, row: Row) -> tuple[list[Piece], list[Piece]]:
        _, c, m, k, _, _ = row
        call = self.model.message(c, m).invalid_tool_calls[k]
        left: list[Piece] = [
            (self._indent(row), ""),
            self._arrow(row),
            ("⚠ invalid call ", "error"),
            # (no text kept, as Inspect keeps none: its error holds it)
            (one_line(f"{call.name or '?'}: {invalid_text(call)}", SUMMARY_CHARS), "summary"),
        ]
        links = self.model.session.convs[c].links
        right = [] if links is None else self._call_status(links, c, m, None, k, invalid=True)
        return left, right

    def _artifact(self, row: Row) -> list[Piece]:
        artifact = self.model.message(row[1], row[2]).artifacts[row[3]]
        return [
            (self._indent(row), ""),
            ("  ", ""),
            ("◇ artifact ", "kind"),
            (compact_json(artifact), "dim"),
        ]

    def _line(self, row: Row) -> list[Piece]:
        _, c, m, b, n, _ = row
        message = self.model.message(c, m)
        block = message.blocks[b]
        lines = block_lines(block)
        text = lines[n] if n < len(lines) else ""
        style = "reasoning" if block.type == "reasoning" else "line"
        return [(self._indent(row), ""), ("│ ", "gutter"), (line_text(text) or " ", style)]

    def _more(self, row: Row) -> list[Piece]:
        return [
            (self._indent(row), ""),
            ("… ", "gutter"),
            (f"{fmt.plural(row[4], 'more line')} in the detail pane", "dim"),
        ]


def invalid_text(call: InvalidToolCall) -> str:
    """What an invalid call shows (its row) and copies: its text, or what went wrong when none
    was kept (Inspect keeps none: its error quotes the text)."""
    return call.args if call.args is not None else call.error or ""
