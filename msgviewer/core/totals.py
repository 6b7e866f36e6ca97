"""Usage summed over a history: the total, by model, and one entry per assistant turn.

Turns whose message carries no usage get estimates (``approximate=True``) so a chart of a run
over time has no holes: the prompt is estimated as the approximate token count of every
message before the turn, the output as that of the turn's own message.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from .message import Message
from .tokens import accumulate
from .usage import TurnUsage, Usage, UsageTotals

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

    total = Usage()
    by_model: dict[str, Usage] = {}
    per_turn: list[TurnUsage] = []
    before = 0.0  # approximate tokens of the messages before the current one
    for index, message in enumerate(history):
        usage = message.usage
        if usage is not None and not usage.is_empty():
            total = total + usage
            key = message.model or "unknown"
            seen = by_model.get(key)
            by_model[key] = usage if seen is None else seen + usage
            if message.role == "assistant":
                per_turn.append(TurnUsage(index, usage, message.model, usage.input_tokens))
        elif message.role == "assistant":
            prompt = math.ceil(before)
            output = math.ceil(_estimate(0.0, message))
            estimate = Usage(input_tokens=prompt, output_tokens=output)
            per_turn.append(TurnUsage(index, estimate, message.model, prompt, approximate=True))
        if needs_estimates:
            before = _estimate(before, message)
    return UsageTotals(total, by_model, tuple(per_turn))


__all__ = ["usage_totals"]
