"""Redacting whole conversations (messages, title and request fields) and checking that the
written output holds none of the secrets found.

The walk and the placeholders are the core's (``msgviewer.core.redact``); the detector is
``secrets.SecretDetector``. The command line and the app both come through here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import orjson

from ..core.redact import Detector, Finding, Placeholders, Redactor
from ..formats import Conversation


@dataclass
class Redacted:
    """The redacted conversations, what was found where, and the signatures dropped."""

    conversations: list[Conversation]
    findings: list[Finding]
    warnings: list[str]
    placeholders: Placeholders

    @property
    def changed(self) -> bool:
        return bool(self.findings)


def redact_conversations(
    conversations: Sequence[Conversation],
    detector: Detector,
    *,
    placeholders: Placeholders | None = None,
) -> Redacted:
    """Every conversation redacted, one set of placeholders across them all."""
    r = Redactor(detector, placeholders or Placeholders())
    out = []
    for c, conv in enumerate(conversations):
        messages = r.messages(conv.messages, c)
        metadata = r.value(conv.metadata, None, (c, None, "metadata"))
        title = r.text(conv.title, None, (c, None, "title")) if conv.title else conv.title
        same = all(a is b for a, b in zip(messages, conv.messages, strict=True))
        if same and metadata is conv.metadata and title == conv.title:
            out.append(conv)
        else:
            out.append(
                dataclasses.replace(conv, messages=tuple(messages), metadata=metadata, title=title)
            )
    return Redacted(out, r.findings, r.warnings, r.placeholders)


def leaked(data: bytes, secrets: Sequence[str]) -> list[str]:
    """The secrets that still appear in written bytes, as they are or JSON-escaped (an
    exact save keeps the file's own bytes wherever nothing was edited: a secret in a part
    of the file the model does not hold would survive)."""
    found = []
    for secret in secrets:
        escaped = orjson.dumps(secret)[1:-1]
        if secret.encode("utf-8", "surrogatepass") in data or escaped in data:
            found.append(secret)
    return found
