"""Checks shared by the inspect, sharegpt and markdown format tests."""

from __future__ import annotations

import warnings
from pathlib import Path

from msgviewer.core.blocks import ToolResultBlock
from msgviewer.core.message import Message
from msgviewer.formats import FORMATS, Conversation, FormatError, detect, dumps, get_format, loads

SAMPLES = Path(__file__).resolve().parents[2] / "msgviewer" / "samples"

try:  # the linkage module lands separately; fall back to comparing ids directly
    from msgviewer.core.links import link_tools
except ImportError:  # pragma: no cover - depends on what is merged
    link_tools = None


def _result_text(message: Message, block_index: int | None) -> str:
    if block_index is None:
        return message.text
    block = message.blocks[block_index]
    assert isinstance(block, ToolResultBlock)
    content = block.content
    if isinstance(content, str):
        return content
    return "".join(getattr(b, "text", "") for b in content)


def tool_pairs(messages: tuple[Message, ...] | list[Message]) -> list[tuple[str | None, str]]:
    """(tool name, result text) for every call answered by a result, in call order."""
    messages = list(messages)
    if link_tools is not None:
        links = link_tools(messages)
        return [
            (call.name, _result_text(messages[r.message_index], r.block_index).strip())
            for call, r in links.pairs
        ]
    calls: dict[str, str] = {}
    out = []
    for msg in messages:
        for call in msg.tool_calls:
            calls[call.id] = call.name
        if msg.role == "tool" and msg.tool_call_id in calls:
            out.append((calls[msg.tool_call_id], msg.text.strip()))
        for b, block in enumerate(msg.blocks):
            if isinstance(block, ToolResultBlock) and block.tool_call_id in calls:
                out.append((calls[block.tool_call_id], _result_text(msg, b).strip()))
    return out


def other_sample_files(own: set[str]) -> list[Path]:
    """Every file in the samples directory except ``own`` (names)."""
    return sorted(p for p in SAMPLES.iterdir() if p.is_file() and p.name not in own)


def detected(path: Path) -> str | None:
    """The detected format of a file, or None when no format claims it."""
    try:
        return detect(path.read_bytes())
    except FormatError:
        return None


def writable_targets(exclude: set[str]) -> list[str]:
    return sorted(n for n, (_r, w, _d) in FORMATS.items() if w and n not in exclude)


def convert_and_read_back(
    conversations: list[Conversation], target: str
) -> list[tuple[Conversation, list[Conversation] | None]]:
    """Each conversation written to ``target`` (one file each) and read back when readable."""
    out = []
    fmt = get_format(target)
    for conv in conversations:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            data = dumps(conv, format=target)
            back = loads(data, format=target) if fmt.can_read else None
        out.append((conv, back))
    return out
