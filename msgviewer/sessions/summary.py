"""``Summary``: what the list of sessions shows of one session file, and its JSON form."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

TITLE_WIDTH = 200
"""A title is the first real prompt on one line, cut to this many characters."""

# What tools put in the user's turn that the user did not type: Claude Code's command wrappers
# and caveats, Codex's instructions and environment, interrupted-request markers.
_NOT_A_PROMPT = re.compile(
    r"\s*(<command-|<local-command-|<user_instructions>|<environment_context>|<system-reminder>"
    r"|# AGENTS\.md instructions|Caveat: The messages below|\[Request interrupted)"
)


def is_prompt(text: str) -> bool:
    """True for text a person typed (not a wrapper a tool added to the user's turn)."""
    return bool(text.strip()) and not _NOT_A_PROMPT.match(text)


def one_line(text: str, width: int = TITLE_WIDTH) -> str:
    """``text`` on one line (runs of whitespace become one space), cut to ``width``."""
    line = " ".join(text.split())
    return line if len(line) <= width else line[: width - 1] + "…"


@dataclass(slots=True)
class Summary:
    """One session: where it is, what it is, when, how long, about what, with which models."""

    path: str
    format: str
    project: str | None = None
    started: str | None = None
    updated: str | None = None
    messages: int = 0
    title: str | None = None
    models: list[str] = field(default_factory=list)
    input_tokens: int = 0
    output_tokens: int = 0
    size: int = 0
    subagents: int = 0
    conversations: int = 1
    mtime: float = 0.0
    usage_by_model: dict[str, dict[str, int]] = field(default_factory=dict)
    """Token counts by model, summed over its calls (see ``costs.COUNTS``)."""
    cost_by_model: dict[str, float] = field(default_factory=dict)
    """Dollars by model at the database's prices (priced models only)."""
    unpriced_models: list[str] = field(default_factory=list)
    """Models with usage but no price in the database."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> Summary:
        return cls(**value)

    @property
    def when(self) -> str:
        """What orders the list: the last activity (the file's time when the file says none)."""
        return self.updated or self.started or ""

    def matches(self, words: str) -> bool:
        """Type-to-filter: every word found in the project, title, model, format or path."""
        hay = " ".join(
            [self.project or "", self.title or "", " ".join(self.models), self.format, self.path]
        ).lower()
        return all(w in hay for w in words.lower().split())


def add_model(models: list[str], name: Any) -> None:
    if isinstance(name, str) and name and name not in models and not name.startswith("<"):
        models.append(name)
