"""Prices of model calls: the maintained ``genai-prices`` database and a table of overrides.

``genai-prices`` (the pydantic team's price database) is used with its bundled data only: no
price is ever fetched from the network. A model it does not know, and no override names, has no
price: the caller lists it as unpriced, nothing is guessed.

An override (``PriceOverride``, from a ``--prices`` file read above the core) gives US dollars
per million tokens; cache reads and writes it does not price cost what input tokens cost, and
one-hour cache writes what cache writes cost.
"""

from __future__ import annotations

from bisect import bisect_left
from datetime import datetime, timezone
from decimal import Decimal
from typing import Any

from ._frozen import value
from .usage import Usage

_MILLION = Decimal(1_000_000)

# The provider behind each wire format, for the database's model matching.
FORMAT_PROVIDERS = {
    "anthropic": "anthropic",
    "claude-code": "anthropic",
    "openai-chat": "openai",
    "openai-responses": "openai",
    "codex": "openai",
    "gemini": "google",
    "gemini-cli": "google",
}


@value
class PriceOverride:
    """A model's rates in US dollars per million tokens (from a ``--prices`` file)."""

    input: Decimal
    output: Decimal
    cache_read: Decimal | None = None
    cache_write: Decimal | None = None
    cache_write_1h: Decimal | None = None

    def price(self, usage: Usage) -> Decimal:
        """The cost of ``usage`` at these rates."""
        read, write = usage.cache_read_tokens, usage.cache_write_tokens
        hour = min(one_hour_writes(usage.extra), write)
        plain = max(usage.input_tokens - read - write, 0)
        cache_read = self.input if self.cache_read is None else self.cache_read
        cache_write = self.input if self.cache_write is None else self.cache_write
        hour_rate = cache_write if self.cache_write_1h is None else self.cache_write_1h
        dollars = (
            plain * self.input
            + read * cache_read
            + (write - hour) * cache_write
            + hour * hour_rate
            + usage.output_tokens * self.output
        )
        return dollars / _MILLION


def split_model(model: str) -> tuple[str | None, str]:
    """``"openai/gpt-4o"`` or ``"openai:gpt-4o"`` -> ``("openai", "gpt-4o")``; a bare name has no
    provider."""
    for sep in ("/", ":"):
        head, found, tail = model.partition(sep)
        if found and head and tail and head.replace("-", "").isalnum():
            return head.lower(), tail
    return None, model


# Shared by every pricer: the database's models and price periods live as long as the process
# (a session browser makes a pricer per file: looking up and measuring again for each file cost
# more than the pricing)
_FOUND: dict[tuple[str, str | None], Any] = {}
_RESOLVED: dict[tuple[str, str | None], Any] = {}
_RATES: dict[int, PeriodRates] = {}
_MISSING = object()


