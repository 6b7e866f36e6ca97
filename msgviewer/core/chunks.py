"""Joining the chunks of a streamed assistant reply into one message.

This follows LangChain's addition of ``AIMessageChunk``: text deltas are concatenated, tool
call fragments (``ToolCallChunkBlock``) are joined by ``index`` and their arguments parsed once
the stream is complete, usage is summed. Arguments that do not parse are kept, verbatim, as an
``InvalidToolCall``: a truncated stream is exactly what a viewer needs to show.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from .blocks import (
    Block,
    ReasoningBlock,
    TextBlock,
    ToolCallBlock,
    ToolCallChunkBlock,
    UnknownBlock,
)
from .call_order import calls_in_order, split_calls
from .chunk_dicts import delta_index, ids_agree, merge_dicts, merge_indexed
from .json_numbers import loads_exactly
from .message import InvalidToolCall, Message, ToolCall
from .usage import Usage

# Ids LangChain makes up for a run; a provider's own id is preferred over them.
_GENERATED_ID_PREFIXES = ("lc_", "run-")


class _TextRun:
    """Adjacent text being joined (parts kept in a list: joining once is linear)."""

    __slots__ = ("citations", "extra", "parts")

    def __init__(self, block: TextBlock) -> None:
        self.parts = [block.text]
        self.citations = list(block.citations)
        self.extra = dict(block.extra)

    def accepts(self, block: Block) -> bool:
        return type(block) is TextBlock and _same_index(self.extra, block.extra)

    def add(self, block: TextBlock) -> None:
        self.parts.append(block.text)
        self.citations.extend(block.citations)
        self.extra = merge_dicts(self.extra, block.extra)

    def plain(self) -> bool:
        return not self.citations and not self.extra

    def build(self) -> TextBlock:
        return TextBlock("".join(self.parts), tuple(self.citations), extra=self.extra)


class _ReasoningRun:
    """Adjacent reasoning deltas of one reasoning block.

    A signature closes a block (Anthropic sends it last), and redacted reasoning arrives whole,
    so neither is joined with what follows.
    """

    __slots__ = ("data", "extra", "parts", "redacted", "signature")

    def __init__(self, block: ReasoningBlock) -> None:
        self.parts = [block.text]
        self.signature = block.signature
        self.redacted = block.redacted
        self.data = block.data
        self.extra = dict(block.extra)

    def accepts(self, block: Block) -> bool:
        return (
            type(block) is ReasoningBlock
            and not self.redacted
            and not block.redacted
            and self.signature is None
            and (self.data is None or block.data is None)
            and _same_index(self.extra, block.extra)
        )

    def add(self, block: ReasoningBlock) -> None:
        self.parts.append(block.text)
        if block.signature is not None:
            self.signature = block.signature
        if block.data is not None:
            self.data = block.data
        self.extra = merge_dicts(self.extra, block.extra)

    def build(self) -> ReasoningBlock:
        return ReasoningBlock(
            "".join(self.parts), self.signature, self.redacted, self.data, extra=self.extra
        )


class _CallRun:
    """One tool call being assembled from its fragments."""

    __slots__ = ("extra", "id", "index", "name", "parts")

    def __init__(self, index: int | None) -> None:
        self.index = index
        self.id: str | None = None
        self.name: str | None = None
        self.parts: list[str] = []
        self.extra: dict[str, Any] = {}

    def add(self, block: ToolCallChunkBlock) -> None:
        if self.id is None:
            self.id = block.id
        name = block.name
        if name:
            # The name normally arrives once; a repeat of it is not a second half.
            if not self.name:
                self.name = name
            elif name != self.name:
                self.name += name
        if block.args:
            self.parts.append(block.args)
        if block.extra:
            self.extra = merge_dicts(self.extra, block.extra)

    def complete(self) -> bool:
        """Whether the arguments so far are a whole JSON value (an object or an array)."""
        text = "".join(self.parts).rstrip()
        if not text.endswith(("}", "]")):
            return False
        try:
            loads_exactly(text)
        except ValueError:
            return False
        return True

    def build(self) -> ToolCall | InvalidToolCall:
        text = "".join(self.parts)
        if not text.strip():
            return ToolCall(self.id, self.name or "", {}, extra=self.extra)
        try:
            args = loads_exactly(text)  # (an id past 64 bits stays the integer it is)
        except ValueError as exc:
            return InvalidToolCall(
                self.id, self.name, text, f"arguments are not valid JSON: {exc}", extra=self.extra
            )
        if type(args) is not dict:
            kind = {list: "an array", str: "a string"}.get(type(args), "a scalar")
            return InvalidToolCall(
                self.id,
                self.name,
                text,
                f"arguments must be a JSON object, not {kind}",
                extra=self.extra,
            )
        return ToolCall(self.id, self.name or "", args, extra=self.extra)


def _same_index(left: dict[str, Any], right: dict[str, Any]) -> bool:
    # Adjacent deltas join only when neither or both carry the same block index.
    return left.get("index") == right.get("index")


def merge_chunks(chunks: Iterable[Message]) -> Message:
    """One message from the chunks of a stream, in order.

    Text (string deltas and text blocks) is concatenated, adjacent text merging into one block;
    reasoning deltas likewise. ``ToolCallChunkBlock`` fragments are joined by ``index``, or by
    ``id`` when the index is None (a fragment with neither continues the latest call), but
    only while that call's arguments are not yet whole JSON and the fragment names no other
    tool; a fragment with the index of a call but a different id starts a new call. Content
    blocks carrying the same stream ``index`` join wherever they are (LangChain's
    ``merge_lists``); an indexed block never joins an unindexed one. Joined arguments
    are parsed as JSON: an object gives a ``ToolCall`` (empty arguments give ``{}``), anything
    else an ``InvalidToolCall`` holding the text and the parse error. Usage is summed,
    ``response_metadata`` and ``metadata`` merged (``merge_dicts``), the first provider id
    kept. The content is a string when it is only plain text, else a tuple of blocks.

    Raises ``ValueError`` for no chunks or chunks of different roles.
    """
    role: str | None = None
    ids: list[str] = []
    name = tool_call_id = None
    is_error = False
    content = _Content()
    calls: list[_CallRun | ToolCall | InvalidToolCall] = []
    by_index: dict[int, _CallRun] = {}
    by_id: dict[str, _CallRun] = {}
    last_call: _CallRun | None = None
    usage: Usage | None = None
    response_metadata: dict[str, Any] = {}
    metadata: dict[str, Any] = {}
    artifacts: list[Any] = []

    for n, chunk in enumerate(chunks):
        if role is None:
            role = chunk.role
        elif chunk.role != role:
            raise ValueError(f"chunk {n} is a {chunk.role} message, the ones before are {role}")
        if chunk.id:
            ids.append(chunk.id)
        name = name if name is not None else chunk.name
        tool_call_id = tool_call_id if tool_call_id is not None else chunk.tool_call_id
        is_error = is_error or chunk.is_error

        body = chunk.content
        if type(body) is str:
            if body:
                content.add(TextBlock(body))
        else:
            for block in body:
                if type(block) is str:  # LangChain-style list content may hold bare strings
                    block = TextBlock(block)
                if type(block) is not ToolCallChunkBlock:
                    content.add(block)
                    continue
                call = _find_call(block, by_index, by_id, last_call)
                if call is None:
                    call = _CallRun(block.index)
                    calls.append(call)
                if block.index is not None:
                    by_index[block.index] = call
                if block.id:
                    by_id.setdefault(block.id, call)
                call.add(block)
                last_call = call

        calls.extend(calls_in_order(chunk))
        if chunk.usage is not None:
            usage = chunk.usage if usage is None else usage + chunk.usage
        response_metadata = merge_dicts(response_metadata, chunk.response_metadata)
        metadata = merge_dicts(metadata, chunk.metadata)
        artifacts.extend(chunk.artifacts)

    if role is None:
        raise ValueError("merge_chunks needs at least one chunk")

    tool_calls, invalid = split_calls(  # (streamed calls in the order they began)
        c.build() if type(c) is _CallRun else c for c in calls
    )

    return Message(
        role,  # type: ignore[arg-type]
        content.finish(),
        id=_best_id(ids),
        name=name,
        tool_call_id=tool_call_id,
        is_error=is_error,
        tool_calls=tool_calls,
        invalid_tool_calls=invalid,
        usage=usage,
        response_metadata=response_metadata,
        artifacts=tuple(artifacts),
        metadata=metadata,
    )


def _find_call(
    block: ToolCallChunkBlock,
    by_index: dict[int, _CallRun],
    by_id: dict[str, _CallRun],
    last_call: _CallRun | None,
) -> _CallRun | None:
    """The call a fragment continues, or None when it starts a new one."""
    if block.index is not None:
        call = by_index.get(block.index)
        # Some servers give every parallel call index 0: a new id means a new call.
        if call is not None and block.id and call.id and block.id != call.id:
            return None
        return call
    # Without an index LangChain never joins fragments. msgviewer joins one to the call with
    # its id (with no id, to the latest call) while that call is unfinished: its arguments
    # are not yet whole JSON and the fragment names no other tool. Complete calls stay apart.
    call = by_id.get(block.id) if block.id else last_call
    if call is None or call.complete() or (block.name and call.name and block.name != call.name):
        return None
    return call


def _block_index(block: Block) -> int | str | None:
    if type(block) is UnknownBlock:
        data = block.data
        return delta_index(data.get("index")) if type(data) is dict else None
    extra = getattr(block, "extra", None)
    return delta_index(extra.get("index")) if extra else None


def _block_id(block: Any) -> Any:
    if type(block) is UnknownBlock:
        return block.data.get("id") if type(block.data) is dict else None
    if isinstance(block, (_TextRun, _ReasoningRun)):
        return block.extra.get("id")
    value = getattr(block, "id", None)
    return value if value is not None else block.extra.get("id")


class _Content:
    """Content being assembled: deltas of one stream index join wherever they are."""

    __slots__ = ("by_index", "items")

    def __init__(self) -> None:
        self.items: list[Any] = []  # blocks, _TextRun and _ReasoningRun
        self.by_index: dict[int | str, list[int]] = {}

    def add(self, block: Block) -> None:
        if type(block) is TextBlock and not block.text and not block.citations and not block.extra:
            return  # an empty delta adds nothing
        items = self.items
        index = _block_index(block)
        if index is not None:
            for pos in self.by_index.get(index, ()):
                merged = _join(items[pos], block)
                if merged is not None:
                    items[pos] = merged
                    return
            self.by_index.setdefault(index, []).append(len(items))
        else:
            last = items[-1] if items else None
            if isinstance(last, (_TextRun, _ReasoningRun)) and last.accepts(block):
                last.add(block)  # type: ignore[arg-type]
                return
        if type(block) is TextBlock:
            items.append(_TextRun(block))
        elif type(block) is ReasoningBlock:
            items.append(_ReasoningRun(block))
        else:
            items.append(block)

    def finish(self) -> str | tuple[Block, ...]:
        items = self.items
        if all(type(item) is _TextRun and item.plain() for item in items):
            return "".join("".join(item.parts) for item in items)
        return tuple(_finish_block(item) for item in items)


def _join(target: Any, block: Block) -> Any:
    """``target`` with ``block`` (a delta of the same index) merged in; None if they cannot join.

    Text joins text and reasoning joins reasoning. A block the model does not know
    (``UnknownBlock``: an Anthropic ``input_json_delta``, a ``text_block`` delta...) is merged
    into the fields of its target as LangChain merges the two dicts. Two known blocks of
    different kinds are not joined: neither would survive whole.
    """
    if not ids_agree(_block_id(target), _block_id(block)):
        return None
    if type(target) is _TextRun and type(block) is TextBlock:
        target.add(block)
        return target
    if type(target) is _ReasoningRun and type(block) is ReasoningBlock:
        target.add(block)
        return target
    if type(block) is not UnknownBlock or type(block.data) is not dict:
        return None
    fields = {k: v for k, v in block.data.items() if k != "type"}
    if type(target) is UnknownBlock and type(target.data) is dict:
        return replace(target, data=merge_indexed(target.data, fields))
    if isinstance(target, (_TextRun, _ReasoningRun)):
        target.extra = merge_indexed(target.extra, fields)
        return target
    return replace(target, extra=merge_indexed(target.extra, fields))


def _finish_block(item: Any) -> Block:
    if isinstance(item, (_TextRun, _ReasoningRun)):
        return item.build()
    if type(item) is ToolCallBlock and not item.args and "partial_json" in item.extra:
        # An Anthropic tool_use whose input streamed as input_json_delta: the joined JSON is
        # its input when it parses to an object; otherwise it stays, verbatim, in extra.
        extra = dict(item.extra)
        text = extra.pop("partial_json")
        try:
            args = loads_exactly(text) if type(text) is str else None
        except ValueError:
            args = None
        if type(args) is dict:
            return replace(item, args=args, extra=extra)
    return item


def _best_id(ids: list[str]) -> str | None:
    for candidate in ids:
        if not candidate.startswith(_GENERATED_ID_PREFIXES):
            return candidate
    return ids[0] if ids else None
