"""What a reader may do with bad input, checked the same way by the fuzz tests and
``scripts/fuzz.py``: return conversations, or raise a ``MsgviewerError`` that says where.

Anything else is a bug in the reader: a ``KeyError``, ``TypeError``, ``RecursionError`` or
``UnicodeError`` escaping, an error with no location, or the registry's catch-all for stray
exceptions (``unexpected data (KeyError: ...)``), which means a reader did not check a shape
itself.
"""

from __future__ import annotations

import re
import traceback
import warnings
from pathlib import Path
from typing import Any

import msgviewer
from msgviewer import Conversation, Message, MsgviewerError
from msgviewer.formats import FORMATS

SAMPLES_DIR = Path(msgviewer.__file__).resolve().parent / "samples"

# A JSON path (``$``, ``$.messages[3].role``) or a line number.
_LOCATION = re.compile(r"(^|: )\$|\bline \d+\b")
_CATCH_ALL = "unexpected data ("


def sample_files() -> list[Path]:
    """Every sample file present now (colleagues add them as formats land)."""
    return sorted(p for p in SAMPLES_DIR.iterdir() if p.is_file() and not p.name.startswith("."))


def readable_formats() -> list[str]:
    """Every registered format that can be read."""
    return sorted(name for name, (can_read, _w, _d) in FORMATS.items() if can_read)


def _where(exc: BaseException) -> str:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "msgviewer" in f.filename]
    if not frames:
        return ""
    f = frames[-1]
    return f" at {Path(f.filename).name}:{f.lineno}"


def check_load(data: Any, fmt: str | None, *, save: bool = True) -> str | None:
    """``None`` if ``loads(data, format=fmt)`` behaves, else what went wrong.

    With ``save``, conversations that load must also write as native JSON (what the app does
    on save) without anything but a ``MsgviewerError``.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = msgviewer.loads(data, format=fmt)
    except MsgviewerError as exc:
        return _check_error(exc)
    except Exception as exc:  # RecursionError, KeyError, ...: a bug, reported with its place
        return f"{type(exc).__name__}{_where(exc)}: {str(exc)[:300]}"
    problem = _check_result(result)
    if problem is None and save and result:
        problem = check_save(result)
    return problem


def _check_error(exc: MsgviewerError) -> str | None:
    message = str(exc)
    if _CATCH_ALL in message:
        return f"a reader let a stray exception through (caught by the registry): {message}"
    if not _LOCATION.search(message):
        return f"{type(exc).__name__} without a location: {message}"
    return None


def _check_result(result: Any) -> str | None:
    if not isinstance(result, list):
        return f"loads returned {type(result).__name__}, not a list"
    for conv in result:
        if not isinstance(conv, Conversation):
            return f"loads returned a list holding {type(conv).__name__}"
        if not all(isinstance(m, Message) for m in conv.messages):
            return "a conversation holds something that is not a Message"
    return None


def check_save(result: list[Conversation]) -> str | None:
    """``None`` if the conversations write as native JSON, else what went wrong."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            msgviewer.dumps(result, format="msgviewer")
    except MsgviewerError:
        return None
    except Exception as exc:
        return f"loaded, but saving failed: {type(exc).__name__}{_where(exc)}: {str(exc)[:300]}"
    return None
