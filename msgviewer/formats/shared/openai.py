"""What the OpenAI formats (Chat, Responses, Codex) share: arguments, usage, tools, shapes.

Tool-call arguments are JSON text on the wire; the model keeps them parsed, and text that does
not parse stays verbatim in an ``InvalidToolCall``. Usage is normalised the OpenAI way already
(input counts cached tokens, output counts reasoning), so reading is a matter of naming the
numbers and keeping the raw dict in ``Usage.extra``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Collection, Iterator, Sequence
from typing import Any

from ...core.blocks import ToolCallBlock, ToolResultBlock
from ...core.message import InvalidToolCall, Message, ToolCall
from ...core.usage import Usage
from ..base import Context, Conversation
from ..io import json_bytes, loads_exactly
from .json_checks import expect, json_type

OPT_STR = (str, type(None))

# -- arguments ----------------------------------------------------------------------------


def parse_call(
    call_id: str | None, name: str | None, raw: Any, extra: dict[str, Any]
) -> ToolCall | InvalidToolCall:
    """A call from its wire arguments: a JSON object text, or (HF templates) an object."""
    if isinstance(raw, dict):
        return ToolCall(call_id, name or "", raw, extra={**extra, "args_object": True})
    if raw is None or raw == "":
        # Models send "" for calls without parameters; keep the exact text for the way back.
        return ToolCall(call_id, name or "", {}, extra={**extra, "raw_args": raw})
    if not isinstance(raw, str):
        return InvalidToolCall(
            call_id, name, json.dumps(raw), "arguments are not a JSON string", extra=extra
        )
    try:
        args = loads_exactly(raw)
    except ValueError as exc:
        return InvalidToolCall(call_id, name, raw, f"invalid JSON: {exc}", extra=extra)
    if not isinstance(args, dict):
        return InvalidToolCall(
            call_id, name, raw, f"arguments are {json_type(args)}, not an object", extra=extra
        )
    return ToolCall(call_id, name or "", args, extra=extra)


NO_TEXT_KEPT = "an unparsable tool call kept with no text (written with empty arguments)"
"""What writing a call with no text of its arguments loses (Inspect keeps none): it reads back
as a call of no arguments."""


def dump_args(call: ToolCall) -> Any:
    """The wire arguments of a call (text, or the object when it was read as one)."""
    extra = call.extra
    if extra:
        if extra.get("args_object"):
            return call.args
        if "raw_args" in extra and not call.args:
            return extra["raw_args"]
    return json_bytes(call.args).decode()


CALL_EXTRA_SKIP = frozenset({"args_object", "raw_args", "synthetic_id"})

# -- usage --------------------------------------------------------------------------------


def _int(d: Any, key: str) -> int:
    v = d.get(key) if isinstance(d, dict) else None
    return v if isinstance(v, int) and not isinstance(v, bool) else 0


def _check_counts(ctx: Context, d: dict[str, Any], path: str) -> None:
    for key, v in d.items():
        if key.endswith("_tokens") and not (
            v is None or (isinstance(v, int) and not isinstance(v, bool))
        ):
            raise ctx.error(f"usage {key} must be an integer, not {json_type(v)}", f"{path}.{key}")


def _usage_in(d: Any, ctx: Context, path: str, input_key: str, output_key: str) -> Usage:
    """Usage from OpenAI counts named ``<input_key>``/``<output_key>`` and their details."""
    expect(ctx, d, dict, "usage", path)
    _check_counts(ctx, d, path)
    inputs = d.get(f"{input_key}_details")
    return Usage(
        input_tokens=_int(d, input_key),
        output_tokens=_int(d, output_key),
        total_tokens=_int(d, "total_tokens"),
        cache_read_tokens=_int(inputs, "cached_tokens"),
        cache_write_tokens=_int(inputs, "cache_write_tokens"),
        reasoning_tokens=_int(d.get(f"{output_key}_details"), "reasoning_tokens"),
        extra=d,
    )


def chat_usage_in(d: Any, ctx: Context, path: str) -> Usage:
    """Chat Completions usage (prompt/completion tokens and their details)."""
    return _usage_in(d, ctx, path, "prompt_tokens", "completion_tokens")


def chat_usage_out(usage: Usage) -> dict[str, Any]:
    """Chat Completions usage: the provider's own dict when it still matches the counts."""
    raw = usage.extra
    if (
        raw.get("prompt_tokens") == usage.input_tokens
        and raw.get("completion_tokens") == usage.output_tokens
    ):
        return raw
    out: dict[str, Any] = {
        "prompt_tokens": usage.input_tokens,
        "completion_tokens": usage.output_tokens,
        "total_tokens": usage.total_tokens or usage.input_tokens + usage.output_tokens,
    }
    if usage.cache_read_tokens or usage.cache_write_tokens:
        out["prompt_tokens_details"] = {"cached_tokens": usage.cache_read_tokens}
        if usage.cache_write_tokens:
            out["prompt_tokens_details"]["cache_write_tokens"] = usage.cache_write_tokens
    if usage.reasoning_tokens:
        out["completion_tokens_details"] = {"reasoning_tokens": usage.reasoning_tokens}
    return out


