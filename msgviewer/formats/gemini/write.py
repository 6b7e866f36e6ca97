"""Writing a conversation as a Gemini request (or the response, list of contents and spelling
it was read from).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.blocks import ToolCallBlock, ToolResultBlock
from ...core.call_order import calls_in_order
from ...core.message import InvalidToolCall, Message, ToolCall
from ..base import Context, Conversation, message_where
from ..io import json_bytes
from ..shared.provider import (
    SYNTHETIC_ID,
    Losses,
    foreign_tools,
    interleave_calls,
    own_metadata,
    pair_tool_ids,
)
from .detect import NAME
from .interactions import write_interaction
from .parts import (
    PartWriter,
    get,
    pick,
    snake,
    write_usage,
)
from .read import FILE_INFO

_FILE_ROLES = (None, "function")  # a user content's role as metadata keeps it: none, or old


_REQUEST_KEYS = frozenset(
    {"generationConfig", "safetySettings", "tools", "toolConfig", "cachedContent", "labels"}
)
_CONFIG = {
    "temperature": "temperature",
    "top_p": "topP",
    "top_k": "topK",
    "max_tokens": "maxOutputTokens",
    "max_completion_tokens": "maxOutputTokens",
    "max_output_tokens": "maxOutputTokens",
    "stop": "stopSequences",
    "stop_sequences": "stopSequences",
    "seed": "seed",
    "presence_penalty": "presencePenalty",
    "frequency_penalty": "frequencyPenalty",
}


class _Writer:
    def __init__(self, conv: Conversation, ctx: Context) -> None:
        self.conv = conv
        self.own = conv.format == NAME
        info = conv.metadata.get(FILE_INFO)
        self.info: dict[str, Any] = info if isinstance(info, dict) else {}
        snake_case = self.info.get("spelling") == "snake_case"
        self.spell = snake if snake_case else (lambda k: k)
        self.losses = Losses(ctx)
        self.parts = PartWriter(self.losses, self.spell, trusted=self.own)

    def _request_fields(self) -> dict[str, Any]:
        s = self.spell
        out: dict[str, Any] = {}
        config: dict[str, Any] = {}
        for key, v in self.conv.metadata.items():
            if key == FILE_INFO:
                continue
            if self.own:
                out[key] = v
            elif key == "tools":
                self._tools(v, out)
            elif key in _REQUEST_KEYS or snake(key) in {snake(k) for k in _REQUEST_KEYS}:
                out[key] = v
            elif key in _CONFIG:
                config[s(_CONFIG[key])] = [v] if key == "stop" and isinstance(v, str) else v
            else:
                self.losses.add(f"request field {key!r}", "the request")
        if config:
            key = s("generationConfig")
            out[key] = {**(out.get(key) or {}), **config}
        return out

    def _tools(self, tools: Any, out: dict[str, Any]) -> None:
        """Tools of another format as Gemini function declarations (Gemini's own kept)."""
        s = self.spell
        native = [
            t
            for t in (tools if isinstance(tools, list) else [])
            if isinstance(t, dict) and t and not ({"type", "name", "function"} & t.keys())
        ]
        found, other = foreign_tools([t for t in tools if t not in native] if native else tools)
        decls = []
        for f in found:
            d: dict[str, Any] = {"name": f.name}
            if f.description:
                d["description"] = f.description
            if f.schema:
                d[s("parametersJsonSchema")] = f.schema
            decls.append(d)
        out["tools"] = native + ([{s("functionDeclarations"): decls}] if decls else [])
        for o in other:
            kind = o.get("type") if isinstance(o, dict) else o
            self.losses.add(f"built-in tool {kind!r}", "the request tools")

    def _turns(self, messages: list[Message], names: dict[str, str], response: bool):
        system: list[dict[str, Any]] = []
        system_meta: dict[str, Any] = {}
        turns: list[tuple[Any, list[dict[str, Any]], dict[str, Any]]] = []
        for i, m in enumerate(messages):
            where = message_where(i)
            self._losses(m, where, response)
            if m.role == "system":
                if turns:
                    self.losses.add("system message moved to the system instruction", where)
                for k, b in enumerate(m.blocks):
                    if type(b) is ToolCallBlock or type(b) is ToolResultBlock:
                        # a system instruction holds no calls or results
                        self.losses.add(f"{b.type} block in a system message", where)
                        continue
                    part = self.parts.block(b, f"{where}, block {k}", names)
                    if part is not None:
                        system.append(part)
                if self.own and isinstance(m.metadata.get("systemInstruction"), dict):
                    system_meta = m.metadata["systemInstruction"]
                continue
            # the content role as the file had it: "function" (old files) or none at all
            role = (
                m.metadata["role"]
                if self.own and m.metadata.get("role", 0) in _FILE_ROLES
                else "user"
            )
            if m.role == "tool":
                meta = m.metadata if self.own else {SYNTHETIC_ID: m.metadata.get(SYNTHETIC_ID)}
                part = self.parts.result(
                    m.tool_call_id,
                    m.name or names.get(m.tool_call_id or ""),
                    m.content,
                    m.is_error,
                    meta,
                    where,
                )
                rest = self._content_rest(m, where)
                turns.append(("function" if role == "function" else "user", [part], rest))
                continue
            parts = []
            results = []  # tool results in an assistant message: a model turn cannot hold them
            for k, b in enumerate(m.blocks):
                part = self.parts.block(b, f"{where}, block {k}", names)
                if part is None:
                    continue
                if m.role == "assistant" and type(b) is ToolResultBlock:
                    results.append(part)
                else:
                    parts.append(part)
            if results:
                self.losses.add("tool result in an assistant message (moved to a user turn)", where)
            if m.role == "assistant":
                calls = []
                for call in calls_in_order(m):
                    if type(call) is not ToolCall:  # kept as a call so its result stays linked
                        call = ToolCall(call.id, call.name or "unknown", {}, extra=call.extra)
                        self.losses.add("unparsable tool call arguments (written as {})", where)
                    calls.append((call, self.parts.call(call, where)))
                turns.append(
                    ("model", interleave_calls(parts, calls), self._content_rest(m, where))
                )
                if results:
                    turns.append(("user", results, {}))
            else:
                turns.append((role, parts, self._content_rest(m, where)))
        return system, system_meta, _merge(turns)

    def _content_rest(self, m: Message, where: str) -> dict[str, Any]:
        rest = m.metadata.get("content") if self.own else None
        if not isinstance(rest, dict):
            return {}
        if "role" in rest or "parts" in rest:  # the writer sets those
            self.losses.add("content fields 'role' and 'parts' from metadata", where)
            rest = {k: v for k, v in rest.items() if k not in ("role", "parts")}
        return rest

    def _losses(self, m: Message, where: str, response: bool) -> None:
        if m.id is not None:
            self.losses.add("message id", where)
        if m.name is not None and m.role != "tool":
            self.losses.add("participant name", where)
        if not response and m.usage is not None:
            self.losses.add("usage", where)
        if not response and m.response_metadata:
            self.losses.add("response metadata", where)
        if m.artifacts:
            self.losses.add("tool artifacts", where)
        if own_metadata(m) and not self.own:
            self.losses.add("message metadata", where)

    def write(self) -> bytes:
        s = self.spell
        messages, names = pair_tool_ids(self.conv.messages)
        # A call written without its made-up id is answered without one too (matched by name
        # and order on reading), or the two would no longer link.
        self.parts.hidden_ids = {
            c.id
            for m in messages
            for c in (*m.tool_calls, *m.invalid_tool_calls, *m.blocks)
            if type(c) in (ToolCall, InvalidToolCall, ToolCallBlock) and c.extra.get(SYNTHETIC_ID)
        }
        shape = self.info.get("shape")
        convo = [m for m in messages if m.role != "system"]
        if shape == "response" and self.own and len(convo) == 1 and convo[0].role == "assistant":
            body: Any = self._response(convo[0], names)
        else:
            system, system_meta, contents = self._turns(messages, names, False)
            if shape == "contents" and self.own:
                body = contents
            else:
                body = {}
                if system:
                    body[s("systemInstruction")] = {**system_meta, "parts": system}
                body["contents"] = contents
                body.update(self._request_fields())
        self.losses.flush()
        return json_bytes(body, pretty=True)

    def _response(self, m: Message, names: dict[str, str]) -> dict[str, Any]:
        s = self.spell
        _, _, contents = self._turns([m], names, True)
        content = contents[0] if contents else {"role": "model", "parts": []}
        if self.info.get("noRole"):
            content.pop("role", None)
        meta = dict(m.response_metadata)
        if meta.get("model") == get(meta, "modelVersion"):
            meta.pop("model", None)
        cand: dict[str, Any] = {"content": content}
        for key in self.info.get("candidateKeys") or []:
            if key in meta:
                cand[key] = meta.pop(key)
        body: dict[str, Any] = {s("candidates"): [cand, *(self.info.get("otherCandidates") or [])]}
        body.update(meta)
        if m.usage is not None:
            body[s("usageMetadata")] = write_usage(m.usage, s)
        return body


def _merge(turns: list[tuple[Any, list[dict[str, Any]], dict[str, Any]]]) -> list[dict]:
    """Consecutive same-role turns become one content; function responses come first.

    A turn with content fields of its own starts a new content, unless the content before has
    the same ones (the messages one content was read into all carry its fields).
    """
    out: list[dict[str, Any]] = []
    last_rest: dict[str, Any] = {}
    for role, parts, rest in turns:
        if out and out[-1].get("role", None) == role and (not rest or rest == last_rest):
            out[-1]["parts"].extend(parts)
            continue
        last_rest = rest
        content: dict[str, Any] = dict(rest)
        if role is not None:
            content["role"] = role
        content["parts"] = list(parts)
        out.append(content)
    for content in out:
        parts = content["parts"]
        responses = []
        others = []
        for p in parts:
            (responses if pick(p, "functionResponse")[0] is not None else others).append(p)
        if responses and others:
            content["parts"] = responses + others
    return out


def write(conversations: Sequence[Conversation], ctx: Context) -> bytes:
    """One conversation as a request body (or the response / contents list / interaction it
    was read from)."""
    conv = conversations[0]
    info = conv.metadata.get(FILE_INFO) if conv.format == NAME else None
    if isinstance(info, dict) and info.get("shape") == "interaction":
        return write_interaction(conv, ctx)
    return _Writer(conv, ctx).write()
