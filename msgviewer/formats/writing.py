"""Writing: ``dumps``/``dump`` in any writable format, and ``lossy_warnings``, what a format
would drop. A writer's unexpected failure is reported with the message it failed on."""

from __future__ import annotations

import dataclasses
import os
import warnings
from collections.abc import Sequence
from typing import Any

from ..core.errors import FormatError, MsgviewerError
from ..core.gc_pause import collections_paused
from ..core.message import Message
from ..core.serialize import FORMAT_NAME as NATIVE
from .base import Context, Conversation, Format, LossyConversionWarning
from .registry import all_formats, get_format
from .safe_write import write_file


def _as_conversations(obj: Any, format: str) -> list[Conversation]:
    if isinstance(obj, Conversation):
        return [obj]
    items = list(obj)
    if all(isinstance(x, Message) for x in items):
        return [Conversation(tuple(items), format=format)]
    if all(isinstance(x, Conversation) for x in items):
        return items
    raise TypeError("dumps takes a Conversation, a list of Messages or a list of Conversations")


def dumps(
    obj: Conversation | Sequence[Message] | Sequence[Conversation], *, format: str = "msgviewer"
) -> bytes:
    """The bytes of ``obj`` written in ``format``.

    Whatever the format cannot carry is reported with ``LossyConversionWarning``.
    """
    fmt = get_format(format)
    if fmt.write is None:
        raise FormatError(f"the {fmt.name} format can be read but not written")
    shapes = _shape_keys_but(fmt)
    conversations = [_without(shapes, c) for c in _as_conversations(obj, format)]
    if len(conversations) > 1 and not fmt.multi:
        raise FormatError(
            f"the {fmt.name} format holds one conversation; got {len(conversations)} "
            "(write them to separate files)"
        )
    # The collector paused while the wire values are built: they form no cycles, and at
    # 10^5 parallel calls its passes over the growing values cost as much as the writing
    # (and grew faster than it). They are gone once written: nothing to freeze.
    try:
        with collections_paused():
            return fmt.write(conversations, Context(target=fmt.name))
    except MsgviewerError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError) as exc:
        # Data the writer did not expect (a set in metadata, a value of the wrong type...):
        # say which message, never a bare traceback.
        where = _culprit(fmt, conversations)
        raise FormatError(
            f"cannot write as {fmt.name}: {where}: {type(exc).__name__}: {exc}"
        ) from None


def _shape_keys_but(fmt: Format) -> frozenset[str]:
    """The keys that give other formats' files their shape, which ``fmt`` leaves out: read
    from such a file, or kept for it by msgviewer's own format (which keeps them all, so
    that written back from it, the file has its shape again)."""
    if fmt.name == NATIVE:
        return frozenset()
    return frozenset().union(*(f.shape_keys for f in all_formats() if f is not fmt))


def _without(keys: frozenset[str], conv: Conversation) -> Conversation:
    if not conv.metadata or keys.isdisjoint(conv.metadata):
        return conv
    metadata = {k: v for k, v in conv.metadata.items() if k not in keys}
    return dataclasses.replace(conv, metadata=metadata)


def _write_fails(fmt: Format, conversations: list[Conversation]) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fmt.write(conversations, Context(target=fmt.name))  # type: ignore[misc]
        except MsgviewerError:
            return False
        except Exception:
            return True
    return False


def _culprit(fmt: Format, conversations: list[Conversation]) -> str:
    """Where writing fails: the first message whose prefix of the conversation fails (found
    by bisection), or the conversation's own fields."""
    for c, conv in enumerate(conversations):
        if not _write_fails(fmt, [conv]):
            continue
        prefix = f"conversation {c}, " if len(conversations) > 1 else ""
        messages = conv.messages
        if _write_fails(fmt, [dataclasses.replace(conv, messages=())]):
            return f"{prefix}the conversation's metadata or title"
        lo, hi = 0, len(messages)  # messages[:lo] writes, messages[:hi] fails
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if _write_fails(fmt, [dataclasses.replace(conv, messages=messages[:mid])]):
                hi = mid
            else:
                lo = mid
        return f"{prefix}message {hi - 1}"
    return "the conversations together"


def dump(
    obj: Conversation | Sequence[Message] | Sequence[Conversation],
    path: str | os.PathLike[str],
    *,
    format: str = "msgviewer",
) -> None:
    """Write ``obj`` to ``path`` in ``format`` atomically (temporary file, then rename; see
    ``safe_write`` for symlinks, devices and FIFOs). Raises ``WriteError`` if it cannot."""
    write_file(path, dumps(obj, format=format))


def lossy_warnings(obj: Any, *, format: str) -> list[str]:
    """What writing ``obj`` in ``format`` would drop, without writing it anywhere."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LossyConversionWarning)
        dumps(obj, format=format)
    return [str(w.message) for w in caught if issubclass(w.category, LossyConversionWarning)]
