"""A session's cost, summed as its calls are scanned, is what pricing each call on its own
gives: across price periods, off-peak hours and tiers, with calls the rates cannot price."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

from msgviewer.core import Usage
from msgviewer.core.prices import Pricer, database_counts
from msgviewer.sessions.costs import CostTally
from msgviewer.sessions.summary import Summary

genai_prices = pytest.importorskip("genai_prices", reason="the price database needs Python 3.11")


def test_the_database_changes_prices_on_whole_minutes() -> None:
    """What makes one lookup of a period's rates a minute exact."""
    from genai_prices.data_snapshot import get_snapshot
    from genai_prices.types import TimeOfDateConstraint

    bounds = [
        t
        for provider in get_snapshot().providers
        for model in provider.models
        if isinstance(model.prices, list)
        for period in model.prices
        if isinstance(period.constraint, TimeOfDateConstraint)
        for t in (period.constraint.start_time, period.constraint.end_time)
    ]
    assert bounds, "no off-peak hours left in the database: this test checks nothing"
    for t in bounds:
        offset = t.utcoffset() or timedelta(0)
        assert (t.second, t.microsecond, offset.seconds % 60) == (0, 0, 0), t


def _call(rng: random.Random, input_tokens: int) -> dict:
    return {
        "input_tokens": input_tokens,
        "output_tokens": rng.randint(1, 4000),
        "cache_read_input_tokens": rng.randint(0, 2000),
        "cache_creation_input_tokens": rng.randint(0, 2000),
    }


@pytest.mark.parametrize(
    ("fmt", "model"),
    [
        ("claude-code", "claude-sonnet-4-5-20250929"),  # tiered above 200k input tokens
        ("codex", "deepseek-chat"),  # off-peak hours from 16:30 to 00:30 UTC
        ("gemini-cli", "gemini-2.5-pro"),
    ],
)
def test_a_tally_is_the_sum_of_each_call_priced_alone(fmt: str, model: str) -> None:
    rng = random.Random(7)
    tally = CostTally(fmt)
    pricer = Pricer(provider=tally.pricer.provider)
    start = datetime(2025, 11, 3, 16, 0, 30, tzinfo=timezone.utc)
    expected = 0
    for n in range(400):
        # every 47 s across the 16:30 boundary and on into the next day; now and then past a
        # tier, or with counts the database finds inconsistent
        moment = start + timedelta(seconds=47 * n) + timedelta(hours=8 * (n // 150))
        when = moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
        raw = _call(rng, rng.choice([rng.randint(10, 150_000), 250_000 + n]))
        write, read = raw["cache_creation_input_tokens"], raw["cache_read_input_tokens"]
        usage = Usage(
            input_tokens=raw["input_tokens"] + write + read,
            output_tokens=raw["output_tokens"],
            cache_read_tokens=read,
            cache_write_tokens=write,
            extra=raw,
        )
        counts = database_counts(usage.input_tokens, usage.output_tokens, read, write, 0, raw)
        tally.add(model, counts, when, raw)
        expected += pricer.price(usage, model, when=moment.timestamp())
    summary = Summary(path="x", format=fmt, size=0, mtime=0)
    tally.into(summary)
    assert summary.cost_by_model[model] == pytest.approx(float(expected), rel=1e-12)
    assert summary.usage_by_model[model]["input"] > 400 * 10


def test_a_model_without_a_price_is_counted_and_listed_unpriced() -> None:
    tally = CostTally("codex")
    counts = {"input_tokens": 100, "output_tokens": 5}
    for minute in range(3):
        tally.add("no-such-model-xyz", counts, f"2025-01-01T10:0{minute}:00.000Z", {})
    summary = Summary(path="x", format="codex", size=0, mtime=0)
    tally.into(summary)
    assert summary.unpriced_models == ["no-such-model-xyz"]
    assert summary.cost_by_model == {}
    assert summary.usage_by_model["no-such-model-xyz"]["input"] == 300


@pytest.mark.parametrize("when", [["2025-01-01T00:00:01Z"], {"at": 1}, True, None, 1.7e9, ""])
def test_a_time_that_is_no_time_prices_the_call_as_undated(when: object) -> None:
    counts = {"input_tokens": 1000, "output_tokens": 50}
    tally, undated = CostTally("claude-code"), CostTally("claude-code")
    tally.add("claude-sonnet-4-5-20250929", counts, when, {})
    undated.add("claude-sonnet-4-5-20250929", counts, None, {})
    priced, expected = (Summary(path="x", format="claude-code", size=0, mtime=0) for _ in "ab")
    tally.into(priced)
    undated.into(expected)
    assert priced.usage_by_model == expected.usage_by_model
    if isinstance(when, float):  # (a real time: priced at its own date)
        assert priced.cost_by_model.keys() == expected.cost_by_model.keys()
    else:
        assert priced.cost_by_model == expected.cost_by_model
