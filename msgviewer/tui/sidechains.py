"""Group sub-agent (sidechain) runs under the tool call that started them.

Claude Code logs a sub-agent's messages in the same session with ``isSidechain: true``. Each run
sits between the ``Task`` call that started it and that call's result; the run is shown as
children of the call instead of interleaved with the main thread.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.message import Message


def _is_sidechain(message: Message) -> bool:
    return bool(message.metadata.get("isSidechain"))


def group_sidechains(
    messages: Sequence[Message],
) -> tuple[Sequence[int], dict[tuple[int, int], list[int]]]:
    """(top-level message indexes, {(message, call index): sub-agent message indexes}).

    A run of sidechain messages goes under the latest still-open main-thread call; with none
    open they stay at the top level. Without sidechains (almost every file) this costs one
    scan and returns a ``range``.
    """
    if not any(_is_sidechain(m) for m in messages):
        return range(len(messages)), {}
    top: list[int] = []
    nested: dict[tuple[int, int], list[int]] = {}
    open_calls: list[tuple[int, int, str | None]] = []  # (message, call index, call id)
    for i, message in enumerate(messages):
        if _is_sidechain(message) and open_calls:
            m, k, _ = _starter(messages, open_calls)
            nested.setdefault((m, k), []).append(i)
            continue
        top.append(i)
        for k, call in enumerate(message.tool_calls):
            open_calls.append((i, k, call.id))
        answered = _answered_ids(message)
        if answered:
            open_calls = [c for c in open_calls if c[2] not in answered]
    return top, nested


_AGENT_TOOLS = frozenset({"Task", "Agent", "task", "agent"})


def _starter(
    messages: Sequence[Message], open_calls: list[tuple[int, int, str | None]]
) -> tuple[int, int, str | None]:
    """The open call a sub-agent run belongs to: the latest agent-starting call, else the latest."""
    for m, k, call_id in reversed(open_calls):
        if messages[m].tool_calls[k].name in _AGENT_TOOLS:
            return m, k, call_id
    return open_calls[-1]


def _answered_ids(message: Message) -> set[str]:
    ids = set()
    if message.tool_call_id:
        ids.add(message.tool_call_id)
    if type(message.content) is tuple:
        for block in message.content:
            if block.type == "tool_result" and block.tool_call_id:
                ids.add(block.tool_call_id)
    return ids
