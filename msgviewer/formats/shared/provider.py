"""Helpers the provider writers (anthropic, claude-code, gemini) share.

``Losses`` gathers what a writer drops and reports each kind once; ``pair_tool_ids`` gives
every tool call and result an id before writing; ``foreign_tools`` reads function tools of any
provider's shape; ``place_tool_calls``/``interleave_calls`` keep a call's position among the
content blocks when the wire format puts calls inside the content.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from typing import Any

from ...core.blocks import ToolCallBlock, ToolResultBlock
from ...core.message import Message, ToolCall
from ...core.pending import PendingCalls
from ..base import Context
from .placing import insert_each

CONTENT_INDEX = "content_index"
"""``ToolCall.extra`` key: the call's position among the content blocks on the wire, set only
when calls are not all at the end (so writing the same format puts it back in place)."""

SYNTHETIC_ID = "synthetic_id"
"""``ToolCall.extra`` / tool message ``metadata`` key: the id was made up by msgviewer."""


def own_metadata(message: Message) -> dict[str, Any]:
    """A message's metadata without the markers msgviewer itself adds while writing."""
    meta = message.metadata
    return {k: v for k, v in meta.items() if k != SYNTHETIC_ID} if SYNTHETIC_ID in meta else meta


class Losses:
    """What a writer could not carry, reported once per kind with the first few places."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.places: dict[str, list[str]] = {}

    def add(self, what: str, where: str) -> None:
        self.places.setdefault(what, []).append(where)

    def at(self, where: str) -> Callable[[str], None]:
        """``add`` for one place."""
        return lambda what: self.add(what, where)

    def flush(self) -> None:
        for what, places in self.places.items():
            shown = ", ".join(places[:3])
            if len(places) > 3:
                shown += f" and {len(places) - 3} more"
            self.ctx.lossy(what, shown)
        self.places.clear()


def place_tool_calls(
    items: list[Any], calls: Sequence[tuple[int, ToolCall]]
) -> tuple[ToolCall, ...]:
    """Tool calls read from positions ``(index, call)`` among ``items`` wire entries.

    Calls at the end need no note; a call with content after it remembers its index.
    """
    if not calls:
        return ()
    first_trailing = len(items) - len(calls)
    if all(index >= first_trailing for index, _ in calls):
        return tuple(call for _, call in calls)
    return tuple(
        dataclasses.replace(call, extra={**call.extra, CONTENT_INDEX: index})
        for index, call in calls
    )


def interleave_calls(blocks: list[Any], calls: list[tuple[ToolCall, Any]]) -> list[Any]:
    """Wire blocks with the wire form of each call put back at its recorded position."""
    placed = sorted(
        ((c.extra[CONTENT_INDEX], wire) for c, wire in calls if _has_index(c)),
        key=lambda x: x[0],
    )
    out = insert_each(blocks, placed)
    out.extend(wire for c, wire in calls if not _has_index(c))
    return out


def _has_index(call: ToolCall) -> bool:
    index = call.extra.get(CONTENT_INDEX)
    return isinstance(index, int) and not isinstance(index, bool)


_ID_CHARS = re.compile(r"[^a-zA-Z0-9_-]")


def pair_tool_ids(
    messages: Sequence[Message], *, sanitize: bool = False
) -> tuple[list[Message], dict[str, str]]:
    """Messages where every tool call and result has an id, and the tool name of each id.

    Calls without an id (invalid ones too) get ``call_<message>_<k>``; a result without an id
    answers the first unanswered call of the assistant turn before it (by name when it has
    one), or gets ``result_<message>`` if none is left. Made-up ids are marked
    ``synthetic_id`` (call/block ``extra``, tool message ``metadata``). With ``sanitize``, ids
    keep only the characters Anthropic accepts (both ends changed alike).
    """
    names: dict[str, str] = {}
    pending = PendingCalls()
    out: list[Message] = []

    def fix(id_: str | None) -> str | None:
        return _ID_CHARS.sub("_", id_) if sanitize and id_ is not None else id_

    def answer(id_: str | None, name: str | None) -> str | None:
        if id_ is not None:
            id_ = fix(id_)
            pending.drop_id(id_)
            return id_
        entry = pending.take_first() if name is None else pending.take_named(name)
        return None if entry is None else entry[0]

    for i, m in enumerate(messages):
        if m.role == "assistant":
            pending = PendingCalls()
            calls = []
            for k, c in enumerate(m.tool_calls):
                c = _with_id(c, fix(c.id) or f"call_{i}_{k}")
                calls.append(c)
                names[c.id] = c.name
                pending.add(c.id, c.name)
            # Invalid calls are written as calls too (so their results stay linked): they
            # need ids as much as valid ones.
            invalid = []
            for k, bad in enumerate(m.invalid_tool_calls):
                bad = _with_id(bad, fix(bad.id) or f"call_{i}_i{k}")
                invalid.append(bad)
                if bad.name is not None:
                    names[bad.id] = bad.name
                pending.add(bad.id, bad.name or "")
            m = dataclasses.replace(m, tool_calls=tuple(calls), invalid_tool_calls=tuple(invalid))
        elif m.role == "tool":
            # A result that answers no call still gets an id: readers require one.
            cid = answer(m.tool_call_id, m.name) or f"result_{i}"
            m = _with_id(m, cid, "tool_call_id", "metadata")
        content = m.content
        if type(content) is tuple and any(
            type(b) is ToolCallBlock or type(b) is ToolResultBlock for b in content
        ):
            blocks = []
            for k, b in enumerate(content):
                if type(b) is ToolCallBlock:
                    b = _with_id(b, fix(b.id) or f"call_{i}_b{k}")
                    names[b.id] = b.name
                    pending.add(b.id, b.name)
                elif type(b) is ToolResultBlock:
                    cid = answer(b.tool_call_id, None) or f"result_{i}_{k}"
                    b = _with_id(b, cid, "tool_call_id")
                blocks.append(b)
            m = dataclasses.replace(m, content=tuple(blocks))
        out.append(m)
    return out, names


def _with_id(item: Any, cid: str, field: str = "id", marks: str = "extra") -> Any:
    """A call or result (its id in ``field``) with id ``cid``; an id made up where there was
    none is marked ``synthetic_id`` in the ``marks`` dict (``extra``, or ``metadata``)."""
    old = getattr(item, field)
    if old is None:
        marked = {**getattr(item, marks), SYNTHETIC_ID: True}
        return dataclasses.replace(item, **{field: cid, marks: marked})
    return item if cid == old else dataclasses.replace(item, **{field: cid})


# -- function tools in any provider's shape ---------------------------------------------


@dataclasses.dataclass
class FunctionTool:
    """A client-side function tool, whatever provider shape it came in."""

    name: str
    description: str | None
    schema: dict[str, Any] | None
    """JSON schema of the arguments (lower-case type names)."""


def _lower_types(schema: Any) -> Any:
    """Gemini's OpenAPI schemas spell types in capitals ("OBJECT"); JSON schema does not."""
    if isinstance(schema, dict):
        out = {}
        for k, v in schema.items():
            if k == "type" and isinstance(v, str):
                out[k] = v.lower()
            elif k == "properties" and isinstance(v, dict):
                out[k] = {name: _lower_types(s) for name, s in v.items()}
            else:
                out[k] = _lower_types(v)
        return out
    if isinstance(schema, list):
        return [_lower_types(v) for v in schema]
    return schema


