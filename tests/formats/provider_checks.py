"""Checks shared by the anthropic, claude-code and gemini format tests: SDK validation of
exports, and reading samples."""

from __future__ import annotations

import itertools
import warnings
from pathlib import Path
from typing import Any

import orjson
import pydantic
from anthropic import types as anthropic_types
from google.genai import types as genai_types

from msgviewer.core.links import link_tools
from msgviewer.formats import Conversation, dumps, loads

from .format_checks import SAMPLES

_MESSAGE = pydantic.TypeAdapter(anthropic_types.MessageParam)
_SYSTEM = pydantic.TypeAdapter(str | list[anthropic_types.TextBlockParam])
_TOOL = pydantic.TypeAdapter(anthropic_types.ToolUnionParam)


def sample(name: str) -> Path:
    return SAMPLES / name


def load_sample(name: str) -> Conversation:
    [conv] = loads(sample(name).read_bytes())
    return conv


def quiet_dumps(conv: Any, fmt: str) -> bytes:
    """Written without failing on the lossy warnings a conversion may give."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return dumps(conv, format=fmt)


def check_anthropic_request(body: dict[str, Any]) -> None:
    """Every message, the system prompt and the tools validate against the SDK's types."""
    assert body["messages"], "a request needs messages"
    roles = [m["role"] for m in body["messages"]]
    assert all(a != b for a, b in itertools.pairwise(roles)), roles
    for m in body["messages"]:
        _MESSAGE.validate_python(m)
        if m["role"] == "user" and isinstance(m["content"], list):
            kinds = [b["type"] for b in m["content"]]
            if "tool_result" in kinds:  # results come first in their turn
                first_other = next(i for i, k in enumerate([*kinds, "end"]) if k != "tool_result")
                assert "tool_result" not in kinds[first_other:], kinds
    if "system" in body:
        _SYSTEM.validate_python(body["system"])
    for tool in body.get("tools", []):
        _TOOL.validate_python(tool)


def check_anthropic_export(data: bytes) -> dict[str, Any]:
    body = orjson.loads(data)
    if body.get("type") == "message":
        anthropic_types.Message.model_validate(body)
    else:
        check_anthropic_request(body)
    return body


def check_gemini_export(data: bytes) -> Any:
    """Each content validates as ``types.Content``, the rest as ``GenerateContentConfig``."""
    body = orjson.loads(data)
    if isinstance(body, list):
        contents = body
    elif "candidates" in body or "candidates" in body:
        genai_types.GenerateContentResponse.model_validate(body)
        return body
    else:
        contents = body["contents"]
        config = dict(body.get("generationConfig") or body.get("generation_config") or {})
        for key in ("systemInstruction", "system_instruction"):
            if key in body:
                config["system_instruction"] = body[key]
        for key in ("tools", "toolConfig", "tool_config", "safetySettings", "cachedContent"):
            if key in body:
                config[key] = body[key]
        genai_types.GenerateContentConfig.model_validate(config)
    for c in contents:
        genai_types.Content.model_validate(c)
        assert c.get("role") in ("user", "model", "function", None)
    return body


def client_pairs(messages: Any, *, errors: bool = True) -> list[tuple[Any, ...]]:
    """(tool name, result text[, is_error]) of every answered client tool call, in call order.

    ``errors=False`` leaves the error flag out, for targets that have no place for it.
    """
    messages = list(messages)
    out = []
    for call, result in link_tools(messages).pairs:
        if call.server:
            continue
        m = messages[result.message_index]
        if result.block_index is None:
            text = m.text
        else:
            content = m.blocks[result.block_index].content
            text = (
                content
                if isinstance(content, str)
                else "".join(getattr(b, "text", "") for b in content)
            )
        out.append((call.name, text.strip(), result.is_error)[: 3 if errors else 2])
    return out
