"""Usage summed over a history: the total, by model, and one entry per assistant turn.

Turns whose message carries no usage get estimates (``approximate=True``) so a chart of a run
over time has no holes: the prompt is estimated as the approximate token count of every
message before the turn, the output as that of the turn's own message.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ._frozen import builder
from .message import Message
from .tokens import accumulate
from .usage import TurnUsage, Usage, UsageTotals, _add_extra

_turn = builder(TurnUsage)

# count_tokens_approximately's defaults (LangChain's).
_CHARS_PER_TOKEN = 4.0
_EXTRA_TOKENS_PER_MESSAGE = 3.0
_COUNT_NAME = True
_TOKENS_PER_IMAGE = 85


def _estimate(total: float, message: Message) -> float:
    return accumulate(
        total,
        message,
        _CHARS_PER_TOKEN,
        _EXTRA_TOKENS_PER_MESSAGE,
        _COUNT_NAME,
        _TOKENS_PER_IMAGE,
    )


def _has_usage(message: Message) -> bool:
    # An all-zero usage is what a reader leaves for an empty usage object: no call costs nothing.
    usage = message.usage
    return usage is not None and not usage.is_empty()


def usage_totals(messages: Iterable[Message]) -> UsageTotals:
    """Usage of ``messages``: ``.total`` and ``.by_model`` sum the usage the messages carry
    (keyed by ``message.model``, or ``"unknown"``); ``.per_turn`` has one ``TurnUsage`` per
    assistant message, in order, with ``context_tokens`` the prompt size of that call.

    Linear in the history: estimates for turns without usage come from a running prefix sum
    of ``count_tokens_approximately``, computed only if some turn needs it.
    """
    history = messages if isinstance(messages, (list, tuple)) else list(messages)
    needs_estimates = any(m.role == "assistant" and not _has_usage(m) for m in history)

    total = _Sum()
    by_model: dict[str, _Sum] = {}
    per_turn: list[TurnUsage] = []
    before = 0.0  # approximate tokens of the messages before the current one
    for index, message in enumerate(history):
        usage = message.usage
        if usage is not None and not usage.is_empty():
            total.add(usage)
            model = message.model
            key = model or "unknown"
            seen = by_model.get(key)
            if seen is None:
                seen = by_model[key] = _Sum()
            seen.add(usage)
            if message.role == "assistant":
                per_turn.append(_turn(index, usage, model, usage.input_tokens, False))
        elif message.role == "assistant":
            prompt = math.ceil(before)
            output = math.ceil(_estimate(0.0, message))
            estimate = Usage(input_tokens=prompt, output_tokens=output)
            per_turn.append(TurnUsage(index, estimate, message.model, prompt, approximate=True))
        if needs_estimates:
            before = _estimate(before, message)
    return UsageTotals(
        total.usage(), {key: s.usage() for key, s in by_model.items()}, tuple(per_turn)
    )


class _Sum:
    """A running ``Usage`` sum in plain ints: what ``Usage.__add__`` gives, step by step,
    without a new ``Usage`` (and its dicts) per message."""

    __slots__ = ("cr", "cw", "extra", "i", "o", "r", "t")

    def __init__(self) -> None:
        self.i = self.o = self.t = self.cr = self.cw = self.r = 0
        self.extra: dict[str, Any] = {}

    def add(self, u: Usage) -> None:
        i = self.i = self.i + u.input_tokens
        o = self.o = self.o + u.output_tokens
        t = self.t + u.total_tokens
        self.t = t if t or not (i or o) else i + o  # as Usage.__post_init__ does for each sum
        self.cr += u.cache_read_tokens
        self.cw += u.cache_write_tokens
        self.r += u.reasoning_tokens
        if self.extra or u.extra:
            self.extra = _add_extra(self.extra, u.extra)

    def usage(self) -> Usage:
        return Usage(self.i, self.o, self.t, self.cr, self.cw, self.r, self.extra)


__all__ = ["usage_totals"]
