"""Redaction: replace secrets everywhere text can hide in a history by stable placeholders.

The walk covers message text, reasoning, tool-call arguments (each string inside their JSON),
tool results, names, ids, metadata, response metadata, artifacts, file names, and the
conversation's own fields (title, request fields), through their native dict form, so a field
added to the model later is walked too. What finds secrets is a *detector* passed in (a
callable ``(text, key) -> hits``): the core stays free of any scanning library. ``key`` is the
name of the field the text is the value of (``"api_key"``), so a detector can judge a random
looking string by the place it sits in.

Each distinct secret becomes ``[REDACTED:kind:N]``, numbered per kind in the order first met,
the same secret the same placeholder throughout (``Placeholders`` is shared by a whole run), so
a redacted run still reads. A reasoning block whose text changed loses its signature (a
provider would reject the pair), with a warning. Opaque values (base64 media, encrypted
reasoning, signatures) are not scanned: they are not text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ._frozen import value
from .message import Message
from .serialize import message_from_dict, message_to_dict

PLACEHOLDER = re.compile(r"\[REDACTED:[a-z0-9-]+:\d+\]")
"""What a placeholder looks like: a hit containing one is never redacted again."""
_SPLIT = re.compile(f"({PLACEHOLDER.pattern})")


@value
class Hit:
    """A secret a detector found: its kind (a short slug) and its exact text."""

    kind: str
    secret: str


Detector = Callable[[str, "str | None"], Iterable[Hit]]
"""``detector(text, key)``: the secrets in ``text``, most specific first; ``key`` is the name
of the field holding the text (None for text that is not a field's value)."""


@value
class Finding:
    """One secret replaced at one place (never the secret itself)."""

    kind: str
    placeholder: str
    conversation: int
    message: int | None
    """Index of the message; None for the conversation's own fields (title, request fields)."""
    path: str
    """Where in the message (or conversation) the text was, in its native dict form."""

    def where(self) -> str:
        """``message 3: content[1].args.command`` (or ``request: metadata.headers``)."""
        head = "request" if self.message is None else f"message {self.message}"
        return f"{head}: {self.path}"


class Placeholders:
    """Secret -> placeholder, numbered per kind in order of first sight."""

    def __init__(self) -> None:
        self._by_secret: dict[str, str] = {}
        self._counts: dict[str, int] = {}

    def get(self, kind: str, secret: str) -> str:
        known = self._by_secret.get(secret)
        if known is not None:
            return known
        n = self._counts.get(kind, 0) + 1
        self._counts[kind] = n
        made = self._by_secret[secret] = f"[REDACTED:{kind}:{n}]"
        return made

    def secret_of(self) -> dict[str, str]:
        """Placeholder -> secret (for a preview on the user's own screen)."""
        return {v: k for k, v in self._by_secret.items()}

    def secrets(self) -> list[str]:
        """Every secret replaced so far (for checking output never holds one)."""
        return list(self._by_secret)

    def __len__(self) -> int:
        return len(self._by_secret)


# Fields that are opaque data or structure, never text to scan: a placeholder there would
# break the value (a role, a block type) or mean nothing (base64, signatures).
OPAQUE_KEYS = frozenset(
    {"signature", "thoughtSignature", "thought_signature", "encrypted_content", "encrypted"}
)
_MESSAGE_SKIP = frozenset({"role", "is_error"})
_BLOCK_SKIP = frozenset({"type", "mime_type", "index", "start", "end", "is_error"})
_MEDIA = frozenset({"image", "audio", "video", "file"})
_PASSES = 3  # a replacement can uncover a hit a longer one hid; a few passes settle it


@dataclass
class Redactor:
    """Redacts text with ``detector``, recording each replacement as a ``Finding``."""

    detector: Detector
    placeholders: Placeholders = field(default_factory=Placeholders)
    findings: list[Finding] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    """Signatures dropped, as ``message 3, block 0: ...`` lines."""

    # -- text -------------------------------------------------------------------------------

    def text(self, text: str, key: str | None, place: tuple[int, int | None, str]) -> str:
        """``text`` with every secret the detector finds replaced (recorded at ``place``)."""
        if not text:
            return text
        for _ in range(_PASSES):
            # Detection sees placeholders as line breaks: nothing matches across or in them.
            masked = PLACEHOLDER.sub("\n", text) if "[REDACTED:" in text else text
            hits = [h for h in self.detector(masked, key) if _redactable(h.secret)]
            changed = False
            for hit in hits:
                # Placeholders already in the text are left whole: a hit inside one (a
                # pattern matching part of it) is no secret.
                pieces = _SPLIT.split(text)
                if not any(hit.secret in p for p in pieces[::2]):
                    continue  # (inside a secret replaced before it, or in a placeholder)
                placeholder = self.placeholders.get(hit.kind, hit.secret)
                pieces[::2] = [p.replace(hit.secret, placeholder) for p in pieces[::2]]
                text = "".join(pieces)
                conv, message, path = place
                kind = placeholder.split(":")[1]
                self.findings.append(Finding(kind, placeholder, conv, message, path))
                changed = True
            if not changed:
                break
        return text

    def value(
        self, v: Any, key: str | None, place: tuple[int, int | None, str], *, opaque: bool = True
    ) -> Any:
        """A JSON-like value with its strings (keys included) redacted; the same object when
        nothing changed. ``opaque``: a signature's fields are left alone (False inside a
        call's arguments, whose keys are the program's own: any of them may hold a secret)."""
        if isinstance(v, str):
            return self.text(v, key, place)
        conv, message, path = place
        if isinstance(v, dict):
            out: dict[Any, Any] = {}
            changed = False
            for k, item in v.items():
                if opaque and isinstance(k, str) and k in OPAQUE_KEYS:
                    out[k] = item
                    continue
                # A key is named by its redacted self: a report never shows a secret.
                new_k = (
                    self.text(k, None, (conv, message, f"{path} (a key)"))
                    if isinstance(k, str)
                    else k
                )
                inner = (conv, message, _join(path, new_k))
                name = k if isinstance(k, str) else None
                new_item = self.value(item, name, inner, opaque=opaque)
                changed = changed or new_k != k or new_item is not item
                out[new_k] = new_item
            return out if changed else v
        if isinstance(v, (list, tuple)):
            items = [
                self.value(x, key, (conv, message, f"{path}[{i}]"), opaque=opaque)
                for i, x in enumerate(v)
            ]
            if all(a is b for a, b in zip(items, v, strict=True)):
                return v
            return type(v)(items)
        return v

    # -- messages ---------------------------------------------------------------------------

    def message(self, message: Message, conv: int, index: int) -> Message:
        """The message redacted (the same object when nothing in it changed)."""
        d = message_to_dict(message)
        out: dict[str, Any] = {}
        changed = False
        for k, v in d.items():
            if k in _MESSAGE_SKIP:
                new = v
            elif k == "content" and isinstance(v, list):
                new = self._blocks(v, conv, index, "content")
            elif k in ("tool_calls", "invalid_tool_calls") and isinstance(v, list):
                new = self._records(v, conv, index, k)
            elif k == "usage" and isinstance(v, dict):  # (counts, and provider fields in extra)
                new = self._records([v], conv, index, k, indexed=False)[0]
            else:
                new = self.value(v, k, (conv, index, k))
            changed = changed or new is not v
            out[k] = new
        return message_from_dict(out) if changed else message

    def _blocks(self, blocks: list[Any], conv: int, index: int, path: str) -> list[Any]:
        out = []
        changed = False
        for b, block in enumerate(blocks):
            new = self._block(block, conv, index, f"{path}[{b}]", b)
            changed = changed or new is not block
            out.append(new)
        return out if changed else blocks

    def _block(self, block: Any, conv: int, index: int, path: str, b: int) -> Any:
        if not isinstance(block, dict):
            return self.value(block, None, (conv, index, path))
        kind = block.get("type")
        skip = _BLOCK_SKIP | ({"data"} if kind in _MEDIA or kind == "reasoning" else set())
        out: dict[str, Any] = {}
        changed = False
        for k, v in block.items():
            if k in skip or k in OPAQUE_KEYS:
                new = v
            elif k == "content" and kind == "tool_result" and isinstance(v, list):
                new = self._blocks(v, conv, index, f"{path}.content")
            elif k == "citations" and isinstance(v, list):
                new = self._records(v, conv, index, f"{path}.citations")
            elif k == "args":
                new = self.value(v, k, (conv, index, f"{path}.{k}"), opaque=False)
            else:
                new = self.value(v, k, (conv, index, f"{path}.{k}"))
            changed = changed or new is not v
            out[k] = new
        if not changed:
            return block
        self._drop_signatures(out, index, b)
        return out

    def _records(
        self, items: list[Any], conv: int, index: int, path: str, *, indexed: bool = True
    ) -> list[Any]:
        """Records of the model (tool calls, citations): their field names are structure,
        never redacted; their values are walked."""
        out = []
        for n, item in enumerate(items):
            at = f"{path}[{n}]" if indexed else path
            if not isinstance(item, dict):
                out.append(self.value(item, None, (conv, index, at)))
                continue
            record = {
                k: v
                if k in _BLOCK_SKIP
                else self.value(v, k, (conv, index, f"{at}.{k}"), opaque=k != "args")
                for k, v in item.items()
            }
            same = all(record[k] is v for k, v in item.items())
            out.append(item if same else record)
        return out if any(a is not b for a, b in zip(out, items, strict=True)) else items

    def _drop_signatures(self, block: dict[str, Any], index: int, b: int) -> None:
        """A signature vouches for the text it came with: changed text makes it a lie."""
        dropped = block.pop("signature", None) is not None
        extra = block.get("extra")
        if isinstance(extra, dict) and OPAQUE_KEYS & extra.keys():
            block["extra"] = {k: v for k, v in extra.items() if k not in OPAQUE_KEYS}
            dropped = True
        if dropped:
            self.warnings.append(
                f"message {index}, block {b}: signature dropped (the redacted text no longer "
                "matches it; a provider would reject it)"
            )

    def messages(self, messages: Sequence[Message], conv: int = 0) -> list[Message]:
        """Every message redacted (unchanged ones are the same objects)."""
        return [self.message(m, conv, i) for i, m in enumerate(messages)]


def _redactable(secret: str) -> bool:
    return bool(secret.strip()) and PLACEHOLDER.search(secret) is None


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _join(path: str, key: Any) -> str:
    if isinstance(key, str) and _IDENT.match(key):
        return f"{path}.{key}" if path else key
    return f"{path}[{key!r}]"


def redact_messages(
    messages: Sequence[Message], detector: Detector, *, placeholders: Placeholders | None = None
) -> tuple[list[Message], list[Finding], list[str]]:
    """``messages`` redacted by ``detector``: (messages, findings, warnings)."""
    r = Redactor(detector, placeholders or Placeholders())
    return r.messages(messages), r.findings, r.warnings
