"""msgviewer: look inside LLM conversations.

The public API: the message model and history operations (``msgviewer.core``) and the file
formats (``msgviewer.formats``). Importing this package never imports textual or rich.
"""

from .core import *  # noqa: F403
from .core import __all__ as _core_all
from .formats import (
    FORMATS,
    Conversation,
    FormatWarning,
    LossyConversionWarning,
    detect,
    dump,
    dumps,
    iter_load,
    load,
    loads,
)

__version__ = "0.1.0"

__all__ = [
    *_core_all,
    "FORMATS",
    "Conversation",
    "FormatWarning",
    "LossyConversionWarning",
    "detect",
    "dump",
    "dumps",
    "iter_load",
    "load",
    "loads",
]
