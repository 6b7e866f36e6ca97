"""Price overrides from a TOML file (``--prices FILE`` or ``MSGVIEWER_PRICES``), and the cost
of a conversation.

The file names models and their rates in US dollars per million tokens::

    [models."claude-sonnet-4-5-20250929"]
    input = 2.5
    output = 12
    cache_read = 0.25      # optional: input's rate when absent
    cache_write = 3.1      # optional: input's rate when absent
    cache_write_1h = 5     # optional: cache_write's rate when absent

An override replaces the database's price for that model name (negotiated rates) or adds one
(private models).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from ..core.cost import CostTotals, cost_totals
from ..core.errors import FormatError
from ..core.prices import PriceOverride, provider_for
from .base import Conversation
from .timestamps import message_times

ENV_VAR = "MSGVIEWER_PRICES"
_RATES = ("input", "output", "cache_read", "cache_write", "cache_write_1h")
_REQUIRED = ("input", "output")


def _toml() -> Any:
    try:
        import tomllib
    except ImportError:  # Python 3.10
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ImportError as e:
            raise FormatError("reading a prices file needs Python 3.11 or the tomli package") from e
    return tomllib


def parse_prices(text: str, where: str = "prices") -> dict[str, PriceOverride]:
    """The overrides of a prices file's text; ``FormatError`` (naming ``where`` and the
    model) for anything else."""
    toml = _toml()
    try:
        data = toml.loads(text)
    except toml.TOMLDecodeError as e:
        raise FormatError(f"{where}: not valid TOML: {e}") from None
    models = data.get("models")
    if not isinstance(models, dict):
        raise FormatError(f'{where}: expected a [models."NAME"] table of prices')
    out: dict[str, PriceOverride] = {}
    for name, rates in models.items():
        if not isinstance(rates, dict):
            raise FormatError(f'{where}: models."{name}" must be a table of rates')
        unknown = sorted(set(rates) - set(_RATES))
        if unknown:
            raise FormatError(
                f'{where}: models."{name}": unknown key {unknown[0]!r} '
                f"(expected {', '.join(_RATES)})"
            )
        missing = [k for k in _REQUIRED if k not in rates]
        if missing:
            raise FormatError(f'{where}: models."{name}" needs {" and ".join(missing)}')
        out[name] = PriceOverride(**{k: _rate(rates[k], where, name, k) for k in rates})
    return out


def _rate(value: Any, where: str, name: str, key: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise FormatError(f'{where}: models."{name}".{key} must be a number')
    try:
        rate = Decimal(str(value))
    except InvalidOperation:
        raise FormatError(f'{where}: models."{name}".{key} must be a number') from None
    if not rate.is_finite() or rate < 0:
        raise FormatError(f'{where}: models."{name}".{key} must be a number >= 0')
    return rate


def load_prices(path: str | os.PathLike[str]) -> dict[str, PriceOverride]:
    """The overrides in a prices file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise FormatError(f"{path}: cannot read the prices file ({e.strerror or e})") from None
    except UnicodeDecodeError:
        raise FormatError(f"{path}: the prices file is not UTF-8 text") from None
    return parse_prices(text, str(path))


def prices_from(
    option: str | None, environ: Mapping[str, str] | None = None
) -> dict[str, PriceOverride] | None:
    """The overrides named by ``--prices`` or else by ``MSGVIEWER_PRICES``, or None."""
    env = os.environ if environ is None else environ
    path = option or env.get(ENV_VAR) or None
    return load_prices(path) if path else None


def conversation_cost(
    conversation: Conversation, prices: dict[str, PriceOverride] | None = None
) -> CostTotals:
    """What a conversation cost, the provider inferred from its format and model."""
    model = conversation.metadata.get("model")
    provider = provider_for(conversation.format, model if isinstance(model, str) else None)
    times = message_times(conversation)
    return cost_totals(
        conversation.messages,
        provider=provider,
        prices=prices,
        times=times if any(t is not None for t in times) else None,
    )


__all__ = ["ENV_VAR", "conversation_cost", "load_prices", "parse_prices", "prices_from"]
