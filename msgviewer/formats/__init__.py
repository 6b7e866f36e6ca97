"""Reading and writing the conversation files people have: one subpackage per wire format.

``load``/``loads`` detect the format from content (never the file name); ``dump``/``dumps``
write any writable format, warning with ``LossyConversionWarning`` about whatever the target
cannot carry.
"""

from collections.abc import Callable
from importlib import import_module

from ..core.errors import FormatError, MsgviewerError
from .base import Context, Conversation, Format, FormatWarning, LossyConversionWarning
from .loading import iter_load, load, loads
from .registry import FORMATS, all_formats, detect, get_format, register, register_lazy
from .writing import dump, dumps, lossy_warnings

# (name, module, detection rank): lower ranks are tried first, so the strictest detectors come
# before the loose ones (a bare list of role/content dicts is openai-chat, tried last). Each
# package is imported when its format is first needed; ``shared`` holds what several share.
_BUILTIN_FORMATS = [
    ("msgviewer", "native", 10),
    ("inspect", "inspect_log", 20),
    ("claude-code", "claude_code", 30),
    ("codex", "codex", 30),
    ("gemini-cli", "gemini_cli", 30),
    ("langchain", "langchain", 40),
    ("pydantic-ai", "pydantic_ai", 40),
    ("anthropic", "anthropic", 50),
    ("gemini", "gemini", 50),
    ("openai-responses", "openai_responses", 50),
    ("sharegpt", "sharegpt", 60),
    ("openai-chat", "openai_chat", 90),
    ("markdown", "markdown", 100),
    ("html", "html", 100),
]


def _builtin(module: str) -> Callable[[], Format]:
    return lambda: import_module(f".{module}", __name__).FORMAT


for _name, _module, _rank in _BUILTIN_FORMATS:
    register_lazy(_name, _builtin(_module), detect_rank=_rank)

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
    "register_lazy",
]
