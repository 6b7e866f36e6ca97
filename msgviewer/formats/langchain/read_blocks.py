"""LangChain message content -> msgviewer blocks.

LangChain content is a string or a list whose items are strings or block dicts: the v1
standard blocks (``text``, ``reasoning``, ``image``/``audio``/``video``/``file`` by ``url``,
``base64`` or ``file_id``, ``tool_call``, ``server_tool_call``...), the older v0 data blocks
(``source_type``), and whatever a provider integration put there (Anthropic ``thinking``,
OpenAI ``image_url``...). Standard blocks become typed blocks whose ``extra`` keeps the fields
msgviewer does not name (``id``, ``index``, ``extras``...); provider blocks msgviewer cannot
model are kept verbatim as ``UnknownBlock`` so writing LangChain again gives them back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.blocks import (
    AudioBlock,
    Block,
    CitationBlock,
    FileBlock,
    ImageBlock,
    ReasoningBlock,
    ServerToolCallBlock,
    ServerToolResultBlock,
    TextBlock,
    ToolCallBlock,
    ToolCallChunkBlock,
    UnknownBlock,
    VideoBlock,
)
from ..base import Context
from ..shared.json_checks import json_type, want_dict, want_list, want_str

MEDIA_CLASSES: dict[str, type] = {
    "image": ImageBlock,
    "audio": AudioBlock,
    "video": VideoBlock,
    "file": FileBlock,
}

# Block types LangChain defines that msgviewer keeps verbatim without a warning: they are
# understood, there is just no msgviewer block for them.
_KEPT_VERBATIM = frozenset(
    {"invalid_tool_call", "server_tool_call_chunk", "text-plain", "non_standard"}
)

# Where a ReasoningBlock's provider data lives in a v1 reasoning block's ``extras``.
SIGNATURE = "signature"
ENCRYPTED = "encrypted_content"
REDACTED = "redacted_content"

NATIVE = "langchain_type"
"""``extra`` key naming the provider-native block form a typed block was read from
(``image_url``, ``thinking``...) so writing LangChain again gives that form back."""


class BlockReader:
    """Reads content for one conversation; warns once per unknown block kind."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._warned: set[str] = set()

    def content(self, value: Any, path: str) -> str | tuple[Block, ...]:
        """A message's content: a string, or a list of strings and block dicts."""
        if isinstance(value, str):
            return value
        if value is None:
            return ""
        items = want_list(value, "content", self.ctx, path)
        block = self.block
        return tuple([block(item, f"{path}[{i}]") for i, item in enumerate(items)])

    def block(self, item: Any, path: str) -> Block:
        """One content item as a block."""
        if isinstance(item, str):
            # LangChain accepts bare strings in content lists; they are text.
            return TextBlock(item)
        item = want_dict(item, "a content block", self.ctx, path)
        kind = item.get("type")
        if not isinstance(kind, str):
            raise self.ctx.error(
                f'a content block needs a string "type", not {json_type(kind)}', f"{path}.type"
            )
        reader = _READERS.get(kind)
        if reader is not None:
            block = reader(self, item, path)
            if block is not None:
                return block
        elif kind not in _KEPT_VERBATIM and kind not in self._warned:
            self._warned.add(kind)
            self.ctx.warn(f"content block type {kind!r} is not understood; kept as is", path)
        return UnknownBlock(kind=kind, data=item)

    # -- per type -------------------------------------------------------------------------

    def _text(self, item: dict[str, Any], path: str) -> Block:
        text = item.get("text")
        if type(text) is not str:
            want_str(text, "text", self.ctx, f"{path}.text")
        extra = _rest(item, ("type", "text", "annotations"))
        citations: tuple[CitationBlock, ...] = ()
        if "annotations" in item:
            notes = want_list(item["annotations"], "annotations", self.ctx, f"{path}.annotations")
            citations = tuple(
                self._annotation(a, f"{path}.annotations[{i}]") for i, a in enumerate(notes)
            )
        return TextBlock(text, citations, extra=extra)

    def _annotation(self, item: Any, path: str) -> CitationBlock:
        item = want_dict(item, "an annotation", self.ctx, path)
        if item.get("type") == "citation":
            return self._citation(item, path)
        # Other annotations (non_standard_annotation...) ride along verbatim.
        return CitationBlock(extra={"annotation": item})

    def _citation(self, item: dict[str, Any], path: str) -> CitationBlock:
        fields: dict[str, Any] = {}
        for ours, theirs in (("url", "url"), ("title", "title"), ("cited_text", "cited_text")):
            if theirs in item:
                fields[ours] = want_str(
                    item[theirs], theirs, self.ctx, f"{path}.{theirs}", optional=True
                )
        for ours, theirs in (("start", "start_index"), ("end", "end_index")):
            value = item.get(theirs)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                what = f"{theirs} must be an integer, not {json_type(value)}"
                raise self.ctx.error(what, f"{path}.{theirs}")
            if theirs in item:
                fields[ours] = value
        extra = _rest(item, ("type", "url", "title", "cited_text", "start_index", "end_index"))
        return CitationBlock(**fields, extra=extra)

    def _reasoning(self, item: dict[str, Any], path: str) -> Block:
        text = item.get("reasoning", "")
        if type(text) is not str:
            want_str(text, "reasoning", self.ctx, f"{path}.reasoning")
        extra = _rest(item, ("type", "reasoning", "extras"))
        signature = data = None
        redacted = False
        if "extras" in item:
            extras = item["extras"]
            if type(extras) is not dict:
                want_dict(extras, "extras", self.ctx, f"{path}.extras")
            extras = dict(extras)
            signature = extras.pop(SIGNATURE, None)
            if isinstance(extras.get(REDACTED), str):
                data, redacted = extras.pop(REDACTED), True
            elif isinstance(extras.get(ENCRYPTED), str):
                data = extras.pop(ENCRYPTED)
            if extras:
                extra["extras"] = extras
        return ReasoningBlock(text, signature, redacted, data, extra=extra)

    def _thinking(self, item: dict[str, Any], path: str) -> Block | None:
        # Anthropic's own block, as ChatAnthropic leaves it in AIMessage content.
        text = item.get("thinking")
        signature = item.get("signature")
        if not isinstance(text, str) or not isinstance(signature, (str, type(None))):
            return None
        extra = {NATIVE: "thinking", **_rest(item, ("type", "thinking", "signature"))}
        return ReasoningBlock(text, signature, extra=extra)

    def _redacted_thinking(self, item: dict[str, Any], path: str) -> Block | None:
        data = item.get("data")
        if not isinstance(data, str):
            return None
        extra = {NATIVE: "redacted_thinking", **_rest(item, ("type", "data"))}
        return ReasoningBlock(redacted=True, data=data, extra=extra)

    def _media(self, item: dict[str, Any], path: str) -> Block | None:
        cls = MEDIA_CLASSES[item["type"]]
        if "source_type" in item:
            return self._media_v0(cls, item, path)
        fields: dict[str, Any] = {}
        for ours, theirs in (
            ("url", "url"),
            ("data", "base64"),
            ("file_id", "file_id"),
            ("mime_type", "mime_type"),
        ):
            if theirs in item:
                fields[ours] = want_str(
                    item[theirs], theirs, self.ctx, f"{path}.{theirs}", optional=True
                )
        extra = _rest(item, ("type", "url", "base64", "file_id", "mime_type", "extras"))
        if "extras" in item:
            extras = dict(want_dict(item["extras"], "extras", self.ctx, f"{path}.extras"))
            if isinstance(extras.get("filename"), str):
                fields["filename"] = extras.pop("filename")
            if extras:
                extra["extras"] = extras
        return cls(**fields, extra=extra)

    def _media_v0(self, cls: type, item: dict[str, Any], path: str) -> Block | None:
        source = item.get("source_type")
        key = {"url": "url", "base64": "data", "id": "id"}.get(source)  # type: ignore[arg-type]
        if key is None:
            return None  # "text" sources and anything newer: kept verbatim
        value = want_str(item.get(key), key, self.ctx, f"{path}.{key}")
        fields = (
            {"url": value}
            if key == "url"
            else {"data": value}
            if key == "data"
            else {"file_id": value}
        )
        mime = want_str(
            item.get("mime_type"), "mime_type", self.ctx, f"{path}.mime_type", optional=True
        )
        extra = {"source_type": source, **_rest(item, ("type", "source_type", key, "mime_type"))}
        return cls(**fields, mime_type=mime, extra=extra)

    def _image_url(self, item: dict[str, Any], path: str) -> Block | None:
        # OpenAI's chat part, common in LangChain human messages.
        inner = item.get("image_url")
        detail = None
        if isinstance(inner, dict):
            url, detail = inner.get("url"), inner.get("detail")
            if set(inner) - {"url", "detail"}:
                return None
        else:
            url = inner
        if not isinstance(url, str) or set(item) != {"type", "image_url"}:
            return None
        extra: dict[str, Any] = {
            NATIVE: "image_url" if isinstance(inner, dict) else "image_url_str"
        }
        if detail is not None:
            extra["detail"] = detail
        return ImageBlock(url, extra=extra)

    def _tool_call(self, item: dict[str, Any], path: str) -> Block:
        args = want_dict(item.get("args"), "tool call args", self.ctx, f"{path}.args")
        name = want_str(item.get("name"), "tool call name", self.ctx, f"{path}.name")
        call_id = want_str(item.get("id"), "tool call id", self.ctx, f"{path}.id", optional=True)
        return ToolCallBlock(call_id, name, args, extra=_rest(item, ("type", "id", "name", "args")))

    def _tool_use(self, item: dict[str, Any], path: str) -> Block:
        """An Anthropic ``tool_use`` block (as ChatAnthropic leaves it in the content)."""
        args = want_dict(item.get("input", {}), "tool_use input", self.ctx, f"{path}.input")
        name = want_str(item.get("name"), "tool_use name", self.ctx, f"{path}.name")
        call_id = want_str(item.get("id"), "tool_use id", self.ctx, f"{path}.id", optional=True)
        extra = {NATIVE: "tool_use", **_rest(item, ("type", "id", "name", "input"))}
        return ToolCallBlock(call_id, name, args, extra=extra)

    def _tool_call_chunk(self, item: dict[str, Any], path: str) -> Block:
        fields: dict[str, Any] = {}
        for key in ("id", "name", "args"):
            fields[key] = want_str(item.get(key), key, self.ctx, f"{path}.{key}", optional=True)
        extra = _rest(item, ("type", "id", "name", "args", "index"))
        index = item.get("index")
        if isinstance(index, int) and not isinstance(index, bool):
            fields["index"] = index
        elif "index" in item:
            extra["index"] = index  # LangChain also allows string indexes
        return ToolCallChunkBlock(**fields, extra=extra)

    def _server_tool_call(self, item: dict[str, Any], path: str) -> Block:
        args = want_dict(item.get("args", {}), "server tool call args", self.ctx, f"{path}.args")
        name = want_str(item.get("name"), "server tool call name", self.ctx, f"{path}.name")
        call_id = want_str(
            item.get("id"), "server tool call id", self.ctx, f"{path}.id", optional=True
        )
        extra = _rest(item, ("type", "id", "name", "args"))
        return ServerToolCallBlock(call_id, name, args, extra=extra)

    def _server_tool_result(self, item: dict[str, Any], path: str) -> Block:
        call_id = want_str(
            item.get("tool_call_id"),
            "tool_call_id",
            self.ctx,
            f"{path}.tool_call_id",
            optional=True,
        )
        status = want_str(item.get("status"), "status", self.ctx, f"{path}.status", optional=True)
        extra = _rest(item, ("type", "tool_call_id", "status", "output"))
        return ServerToolResultBlock(call_id, item.get("output"), status, extra=extra)

    def _standalone_citation(self, item: dict[str, Any], path: str) -> Block:
        return self._citation(item, path)


