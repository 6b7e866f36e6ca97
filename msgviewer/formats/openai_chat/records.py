"""The records Chat Completions files of the common shapes decode into (``typed``).

Each admits only the keys and value types of the shapes the quick reader builds (plus ``name``
and the content parts, which the careful reader takes): any other key or type fails the decode
of that message.
"""

from __future__ import annotations

from typing import Any

from msgspec import UNSET, Raw, Struct, UnsetType


class FunctionRecord(Struct, forbid_unknown_fields=True, gc=False):
    name: str
    arguments: str


class CallRecord(Struct, forbid_unknown_fields=True, gc=False):
    id: str
    type: str
    function: FunctionRecord


# Content parts: the careful reader reads them; the tags keep other formats' blocks out. Every
# value is typed (no raw JSON): msgspec then checks each one as orjson would, even one that a
# later key of the same name overwrites (a skipped raw value's UTF-8 and numbers go unchecked).
class _Text(Struct, tag="text", forbid_unknown_fields=True, gc=False):
    text: str


class _Refusal(Struct, tag="refusal", forbid_unknown_fields=True, gc=False):
    refusal: str


class _ImageURL(Struct, forbid_unknown_fields=True, gc=False):
    url: str
    detail: str | UnsetType = UNSET


class _Image(Struct, tag="image_url", forbid_unknown_fields=True, gc=False):
    image_url: _ImageURL


class _AudioData(Struct, forbid_unknown_fields=True, gc=False):
    data: str
    format: str | UnsetType = UNSET


class _Audio(Struct, tag="input_audio", forbid_unknown_fields=True, gc=False):
    input_audio: _AudioData


class _FileData(Struct, forbid_unknown_fields=True, gc=False):
    file_data: str | UnsetType = UNSET
    file_id: str | UnsetType = UNSET
    filename: str | UnsetType = UNSET


class _File(Struct, tag="file", forbid_unknown_fields=True, gc=False):
    file: _FileData


Part = _Text | _Refusal | _Image | _Audio | _File


class MessageRecord(Struct, forbid_unknown_fields=True, gc=False):
    role: str
    content: str | list[Part] | UnsetType | None = UNSET
    name: str | UnsetType | None = UNSET
    tool_calls: list[CallRecord] | UnsetType | None = UNSET
    tool_call_id: str | UnsetType | None = UNSET
    # What the SDK's message objects write besides: an empty list of annotations and no
    # refusal (a refusal is read into the content; annotations are kept in the metadata).
    refusal: str | UnsetType | None = UNSET
    annotations: tuple[()] | UnsetType = UNSET
    # What DeepSeek-style loggers add to an assistant message: its reasoning, read into a
    # block, and its own usage, kept in the metadata (counts only: any other value, as any
    # other key, is the careful reader's).
    reasoning_content: str | UnsetType = UNSET
    usage: dict[str, int | dict[str, int]] | UnsetType = UNSET


Field = Raw | UnsetType


class Request(Struct, forbid_unknown_fields=True, gc=False):
    """A request body: the Chat Completions parameters, each kept as raw JSON."""

    messages: list[MessageRecord]
    model: Field = UNSET
    audio: Field = UNSET
    frequency_penalty: Field = UNSET
    function_call: Field = UNSET
    functions: Field = UNSET
    logit_bias: Field = UNSET
    logprobs: Field = UNSET
    max_completion_tokens: Field = UNSET
    max_tokens: Field = UNSET
    metadata: Field = UNSET
    modalities: Field = UNSET
    n: Field = UNSET
    parallel_tool_calls: Field = UNSET
    prediction: Field = UNSET
    presence_penalty: Field = UNSET
    prompt_cache_key: Field = UNSET
    reasoning_effort: Field = UNSET
    response_format: Field = UNSET
    safety_identifier: Field = UNSET
    seed: Field = UNSET
    service_tier: Field = UNSET
    stop: Field = UNSET
    store: Field = UNSET
    stream: Field = UNSET
    stream_options: Field = UNSET
    temperature: Field = UNSET
    tool_choice: Field = UNSET
    tools: Field = UNSET
    top_logprobs: Field = UNSET
    top_p: Field = UNSET
    user: Field = UNSET
    verbosity: Field = UNSET
    web_search_options: Field = UNSET


class Body:
    """A decoded request body: its messages, and its other fields as the usual way reads them,
    in the file's order."""

    __slots__ = ("messages", "meta")

    def __init__(self, messages: list[MessageRecord], meta: dict[str, Any]) -> None:
        self.messages = messages
        self.meta = meta


class LooseRequest(Request, forbid_unknown_fields=True, gc=False):
    """A request body whose messages are not all of the shapes above: each kept raw."""

    messages: list[Raw]  # type: ignore[assignment]