class Pricer:
    """Prices one message's usage at a time, remembering each model's lookup."""

    def __init__(
        self, *, provider: str | None = None, overrides: dict[str, PriceOverride] | None = None
    ) -> None:
        self.provider = provider
        self.overrides = overrides or {}
        self._found = _FOUND
        self._rates = _RATES

    def price(
        self, usage: Usage, model: str, *, provider: str | None = None, when: float | None = None
    ) -> Decimal | None:
        """The cost of ``usage`` in US dollars, or None when ``model`` has no known price.

        ``when`` (seconds since the epoch) picks the prices in force at the time of the call.
        """
        override = self.override_for(model)
        if override is not None:
            return override.price(usage)
        found = self._resolve(model, provider)
        if found is None:
            return None
        counts = _database_counts(usage)
        rates = self._period(found[1], when).rates_for(counts)
        if rates is not None:
            return rates.times(counts)
        return self._database(found, when, counts)

    def rates_for(
        self, usage: Usage, model: str, *, provider: str | None = None, when: float | None = None
    ) -> tuple[Rates, dict[str, int]] | None:
        """The rates that price ``usage`` and the counts they multiply, where rates price it
        (no override, a known model, not at a tier's start); None: ask ``price``."""
        period = self.period_rates(model, provider=provider, when=when)
        counts = _database_counts(usage)
        rates = None if period is None else period.rates_for(counts)
        return None if rates is None else (rates, counts)

    def period_rates(
        self, model: str, *, provider: str | None = None, when: float | None = None
    ) -> PeriodRates | None:
        """The rates of ``model``'s price period at ``when``, which price the calls their
        ``rates_for`` gives; None for an overridden or an unknown model."""
        if self.overrides and self.override_for(model) is not None:
            return None
        found = self._resolve(model, provider)
        return None if found is None else self._period(found[1], when)

    def _resolve(self, model: str, provider: str | None) -> Any:
        """The database's (provider, model) for a model name, or None."""
        key = (model, provider or self.provider)
        found = _RESOLVED.get(key, _MISSING)
        if found is _MISSING:
            prefix, bare = split_model(model)
            found = _RESOLVED[key] = self._lookup(bare, prefix or key[1])
        return found

    def _database(self, found: Any, when: float | None, counts: dict[str, int]) -> Any:
        provider_info, model_info = found
        stamp = datetime.fromtimestamp(when, timezone.utc) if when is not None else None
        try:
            calc = model_info.calc_price(
                _db_usage(counts), provider_info, genai_request_timestamp=stamp
            )
        except ValueError:  # counts the database finds inconsistent: not priced, not guessed
            return None
        return calc.total_price

    def _period(self, model_info: Any, when: float | None) -> PeriodRates:
        """The rates of the price period in force at ``when``: the database is exact but costs
        ~60 us a call (a session browser pricing every call of a thousand sessions), a period's
        rates price most calls for a few additions."""
        stamp = datetime.fromtimestamp(when, timezone.utc) if when is not None else None
        prices = model_info.get_prices(stamp or datetime.now(timezone.utc))
        rates = self._rates.get(id(prices))
        if rates is None:
            rates = self._rates[id(prices)] = PeriodRates(prices)
        return rates

    def override_for(self, model: str) -> PriceOverride | None:
        """The override that prices ``model`` (by its full or its bare name), if any."""
        return self.overrides.get(model) or self.overrides.get(split_model(model)[1])

    def _lookup(self, model: str, provider: str | None) -> Any:
        key = (model, provider)
        if key not in self._found:
            self._found[key] = _find(model, provider)
        return self._found[key]


def _find(model: str, provider: str | None) -> Any:
    """The database's (provider, model) for a name, trying the named provider first."""
    try:
        from genai_prices.data_snapshot import get_snapshot
    except ImportError:  # the database needs Python 3.11: overrides only
        return None
    snapshot = get_snapshot()
    for provider_id in (provider, None) if provider else (None,):
        try:
            return snapshot.find_provider_model(model, None, provider_id, None)
        except LookupError:
            continue
    return None


def one_hour_writes(extra: dict[str, Any]) -> int:
    """Anthropic's one-hour cache writes (``cache_creation.ephemeral_1h_input_tokens``)."""
    creation = extra.get("cache_creation")
    n = creation.get("ephemeral_1h_input_tokens") if isinstance(creation, dict) else None
    return n if type(n) is int and n > 0 else 0


def _count(d: Any, key: str) -> int:
    n = d.get(key) if isinstance(d, dict) else None
    return n if type(n) is int and n > 0 else 0


def _modalities(details: Any) -> dict[str, int]:
    """Gemini's ``[{"modality": "AUDIO", "tokenCount": n}, ...]`` as counts by modality."""
    out: dict[str, int] = {}
    for d in details if isinstance(details, list) else ():
        if isinstance(d, dict) and isinstance(d.get("modality"), str):
            n = _count(d, "tokenCount") or _count(d, "token_count")
            out[d["modality"].lower()] = out.get(d["modality"].lower(), 0) + n
    return out


_LINEAR_KEYS = frozenset(
    {
        "input_tokens",
        "output_tokens",
        "cache_read_tokens",
        "cache_write_tokens",
        "cache_write_1h_tokens",
        "output_reasoning_tokens",
    }
)
"""The counts priced by rates (audio and image tokens: always by the database)."""

_STEP = 1000
_PRICE_FIELDS = (
    "input_mtok",
    "output_mtok",
    "cache_read_mtok",
    "cache_write_mtok",
    "cache_write_1h_mtok",
)


def _consistent(counts: dict[str, int]) -> bool:
    """Cached tokens within the input, one-hour writes within the writes, reasoning within the
    output: where the database's priced counts are linear in these."""
    get = counts.get
    return (
        get("cache_read_tokens", 0) + get("cache_write_tokens", 0) <= get("input_tokens", 0)
        and get("cache_write_1h_tokens", 0) <= get("cache_write_tokens", 0)
        and get("output_reasoning_tokens", 0) <= get("output_tokens", 0)
    )


