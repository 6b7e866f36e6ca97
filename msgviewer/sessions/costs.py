"""What a session cost: each model call priced as it is scanned, and the price overrides
applied when the list is shown.

A summary is cached by its file's size and time, whatever prices a later listing is given, so
it keeps two things by model: the dollars at the database's prices (each call priced by
``core.prices.Pricer`` at the time it was made, as ``msgviewer stats`` does) and the summed
token counts. An override's rates are linear in the counts, so a model an override names is
priced from its sums; any other model's dollars are the cached ones.
"""

from __future__ import annotations

import threading
from typing import Any

from ..core.cost import UNKNOWN_MODEL
from ..core.prices import (
    PeriodRates,
    PriceOverride,
    Pricer,
    PriceTotal,
    database_counts,
    provider_for,
)
from ..core.usage import Usage
from ..formats.timestamps import parse_time
from .summary import Summary

COUNTS = ("input", "output", "cache_read", "cache_write", "cache_write_1h", "reasoning")
"""The token counts kept by model (``input`` includes cache reads and writes, ``output``
reasoning, as in ``core.usage``)."""


class CostTally:
    """The calls of one session, priced as they come and summed by model.

    A scan gives each call's counts as the database names them (``database_counts``) and its
    time as the file writes it. The rates of a model's price period are looked up once a
    minute of calls: the database's periods start on a day and its off-peak hours on a minute
    (``tests/sessions/test_costs.py`` checks), and a session's calls are most of a listing's
    work.
    """

    def __init__(self, fmt: str) -> None:
        self.pricer = Pricer(provider=provider_for(fmt))
        self.usage: dict[str, dict[str, int]] = {}
        self.dollars: dict[str, PriceTotal] = {}
        self.unpriced: dict[str, None] = {}
        self._periods: dict[tuple[str, Any], PeriodRates | None] = {}

    def add(
        self, model: Any, counts: dict[str, int] | None, when: Any, extra: dict[str, Any]
    ) -> None:
        """One call: its counts (None: the file's are not numbers), ``when`` as written (an ISO
        8601 text or seconds since the epoch) and the provider's usage dict."""
        if not counts:
            return
        name = model if isinstance(model, str) and model else UNKNOWN_MODEL
        summed = self.usage.get(name)
        if summed is None:
            summed = self.usage[name] = dict.fromkeys(COUNTS, 0)
        for key, value in counts.items():
            if key in _COUNT_NAMES:
                summed[_COUNT_NAMES[key]] += value
        if name in self.unpriced:  # as core.cost: a model without a price stays without
            return
        total = self.dollars.get(name)
        if total is None:
            total = self.dollars[name] = PriceTotal(self.pricer)
        if type(when) is str:
            stamp = when[:16] if when[-1:] == "Z" else when
        else:  # (seconds since the epoch; anything else a file put there is no time)
            when = stamp = when if type(when) in (int, float) else None
        minute = (name, stamp)
        rates = self._periods.get(minute, _MISSING)
        if rates is _MISSING:
            rates = self._periods[minute] = self.pricer.period_rates(name, when=parse_time(when))
        linear = None if rates is None else rates.rates_for(counts)
        if linear is not None:
            total.add_counts(linear, counts)
        elif not total.add(_usage(counts, extra), name, when=parse_time(when)):
            self.unpriced[name] = None
            del self.dollars[name]

    def add_usage(self, model: Any, usage: Usage | None, when: float | None) -> None:
        """One call read into a message (its ``usage``)."""
        if usage is not None:
            counts = database_counts(
                usage.input_tokens,
                usage.output_tokens,
                usage.cache_read_tokens,
                usage.cache_write_tokens,
                usage.reasoning_tokens,
                usage.extra,
            )
            self.add(model, counts, when, usage.extra)

    def into(self, s: Summary) -> None:
        s.usage_by_model = self.usage
        s.cost_by_model = {m: float(d.total()) for m, d in self.dollars.items()}
        s.unpriced_models = list(self.unpriced)


_MISSING: Any = object()

_COUNT_NAMES = {
    "input_tokens": "input",
    "output_tokens": "output",
    "cache_read_tokens": "cache_read",
    "cache_write_tokens": "cache_write",
    "cache_write_1h_tokens": "cache_write_1h",
    "output_reasoning_tokens": "reasoning",
}


def _usage(counts: dict[str, int], extra: dict[str, Any]) -> Usage:
    """A call the period's rates do not price, as the pricer takes it."""
    return Usage(
        input_tokens=counts.get("input_tokens", 0),
        output_tokens=counts.get("output_tokens", 0),
        cache_read_tokens=counts.get("cache_read_tokens", 0),
        cache_write_tokens=counts.get("cache_write_tokens", 0),
        reasoning_tokens=counts.get("output_reasoning_tokens", 0),
        extra=extra,
    )


def warm_up() -> threading.Thread:
    """Load the price database in a thread of its own, while the first files are read: its
    import costs a cold start a quarter of a second, most of it spent waiting for the disk,
    which reading session files need not wait for. Pricing waits for it (Python's import lock)
    only if it comes first."""

    def load() -> None:
        try:
            from genai_prices.data_snapshot import get_snapshot

            get_snapshot()
        except Exception:  # (no database, or a broken one: pricing says so when it asks)
            pass

    thread = threading.Thread(target=load, name="msgviewer-prices", daemon=True)
    thread.start()
    return thread


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


__all__ = ["COUNTS", "CostTally", "session_cost", "summed_usage", "warm_up"]
