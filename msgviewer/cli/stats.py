"""``msgviewer stats``: messages, roles, tool calls, token usage, cost and time of each
conversation."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

import orjson

from ..core.safetext import inert_json, visible
from ..formats import Conversation
from ..formats.prices import ENV_VAR, prices_from
from .common import (
    EXIT_OK,
    add_input,
    add_prices,
    detected_format,
    new_parser,
    read_input,
    reported_warnings,
    write_output,
)
from .cost_time import cost_figures, cost_lines, time_figures, time_lines


def _stats(conversations: list[Conversation]) -> dict[str, Any]:
    from ..core import count_tokens_approximately, link_tools, usage_totals

    roles: Counter[str] = Counter()
    blocks: Counter[str] = Counter()
    calls = answered = errored = 0
    approx = 0
    total: Any = None
    by_model: dict[str, Any] = {}
    for conv in conversations:
        messages = list(conv.messages)
        for m in messages:
            roles[m.role] += 1
            if type(m.content) is str:
                blocks["text"] += bool(m.content)
            else:
                blocks.update(b.type for b in m.content)
        links = link_tools(messages)
        for call in links.calls:
            calls += 1
            status = links.status(call)  # (a server call may have run with no result of its own)
            answered += status != "unanswered"
            errored += status == "error"
        totals = usage_totals(messages)
        total = totals.total if total is None else total + totals.total
        for model, usage in totals.by_model.items():
            by_model[model] = by_model[model] + usage if model in by_model else usage
        approx += count_tokens_approximately(messages)
    from ..core.serialize import usage_to_dict

    def usage_numbers(usage: Any) -> dict[str, int]:
        numbers = usage_to_dict(usage) if usage is not None else {}
        numbers.pop("extra", None)
        return numbers

    return {
        "conversations": len(conversations),
        "format": conversations[0].format if conversations else None,
        "messages": {"total": sum(roles.values()), "by_role": dict(sorted(roles.items()))},
        "blocks": dict(sorted((k, v) for k, v in blocks.items() if v)),
        "tool_calls": {
            "total": calls,
            "answered": answered,
            "errored": errored,
            "unanswered": calls - answered,
        },
        "usage": {
            "total": usage_numbers(total),
            "by_model": {k: usage_numbers(v) for k, v in sorted(by_model.items())},
        },
        "approx_tokens": approx,
    }


def _stats_table(file: str, stats: dict[str, Any]) -> str:
    if not stats["conversations"]:  # an eval log that ran no sample, say
        return f"{visible(file)}  ({stats['format'] or 'unknown format'}): no conversations\n"
    lines = [f"{visible(file)}  ({stats['format']}, {stats['conversations']} conversation(s))"]

    def section(title: str, rows: dict[str, Any]) -> None:
        lines.append(f"\n{title}")
        width = max((len(k) for k in rows), default=0)
        lines.extend(f"  {visible(str(k)).ljust(width)}  {v:>10,}" for k, v in rows.items())

    section("messages", {**stats["messages"]["by_role"], "total": stats["messages"]["total"]})
    if stats["blocks"]:
        section("blocks", stats["blocks"])
    section("tool calls", stats["tool_calls"])
    if stats["usage"]["total"]:
        section("usage", stats["usage"]["total"])
        for model, numbers in stats["usage"]["by_model"].items():
            section(f"usage: {visible(model)}", numbers)
    lines.extend(cost_lines(stats["cost"]))
    lines.extend(time_lines(stats["time"]))
    lines.append(f"\napproximate tokens  {stats['approx_tokens']:,}")
    return "\n".join(lines) + "\n"


def cmd_stats(argv: Sequence[str]) -> int:
    parser = new_parser(
        "stats",
        "Messages by role, blocks by type, tool calls (answered, errored, unanswered), usage "
        "totals by model, cost by model (genai-prices' bundled prices, overridden by --prices "
        f"or ${ENV_VAR}), time (wall, model, tool, the slowest tool calls), and an approximate "
        "token count.",
        "msgviewer stats session.jsonl --json | jq .usage.total",
    )
    add_input(parser)
    parser.add_argument("--json", action="store_true", help="stable JSON instead of a table")
    add_prices(parser)
    args = parser.parse_args(argv)
    prices = prices_from(args.prices)
    with reported_warnings():
        conversations = read_input(args)
    stats = _stats(conversations)
    stats["cost"] = cost_figures(conversations, prices)
    stats["time"] = time_figures(conversations)
    if not conversations:
        stats["format"] = args.format or detected_format(args.file)
    if args.json:
        write_output(inert_json(orjson.dumps(stats, option=orjson.OPT_INDENT_2) + b"\n"), None)
    else:
        sys.stdout.write(_stats_table(args.file, stats))
    return EXIT_OK