class Rates:
    """A rate per count that prices, exactly as the database does, every call whose input lies
    in one band of sizes (below a model's first tier, or between two of its tiers)."""

    __slots__ = ("rates",)

    def __init__(self, rates: dict[str, Any]) -> None:
        self.rates = rates

    def times(self, counts: dict[str, int]) -> Decimal:
        """The rates times ``counts``: one call's, or the sum of calls it prices one by one."""
        rates = self.rates
        return sum((rates[k] * v for k, v in counts.items()), Decimal(0))


class PeriodRates:
    """One price period's rates, measured with the database itself.

    The database prices a call's every token at the rate of the highest tier its input is past
    (prices that change with the input's size). So between two tiers' starts a price is linear
    in the counts: each band's rate per count is what ``_STEP`` more of that count costs the
    database, checked once against it before it is trusted. A call whose input is a tier's
    start exactly is priced by the database (which side it falls is the database's to say)."""

    def __init__(self, prices: Any) -> None:
        from genai_prices.types import TieredPrices

        starts = {
            tier.start
            for name in _PRICE_FIELDS
            if isinstance(price := getattr(prices, name, None), TieredPrices)
            for tier in price.tiers
        }
        self.prices = prices  # kept alive: the pricers know it by its id
        self.starts = sorted(starts)
        """The tiers' starts: band ``i`` holds the inputs past ``i`` of them, short of the next."""
        lows = [-1, *self.starts]
        highs: list[int | None] = [*self.starts, None]
        self.bands = [
            _measured(prices, low + 1, high) for low, high in zip(lows, highs, strict=True)
        ]

    def rates_for(self, counts: dict[str, int]) -> Rates | None:
        """The rates that price a call of these counts (the database's): measured rates for its
        input's band, no audio or image tokens, and consistent counts; None: ask the
        database."""
        if not (counts.keys() <= _LINEAR_KEYS and _consistent(counts)):
            return None
        starts = self.starts
        size = counts.get("input_tokens", 0)
        band = bisect_left(starts, size)  # (the tiers it is past, or at)
        if band < len(starts) and starts[band] == size:
            return None
        return self.bands[band]


def _measured(prices: Any, low: int, high: int | None) -> Rates | None:
    """The rates of the inputs from ``low`` to short of ``high`` (None: no end), or None where
    the band is too narrow to measure in or the database does not price it linearly."""
    if high is not None and high - low <= 16 * _STEP:
        return None
    try:
        base = {"input_tokens": low + 8 * _STEP, "output_tokens": 8 * _STEP}
        base |= {"cache_read_tokens": _STEP, "cache_write_tokens": 2 * _STEP}
        base |= {"cache_write_1h_tokens": _STEP, "output_reasoning_tokens": _STEP}
        at_base = _total(prices, base)
        rates = {k: (_total(prices, base | {k: base[k] + _STEP}) - at_base) / _STEP for k in base}
        check = {"input_tokens": low + 7919, "output_tokens": 613, "cache_read_tokens": 4001}
        check |= {"cache_write_tokens": 1201, "cache_write_1h_tokens": 307}
        check |= {"output_reasoning_tokens": 97}
        if _total(prices, check) == sum(rates[k] * v for k, v in check.items()):
            return Rates(rates)
    except (ValueError, TypeError):
        pass  # a band the database will not price this way: it prices every call
    return None


class PriceTotal:
    """The summed price of many calls: those rates price are summed as counts and multiplied
    once at the end (a product of decimals for each call cost more than the rest of pricing
    it); the others are priced one by one."""

    def __init__(self, pricer: Pricer) -> None:
        self.pricer = pricer
        self.dollars = Decimal(0)
        self._sums: dict[int, tuple[Rates, dict[str, int]]] = {}

    def add(
        self, usage: Usage, model: str, *, provider: str | None = None, when: float | None = None
    ) -> bool:
        """Add one call; False when the model has no known price (nothing is added)."""
        fast = self.pricer.rates_for(usage, model, provider=provider, when=when)
        if fast is None:
            dollars = self.pricer.price(usage, model, provider=provider, when=when)
            if dollars is None:
                return False
            self.dollars += dollars
            return True
        self.add_counts(*fast)
        return True

    def add_counts(self, rates: Rates, counts: dict[str, int]) -> None:
        """Add one call of ``counts`` (the database's) priced by ``rates`` (``rates_for``)."""
        entry = self._sums.get(id(rates))
        if entry is None:
            entry = self._sums[id(rates)] = (rates, dict.fromkeys(_LINEAR_KEYS, 0))
        sums = entry[1]
        for k, v in counts.items():
            sums[k] += v

    def total(self) -> Decimal:
        return self.dollars + sum(
            (rates.times(sums) for rates, sums in self._sums.values()), Decimal(0)
        )


