"""The core library: messages, content blocks, usage, and the operations on histories.

Pure data and functions: nothing here does I/O beyond bytes or imports textual or rich.
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
from .errors import (
    FormatError,
    InvalidArgumentError,
    InvalidMessageError,
    MsgviewerError,
    UnsupportedVersionError,
)
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
from .trim import trim
from .usage import TurnUsage, Usage, UsageTotals

__all__ = [
    "BLOCK_TYPES",
    "ROLES",
    "ROLE_ALIASES",
    "AudioBlock",
    "Block",
    "CitationBlock",
    "ErrorBlock",
    "FileBlock",
    "FormatError",
    "ImageBlock",
    "InvalidArgumentError",
    "InvalidMessageError",
    "InvalidToolCall",
    "Message",
    "MsgviewerError",
    "ReasoningBlock",
    "Role",
    "ServerToolCallBlock",
    "ServerToolResultBlock",
    "TextBlock",
    "ToolCall",
    "ToolCallBlock",
    "ToolCallChunkBlock",
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
    "filter_messages",
    "from_dict",
    "merge_runs",
    "message_from_dict",
    "message_to_dict",
    "normalize_role",
    "parse_data_uri",
    "pretty_print",
    "to_dict",
    "trim",
]