def responses_usage_in(d: Any, ctx: Context, path: str) -> Usage:
    """Responses usage (input/output tokens and their details)."""
    return _usage_in(d, ctx, path, "input_tokens", "output_tokens")


def responses_usage_out(usage: Usage) -> dict[str, Any]:
    """Responses usage: the provider's own dict when it still matches the counts."""
    raw = usage.extra
    if (
        raw.get("input_tokens") == usage.input_tokens
        and raw.get("output_tokens") == usage.output_tokens
        and "input_tokens_details" in raw
    ):
        return raw
    return {
        "input_tokens": usage.input_tokens,
        "input_tokens_details": {
            "cached_tokens": usage.cache_read_tokens,
            "cache_write_tokens": usage.cache_write_tokens,
        },
        "output_tokens": usage.output_tokens,
        "output_tokens_details": {"reasoning_tokens": usage.reasoning_tokens},
        "total_tokens": usage.total_tokens or usage.input_tokens + usage.output_tokens,
    }


# -- audio --------------------------------------------------------------------------------

_AUDIO_MIME = {"wav": "audio/wav", "mp3": "audio/mpeg"}


def audio_mime(fmt: Any) -> str | None:
    """MIME type of an OpenAI audio ``format`` (wav, mp3)."""
    if not isinstance(fmt, str):
        return None
    return _AUDIO_MIME.get(fmt, f"audio/{fmt}")


def audio_format(mime: str | None) -> str | None:
    """OpenAI audio ``format`` of a MIME type, if it has one."""
    for fmt, m in _AUDIO_MIME.items():
        if mime == m:
            return fmt
    return None


# -- shapes -------------------------------------------------------------------------------


def canonical(messages: Sequence[Message]) -> Iterator[tuple[int, Message]]:
    """(source index, message) with the tool linkage in OpenAI's shape.

    ``ToolResultBlock`` s inside a user message (Anthropic's shape) become tool messages, placed
    before the rest of that message; ``ToolCallBlock`` s in an assistant's content join its
    ``tool_calls``.
    """
    for i, m in enumerate(messages):
        content = m.content
        if type(content) is str:
            yield i, m
            continue
        if m.role == "assistant" and any(type(b) is ToolCallBlock for b in content):
            calls = list(m.tool_calls)
            rest = []
            for b in content:
                if type(b) is ToolCallBlock:
                    calls.append(ToolCall(b.id, b.name, b.args, extra=b.extra))
                else:
                    rest.append(b)
            yield i, _replace(m, content=tuple(rest), tool_calls=tuple(calls))
            continue
        if m.role != "tool" and any(type(b) is ToolResultBlock for b in content):
            rest = []
            for b in content:
                if type(b) is ToolResultBlock:
                    yield (
                        i,
                        Message.tool(b.content, tool_call_id=b.tool_call_id, is_error=b.is_error),
                    )
                else:
                    rest.append(b)
            if rest or m.role == "assistant" or m.usage is not None:
                yield i, _replace(m, content=tuple(rest))
            continue
        yield i, m


def _replace(m: Message, **changes: Any) -> Message:
    return dataclasses.replace(m, **changes)


# -- request-level fields across formats --------------------------------------------------

# Request fields Chat Completions and Responses share under the same name.
_SHARED = ("model", "temperature", "top_p", "parallel_tool_calls", "store", "user", "metadata")
_OWN_FORMATS = {"openai-chat", "openai-responses"}


# The fields of a function tool in each API (besides ``type``).
_CHAT_FUNCTION = ("name", "description", "parameters", "strict")
_RESPONSES_FUNCTION = ("name", "description", "parameters", "strict")


