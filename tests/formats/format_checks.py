"""Checks shared by the format tests."""

from __future__ import annotations

import warnings
from collections import Counter
from pathlib import Path

from msgviewer.core.blocks import ToolResultBlock
from msgviewer.core.links import link_tools
from msgviewer.core.message import Message
from msgviewer.formats import FORMATS, Conversation, FormatError, detect, dumps, get_format, loads

SAMPLES = Path(__file__).resolve().parents[2] / "msgviewer" / "samples"


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
    return [
        (call.name, _result_text(messages[r.message_index], r.block_index).strip())
        for call, r in link_tools(messages).pairs
    ]


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


def links_survive(original: tuple[Message, ...], back: tuple[Message, ...]) -> None:
    """Every answered call comes back answered, under its tool name. A call whose arguments
    did not parse may be dropped by a format that wants an object (its result then stands
    alone); no other result may lose its call."""
    pairs = link_tools(original).pairs
    invalid = sum(1 for call, _ in pairs if call.invalid)
    want = Counter(call.name for call, _ in pairs if not call.invalid)
    back_links = link_tools(back)
    got = Counter(call.name for call, _ in back_links.pairs)
    assert not want - got, f"lost pairs: {want - got}"
    assert sum(got.values()) <= len(pairs)
    orphans = len(link_tools(original).orphan_results)
    assert len(back_links.orphan_results) <= orphans + invalid
