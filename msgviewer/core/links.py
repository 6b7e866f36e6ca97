"""Which tool result answers which tool call, and back.

``link_tools(messages)`` walks a history once and pairs every tool call with its result by id,
whatever shape the history uses:

- calls in ``Message.tool_calls`` (and ``invalid_tool_calls``, which a provider still expects an
  answer to) or as ``ToolCallBlock`` content;
- results as whole ``tool`` messages (``tool_call_id``: OpenAI, LangChain...) or as
  ``ToolResultBlock`` content of a user message (Anthropic, Claude Code);
- server-side calls (``ServerToolCallBlock``) with their ``ServerToolResultBlock``, in an id
  space of their own. A server call that has no result of its own but carries the status the
  provider gave it (OpenAI's ``web_search_call``: ``"completed"``) ran: it is not unanswered.

Pairing is sequential: a result answers the earliest still-unanswered call with its id that came
before it. A result with no such call is matched at the end to a later unanswered call with its
id (``result_before_call``), or else is an orphan. With duplicate ids this pairs the n-th call with
the result that follows it, which is what a reader of the history expects.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from .blocks import ServerToolCallBlock, ServerToolResultBlock, ToolCallBlock, ToolResultBlock
from .gc_pause import collections_paused
from .message import Message
from .tool_links import _RAN_STATUSES, RAN, RAN_FAILED, UNANSWERED, ToolLinks
from .tool_refs import (
    _SERVER_ERROR_STATUSES,
    CallRef,
    ResultRef,
    _CallRow,
    _ResultRow,
    _server_is_error,
)

__all__ = ["RAN", "RAN_FAILED", "UNANSWERED", "CallRef", "ResultRef", "ToolLinks", "link_tools"]


def link_tools(messages: Sequence[Message]) -> ToolLinks:
    """Pair every tool call of ``messages`` with the result that answers it (one pass, O(n))."""
    # The refs form no cycles; without the pause, building them sets off collections that
    # walk the whole history again and again (half the time at 100k messages).
    with collections_paused():
        return _link(messages)


def _link(messages: Sequence[Message]) -> ToolLinks:
    # One pass, written out flat: at 100k messages every call and attribute lookup per tool
    # call counts. Calls and results are kept as rows; ToolLinks makes refs of them on use.
    calls: list[_CallRow] = []
    res_rows: list[_ResultRow] = []
    call_result: list[int] = []
    result_call: list[int] = []
    # Per id space (client, server): the ids calls have used (a set: the first call of each id
    # is found later, if asked for); the earliest still unanswered call with each id, and the
    # later unanswered ones queued behind it (only repeated ids ever have a queue).
    seen: tuple[set[str], set[str]] = (set(), set())
    waiting: tuple[dict[str, int], dict[str, int]] = ({}, {})
    # (deques: a result takes the front, and an id may be repeated by thousands of calls)
    queued: tuple[dict[str, deque[int]], dict[str, deque[int]]] = ({}, {})
    duplicates: dict[str, None] = {}
    pending: list[int] = []  # results seen before any call with their id
    reported: dict[int, str] = {}  # server calls carrying the status the provider gave them
    irregular: list[int] = []
    repeated: set[int] = set()

    def add_call(row: _CallRow, cid: str | None, server: bool) -> None:
        i = len(calls)
        calls.append(row)
        call_result.append(-1)
        if cid is None:
            irregular.append(i)
            return  # nothing can answer a call without an id
        if cid in seen[server]:
            irregular.append(i)
            repeated.add(i)
            duplicates[cid] = None
            if cid in waiting[server]:
                queued[server].setdefault(cid, deque()).append(i)
                return
        else:
            if row[6]:
                irregular.append(i)
            seen[server].add(cid)
        waiting[server][cid] = i

    def add_result(row: _ResultRow) -> None:
        j = len(res_rows)
        res_rows.append(row)
        cid = row[4]
        if cid is None:
            result_call.append(-1)
            return
        server = row[5]
        i = waiting[server].pop(cid, -1)
        result_call.append(i)
        if i < 0:
            pending.append(j)
            return
        call_result[i] = j
        queue = queued[server].get(cid)
        if queue:
            waiting[server][cid] = queue.popleft()

    client_seen, client_waiting, client_queued = seen[False], waiting[False], queued[False]
    for mi, m in enumerate(messages):
        content = m.content
        tool_calls = m.tool_calls
        if m.role == "tool":
            cid = m.tool_call_id
            if (
                type(content) is str
                and cid is not None
                and not tool_calls
                and not m.invalid_tool_calls
                and not client_queued
            ):
                # The common tool message: one result, answering a call by a unique id.
                j = len(res_rows)
                res_rows.append((mi, None, m.is_error, m.name, cid, False))
                i = client_waiting.pop(cid, -1)
                result_call.append(i)
                if i < 0:
                    pending.append(j)
                else:
                    call_result[i] = j
                continue
            add_result((mi, None, m.is_error, m.name, cid, False))
        elif type(content) is str and not tool_calls and not m.invalid_tool_calls:
            continue  # the common plain-text message: nothing to link
        if type(content) is tuple:
            for bi, b in enumerate(content):
                t = type(b)
                if t is ToolCallBlock:
                    add_call((mi, bi, None, b.name, b.id, False, False), b.id, False)
                elif t is ToolResultBlock:
                    add_result((mi, bi, b.is_error, None, b.tool_call_id, False))
                elif t is ServerToolCallBlock:
                    status = b.extra.get("status")
                    if type(status) is str:
                        reported[len(calls)] = status.lower()
                    add_call((mi, bi, None, b.name, b.id, True, False), b.id, True)
                elif t is ServerToolResultBlock:
                    add_result((mi, bi, _server_is_error(b), None, b.tool_call_id, True))
        if tool_calls:
            for ci, c in enumerate(tool_calls):
                cid = c.id
                row = (mi, None, ci, c.name, cid, False, False)
                if cid is None or cid in client_seen:
                    add_call(row, cid, False)  # a missing or repeated id: the careful path
                else:
                    client_seen.add(cid)
                    client_waiting[cid] = len(calls)
                    calls.append(row)
                    call_result.append(-1)
        if m.invalid_tool_calls:
            for ci, c in enumerate(m.invalid_tool_calls):
                add_call((mi, None, ci, c.name, c.id, False, True), c.id, False)

    # Results that came before any call with their id: pair them with later calls, in order.
    for j in pending:
        _, _, _, _, cid, server = res_rows[j]
        i = waiting[server].pop(cid, -1)  # type: ignore[arg-type]
        if i >= 0:
            call_result[i] = j
            result_call[j] = i
            queue = queued[server].get(cid)  # type: ignore[arg-type]
            if queue:
                waiting[server][cid] = queue.popleft()  # type: ignore[index]

    # Server calls with no result of their own that the provider says ran
    for i, status in reported.items():
        if call_result[i] == UNANSWERED:
            if status in _RAN_STATUSES:
                call_result[i] = RAN
            elif status in _SERVER_ERROR_STATUSES:
                call_result[i] = RAN_FAILED

    return ToolLinks(
        calls,
        res_rows,
        call_result,
        result_call,
        tuple(duplicates),
        irregular,
        repeated,
    )
