"""Token usage, normalised to one convention whatever the provider.

``input_tokens`` counts every prompt token, cache reads and writes included; ``output_tokens``
counts every generated token, reasoning included. The provider's own numbers stay in ``extra``
so that writing back to the same format is exact.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from ._frozen import set_field, value


def _add_extra(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Sum two provider usage dicts: numbers add, nested dicts add, anything else: last wins."""
    if not a:
        return dict(b)
    if not b:
        return dict(a)
    out = dict(a)
    for key, right in b.items():
        left = out.get(key)
        if isinstance(left, dict) and isinstance(right, dict):
            out[key] = _add_extra(left, right)
        elif (
            isinstance(left, (int, float))
            and isinstance(right, (int, float))
            and not isinstance(left, bool)
            and not isinstance(right, bool)
        ):
            out[key] = left + right
        else:
            out[key] = right
    return out


@value
class Usage:
    """Token counts of one model call (or a sum of several: ``Usage`` supports ``+``)."""

    input_tokens: int = 0
    """Every prompt token, cache reads and writes included."""
    output_tokens: int = 0
    """Every generated token, reasoning included."""
    total_tokens: int = 0
    """input + output unless the provider said otherwise."""
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    reasoning_tokens: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    """The provider's own usage fields, verbatim."""

    def __post_init__(self) -> None:
        if not self.total_tokens and (self.input_tokens or self.output_tokens):
            set_field(self, "total_tokens", self.input_tokens + self.output_tokens)

    def __add__(self, other: object) -> Usage:
        if not isinstance(other, Usage):
            return NotImplemented
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            total_tokens=self.total_tokens + other.total_tokens,
            cache_read_tokens=self.cache_read_tokens + other.cache_read_tokens,
            cache_write_tokens=self.cache_write_tokens + other.cache_write_tokens,
            reasoning_tokens=self.reasoning_tokens + other.reasoning_tokens,
            extra=_add_extra(self.extra, other.extra),
        )

    def __radd__(self, other: object) -> Usage:
        # lets sum(usages) start from 0
        if other == 0:
            return self
        return NotImplemented

    def is_empty(self) -> bool:
        """True when every count is zero and there is no provider data."""
        return not (
            self.input_tokens
            or self.output_tokens
            or self.total_tokens
            or self.cache_read_tokens
            or self.cache_write_tokens
            or self.reasoning_tokens
            or self.extra
        )


@value
class TurnUsage:
    """Usage of one assistant message, for charts of a run over time."""

    index: int
    """Index of the assistant message in the history."""
    usage: Usage
    model: str | None
    context_tokens: int
    """Prompt size of this call (its ``input_tokens``): the context the model saw."""
    approximate: bool = False
    """True when the file had no usage and the counts are estimates."""


@value
class UsageTotals:
    """Usage summed over a history: the total, by model, and one entry per assistant turn."""

    total: Usage
    by_model: dict[str, Usage]
    per_turn: tuple[TurnUsage, ...]