def chat_tool_to_responses(tool: Any, lost: list[str]) -> dict[str, Any] | None:
    """``{"type": "function", "function": {...}}`` -> ``{"type": "function", "name": ...}``.

    Responses needs ``strict`` and ``parameters`` and defaults to strict: a tool that did not
    say so is written not strict, as Chat Completions took it. Fields Responses has no place
    for are added to ``lost``."""
    fn: Any = None
    if isinstance(tool, dict) and tool.get("type") == "function":
        fn = tool.get("function") if isinstance(tool.get("function"), dict) else tool
        if "name" not in fn:
            return None
    elif isinstance(tool, dict) and isinstance(tool.get("name"), str) and "input_schema" in tool:
        fn = {"name": tool["name"], "parameters": tool["input_schema"]}
        if tool.get("description"):
            fn["description"] = tool["description"]
        fn["strict"] = tool.get("strict", False)
    if fn is None:
        return None
    lost.extend(k for k in fn if k not in _RESPONSES_FUNCTION and k != "type")
    out = {"type": "function", **{k: fn[k] for k in _RESPONSES_FUNCTION if k in fn}}
    out.setdefault("parameters", None)
    out.setdefault("strict", False)
    return out


def responses_tool_to_chat(tool: Any, lost: list[str]) -> dict[str, Any] | None:
    """The inverse of ``chat_tool_to_responses`` (function tools only)."""
    if isinstance(tool, dict) and tool.get("type") == "function":
        inner = tool.get("function") if isinstance(tool.get("function"), dict) else tool
        fn = {k: v for k, v in inner.items() if k != "type"}
    elif isinstance(tool, dict) and isinstance(tool.get("name"), str) and "input_schema" in tool:
        fn = {"name": tool["name"], "parameters": tool["input_schema"]}
        if tool.get("description"):
            fn["description"] = tool["description"]
    else:
        return None
    lost.extend(k for k in fn if k not in _CHAT_FUNCTION)
    fn = {k: v for k, v in fn.items() if k in _CHAT_FUNCTION and v is not None}
    return {"type": "function", "function": fn}


def _portable(key: str, v: Any, source: str) -> bool:
    if source in _OWN_FORMATS and key in _SHARED:
        return True
    if key == "tool_choice":
        return source in _OWN_FORMATS and isinstance(v, str)
    return key in ("model", "temperature", "top_p") and isinstance(v, (str, int, float))


def portable_request(
    conv: Conversation, target: str, ctx: Context, *, shape: Collection[str] = ()
) -> dict[str, Any]:
    """Request fields of a conversation from another format, in ``target``'s spelling.

    Fields the target has no place for are reported as lossy; ``shape``, the keys of the
    target's own shape (kept by msgviewer's format), are no request fields and left out.
    """
    meta = conv.metadata
    out: dict[str, Any] = {}
    dropped = []
    convert = chat_tool_to_responses if target == "openai-responses" else responses_tool_to_chat
    for key, v in meta.items():
        if v is None or key in shape:
            continue
        if key == "tools" and isinstance(v, list):
            lost: list[str] = []
            tools = [convert(t, lost) for t in v]
            if any(t is None for t in tools):
                dropped.append("tools that are not functions")
            dropped.extend(f"tool field {k}" for k in dict.fromkeys(lost))
            tools = [t for t in tools if t is not None]
            if tools:
                out["tools"] = tools
        elif _portable(key, v, conv.format):
            out[key] = v
        elif key in ("max_completion_tokens", "max_tokens") and target == "openai-responses":
            out["max_output_tokens"] = v
        elif key == "max_output_tokens" and target == "openai-chat":
            out["max_completion_tokens"] = v
        else:
            dropped.append(key)
    if "model" not in out:
        model = next((m.model for m in conv.messages if m.model), None)
        if model:
            out = {"model": model, **out}
    if dropped:
        ctx.lossy(f"request fields {', '.join(map(str, dropped))}", "the conversation")
    return out


class Drops:
    """Losses to report once per kind (the first place and a count), not once per message."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._seen: dict[str, list[Any]] = {}

    def add(self, what: str, where: str) -> None:
        entry = self._seen.get(what)
        if entry is None:
            self._seen[what] = [where, 1]
        else:
            entry[1] += 1

    def flush(self) -> None:
        for what, (where, count) in self._seen.items():
            more = f" (and {count - 1} more)" if count > 1 else ""
            self.ctx.lossy(what, f"{where}{more}")
        self._seen.clear()


# Wire fields that are always strings: a kept field of another type is never written back.
_STR_FIELDS = frozenset({"id", "type", "role", "call_id", "status", "name"})


def fill(target: dict[str, Any], extra: Any, owned: Any = ()) -> dict[str, Any]:
    """``target`` with the kept provider fields of ``extra`` added: never over a field the
    writer set, never an ``owned`` one, never a string field (id, type...) of another type."""
    if not isinstance(extra, dict):
        return target
    for key, v in extra.items():
        if key in target or key in owned or (key in _STR_FIELDS and not isinstance(v, str)):
            continue
        target[key] = v
    return target
