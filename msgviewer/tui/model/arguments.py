"""One argument of a tool call (headless): where each line of the arguments' JSON is in them,
and the JSON path of one argument in the file, for ``yp`` and ``yy`` on an argument.

The detail pane shows a call's arguments as two-space JSON (orjson's layout). ``line_steps``
gives, for each of those lines, the keys and indexes from the arguments to the value the line
starts (``("edits", 0, "old")``), or None for a line that only closes a container.

``argument_path`` puts those steps after the call's own path in the file (``node_path``)
and the member that holds the arguments there, which is the format's own:

- Anthropic, Claude Code: ``$.messages[3].content[1].input.command``
- Gemini: ``$.contents[2].parts[0].functionCall.args.path``
- LangChain: ``$[2].data.tool_calls[0].args.city``
- OpenAI chat and Responses, Codex: the arguments are a JSON *string*
  (``function.arguments``, ``arguments``). The path is the string's, then ``|fromjson`` (jq's
  name for reading a string as JSON), then the path inside the parsed string:
  ``$.messages[2].tool_calls[0].function.arguments|fromjson.city``. On the arguments as a
  whole it is the string's path alone.
"""

from __future__ import annotations

import re
from collections import deque
from typing import Any

import orjson

from ...core.json_numbers import loads_exactly
from ...core.message import Message
from ...formats import Conversation
from .jsonpath import PathError, key_step, node_path, written
from .rows import BLOCK, CALL, Row

Step = str | int
Steps = tuple[Step, ...]

FROM_JSON = "|fromjson"
"""Between the path of a string holding JSON and the path inside what it holds."""

CALL_BLOCKS = frozenset({"tool_call", "server_tool_call"})
ARGUMENT_KEYS = ("input", "args", "arguments", "parameters")
"""Names formats give the arguments of a call: preferred where two members are equal."""

_STEP = re.compile(r'\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]')


class _Enough(Exception):
    """The lines asked for are made."""


def call_arguments(message: Message, kind: int, index: int) -> dict[str, Any] | None:
    """The arguments of the call a CALL or BLOCK row stands for; None if it is no call."""
    if kind == CALL and index < len(message.tool_calls):
        return message.tool_calls[index].args
    if kind == BLOCK and index < len(message.blocks):
        block = message.blocks[index]
        if block.type in CALL_BLOCKS:
            return block.args
    return None


def line_steps(
    value: Any, limit: int | None = None, max_depth: int | None = None
) -> list[Steps | None]:
    """For each line of ``value`` as two-space JSON, the steps to the value it starts (None:
    a closing line); at most ``limit`` lines (what the pane shows of a big value), a
    container ``max_depth`` levels down one line (the pane shows it as ``{…}``)."""
    out: list[Steps | None] = []
    # (value, steps) to open, or None for the close of a container; a stack, not recursion:
    # arguments may nest deeper than Python recurses
    todo: list[tuple[Any, Steps] | None] = [(value, ())]
    while todo and (limit is None or len(out) < limit):
        item = todo.pop()
        if item is None:
            out.append(None)
            continue
        v, steps = item
        out.append(steps)
        if max_depth is not None and len(steps) >= max_depth:
            continue
        if isinstance(v, dict) and v:
            children = [(x, (*steps, k if isinstance(k, str) else str(k))) for k, x in v.items()]
        elif isinstance(v, (list, tuple)) and v:
            children = [(x, (*steps, i)) for i, x in enumerate(v)]
        else:
            continue
        todo.append(None)
        todo.extend(reversed(children))
    return out


def steps_text(steps: Steps) -> str:
    """``("a", 0, "b c")`` -> ``.a[0]["b c"]``."""
    return "".join(f"[{s}]" if isinstance(s, int) else key_step(s) for s in steps)


def path_steps(path: str) -> Steps:
    """``$.a[0]["b c"]`` -> ``("a", 0, "b c")`` (the paths ``node_path`` writes)."""
    steps: list[Step] = []
    for name, index, quoted in _STEP.findall(path.removeprefix("$")):
        steps.append(name if name else int(index) if index else orjson.loads(quoted))
    return tuple(steps)


def value_at(value: Any, steps: Steps) -> Any:
    for step in steps:
        value = value[step]
    return value


def argument_value(args: Any, steps: Steps, *, as_json: bool) -> str:
    """What ``yy`` (``as_json``) or ``c`` copies of the argument at ``steps``: its JSON, or a
    string's own text."""
    from .preview import full_json

    value = value_at(args, steps)
    if not as_json and isinstance(value, str):
        return value
    return full_json(value)


def argument_path(convs: list[Conversation], row: Row, steps: Steps) -> str:
    """The JSON path, in the file ``convs`` are written to, of the argument at ``steps`` of
    the call at ``row`` (a CALL row, or a BLOCK row of a call block)."""
    kind, c, m, i = row[0], row[1], row[2], row[3]
    conv = convs[c]
    args = call_arguments(conv.messages[m], kind, i)
    if args is None:
        raise PathError("the row is not a tool call")
    base = node_path(convs, row)
    data = written(convs, c, conv.messages[: m + 1], conv.format)
    try:
        node = value_at(data, path_steps(base))
    except (KeyError, IndexError, TypeError):
        raise PathError(f"the call is not at {base} as written") from None
    found = _holder(node, args)
    if found is None:
        raise PathError(f"the call's arguments are not found under {base}")
    inner, is_string = found
    path = base + steps_text(inner)
    if is_string and steps:
        return path + FROM_JSON + steps_text(steps)
    return path + steps_text(steps)


def _holder(node: Any, args: dict[str, Any]) -> tuple[Steps, bool] | None:
    """Where in ``node`` (the call as written) its arguments are: (steps, written as a JSON
    string); the nearest, a member named like arguments first. Failing that, the nearest
    object holding every argument among its own members (a built-in tool's item, say, spreads
    its arguments beside its ``type`` and ``id``)."""
    queue: deque[tuple[Any, Steps]] = deque([(node, ())])
    found: list[tuple[Steps, bool]] = []
    spread: list[tuple[Steps, bool]] = []
    while queue:
        value, steps = queue.popleft()
        if steps and _same(value, args):
            found.append((steps, isinstance(value, str)))
            continue
        if isinstance(value, dict):
            if args and all(k in value and value[k] == v for k, v in args.items()):
                spread.append((steps, False))
            queue.extend((x, (*steps, k)) for k, x in value.items())
        elif isinstance(value, list):
            queue.extend((x, (*steps, n)) for n, x in enumerate(value))
    named = [f for f in found if f[0][-1] in ARGUMENT_KEYS]
    best = named or found or spread
    return best[0] if best else None


def _same(value: Any, args: dict[str, Any]) -> bool:
    """Whether ``value`` is the arguments, as an object or as a JSON string."""
    if isinstance(value, dict):
        return value == args
    if isinstance(value, str) and value[:1] == "{":
        try:
            return bool(loads_exactly(value) == args)  # (as the reader read them)
        except ValueError:
            return False
    return False
