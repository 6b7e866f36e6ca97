"""A tool's output as its reader wants it: the text it printed, and the facts around it.

Some tools hand back their output wrapped in JSON held in a string (Codex's
``{"output": "...", "metadata": {"exit_code": 1, ...}}``, MCP servers' ``{"result": ...}``,
shell tools' ``{"stdout": ..., "exit_code": ...}``): shown raw, that is one long line of
escaped ``\\n``. Here the printed text is taken out and the rest becomes short facts.
Headless; nothing is changed in the message.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...core.json_numbers import loads_exactly
from ...formats.io import json_bytes

OUTPUT_KEYS = ("output", "stdout", "result", "content", "text")
"""Keys a wrapper keeps the printed text under, the likeliest first."""

MAX_WRAPPED = 8 << 20
"""Larger texts are shown as they are: parsing them to look inside costs too much."""


@dataclass(frozen=True)
class ToolOutput:
    text: str
    """What the tool printed."""
    facts: tuple[tuple[str, str], ...] = ()
    """(name, value) pairs from around it: exit code, duration..."""
    unwrapped: bool = False
    """Whether ``text`` was taken out of a JSON wrapper."""


def _flatten(value: Mapping[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for key, item in value.items():
        name = f"{prefix}{key}"
        if isinstance(item, Mapping):
            out.extend(_flatten(item, name + "."))
        elif isinstance(item, (list, tuple)):
            out.append((name, json_bytes(item).decode()[:200]))  # (an integer past 64 bits too)
        elif item is not None:
            out.append((name, str(item) if not isinstance(item, bool) else str(item).lower()))
    return out


def _unwrap(text: str) -> tuple[str, Mapping[str, Any]] | None:
    stripped = text.strip()
    if not (stripped.startswith("{") and stripped.endswith("}")) or len(stripped) > MAX_WRAPPED:
        return None
    try:
        value = loads_exactly(stripped)  # (an exit code or id past 64 bits shown as written)
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    key = next((k for k in OUTPUT_KEYS if isinstance(value.get(k), str)), None)
    if key is None:
        return None
    rest = {k: v for k, v in value.items() if k != key}
    # Only a wrapper: what is left is small facts, not a second payload as large as the text
    if any(isinstance(v, str) and len(v) > 200 for v in rest.values()):
        return None
    return value[key], rest


def tool_output(text: str, metadata: Mapping[str, Any] | None = None) -> ToolOutput:
    """``text`` as its reader wants it; ``metadata`` is the message's, where a reader may have
    put the wrapper's facts already (Codex's ``output_metadata``)."""
    facts: list[tuple[str, str]] = []
    known = (metadata or {}).get("output_metadata")
    if isinstance(known, Mapping):
        facts.extend(_flatten(known))
    unwrapped = _unwrap(text)
    if unwrapped is None:
        return ToolOutput(text, tuple(facts))
    inner, rest = unwrapped
    for fact in _flatten(rest):
        if fact not in facts and (f"metadata.{fact[0]}", fact[1]) not in facts:
            facts.append(fact)
    return ToolOutput(inner, tuple(facts), unwrapped=True)
