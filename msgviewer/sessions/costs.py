"""What a session cost: each model call priced as it is scanned, and the price overrides
applied when the list is shown.

A summary is cached by its file's size and time, whatever prices a later listing is given, so
it keeps two things by model: the dollars at the database's prices (each call priced by
``core.prices.Pricer`` at the time it was made, as ``msgviewer stats`` does) and the summed
token counts. An override's rates are linear in the counts, so a model an override names is
priced from its sums; any other model's dollars are the cached ones.
"""

from __future__ import annotations

from typing import Any

from ..core.cost import UNKNOWN_MODEL
from ..core.prices import PriceOverride, Pricer, PriceTotal, one_hour_writes, provider_for
from ..core.usage import Usage
from .summary import Summary

COUNTS = ("input", "output", "cache_read", "cache_write", "cache_write_1h", "reasoning")
"""The token counts kept by model (``input`` includes cache reads and writes, ``output``
reasoning, as in ``core.usage``)."""


class CostTally:
    """The calls of one session, priced one by one and summed by model."""

    def __init__(self, fmt: str) -> None:
        self.pricer = Pricer(provider=provider_for(fmt))
        self.usage: dict[str, dict[str, int]] = {}
        self.dollars: dict[str, PriceTotal] = {}
        self.unpriced: dict[str, None] = {}

    def add(self, model: Any, usage: Usage | None, when: float | None = None) -> None:
        """One call (a message's usage), ``when`` in seconds since the epoch."""
        if usage is None or usage.is_empty():
            return
        name = model if isinstance(model, str) and model else UNKNOWN_MODEL
        counts = self.usage.setdefault(name, dict.fromkeys(COUNTS, 0))
        counts["input"] += usage.input_tokens
        counts["output"] += usage.output_tokens
        counts["cache_read"] += usage.cache_read_tokens
        counts["cache_write"] += usage.cache_write_tokens
        counts["cache_write_1h"] += min(one_hour_writes(usage.extra), usage.cache_write_tokens)
        counts["reasoning"] += usage.reasoning_tokens
        if name in self.unpriced:  # as core.cost: a model without a price stays without
            return
        total = self.dollars.get(name)
        if total is None:
            total = self.dollars[name] = PriceTotal(self.pricer)
        if not total.add(usage, name, when=when):
            self.unpriced[name] = None
            del self.dollars[name]

    def into(self, s: Summary) -> None:
        s.usage_by_model = self.usage
        s.cost_by_model = {m: float(d.total()) for m, d in self.dollars.items()}
        s.unpriced_models = list(self.unpriced)


def summed_usage(counts: dict[str, int]) -> Usage:
    """A model's summed counts as one ``Usage`` (what an override prices)."""
    hour = counts.get("cache_write_1h", 0)
    return Usage(
        input_tokens=counts.get("input", 0),
        output_tokens=counts.get("output", 0),
        cache_read_tokens=counts.get("cache_read", 0),
        cache_write_tokens=counts.get("cache_write", 0),
        reasoning_tokens=counts.get("reasoning", 0),
        extra={"cache_creation": {"ephemeral_1h_input_tokens": hour}} if hour else {},
    )


def session_cost(
    s: Summary, prices: dict[str, PriceOverride] | None = None
) -> tuple[float | None, list[str]]:
    """The session's dollars (None when nothing is priced) and its unpriced models."""
    pricer = Pricer(overrides=prices)
    total: float | None = None
    unpriced: list[str] = []
    for model, counts in s.usage_by_model.items():
        override = pricer.override_for(model) if prices else None
        if override is not None:
            total = (total or 0.0) + float(override.price(summed_usage(counts)))
            continue
        if model in s.cost_by_model:
            total = (total or 0.0) + s.cost_by_model[model]
        if model in s.unpriced_models:
            unpriced.append(model)
    return total, unpriced


__all__ = ["COUNTS", "CostTally", "session_cost", "summed_usage"]
