"""msgviewer: look inside LLM conversations.

The public API: the message model and history operations (``msgviewer.core``), the file
formats (``msgviewer.formats``), editing sessions over files (``msgviewer.document``) and
``view(objects)``, the app on a program's own objects. Importing this package never imports
textual or rich.
"""

from .core import *  # noqa: F403
from .core import __all__ as _core_all
from .document import Document, DocumentError, FileChangedError
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
    "Document",
    "DocumentError",
    "FileChangedError",
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
# (``view`` is left out of ``__all__``: a star import would import textual with it)


def __getattr__(name: str) -> object:
    # ``view`` opens the app: textual is imported when it is first asked for, not before
    if name == "view":
        from .tui.live import view

        return view
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
