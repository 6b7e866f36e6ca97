"""``langchain``: ``messages_to_dict`` output, ``lc`` constructor dicts and plain message dicts.

Reads ``[{"type": "human"|"ai"|"system"|"tool"|"AIMessageChunk"..., "data": {...}}]`` (what
``langchain_core.messages.messages_to_dict`` writes), the same dicts without the ``data``
wrapper (``message.model_dump()``), LangChain's own serialisation (``{"lc": 1, "type":
"constructor", "id": [..., "HumanMessage"], "kwargs": {...}}`` from ``dumpd``, LangChain JS and
LangGraph checkpoints), and any of them inside a ``{"messages": [...]}`` object (a LangGraph
state). Writes ``messages_to_dict`` output, which ``messages_from_dict`` accepts, or the ``lc``
form (with the ``id`` path read) when the file had it.

Mapping: ``human``/``ai``/``system``/``tool`` are the four roles (``function`` is a tool
message without a call id, ``chat`` a message with a free ``role``); ``tool_calls``,
``invalid_tool_calls``, ``usage_metadata`` (already in msgviewer's convention: input counts
cache reads and writes, output counts reasoning), ``response_metadata``, a ToolMessage's
``artifact`` and ``status="error"`` map to the fields of the same meaning; ``additional_kwargs``
and any other field stay in ``message.metadata`` under their own names. An Anthropic
``tool_use`` content block (ChatAnthropic's) that repeats a ``tool_calls`` entry is that call,
not content: the call remembers the block's place and is written back there.

The package: ``fields`` (the vocabulary reading and writing share), ``detect`` (recognising a
file), ``read`` and ``read_blocks`` (messages, and their content blocks), ``write`` and
``write_blocks`` (the same, back).
"""

from ..base import Format
from .detect import sniff
from .fields import NAME, SHAPE_KEYS
from .read import read
from .write import usage_out, write

FORMAT = Format(
    name=NAME,
    description=(
        "LangChain messages_to_dict output, lc constructor dicts (dumpd), plain dicts, "
        "{messages: [...]}"
    ),
    sniff=sniff,
    read=read,
    write=write,
    stream=True,
    shape_keys=SHAPE_KEYS,  # (plain dicts, a messages object, lc ids)
    cannot_carry=(
        "request-level fields (model, tools); several artifacts per tool result; "
        "error blocks (kept as non_standard)"
    ),
)

__all__ = ["FORMAT", "NAME", "read", "sniff", "usage_out", "write"]