def _total(prices: Any, counts: dict[str, int]) -> Any:
    return prices.calc_price(_db_usage(counts))["total_price"]


def _db_usage(counts: dict[str, int]) -> Any:
    from genai_prices import Usage as DbUsage

    return DbUsage(**counts)


def _database_counts(usage: Usage) -> dict[str, int]:
    """``usage``'s counts as the database names them."""
    return database_counts(
        usage.input_tokens,
        usage.output_tokens,
        usage.cache_read_tokens,
        usage.cache_write_tokens,
        usage.reasoning_tokens,
        usage.extra,
    )


def database_counts(
    input_tokens: int,
    output_tokens: int,
    cache_read: int = 0,
    cache_write: int = 0,
    reasoning: int = 0,
    extra: dict[str, Any] | None = None,
) -> dict[str, int]:
    """The database's counts of one call: its normalised counts (as ``Usage`` holds them) plus
    what only the provider's dict says (one-hour cache writes, audio and image tokens); zeros
    left out."""
    extra = extra or {}
    counts = {
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cache_read_tokens": min(cache_read, input_tokens),
        "cache_write_tokens": cache_write,
        "cache_write_1h_tokens": min(one_hour_writes(extra), cache_write),
        "output_reasoning_tokens": min(reasoning, output_tokens),
    }
    if extra.keys() & _MEDIA_KEYS:
        counts |= _media_counts(extra)
    return {k: v for k, v in counts.items() if v}


_MEDIA_KEYS = frozenset(
    {
        "prompt_tokens_details",
        "completion_tokens_details",
        "input_audio_tokens",
        "output_audio_tokens",
        "cache_audio_read_tokens",
        "promptTokensDetails",
        "candidatesTokensDetails",
        "candidates_tokens_details",
        "cacheTokensDetails",
        "cache_tokens_details",
    }
)
"""Where a provider's usage says audio or image tokens (most usages say none)."""


def _media_counts(extra: dict[str, Any]) -> dict[str, int]:
    """Audio and image tokens, as OpenAI, pydantic-ai and Gemini report them."""
    counts = {
        # OpenAI (chat) and pydantic-ai name audio tokens
        "input_audio_tokens": _count(extra.get("prompt_tokens_details"), "audio_tokens")
        or _count(extra, "input_audio_tokens"),
        "output_audio_tokens": _count(extra.get("completion_tokens_details"), "audio_tokens")
        or _count(extra, "output_audio_tokens"),
        "cache_audio_read_tokens": _count(extra, "cache_audio_read_tokens"),
    }
    # Gemini gives counts by modality
    prompt = _modalities(extra.get("promptTokensDetails") or extra.get("prompt_tokens_details"))
    output = _modalities(
        extra.get("candidatesTokensDetails") or extra.get("candidates_tokens_details")
    )
    cached = _modalities(extra.get("cacheTokensDetails") or extra.get("cache_tokens_details"))
    counts["input_audio_tokens"] = counts["input_audio_tokens"] or prompt.get("audio", 0)
    counts["input_image_tokens"] = prompt.get("image", 0)
    counts["output_audio_tokens"] = counts["output_audio_tokens"] or output.get("audio", 0)
    counts["output_image_tokens"] = output.get("image", 0)
    counts["cache_audio_read_tokens"] = counts["cache_audio_read_tokens"] or cached.get("audio", 0)
    return counts


def provider_for(fmt: str | None, model: str | None = None) -> str | None:
    """The provider of a conversation: named by its model (``"openai/gpt-4o"``), else implied
    by its format."""
    if model:
        prefix, _ = split_model(model)
        if prefix:
            return prefix
    return FORMAT_PROVIDERS.get(fmt or "")


__all__ = [
    "FORMAT_PROVIDERS",
    "PeriodRates",
    "PriceOverride",
    "PriceTotal",
    "Pricer",
    "Rates",
    "database_counts",
    "one_hour_writes",
    "provider_for",
    "split_model",
]
