"""The core library: messages, content blocks, usage, and the operations on histories.

Pure data and functions: nothing here does file I/O, imports ``msgviewer.formats`` or imports
textual or rich. (``Document``, an editing session over a file, lives in ``msgviewer.document``;
``msgviewer.core.Document`` still finds it, for code written against the first release.)
"""

from .blocks import (
    BLOCK_TYPES,
    AudioBlock,
    Block,
    CitationBlock,
    ErrorBlock,
    FileBlock,
    ImageBlock,
    ReasoningBlock,
    ServerToolCallBlock,
    ServerToolResultBlock,
    TextBlock,
    ToolCallBlock,
    ToolCallChunkBlock,
    ToolResultBlock,
    UnknownBlock,
    VideoBlock,
    parse_data_uri,
)
from .chunks import merge_chunks
from .diff import Change, HistoryDiff, diff
from .diff_details import Detail
from .errors import (
    FormatError,
    InvalidArgumentError,
    InvalidMessageError,
    MsgviewerError,
    UnsupportedVersionError,
)
from .links import CallRef, ResultRef, ToolLinks, link_tools
from .lint import Fix, Problem, fix_all, lint
from .message import ROLE_ALIASES, ROLES, InvalidToolCall, Message, Role, ToolCall, normalize_role
from .ops import filter_messages, merge_runs
from .pretty import pretty_print
from .serialize import (
    block_from_dict,
    block_to_dict,
    from_dict,
    message_from_dict,
    message_to_dict,
    to_dict,
)
from .tokens import count_tokens_approximately
from .totals import usage_totals
from .trim import trim
from .usage import TurnUsage, Usage, UsageTotals

__all__ = [
    "BLOCK_TYPES",
    "ROLES",
    "ROLE_ALIASES",
    "AudioBlock",
    "Block",
    "CallRef",
    "Change",
    "CitationBlock",
    "Detail",
    "ErrorBlock",
    "FileBlock",
    "Fix",
    "FormatError",
    "HistoryDiff",
    "ImageBlock",
    "InvalidArgumentError",
    "InvalidMessageError",
    "InvalidToolCall",
    "Message",
    "MsgviewerError",
    "Problem",
    "ReasoningBlock",
    "ResultRef",
    "Role",
    "ServerToolCallBlock",
    "ServerToolResultBlock",
    "TextBlock",
    "ToolCall",
    "ToolCallBlock",
    "ToolCallChunkBlock",
    "ToolLinks",
    "ToolResultBlock",
    "TurnUsage",
    "UnknownBlock",
    "UnsupportedVersionError",
    "Usage",
    "UsageTotals",
    "VideoBlock",
    "block_from_dict",
    "block_to_dict",
    "count_tokens_approximately",
    "diff",
    "filter_messages",
    "fix_all",
    "from_dict",
    "link_tools",
    "lint",
    "merge_chunks",
    "merge_runs",
    "message_from_dict",
    "message_to_dict",
    "normalize_role",
    "parse_data_uri",
    "pretty_print",
    "to_dict",
    "trim",
    "usage_totals",
]


_MOVED_UP = {"Document", "DocumentError", "FileChangedError"}


def __getattr__(name: str) -> object:
    # Names that moved to a layer above the core, found there only when asked for
    if name in _MOVED_UP:
        from .. import document

        return getattr(document, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