def foreign_tools(tools: Any) -> tuple[list[FunctionTool], list[Any]]:
    """Function tools read from OpenAI, Responses, Anthropic or Gemini shapes, and the
    entries that are not function tools (built-in tools the caller reports as lost)."""
    found: list[FunctionTool] = []
    other: list[Any] = []
    for tool in tools if isinstance(tools, list) else [tools]:
        if not isinstance(tool, dict):
            other.append(tool)
            continue
        fn = tool.get("function")
        decls = tool.get("functionDeclarations", tool.get("function_declarations"))
        if isinstance(fn, dict) and isinstance(fn.get("name"), str):  # OpenAI chat
            found.append(FunctionTool(fn["name"], fn.get("description"), fn.get("parameters")))
        elif isinstance(decls, list):  # Gemini
            for d in decls:
                if isinstance(d, dict) and isinstance(d.get("name"), str):
                    schema = d.get("parametersJsonSchema", d.get("parameters_json_schema"))
                    if schema is None:
                        schema = _lower_types(d.get("parameters"))
                    found.append(FunctionTool(d["name"], d.get("description"), schema))
                else:
                    other.append(d)
        elif isinstance(tool.get("name"), str) and "input_schema" in tool:  # Anthropic
            found.append(FunctionTool(tool["name"], tool.get("description"), tool["input_schema"]))
        elif tool.get("type") == "function" and isinstance(tool.get("name"), str):  # Responses
            found.append(
                FunctionTool(tool["name"], tool.get("description"), tool.get("parameters"))
            )
        else:
            other.append(tool)
    return found, other
