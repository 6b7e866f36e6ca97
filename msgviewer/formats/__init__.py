"""Reading and writing the conversation files people have: one module per wire format.

``load``/``loads`` detect the format from content (never the file name); ``dump``/``dumps``
write any writable format, warning with ``LossyConversionWarning`` about whatever the target
cannot carry.
"""

from importlib import import_module

from ..core.errors import FormatError, MsgviewerError
from .base import Context, Conversation, Format, FormatWarning, LossyConversionWarning
from .registry import (
    FORMATS,
    all_formats,
    detect,
    dump,
    dumps,
    get_format,
    iter_load,
    load,
    loads,
    lossy_warnings,
    register,
)

# (module, detection rank): lower ranks are tried first, so the strictest detectors come
# before the loose ones (a bare list of role/content dicts is openai-chat, tried last).
_BUILTIN_FORMATS = [
    ("native", 10),
    ("inspect_log", 20),
    ("claude_code", 30),
    ("codex", 30),
    ("langchain", 40),
    ("pydantic_ai", 40),
    ("anthropic", 50),
    ("gemini", 50),
    ("openai_responses", 50),
    ("sharegpt", 60),
    ("openai_chat", 90),
    ("markdown", 100),
]
for _module, _rank in _BUILTIN_FORMATS:
    register(import_module(f".{_module}", __name__).FORMAT, detect_rank=_rank)

__all__ = [
    "FORMATS",
    "Context",
    "Conversation",
    "Format",
    "FormatError",
    "FormatWarning",
    "LossyConversionWarning",
    "MsgviewerError",
    "all_formats",
    "detect",
    "dump",
    "dumps",
    "get_format",
    "iter_load",
    "load",
    "loads",
    "lossy_warnings",
    "register",
]
