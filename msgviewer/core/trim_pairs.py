"""``trim(keep_tool_pairs=True)``: where each tool call and its result are, so a trimmed window
can be moved inwards until it keeps no call without its result and no result without its call."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable

from .blocks import ToolCallBlock, ToolResultBlock
from .message import Message

_NO_IDS: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())


def _tool_ids(message: Message) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Ids of the tool calls a message makes and of the calls it answers, in either shape."""
    content = message.content
    # Lists, made tuples once: a tuple grown per block is quadratic in a message's blocks
    # (a user turn holding the results of 40,000 parallel calls).
    calls = [c.id for c in message.tool_calls]
    calls += [c.id for c in message.invalid_tool_calls]  # a provider still expects them answered
    results = [message.tool_call_id] if message.role == "tool" else []
    if type(content) is tuple:
        for block in content:
            kind = type(block)
            if kind is ToolCallBlock:
                calls.append(block.id)  # type: ignore[union-attr]
            elif kind is ToolResultBlock:
                results.append(block.tool_call_id)  # type: ignore[union-attr]
    return (tuple(calls), tuple(results)) if calls or results else _NO_IDS


class ToolPairs:
    """Where each answered tool call and its result are in a history, to keep them together.

    A message's partners are the messages holding the other end of its calls and results
    (for an id used twice: the last result of a call, the first call of a result). The window
    kept is a range of the history, so a pair is split exactly when a partner is outside it.
    """

    def __init__(self, messages: list[Message]) -> None:
        self.messages = messages
        ids: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        first_call: dict[str, int] = {}
        last_result: dict[str, int] = {}
        for i, message in enumerate(messages):
            if (
                type(message.content) is str
                and message.role != "tool"
                and not message.tool_calls
                and not message.invalid_tool_calls
            ):
                continue  # the common case, decided without building anything
            calls, results = found = _tool_ids(message)
            if found is _NO_IDS:
                continue
            ids[i] = found
            for call_id in calls:
                if call_id is not None:
                    first_call.setdefault(call_id, i)
            for call_id in results:
                if call_id is not None:
                    last_result[call_id] = i
        self.first_call = first_call
        self.last_result = last_result
        self.ids = ids
        # Nearest and farthest partner of each message that has one.
        self.span: dict[int, tuple[int, int]] = {}
        for i, (calls, results) in ids.items():
            partners = self._partners(calls, results)
            if partners:
                self.span[i] = (min(partners), max(partners))
        self.indices = sorted(self.span)

    def _partners(self, calls: Iterable[str], results: Iterable[str]) -> list[int]:
        last_result, first_call = self.last_result, self.first_call
        out = [last_result[c] for c in calls if c in last_result and c in first_call]
        out += [first_call[r] for r in results if r in first_call and r in last_result]
        return out

    def fix_window(
        self,
        lo: int,
        window: list[Message],
        start_roles: frozenset[str] | None,
        end_roles: frozenset[str],
    ) -> tuple[int, int]:
        """The range of history indices ``window`` (the history from index ``lo``, its edge
        messages perhaps partial) shrinks to so that no pair is split.

        A message whose partner lies before the window goes with everything before it; one
        whose partner lies after goes with everything after it. Then ``start_roles`` and
        ``end_roles`` are applied again, until nothing moves.
        """
        base = lo
        hi = lo + len(window)
        # A partial copy at an edge holds fewer ids than the original message.
        partial = [i for i in (lo, hi - 1) if lo < hi and window[i - base] is not self.messages[i]]
        while lo < hi:
            front, back = lo - 1, hi
            for i in self.indices[bisect_left(self.indices, lo) : bisect_left(self.indices, hi)]:
                if i in partial:
                    continue
                first, last = self.span[i]
                if first < lo:
                    front = i
                if last >= hi and back == hi:
                    back = i
            for p in partial:
                if not lo <= p < hi:
                    continue
                calls, results = _tool_ids(window[p - base])
                for q in self._partners(calls, results):
                    if q < lo:
                        front = max(front, p)
                    elif q >= hi:
                        back = min(back, p)
                # Partners of the ids it lost are now split from it.
                old_calls, old_results = self.ids.get(p, _NO_IDS)
                lost = self._partners(set(old_calls) - set(calls), set(old_results) - set(results))
                for q in lost:
                    if lo <= q < hi:
                        if q > p:
                            front = max(front, q)
                        else:
                            back = min(back, q)
            if front < lo and back == hi:
                break
            lo, hi = front + 1, max(back, front + 1)
            if start_roles:
                while lo < hi and window[lo - base].role not in start_roles:
                    lo += 1
            if end_roles:
                while hi > lo and window[hi - 1 - base].role not in end_roles:
                    hi -= 1
        return lo, hi
