"""The message value: a role, content, and the metadata around it."""

from __future__ import annotations

from dataclasses import field
from typing import Any, Literal

from ._frozen import set_field, value
from .blocks import Block, TextBlock
from .errors import InvalidMessageError
from .usage import Usage

Role = Literal["system", "user", "assistant", "tool"]
ROLES: frozenset[str] = frozenset({"system", "user", "assistant", "tool"})
# role -> the code's own string for it: readers give every message that one object, not the
# copy parsed from the file (less memory, and comparisons that stop at identity)
_ROLE_OBJECTS = {role: role for role in ROLES}

ROLE_ALIASES: dict[str, str] = {
    "human": "user",
    "ai": "assistant",
    "model": "assistant",
    "gpt": "assistant",
    "developer": "system",
    "function": "tool",
}
"""Other names for the four roles, as providers and libraries spell them."""

# Aliases that mean something of their own to a provider: the original is kept in metadata.
_KEEP_ORIGINAL_ROLE = frozenset({"developer"})


def normalize_role(role: str) -> str:
    """The canonical role for ``role`` or one of its aliases (case-insensitive)."""
    if isinstance(role, str):
        if role in ROLES:
            return _ROLE_OBJECTS[role]
        lowered = role.lower()
        if lowered in ROLES:
            return _ROLE_OBJECTS[lowered]
        if lowered in ROLE_ALIASES:
            return ROLE_ALIASES[lowered]
    raise InvalidMessageError(
        f"unknown role {role!r}: expected one of system, user, assistant, tool "
        f"(or {', '.join(sorted(ROLE_ALIASES))})"
    )


@value
class ToolCall:
    """A call the model asked the client to make; ``args`` is the parsed arguments object."""

    id: str | None
    name: str
    args: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict, kw_only=True)


@value
class InvalidToolCall:
    """A tool call whose arguments did not parse; ``args`` is the raw text, kept verbatim."""

    id: str | None
    name: str | None
    args: str | None
    error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, kw_only=True)


@value
class Message:
    """One message of a conversation. Immutable: edit with ``dataclasses.replace``."""

    role: Role
    content: str | tuple[Block, ...]
    """A string, or a tuple of content blocks (a list given here becomes a tuple)."""
    id: str | None = field(default=None, kw_only=True)
    name: str | None = field(default=None, kw_only=True)
    """Name of the participant (user/assistant) or of the tool (tool messages)."""
    tool_call_id: str | None = field(default=None, kw_only=True)
    """On a tool message: the id of the call it answers."""
    is_error: bool = field(default=False, kw_only=True)
    """On a tool message: the tool failed."""
    tool_calls: tuple[ToolCall, ...] = field(default=(), kw_only=True)
    invalid_tool_calls: tuple[InvalidToolCall, ...] = field(default=(), kw_only=True)
    usage: Usage | None = field(default=None, kw_only=True)
    response_metadata: dict[str, Any] = field(default_factory=dict, kw_only=True)
    """Provider response fields: model, stop reason, response id..."""
    artifacts: tuple[Any, ...] = field(default=(), kw_only=True)
    """Data a tool returned beside its content, not sent to the model."""
    metadata: dict[str, Any] = field(default_factory=dict, kw_only=True)
    """Everything else the source format had for this message."""

    def __post_init__(self) -> None:
        # The common case (canonical role, str/tuple content) costs three checks.
        try:
            role = _ROLE_OBJECTS.get(self.role)
        except TypeError:  # an unhashable role: normalize_role says what is wrong
            role = None
        if role is not self.role and role is not None:
            set_field(self, "role", role)  # the one object for this role (``_ROLE_OBJECTS``)
        elif role is None:
            original = self.role
            role = normalize_role(original)
            set_field(self, "role", role)
            if isinstance(original, str) and original.lower() in _KEEP_ORIGINAL_ROLE:
                set_field(self, "metadata", {"role": original, **self.metadata})
        content = self.content
        if type(content) is not str and type(content) is not tuple:
            if content is None:
                set_field(self, "content", "")
            elif isinstance(content, (list, tuple)):
                set_field(self, "content", tuple(content))
            else:
                raise InvalidMessageError(
                    f"message content must be a string or a list of blocks, "
                    f"not {type(content).__name__}"
                )
        if type(self.tool_calls) is not tuple:
            set_field(self, "tool_calls", tuple(self.tool_calls))
        if type(self.invalid_tool_calls) is not tuple:
            set_field(self, "invalid_tool_calls", tuple(self.invalid_tool_calls))
        if type(self.artifacts) is not tuple:
            set_field(self, "artifacts", tuple(self.artifacts))

    # -- constructors -------------------------------------------------------------------

    @classmethod
    def system(cls, content: str | tuple[Block, ...] | list[Block], **kw: Any) -> Message:
        """A system message."""
        return cls("system", content, **kw)

    @classmethod
    def user(cls, content: str | tuple[Block, ...] | list[Block], **kw: Any) -> Message:
        """A user message."""
        return cls("user", content, **kw)

    @classmethod
    def assistant(cls, content: str | tuple[Block, ...] | list[Block] = "", **kw: Any) -> Message:
        """An assistant message (content may be empty when it only calls tools)."""
        return cls("assistant", content, **kw)

    @classmethod
    def tool(
        cls,
        content: str | tuple[Block, ...] | list[Block],
        *,
        tool_call_id: str | None,
        name: str | None = None,
        **kw: Any,
    ) -> Message:
        """The result of a tool call, answering ``tool_call_id``."""
        return cls("tool", content, tool_call_id=tool_call_id, name=name, **kw)

    # -- views --------------------------------------------------------------------------

    @property
    def blocks(self) -> tuple[Block, ...]:
        """The content as blocks: a non-empty string becomes one ``TextBlock``."""
        content = self.content
        if type(content) is str:
            return (TextBlock(content),) if content else ()
        return content  # type: ignore[return-value]

    @property
    def text(self) -> str:
        """The text of string content, or of the text blocks, joined."""
        content = self.content
        if type(content) is str:
            return content
        return "".join(b.text for b in content if type(b) is TextBlock)  # type: ignore[union-attr]

    @property
    def model(self) -> str | None:
        """The model that wrote this message, from ``response_metadata`` when present."""
        meta = self.response_metadata
        name = meta.get("model_name") or meta.get("model")
        return name if isinstance(name, str) else None
