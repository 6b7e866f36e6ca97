"""The summary table at the top of a page: messages, tool calls, and usage by model.

Each row is a (label, value) pair of plain text (escaped by the page). Cost goes here too once
the core computes it: add its rows in ``summary_rows`` (per model and in total), and the page
shows them with no other change.
"""

from __future__ import annotations

from ...core.links import link_tools
from ...core.totals import usage_totals
from ...core.usage import Usage
from ..base import Conversation


def _tokens(u: Usage) -> str:
    parts = [f"{u.input_tokens:,} in", f"{u.output_tokens:,} out"]
    if u.cache_read_tokens:
        parts.append(f"{u.cache_read_tokens:,} cache read")
    if u.cache_write_tokens:
        parts.append(f"{u.cache_write_tokens:,} cache write")
    if u.reasoning_tokens:
        parts.append(f"{u.reasoning_tokens:,} reasoning")
    return ", ".join(parts)


def summary_rows(conv: Conversation) -> list[tuple[str, str]]:
    """The summary of one conversation, row by row."""
    messages = conv.messages
    links = link_tools(messages)
    rows = [("messages", f"{len(messages):,}")]
    calls = links.calls
    if calls:
        errors = sum(1 for r in links.results if r.is_error)
        unanswered = len(links.unanswered_calls)
        rows.append(
            ("tool calls", f"{len(calls):,} ({errors:,} errors, {unanswered:,} unanswered)")
        )
    model = conv.metadata.get("model")
    if isinstance(model, str):
        rows.append(("model", model))
    totals = usage_totals(messages)
    if totals.total != Usage():
        for name, usage in sorted(totals.by_model.items()):
            rows.append((f"usage: {name or 'unknown model'}", _tokens(usage)))
        if len(totals.by_model) != 1:
            rows.append(("usage: total", _tokens(totals.total)))
    return rows
