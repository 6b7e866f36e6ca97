"""Redacting whole conversations (messages, title and request fields) and checking that the
written output holds none of the secrets found.

The walk and the placeholders are the core's (``msgviewer.core.redact``); the detector is
``secrets.SecretDetector``. The command line and the app both come through here.
"""

from __future__ import annotations

import dataclasses
import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass

import orjson

from ..core.redact import Detector, Finding, Placeholders, Redactor
from ..formats import Conversation
from ..formats.io import ZIP_MAGIC


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
    of the file the model does not hold would survive). A zip archive (an Inspect ``.eval``
    log) is looked into: its compressed bytes would hide what it holds."""
    parts = _members(data) if data.startswith(ZIP_MAGIC) else [data]
    found = []
    for secret in secrets:
        plain = secret.encode("utf-8", "surrogatepass")
        escaped = orjson.dumps(secret)[1:-1]
        if any(plain in part or escaped in part for part in parts):
            found.append(secret)
    return found


def _members(data: bytes) -> list[bytes]:
    """The archive's bytes and each member's name and content, unpacked (an archive that
    cannot be read, or a member that does not unpack, is looked at as its bytes only)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError):
        return [data]
    parts = [data]
    with archive:
        for member in archive.infolist():
            parts.append(member.filename.encode())
            try:
                parts.append(archive.read(member))
            except Exception:  # (a broken stream raises its codec's own error: zlib, zstd...)
                continue
    return parts
