"""Codex's structured tool outputs: an output string that is JSON ``{"output": <text>,
"metadata": {"exit_code", "duration_seconds"}}`` (shell and apply_patch calls).

Read, the message shows the output text, the metadata goes to ``metadata["output_metadata"]``,
and a non-zero exit code makes it an error result. Written, the JSON string is made again, or,
where the text and metadata are unchanged and Codex's spelling of the JSON differs from ours
(``metadata["output_json"]``), the original string exactly.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from ...core.message import Message
from ..io import loads_exactly
from ..openai_responses.read_items import Draft

KEYS = ("output_metadata", "output_json")


def _spell(d: dict[str, Any]) -> str:
    """JSON as Codex (serde_json) writes it: compact, non-ASCII as is."""
    return json.dumps(d, ensure_ascii=False, separators=(",", ":"))


def _parsed(text: str) -> dict[str, Any] | None:
    if not text.startswith('{"'):
        return None
    try:
        d = loads_exactly(text)
    except ValueError:
        return None
    if (
        isinstance(d, dict)
        and d.keys() == {"output", "metadata"}
        and type(d["output"]) is str
        and isinstance(d["metadata"], dict)
    ):
        return d
    return None


def read_output(draft: Draft) -> None:
    """A tool message whose content is such a JSON string: its text and metadata apart."""
    text = draft.content
    d = _parsed(text) if type(text) is str else None
    if d is None:
        return
    meta = d["metadata"]
    draft.content = d["output"]
    draft.metadata["output_metadata"] = meta
    if _spell(d) != text:
        draft.metadata["output_json"] = text
    code = meta.get("exit_code")
    draft.kw["is_error"] = type(code) is int and code != 0


def write_output(m: Message) -> Message:
    """The message with its output as the JSON string Codex wrote, when it was read from one."""
    meta = m.metadata.get("output_metadata")
    if m.role != "tool" or not isinstance(meta, dict):
        return m
    rest = {k: v for k, v in m.metadata.items() if k not in KEYS}
    text = m.text
    raw = m.metadata.get("output_json")
    d = _parsed(raw) if isinstance(raw, str) else None
    if d is not None and d["output"] == text and d["metadata"] == meta:
        content = raw
    else:
        content = _spell({"output": text, "metadata": meta})
    return dataclasses.replace(m, content=content, metadata=rest)
