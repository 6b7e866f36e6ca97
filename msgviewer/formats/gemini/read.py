"""Reading Gemini contents, requests and responses into a conversation: calls without ids
get synthesized ones, and results answer the calls before them by name, then order.
"""

from __future__ import annotations

from typing import Any

from ...core.blocks import Block, ToolCallBlock
from ...core.message import Message, ToolCall
from ...core.pending import PendingCalls
from ..base import Context, Conversation
from ..shared.provider import (
    SYNTHETIC_ID,
)
from ..shared.provider import place_tool_calls as _place
from .detect import NAME, ROLES
from .interactions import FILE_INFO, read_interaction
from .parts import (
    PartReader,
    get,
    pick,
    read_usage,
    response_content,
    uses_snake,
)
from .quick import read_contents


class _Reader:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.parts = PartReader(ctx)
        self.pending = PendingCalls()  # calls of the last model turn

    def content(self, c: Any, i: int, path: str) -> list[Message]:
        """One content -> its messages (a user content may hold tool results and text)."""
        if not isinstance(c, dict):
            raise self.ctx.error("a content must be an object", path)
        role = c.get("role", None)
        if role is not None and role not in ROLES:
            raise self.ctx.error(f"role must be 'user' or 'model', not {role!r}", f"{path}.role")
        parts = c.get("parts", [])
        if not isinstance(parts, list):
            raise self.ctx.error("parts must be an array", f"{path}.parts")
        rest = {k: v for k, v in c.items() if k not in ("role", "parts")}
        meta: dict[str, Any] = {"role": role} if role in (None, "function") else {}
        if rest:
            meta["content"] = rest
        read = [self.parts.part(p, f"{path}.parts[{k}]") for k, p in enumerate(parts)]
        if role == "model":
            return [self._model(read, i, meta)]
        out: list[Message] = []
        run: list[Block] = []
        for k, item in enumerate(read):
            if isinstance(item, dict):
                if run:
                    out.append(Message("user", tuple(run), metadata=meta))
                    run = []
                out.append(self._response(item, i, k, meta, f"{path}.parts[{k}]"))
            elif isinstance(item, ToolCall):
                run.append(_as_block(item))
            else:
                run.append(item)
        if run or not out:
            out.append(Message("user", tuple(run), metadata=meta))
        return out

    def _model(self, read: list[Any], i: int, meta: dict[str, Any]) -> Message:
        blocks: list[Block] = []
        calls: list[tuple[int, ToolCall]] = []
        self.pending = PendingCalls()
        for k, item in enumerate(read):
            if isinstance(item, ToolCall):
                if item.id is None:
                    item = ToolCall(
                        f"call_{i}_{k}",
                        item.name,
                        item.args,
                        extra={**item.extra, SYNTHETIC_ID: True},
                    )
                calls.append((k, item))
                self.pending.add(item.id, item.name)
            elif isinstance(item, dict):
                raise self.ctx.error(
                    "a model turn cannot hold a functionResponse", f"$.contents[{i}]"
                )
            else:
                blocks.append(item)
        return Message("assistant", tuple(blocks), tool_calls=_place(read, calls), metadata=meta)

    def _response(
        self, part: dict[str, Any], i: int, k: int, meta: dict[str, Any], path: str
    ) -> Message:
        key, fr = pick(part, "functionResponse")
        call_id = fr.get("id")
        name = fr.get("name")
        if name is not None and not isinstance(name, str):
            raise self.ctx.error("functionResponse name must be a string", f"{path}.{key}.name")
        response = fr.get("response", {})
        text, is_error = response_content(response)
        out_meta = dict(meta)
        if isinstance(call_id, str):
            self.pending.drop_id(call_id)
        else:
            match = self.pending.take_named(name) or self.pending.take_first()
            if match is not None:
                call_id = match[0]
            else:
                call_id = f"call_{i}_r{k}"
            out_meta[SYNTHETIC_ID] = True
        rest = {k2: v for k2, v in fr.items() if k2 not in ("id", "name", "response")}
        if rest:
            out_meta["functionResponse"] = rest
        part_rest = {k2: v for k2, v in part.items() if k2 != key}
        if part_rest:
            out_meta["part"] = part_rest
        return Message.tool(
            text, tool_call_id=call_id, name=name, is_error=is_error, metadata=out_meta
        )


