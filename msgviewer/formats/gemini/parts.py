"""Gemini ``parts`` <-> msgviewer blocks, tool calls and tool results.

Gemini files come in two spellings: the REST API's camelCase (``functionCall``,
``inlineData``) and the Python SDK's snake_case (``function_call``, ``inline_data``). Both are
read; part-level fields the model does not name (``thoughtSignature``, ``videoMetadata``...) stay
in the block's (or ``ToolCall``'s) ``extra`` under the key as the file spelled it, so a
signature stays on its part. Writing uses the spelling the file had.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from ...core.blocks import (
    AudioBlock,
    Block,
    FileBlock,
    ImageBlock,
    ReasoningBlock,
    ServerToolCallBlock,
    ServerToolResultBlock,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
    UnknownBlock,
    VideoBlock,
)
from ...core.message import ToolCall
from ...core.usage import Usage
from ..base import Context
from ..shared.json_checks import json_type
from ..shared.provider import CONTENT_INDEX, SYNTHETIC_ID, Losses

ORIGIN = {"format": "gemini"}
DATA_KEYS = (
    "text",
    "inlineData",
    "fileData",
    "functionCall",
    "functionResponse",
    "executableCode",
    "codeExecutionResult",
)
# Part-level fields Gemini defines besides the data: written even for blocks from elsewhere.
META_KEYS = frozenset(
    {"thought", "thoughtSignature", "videoMetadata", "partMetadata", "mediaResolution"}
)


@lru_cache(maxsize=512)  # a few dozen field names, asked for several times per part
def snake(name: str) -> str:
    """``inlineData`` -> ``inline_data``."""
    return re.sub(r"([A-Z])", r"_\1", name).lower()


def pick(d: dict[str, Any], camel: str) -> tuple[str | None, Any]:
    """The key (as spelled in ``d``) and value of a field, camelCase or snake_case."""
    if camel in d:
        return camel, d[camel]
    s = snake(camel)
    if s in d:
        return s, d[s]
    return None, None


def get(d: dict[str, Any], camel: str, default: Any = None) -> Any:
    return pick(d, camel)[1] if pick(d, camel)[0] is not None else default


_SNAKE_FIELDS = frozenset(
    snake(k)
    for k in (
        "systemInstruction",
        "inlineData",
        "fileData",
        "functionCall",
        "functionResponse",
        "usageMetadata",
        "generationConfig",
        "thoughtSignature",
        "finishReason",
    )
)
_SPELLING_LOOK = 5_000
"""Objects looked at, in file order, for a multi-word field's spelling: the file's start."""


def uses_snake(value: Any) -> bool:
    """Does this file spell multi-word fields in snake_case (the Python SDK's dumps)? Told by
    the keys of the objects at its start (never the whole file: its spelling is one)."""
    if isinstance(value, str):
        return any(f'"{k}"' in value for k in _SNAKE_FIELDS)
    stack = [value]
    looked = 0
    while stack and looked < _SPELLING_LOOK:
        item = stack.pop()
        if isinstance(item, dict):
            if not _SNAKE_FIELDS.isdisjoint(item):
                return True
            looked += 1
            stack.extend(reversed(item.values()))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return False


def _media_class(mime: str | None) -> type:
    top = (mime or "").split("/", 1)[0]
    return {"image": ImageBlock, "audio": AudioBlock, "video": VideoBlock}.get(top, FileBlock)


class PartReader:
    """Reads one content's parts; collects calls with their positions."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def part(self, p: Any, path: str) -> Block | ToolCall | dict[str, Any]:
        """A block, a ``ToolCall`` (functionCall) or the raw functionResponse part (a dict)."""
        if not isinstance(p, dict):
            raise self.ctx.error(f"a part must be an object, not {type(p).__name__}", path)
        kind = key = None
        for camel in DATA_KEYS:
            k, v = pick(p, camel)
            if k is not None and v is not None:
                kind, key = camel, k
                break
        if kind is None:
            if set(p) - {k for m in META_KEYS for k in (m, snake(m))}:
                self.ctx.warn(f"unknown part with keys {sorted(p)} kept as is", path)
            return UnknownBlock("part", p, extra=dict(ORIGIN))
        extra = {k: v for k, v in p.items() if k != key}
        value = p[key]
        sub = f"{path}.{key}"
        if kind == "text":
            if not isinstance(value, str):
                raise self.ctx.error("text must be a string", sub)
            if extra.get("thought") is True:
                del extra["thought"]
                return ReasoningBlock(value, extra=extra)
            return TextBlock(value, extra=extra)
        if kind == "functionResponse":
            if not isinstance(value, dict):
                raise self.ctx.error("functionResponse must be an object", sub)
            return p
        if not isinstance(value, dict):
            raise self.ctx.error(f"{key} must be an object", sub)
        if kind in ("inlineData", "fileData"):
            return self._media(kind, key, value, extra, sub)
        if kind == "functionCall":
            name = value.get("name")
            if not isinstance(name, str):
                raise self.ctx.error("functionCall needs a string name", f"{sub}.name")
            args = value.get("args", {})
            if not isinstance(args, dict):
                raise self.ctx.error("functionCall args must be an object", f"{sub}.args")
            call_id = value.get("id")
            if call_id is not None and not isinstance(call_id, str):
                raise self.ctx.error("functionCall id must be a string", f"{sub}.id")
            rest = {k: v for k, v in value.items() if k not in ("id", "name", "args")}
            if rest:
                extra[key] = rest
            return ToolCall(call_id, name, args, extra=extra)
        if kind == "executableCode":
            return ServerToolCallBlock(value.get("id"), "code_execution", value, extra=extra)
        # codeExecutionResult
        outcome = value.get("outcome")
        return ServerToolResultBlock(
            value.get("id"), value, outcome if isinstance(outcome, str) else None, extra=extra
        )

    def _media(
        self, kind: str, key: str, value: dict[str, Any], extra: dict[str, Any], path: str
    ) -> Block:
        mk, mime = pick(value, "mimeType")
        nk, name = pick(value, "displayName")
        if mime is not None and not isinstance(mime, str):
            raise self.ctx.error("mimeType must be a string", f"{path}.{mk}")
        fields: dict[str, Any] = {"mime_type": mime}
        used = {mk}
        if isinstance(name, str):
            fields["filename"] = name
            used.add(nk)
        if kind == "inlineData":
            data = value.get("data")
            if not isinstance(data, str):
                raise self.ctx.error("inlineData data must be a base64 string", f"{path}.data")
            fields["data"] = data
            used.add("data")
        else:
            uk, uri = pick(value, "fileUri")
            if not isinstance(uri, str):
                raise self.ctx.error("fileData needs a string fileUri", f"{path}.fileUri")
            fields["url"] = uri
            used.add(uk)
        rest = {k: v for k, v in value.items() if k not in used}
        if rest:
            extra[key] = rest
        return _media_class(mime)(**fields, extra=extra)


def response_content(response: Any) -> tuple[str, bool]:
    """A functionResponse's ``response`` as tool message text, and whether it is an error.

    ``{"output": text}`` / ``{"error": text}`` give the text itself; anything else its JSON.
    Text that is itself a JSON object is written as JSON too, so both directions agree.
    """
    if isinstance(response, dict) and len(response) == 1:
        ((key, value),) = response.items()
        if key in ("output", "error") and isinstance(value, str) and not _json_object(value):
            return value, key == "error"
    is_error = isinstance(response, dict) and "error" in response and "output" not in response
    return json.dumps(response, ensure_ascii=False), is_error


def response_value(text: str, is_error: bool) -> dict[str, Any]:
    """The inverse of ``response_content``."""
    parsed = _json_object(text)
    if parsed is not None:
        return parsed
    return {"error": text} if is_error else {"output": text}


def _json_object(text: str) -> dict[str, Any] | None:
    if not text.startswith("{"):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def read_usage(u: Any, ctx: Context, path: str) -> Usage:
    """Normalised usage: output = candidates + thoughts; input includes tool-use prompts."""
    if not isinstance(u, dict):
        raise ctx.error("usageMetadata must be an object", path)

    def count(camel: str) -> int:
        key, v = pick(u, camel)
        if v is None:
            return 0
        if not isinstance(v, int) or isinstance(v, bool):
            raise ctx.error(f"{key} must be an integer, not {json_type(v)}", f"{path}.{key}")
        return v

    prompt = count("promptTokenCount") + count("toolUsePromptTokenCount")
    thoughts = count("thoughtsTokenCount")
    output = count("candidatesTokenCount") + thoughts
    return Usage(
        input_tokens=prompt,
        output_tokens=output,
        total_tokens=count("totalTokenCount") or prompt + output,
        cache_read_tokens=count("cachedContentTokenCount"),
        reasoning_tokens=thoughts,
        extra=u,
    )


def write_usage(u: Usage, spell: Any) -> dict[str, Any]:
    """Gemini usageMetadata: the raw dict when it still matches, else rebuilt."""
    raw = u.extra
    if isinstance(raw, dict):
        try:
            prompt = int(get(raw, "promptTokenCount", 0) or 0) + int(
                get(raw, "toolUsePromptTokenCount", 0) or 0
            )
            output = int(get(raw, "candidatesTokenCount", 0) or 0) + int(
                get(raw, "thoughtsTokenCount", 0) or 0
            )
            if prompt == u.input_tokens and output == u.output_tokens and raw:
                return raw
        except (TypeError, ValueError):
            pass
    out = {
        spell("promptTokenCount"): u.input_tokens,
        spell("candidatesTokenCount"): u.output_tokens - u.reasoning_tokens,
    }
    if u.reasoning_tokens:
        out[spell("thoughtsTokenCount")] = u.reasoning_tokens
    if u.cache_read_tokens:
        out[spell("cachedContentTokenCount")] = u.cache_read_tokens
    out[spell("totalTokenCount")] = u.total_tokens
    return out


# The fields of Gemini's ExecutableCode and CodeExecutionResult (google-genai 3.4).
_CODE_FIELDS = frozenset({"code", "language", "id"})
_RESULT_FIELDS = frozenset({"outcome", "output", "id"})


class PartWriter:
    """Writes blocks as parts; ``trusted`` when they were read from Gemini."""

    def __init__(self, losses: Losses, spell: Any, *, trusted: bool) -> None:
        self.losses = losses
        self.spell = spell
        self.trusted = trusted
        self.hidden_ids: set[str | None] = set()
        """Ids of calls written without their (made-up) id: results leave them out too."""

    def _meta(self, extra: dict[str, Any], where: str, *, skip: tuple[str, ...] = ()) -> dict:
        out = {}
        for k, v in extra.items():
            if k in (CONTENT_INDEX, SYNTHETIC_ID) or k in skip:
                continue
            if self.trusted or k in META_KEYS or snake(k) in {snake(m) for m in META_KEYS}:
                out[k] = v
            else:
                self.losses.add(f"block field {k!r}", where)
        return out

    def _own(self, value: dict[str, Any], fields: frozenset[str], what: str, where: str) -> dict:
        """``value`` as it was when read from Gemini; else only the fields Gemini defines (a
        code call of another provider, say a Responses ``container_id``, stays behind)."""
        if self.trusted:
            return dict(value)
        for k in value:
            if k not in fields:
                self.losses.add(f"{what} field {k!r}", where)
        return {k: v for k, v in value.items() if k in fields}

    def block(self, b: Block, where: str, names: dict[str, str]) -> dict[str, Any] | None:
        t = type(b)
        s = self.spell
        if t is TextBlock:
            if b.citations:
                self.losses.add("citations", where)
            return {"text": b.text, **self._meta(b.extra, where)}
        if t is ReasoningBlock:
            if b.signature is not None:
                self.losses.add("thinking signature", where)
            if b.redacted or (b.data is not None and not b.text):
                self.losses.add("redacted or encrypted reasoning", where)
                return None
            return {"text": b.text, "thought": True, **self._meta(b.extra, where)}
        if t in (ImageBlock, AudioBlock, VideoBlock, FileBlock):
            return self._media(b, where)
        if t is ToolCallBlock:
            return self.call(ToolCall(b.id, b.name, b.args, extra=b.extra), where)
        if t is ToolResultBlock:
            meta = {SYNTHETIC_ID: b.extra.get(SYNTHETIC_ID)}
            name = names.get(b.tool_call_id or "")
            return self.result(b.tool_call_id, name, b.content, b.is_error, meta, where)
        if t is ServerToolCallBlock and isinstance(b.args.get("code"), str):
            code = self._own(b.args, _CODE_FIELDS, "code execution", where)
            code.setdefault("language", "PYTHON")
            return {s("executableCode"): code, **self._meta(b.extra, where, skip=("type",))}
        if t is ServerToolResultBlock:
            if isinstance(b.content, dict) and "outcome" in b.content:
                value = self._own(b.content, _RESULT_FIELDS, "code execution result", where)
            elif isinstance(b.content, str):
                value = {"outcome": "OUTCOME_OK", "output": b.content}
            else:
                value = None
            if value is not None:
                meta = self._meta(b.extra, where, skip=("type",))
                return {s("codeExecutionResult"): value, **meta}
        if (
            t is UnknownBlock
            and b.extra.get("format") == ORIGIN["format"]
            and isinstance(b.data, dict)
        ):
            return b.data
        self.losses.add(f"{b.type} block" if t is not UnknownBlock else f"{b.kind!r} block", where)
        return None

    def _media(self, b: Any, where: str) -> dict[str, Any] | None:
        s = self.spell
        extra = dict(b.extra)
        inline_key, rest = pick(extra, "inlineData")
        file_key, file_rest = pick(extra, "fileData")
        for k in (inline_key, file_key):
            if k is not None:
                del extra[k]
        if b.data is not None:
            inner = {s("mimeType"): b.mime_type or "application/octet-stream", "data": b.data}
            if b.filename is not None:
                inner[s("displayName")] = b.filename
            inner.update(rest if isinstance(rest, dict) else {})
            return {s("inlineData"): inner, **self._meta(extra, where)}
        uri = b.url or b.file_id
        if uri is None:
            self.losses.add(f"{b.type} without data or url", where)
            return None
        inner = {s("fileUri"): uri}
        if b.mime_type is not None:
            inner[s("mimeType")] = b.mime_type
        if b.filename is not None:
            inner[s("displayName")] = b.filename
        inner.update(file_rest if isinstance(file_rest, dict) else {})
        return {s("fileData"): inner, **self._meta(extra, where)}

    def call(self, c: ToolCall, where: str) -> dict[str, Any]:
        extra = dict(c.extra)
        key, rest = pick(extra, "functionCall")
        if key is not None:
            del extra[key]
        inner: dict[str, Any] = {}
        if c.id is not None and not c.extra.get(SYNTHETIC_ID):
            inner["id"] = c.id
        inner.update(name=c.name, args=c.args)
        inner.update(rest if isinstance(rest, dict) else {})
        return {self.spell("functionCall"): inner, **self._meta(extra, where)}

    def result(
        self,
        call_id: str | None,
        name: str | None,
        content: Any,
        is_error: bool,
        meta: dict[str, Any],
        where: str,
    ) -> dict[str, Any]:
        if isinstance(content, str):
            text = content
        else:
            text = "".join(b.text for b in content if type(b) is TextBlock)
            if any(type(b) is not TextBlock for b in content):
                self.losses.add("non-text tool result content", where)
        inner: dict[str, Any] = {}
        if call_id is not None and not meta.get(SYNTHETIC_ID) and call_id not in self.hidden_ids:
            inner["id"] = call_id
        inner["name"] = name or "unknown"
        if name is None:
            self.losses.add("tool result without a matching call name", where)
        inner["response"] = response_value(text, is_error)
        rest = meta.get("functionResponse")
        inner.update(rest if isinstance(rest, dict) else {})
        part = meta.get("part")
        return {self.spell("functionResponse"): inner, **(part if isinstance(part, dict) else {})}
