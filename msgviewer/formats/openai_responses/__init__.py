"""``openai-responses``: OpenAI Responses API input item lists, request bodies and Response objects.

A request's ``instructions`` becomes a leading system message (marked, so it goes back to
``instructions``); its ``input`` (a string or items) the rest. A Response's ``output`` items
become assistant messages carrying the response's id, model and status; its ``usage`` goes on
the last of them. Every other top-level field stays in ``Conversation.metadata``.

The package: ``detect`` (recognising a file), ``read`` and ``write`` (the document around the
items), ``items`` (the item vocabulary and grouping rule), ``read_items`` and ``write_items``
(items <-> messages), ``quick`` (the common items of a request's input built straight, the
rest handed to ``read_items``). The item modules are shared with ``codex``, whose lines hold
items.
"""

from ..base import Format
from .detect import NAME, sniff
from .read import read
from .write import write

FORMAT = Format(
    name=NAME,
    description="OpenAI Responses API: input item lists, request bodies and Response objects",
    sniff=sniff,
    read=read,
    write=write,
    multi=True,
    cannot_carry=(
        "reasoning from other providers, audio, server tool calls of other providers, tool "
        "error flags, usage outside a Response object"
    ),
)

__all__ = ["FORMAT", "NAME", "read", "sniff", "write"]
