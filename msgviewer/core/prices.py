"""Prices of model calls: the maintained ``genai-prices`` database and a table of overrides.

``genai-prices`` (the pydantic team's price database) is used with its bundled data only: no
price is ever fetched from the network. A model it does not know, and no override names, has no
price: the caller lists it as unpriced, nothing is guessed.

An override (``PriceOverride``, from a ``--prices`` file read above the core) gives US dollars
per million tokens; cache reads and writes it does not price cost what input tokens cost, and
one-hour cache writes what cache writes cost.
"""

from __future__ import annotations

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


class Pricer:
    """Prices one message's usage at a time, remembering each model's lookup."""

    def __init__(
        self, *, provider: str | None = None, overrides: dict[str, PriceOverride] | None = None
    ) -> None:
        self.provider = provider
        self.overrides = overrides or {}
        self._found: dict[tuple[str, str | None], Any] = {}

    def price(
        self, usage: Usage, model: str, *, provider: str | None = None, when: float | None = None
    ) -> Decimal | None:
        """The cost of ``usage`` in US dollars, or None when ``model`` has no known price.

        ``when`` (seconds since the epoch) picks the prices in force at the time of the call.
        """
        override = self.override_for(model)
        if override is not None:
            return override.price(usage)
        prefix, bare = split_model(model)
        found = self._lookup(bare, prefix or provider or self.provider)
        if found is None:
            return None
        provider_info, model_info = found
        stamp = datetime.fromtimestamp(when, timezone.utc) if when is not None else None
        try:
            calc = model_info.calc_price(
                _database_usage(usage), provider_info, genai_request_timestamp=stamp
            )
        except ValueError:  # counts the database finds inconsistent: not priced, not guessed
            return None
        return calc.total_price

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


def _database_usage(usage: Usage) -> Any:
    """The database's usage: the normalised counts plus what only the provider's dict says
    (one-hour cache writes, reasoning, audio and image tokens)."""
    from genai_prices import Usage as DbUsage

    extra = usage.extra
    counts = {
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "cache_read_tokens": min(usage.cache_read_tokens, usage.input_tokens),
        "cache_write_tokens": usage.cache_write_tokens,
        "cache_write_1h_tokens": min(one_hour_writes(extra), usage.cache_write_tokens),
        "output_reasoning_tokens": min(usage.reasoning_tokens, usage.output_tokens),
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
    return DbUsage(**{k: v for k, v in counts.items() if v})


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
    "PriceOverride",
    "Pricer",
    "one_hour_writes",
    "provider_for",
    "split_model",
]
