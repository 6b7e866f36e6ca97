"""Immutable value classes that are cheap to build.

A frozen dataclass sets every field through ``object.__setattr__``, which makes building
100,000 messages cost half as much again as parsing the JSON they came from. ``value`` keeps
everything a frozen slots dataclass gives (equality, ``repr``, ``dataclasses.replace``, an
error on assignment) and swaps in an ``__init__`` that writes each slot through its member
descriptor directly.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")

_NO_DEFAULT = dataclasses.MISSING


def value(cls: type[T]) -> type[T]:
    """Decorate a class as an immutable slots dataclass with a fast ``__init__``.

    If the class defines ``__post_init__`` it runs after the fields are set; it may replace
    a field with ``set_field``.
    """
    cls = dataclasses.dataclass(frozen=True, slots=True)(cls)
    fields = dataclasses.fields(cls)
    namespace: dict[str, Any] = {"_FACTORY": object()}
    params: list[str] = []
    kw_only: list[str] = []
    body: list[str] = []
    for f in fields:
        namespace[f"_set_{f.name}"] = getattr(cls, f.name).__set__
        if f.default is not _NO_DEFAULT:
            namespace[f"_default_{f.name}"] = f.default
            param = f"{f.name}=_default_{f.name}"
            arg = f.name
        elif f.default_factory is not _NO_DEFAULT:
            namespace[f"_factory_{f.name}"] = f.default_factory
            param = f"{f.name}=_FACTORY"
            arg = f"(_factory_{f.name}() if {f.name} is _FACTORY else {f.name})"
        else:
            param = f.name
            arg = f.name
        (kw_only if f.kw_only else params).append(param)
        body.append(f"    _set_{f.name}(self, {arg})")
    if kw_only:
        params += ["*", *kw_only]
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body) + "\n"
    exec(source, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[misc]
    return cls


def set_field(obj: object, name: str, new: object) -> None:
    """Set a field of a value while it is being built (for ``__post_init__`` only)."""
    object.__setattr__(obj, name, new)
