"""``openai-chat``: OpenAI Chat Completions messages, request bodies, responses, fine-tuning JSONL.

Also reads Hugging Face chat-template messages (arguments as objects, ``reasoning_content`` or
``thinking``) and the legacy ``function`` role and ``function_call``. A file comes back in its
shape (a bare array of messages, a request body, a dataset's array of records). Fields read
into the model come back on writing: reasoning text and refusals in their own fields, an assistant's
``weight`` and other unknown message keys through ``message.metadata``, request fields through
``Conversation.metadata``.

The package: ``detect`` (recognising a file), ``read`` (the careful reader), ``fast`` (the
common messages of a big file, built straight), ``typed`` and ``field_order`` (a file of the
common shapes decoded into typed records, the quick way ``load`` tries first), ``write``.
"""

from ..base import Format
from .detect import NAME, PART_TYPES, ROLES, SHAPE_KEYS, sniff
from .read import read, read_messages
from .write import REASONING_FIELDS, write

FORMAT = Format(
    name=NAME,
    description="OpenAI Chat Completions: messages, request bodies, responses, fine-tuning JSONL",
    sniff=sniff,
    read=read,
    write=write,
    multi=True,
    shape_keys=SHAPE_KEYS,
    cannot_carry=(
        "reasoning (except reasoning_content read from the same format), citations, server "
        "tool calls, tool error flags, message ids, usage outside a completion response"
    ),
)

__all__ = [
    "FORMAT",
    "NAME",
    "PART_TYPES",
    "REASONING_FIELDS",
    "ROLES",
    "read",
    "read_messages",
    "sniff",
    "write",
]
