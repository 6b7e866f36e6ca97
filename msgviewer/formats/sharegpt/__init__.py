"""``sharegpt``: ShareGPT / LLaMA-Factory datasets, one conversation per record.

A record is ``{"conversations": [{"from": ..., "value": ...}], "system"?: str, "tools"?: str}``
(turns may also use ``role``/``content`` keys, or sit under ``messages``); a file holds one
record, a JSON array of them, or JSONL. ``function_call`` turns carry the tool calls as JSON
text (``{name, arguments}`` or a list of them); ShareGPT has no call ids, so ids are
synthesized (``ToolCall.extra["synthetic_id"]``) and each ``observation`` answers the next
unanswered call of the ``function_call`` before it. An observation whose value is a JSON array
of strings, one per call of a parallel ``function_call``, gives one result per call.

Reading remembers what writing needs to give the same record back: the file's own role tags
when they are not the usual ones (``Message.metadata["from"]``, or ``["role"]``), other turn
keys (message metadata), other record keys (conversation metadata), and the layout details in
``Conversation.metadata["sharegpt"]``. Writing a conversation from another format keeps turns
strictly alternating (user side, assistant side), as training tools require.

The package: ``detect`` (recognising a file), ``read`` and ``write`` (records), ``calls`` (role
tags and the JSON text of ``function_call`` turns, both ways).
"""

from ..base import Format
from .calls import FORMAT_NAME, SHAPE_KEYS
from .detect import TURN_KEYS, sniff
from .read import read
from .write import write

FORMAT = Format(
    name=FORMAT_NAME,
    description="ShareGPT / LLaMA-Factory dataset: JSON record, array of records, or JSONL",
    sniff=sniff,
    shape_keys=SHAPE_KEYS,
    read=read,
    write=write,
    multi=True,
    cannot_carry=(
        "tool call ids, tool errors, reasoning, images and other media, usage, response "
        "metadata, assistant text beside tool calls"
    ),
)

__all__ = ["FORMAT", "FORMAT_NAME", "TURN_KEYS", "read", "sniff", "write"]
