"""Pricing by rates (the quick path) gives exactly what the price database computes itself,
below and above a model's tiers, for every kind of count it takes."""

from __future__ import annotations

import random
from datetime import datetime, timezone

import pytest

from msgviewer.core import Usage
from msgviewer.core.prices import Pricer

genai_prices = pytest.importorskip("genai_prices", reason="the price database needs Python 3.11")

MODELS = [
    ("claude-sonnet-4-5", "anthropic"),  # tiered above 200k input tokens
    ("claude-3-5-haiku-latest", "anthropic"),
    ("gpt-4o", "openai"),
    ("gpt-5", "openai"),
    ("gemini-2.5-pro", "google"),  # tiered
    ("gemini-2.5-flash", "google"),
]


def _database(model: str, provider: str, usage: Usage, when: float):
    from genai_prices import Usage as DbUsage
    from genai_prices.data_snapshot import get_snapshot

    db_provider, db_model = get_snapshot().find_provider_model(model, None, provider, None)
    one_hour = usage.extra.get("cache_creation", {}).get("ephemeral_1h_input_tokens", 0)
    counts = {
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "cache_read_tokens": usage.cache_read_tokens,
        "cache_write_tokens": usage.cache_write_tokens,
        "cache_write_1h_tokens": one_hour,
        "output_reasoning_tokens": usage.reasoning_tokens,
    }
    stamp = datetime.fromtimestamp(when, timezone.utc)
    return db_model.calc_price(
        DbUsage(**{k: v for k, v in counts.items() if v}),
        db_provider,
        genai_request_timestamp=stamp,
    ).total_price


def _usage(rng: random.Random) -> Usage:
    big = rng.random() < 0.2  # past the 200k tiers now and then
    input_tokens = rng.randint(250_000, 900_000) if big else rng.randint(0, 150_000)
    read = rng.randint(0, input_tokens // 2)
    write = rng.randint(0, (input_tokens - read) // 2)
    one_hour = rng.randint(0, write) if rng.random() < 0.5 else 0
    output = rng.randint(0, 20_000)
    reasoning = rng.randint(0, output) if rng.random() < 0.5 else 0
    return Usage(
        input_tokens=input_tokens,
        output_tokens=output,
        cache_read_tokens=read,
        cache_write_tokens=write,
        reasoning_tokens=reasoning,
        extra={"cache_creation": {"ephemeral_1h_input_tokens": one_hour}} if one_hour else {},
    )


@pytest.mark.parametrize(("model", "provider"), MODELS)
def test_rates_price_exactly_as_the_database(model: str, provider: str) -> None:
    rng = random.Random(model)
    pricer = Pricer(provider=provider)
    when = datetime(2025, 11, 1, tzinfo=timezone.utc).timestamp()
    for _ in range(300):
        usage = _usage(rng)
        assert pricer.price(usage, model, when=when) == _database(model, provider, usage, when)
    # and the rates did the pricing (the database was asked only to measure them)
    assert any(band is not None for period in pricer._rates.values() for band in period.bands)


@pytest.mark.parametrize(
    ("model", "provider"), [("claude-sonnet-4-5", "anthropic"), ("gemini-2.5-pro", "google")]
)
def test_calls_past_a_tier_are_priced_by_rates_too(
    model: str, provider: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past a tier every token costs the tier's rate, so its band has rates of its own: a
    long session of big prompts is not priced call by call by the database (0.7 ms each)."""
    rng = random.Random(f"past {model}")
    pricer = Pricer(provider=provider)
    when = datetime(2025, 11, 1, tzinfo=timezone.utc).timestamp()
    pricer.price(Usage(input_tokens=1, output_tokens=1), model, when=when)  # (rates measured)
    monkeypatch.setattr(Pricer, "_database", _not_asked)
    for _ in range(200):
        usage = _usage(rng)
        assert usage.input_tokens != 200_000
        assert pricer.price(usage, model, when=when) == _database(model, provider, usage, when)


def _not_asked(*args: object) -> None:
    raise AssertionError("the database priced a call the rates price")


@pytest.mark.parametrize("size", [199_999, 200_000, 200_001])
def test_a_call_at_a_tier_s_start_is_priced_as_the_database_prices_it(size: int) -> None:
    pricer = Pricer(provider="anthropic")
    when = datetime(2025, 11, 1, tzinfo=timezone.utc).timestamp()
    usage = Usage(input_tokens=size, output_tokens=500, cache_read_tokens=1000)
    expected = _database("claude-sonnet-4-5", "anthropic", usage, when)
    assert pricer.price(usage, "claude-sonnet-4-5", when=when) == expected


def test_rates_are_per_price_period() -> None:
    """A model whose prices changed is priced at each call's own period's rates."""
    pricer = Pricer(provider="anthropic")
    usage = Usage(input_tokens=10_000, output_tokens=1_000)
    for year in (2024, 2025, 2026):
        when = datetime(year, 6, 1, tzinfo=timezone.utc).timestamp()
        expected = _database("claude-3-5-haiku-latest", "anthropic", usage, when)
        assert pricer.price(usage, "claude-3-5-haiku-latest", when=when) == expected


@pytest.mark.parametrize(("model", "provider"), MODELS)
def test_a_total_of_many_calls_is_the_sum_of_their_prices(model: str, provider: str) -> None:
    """Summed as counts and multiplied once, or priced one by one past a tier: the same total
    as the database's price of each call, added up."""
    from msgviewer.core.prices import PriceTotal

    rng = random.Random(f"total {model}")
    total = PriceTotal(Pricer(provider=provider))
    expected = 0
    for day in range(1, 29):
        when = datetime(2025, 10, day, tzinfo=timezone.utc).timestamp()
        for _ in range(10):
            usage = _usage(rng)
            assert total.add(usage, model, when=when)
            expected += _database(model, provider, usage, when)
    assert total.total() == expected


def test_a_total_of_an_unknown_model_adds_nothing() -> None:
    from msgviewer.core.prices import PriceTotal

    total = PriceTotal(Pricer(provider="openai"))
    assert not total.add(Usage(input_tokens=10, output_tokens=5), "no-such-model-xyz")
    assert total.total() == 0
