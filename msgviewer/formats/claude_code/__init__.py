"""``claude-code``: Claude Code session transcripts (``~/.claude/projects/*/<session>.jsonl``).

The whole file is one conversation. ``user``/``assistant``/``system`` lines are messages, in the
order of the uuid/parentUuid chain of the newest branch (see ``chain``); the lines
of one API response (same ``message.id``) become one message, with usage counted once. Each
message keeps its line's fields (``uuid``, ``parentUuid``, ``isSidechain``, ``isMeta``...) in
``metadata`` (``splitLines`` remembers how a merged response was split), and a tool result's
``toolUseResult`` is its artifact. Other lines (summary, file-history-snapshot,
queue-operation, other branches) are kept verbatim in ``Conversation.metadata["otherLines"]``
with the uuid they followed, so writing the session back gives the same lines. A line that
cannot be read is reported (``FormatWarning``) and kept there too (its text, if not JSON). The
web export ``{"loglines": [...]}`` reads the same way and is written back in its shape.

The package: ``detect`` (recognising a line), ``chain`` (the order of the lines), ``read`` and
``write``; the content of each message is Anthropic's, read and written by ``anthropic``'s
content modules.
"""

from ..base import Format
from .detect import NAME, sniff
from .early import Preparer
from .read import OTHER_LINES, SPLIT_LINES, read
from .write import write

FORMAT = Format(
    name=NAME,
    description="Claude Code session transcript (JSONL)",
    sniff=sniff,
    read=read,
    write=write,
    stream=True,
    raw_lines=True,
    prepare=Preparer,
    cannot_carry=(
        "system prompts (written as system note lines), participant names, request fields "
        "(model, tools...), and whatever Anthropic content cannot carry"
    ),
)

__all__ = ["FORMAT", "NAME", "OTHER_LINES", "SPLIT_LINES", "read", "sniff", "write"]
