"""Small checks on parsed JSON used by the readers (LangChain, pydantic-ai, Inspect, OpenAI).

Each raises a ``FormatError`` through the reading ``Context`` naming the JSON path, so a bad
file says where it is bad instead of letting a ``KeyError`` or ``TypeError`` escape.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import number_text
from ..base import Context
from ..io import json_bytes

JSON_NAMES: dict[type, str] = {
    dict: "an object",
    list: "an array",
    str: "a string",
    bool: "a boolean",
    int: "a number",
    float: "a number",
    type(None): "null",
}


def json_type(value: Any) -> str:
    """How a JSON value's type reads in an error message ("an object", "null"...); a
    float is quoted ("1.5"): "must be an integer, not a number" would say nothing."""
    if type(value) in (int, float):
        return number_text(value, "a number")
    return JSON_NAMES.get(type(value), type(value).__name__)


def expect(ctx: Context, value: Any, types: type | tuple[type, ...], what: str, path: str) -> Any:
    """``value`` if it has one of ``types``, else a ``FormatError`` at ``path``.

    A boolean is not taken for an ``int`` unless ``bool`` is one of ``types``.
    """
    types = types if isinstance(types, tuple) else (types,)
    if isinstance(value, types) and not (isinstance(value, bool) and bool not in types):
        return value
    names = " or ".join(JSON_NAMES.get(t, t.__name__) for t in types)
    raise ctx.error(f"{what} must be {names}, not {json_type(value)}", path)


def want_dict(value: Any, what: str, ctx: Context, path: str) -> dict[str, Any]:
    """``value`` if it is an object, else a ``FormatError`` at ``path``."""
    if not isinstance(value, dict):
        raise ctx.error(f"{what} must be an object, not {json_type(value)}", path)
    return value


def want_list(value: Any, what: str, ctx: Context, path: str) -> list[Any]:
    """``value`` if it is an array, else a ``FormatError`` at ``path``."""
    if not isinstance(value, list):
        raise ctx.error(f"{what} must be an array, not {json_type(value)}", path)
    return value


def want_str(value: Any, what: str, ctx: Context, path: str, *, optional: bool = False) -> Any:
    """``value`` if it is a string (or null when ``optional``), else a ``FormatError``."""
    if isinstance(value, str) or (optional and value is None):
        return value
    expected = "a string or null" if optional else "a string"
    raise ctx.error(f"{what} must be {expected}, not {json_type(value)}", path)


def want_int(value: Any, what: str, ctx: Context, path: str) -> int:
    """``value`` if it is an integer (not a boolean), else a ``FormatError``."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ctx.error(f"{what} must be an integer, not {json_type(value)}", path)


def record_context(ctx: Context, index: int, prefix: str = "$") -> tuple[Context, str]:
    """The context and JSON path of item ``index`` of the top-level list.

    When the items came from a JSONL file (``ctx.lines`` is set) each is its own document:
    its path is ``$`` and errors name its line instead.
    """
    if ctx.lines is not None and index < len(ctx.lines):
        return Context(file=ctx.file, line=ctx.lines[index], target=ctx.target), "$"
    return ctx, f"{prefix}[{index}]"


def compact_json(value: Any) -> str:
    """``value`` as compact JSON text (the form pydantic and LangChain send to models), an
    integer past 64 bits too."""
    return json_bytes(value).decode()
