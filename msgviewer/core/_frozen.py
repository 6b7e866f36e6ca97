"""Immutable value classes that are cheap to build.

A frozen dataclass sets every field through ``object.__setattr__``, which makes building
100,000 messages cost several times as much as parsing the JSON they came from. ``value`` keeps
everything a frozen slots dataclass gives (equality, ``repr``, ``dataclasses.replace``, an
error on assignment) and swaps in a faster ``__init__``.

That ``__init__`` briefly gives the new instance a mutable twin class with the same slots (so
the same memory layout), stores the fields with plain attribute assignment, which the
interpreter does fastest, and gives the instance its own class back. Measured on a 12-field
``Message``: about a third of the cost of setting each slot through its member descriptor,
and a quarter of ``object.__setattr__``. An instance of a subclass (which has no twin) takes
the descriptor path.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
_BUILDERS: dict[type, Callable[..., Any]] = {}

_NO_DEFAULT = dataclasses.MISSING
_set_class = object.__dict__["__class__"].__set__


def _mutable_twin(cls: type) -> type:
    """A class with ``cls``'s slots and base but none of its behaviour (``__setattr__``)."""
    slots = cls.__dict__["__slots__"]
    return type(f"_Mutable{cls.__name__}", cls.__bases__, {"__slots__": slots})


def value(cls: type[T]) -> type[T]:
    """Decorate a class as an immutable slots dataclass with a fast ``__init__``.

    If the class defines ``__post_init__`` it runs after the fields are set; it may replace
    a field with ``set_field``.
    """
    cls = dataclasses.dataclass(frozen=True, slots=True)(cls)
    fields = dataclasses.fields(cls)
    namespace: dict[str, Any] = {
        "_FACTORY": object(),
        "_CLS": cls,
        "_MUTABLE": _mutable_twin(cls),
        "_set_class": _set_class,
    }
    params: list[str] = []
    kw_only: list[str] = []
    fast: list[str] = []
    slow: list[str] = []
    build_params: list[str] = []
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
        build_params.append(param)
        fast.append(f"        self.{f.name} = {arg}")
        slow.append(f"        _set_{f.name}(self, {arg})")
    if kw_only:
        params += ["*", *kw_only]
    lines = [
        f"def __init__(self, {', '.join(params)}):",
        "    if type(self) is _CLS:",
        "        _set_class(self, _MUTABLE)",
        *fast,
        "        self.__class__ = _CLS",
        "    else:",
        *slow,
    ]
    if hasattr(cls, "__post_init__"):
        lines.append("    self.__post_init__()")
    exec("\n".join(lines) + "\n", namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[misc]
    build = [
        f"def build({', '.join(build_params)}):",
        "    self = _MUTABLE()",
        *(line.replace("        ", "    ", 1) for line in fast),
        "    self.__class__ = _CLS",
        "    return self",
    ]
    exec("\n".join(build) + "\n", namespace)
    namespace["build"].__qualname__ = f"build {cls.__qualname__}"
    _BUILDERS[cls] = namespace["build"]
    return cls


def builder(cls: type[T]) -> Callable[..., T]:
    """A constructor of ``cls`` for readers of large files: about three times as quick.

    It takes every field by position or keyword (keyword-only ones too) and skips
    ``__post_init__``, so the caller passes values already in their canonical form (a role from
    ``ROLES``, tuples not lists, ``total_tokens`` filled in...). The result equals what the
    class itself builds from the same arguments.
    """
    return _BUILDERS[cls]


def set_field(obj: object, name: str, new: object) -> None:
    """Set a field of a value while it is being built (for ``__post_init__`` only)."""
    object.__setattr__(obj, name, new)