_READERS: dict[str, Callable[[BlockReader, dict[str, Any], str], Block | None]] = {
    "text": BlockReader._text,
    "reasoning": BlockReader._reasoning,
    "thinking": BlockReader._thinking,
    "redacted_thinking": BlockReader._redacted_thinking,
    "image": BlockReader._media,
    "audio": BlockReader._media,
    "video": BlockReader._media,
    "file": BlockReader._media,
    "image_url": BlockReader._image_url,
    "tool_call": BlockReader._tool_call,
    "tool_call_chunk": BlockReader._tool_call_chunk,
    "tool_use": BlockReader._tool_use,
    "server_tool_call": BlockReader._server_tool_call,
    "server_tool_result": BlockReader._server_tool_result,
    "citation": BlockReader._standalone_citation,
}


def _rest(item: dict[str, Any], known: tuple[str, ...]) -> dict[str, Any]:
    """The fields of ``item`` not in ``known``, in their order."""
    known_set = _KNOWN_SETS.get(known)
    if known_set is None:
        known_set = _KNOWN_SETS[known] = frozenset(known)
    if item.keys() <= known_set:  # the usual block: nothing else
        return {}
    return {k: v for k, v in item.items() if k not in known_set}


_KNOWN_SETS: dict[tuple[str, ...], frozenset[str]] = {}