def _as_block(call: ToolCall) -> Block:
    return ToolCallBlock(call.id, call.name, call.args, extra=call.extra)


def _read_contents(contents: Any, reader: _Reader, path: str) -> list[Message]:
    if not isinstance(contents, list):
        raise reader.ctx.error("contents must be an array", path)
    return read_contents(contents, reader, path)


def _read_response(value: dict[str, Any], reader: _Reader, info: dict[str, Any]) -> Conversation:
    ckey, candidates = pick(value, "candidates")
    if not isinstance(candidates, list):
        raise reader.ctx.error("candidates must be an array", f"$.{ckey}")
    messages: list[Message] = []
    cand_keys: list[str] = []
    ukey, raw_usage = pick(value, "usageMetadata")
    top = {k: v for k, v in value.items() if k not in (ckey, ukey)}
    usage = read_usage(raw_usage, reader.ctx, f"$.{ukey}") if raw_usage is not None else None
    if candidates:
        first = candidates[0]
        if not isinstance(first, dict):
            raise reader.ctx.error("a candidate must be an object", f"$.{ckey}[0]")
        content = first.get("content", {"role": "model", "parts": []})
        if isinstance(content, dict) and "role" not in content:
            content = {**content, "role": "model"}
            info["noRole"] = True
        [msg] = reader.content(content, 0, f"$.{ckey}[0].content")
        cand = {k: v for k, v in first.items() if k != "content"}
        cand_keys = list(cand)
        meta = {**cand, **top}
        version = get(value, "modelVersion")
        if isinstance(version, str) and "model" not in meta:
            meta["model"] = version
        metadata = {k: v for k, v in msg.metadata.items() if k != "role"}
        messages.append(
            Message(
                "assistant",
                msg.content,
                tool_calls=msg.tool_calls,
                usage=usage,
                response_metadata=meta,
                metadata=metadata,
            )
        )
    info.update(shape="response", candidateKeys=cand_keys, otherCandidates=candidates[1:])
    return Conversation(tuple(messages), NAME, {FILE_INFO: info})


def read(value: Any, ctx: Context) -> list[Conversation]:
    """A request body, a response, or a list of contents -> one conversation."""
    reader = _Reader(ctx)
    info: dict[str, Any] = {"spelling": "snake_case"} if uses_snake(value) else {}
    if isinstance(value, list):
        info["shape"] = "contents"
        return [Conversation(tuple(_read_contents(value, reader, "$")), NAME, {FILE_INFO: info})]
    if not isinstance(value, dict):
        raise ctx.error("not a Gemini request body or response")
    if "steps" in value and "contents" not in value and "candidates" not in value:
        return [read_interaction(value, ctx)]
    if pick(value, "candidates")[0] is not None and "contents" not in value:
        return [_read_response(value, reader, info)]
    skey, system = pick(value, "systemInstruction")
    messages: list[Message] = []
    if system is not None:
        if isinstance(system, str):
            messages.append(Message.system(system))
        elif isinstance(system, dict) and isinstance(system.get("parts"), list):
            parts = [
                reader.parts.part(p, f"$.{skey}.parts[{k}]") for k, p in enumerate(system["parts"])
            ]
            if any(isinstance(p, (ToolCall, dict)) for p in parts):
                raise ctx.error("a system instruction holds text parts only", f"$.{skey}")
            rest = {k: v for k, v in system.items() if k != "parts"}
            meta = {"systemInstruction": rest} if rest else {}
            messages.append(Message("system", tuple(parts), metadata=meta))
        else:
            raise ctx.error("systemInstruction must be an object with parts", f"$.{skey}")
    messages.extend(_read_contents(value.get("contents"), reader, "$.contents"))
    meta = {k: v for k, v in value.items() if k not in ("contents", skey)}
    if info:
        meta[FILE_INFO] = info
    return [Conversation(tuple(messages), NAME, meta)]
