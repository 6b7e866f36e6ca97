"""Cost of a history in US dollars: per message, per turn, per model and in total.

Each message's own usage is priced (see ``prices``): a response whose usage a format repeats
over several lines was read as one message with its usage once, so nothing is counted twice.
Messages without usage cost nothing here (estimated counts are not priced), and a model with
no known price is listed in ``unpriced``, its messages left out of every sum.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from decimal import Decimal

from ._frozen import value
from .message import Message
from .prices import PriceOverride, Pricer

UNKNOWN_MODEL = "unknown"


@value
class CostTotals:
    """What a history cost: ``total_usd`` is None when no message could be priced."""

    total_usd: float | None
    by_model: dict[str, float]
    """Dollars by model name, priced models only."""
    unpriced: tuple[str, ...]
    """Models whose messages carry usage but have no known price, in order of appearance."""
    per_message: dict[int, float]
    """Dollars by message index, for every priced message."""

    def of(self, index: int) -> float | None:
        """The cost of message ``index``, or None if it has none (or no price)."""
        return self.per_message.get(index)


def cost_totals(
    messages: Iterable[Message],
    *,
    provider: str | None = None,
    prices: dict[str, PriceOverride] | None = None,
    times: Sequence[float | None] | None = None,
) -> CostTotals:
    """Price every message that carries usage.

    ``provider`` is the conversation's (see ``prices.provider_for``); a message's own
    ``provider_name`` (pydantic-ai) or a provider prefix on its model name wins over it.
    ``prices`` adds or overrides models' rates. ``times`` (seconds since the epoch, by message
    index) picks the prices in force when each call was made; without them, today's.
    """
    pricer = Pricer(provider=provider, overrides=prices)
    total = Decimal(0)
    by_model: dict[str, Decimal] = {}
    unpriced: dict[str, None] = {}
    per_message: dict[int, float] = {}
    priced_any = False
    for index, message in enumerate(messages):
        usage = message.usage
        if usage is None or usage.is_empty():
            continue
        model = message.model or UNKNOWN_MODEL
        if model in unpriced:
            continue
        own = message.response_metadata.get("provider_name")
        when = times[index] if times is not None and index < len(times) else None
        dollars = pricer.price(
            usage, model, provider=own if isinstance(own, str) else None, when=when
        )
        if dollars is None:
            unpriced[model] = None
            continue
        priced_any = True
        total += dollars
        by_model[model] = by_model.get(model, Decimal(0)) + dollars
        per_message[index] = float(dollars)
    return CostTotals(
        float(total) if priced_any else None,
        {model: float(d) for model, d in by_model.items()},
        tuple(unpriced),
        per_message,
    )


def format_usd(dollars: float | None) -> str:
    """Dollars for people: ``$12.34``, ``$0.52``, ``$0.0031`` (two significant digits below
    ten cents, so a cheap call does not read as free)."""
    if dollars is None:
        return "unpriced"
    if dollars == 0:
        return "$0"
    if abs(dollars) >= 0.1:
        return f"${dollars:,.2f}"
    decimals = min(1 - math.floor(math.log10(abs(dollars))), 8)
    return f"${dollars:.{decimals}f}"


__all__ = ["UNKNOWN_MODEL", "CostTotals", "cost_totals", "format_usd"]
