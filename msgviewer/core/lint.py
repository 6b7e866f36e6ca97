"""Problems in a history that a provider would reject or that look like mistakes, with fixes.

``lint(messages, provider=None)`` returns ``Problem``s in history order. Every problem carries a
``Fix`` whose ``apply(messages) -> messages`` is pure; a Document applies it with
``doc.edit(problem.fix.apply, problem.fix.label)``. Fixes find their target again by call id or
by message identity and re-check it, so fixes from one lint run can be applied one after the
other, in any order, and a fix whose problem is already gone changes nothing.
``fix_all(messages, problems)`` applies many fixes in one pass per kind; a fix can reveal another
problem (merging two turns, say), so lint again afterwards — lint is cheap and re-runnable.

Rules for every history (provider None):
  missing-call-id (error), duplicate-call-id (error), unanswered-call (error; a warning when
  nothing follows the call, i.e. the history ends waiting for the result), orphan-result (error),
  result-before-call (error), result-not-next (warning: a result after the next user or
  assistant turn), invalid-arguments (warning), empty-message (warning).
provider="openai": every tool call answered by tool messages before the next user/assistant
  turn (result-not-next is an error); invalid-arguments stays a warning (arguments are a string).
provider="anthropic": tool results in the user turn right after the call (result-not-next) and
  before any other content of that turn (result-not-first); first message a user's
  (role-alternation, error); consecutive user or assistant messages (role-alternation, warning:
  the API merges consecutive turns); system only at the start (system-not-first, error: the
  wire format has only a top-level system prompt); empty messages (error, except a final
  assistant message); invalid-arguments (error: tool input must be an object).
provider="gemini": function responses in the user turn right after the call (result-not-next);
  a turn with function calls right after a user turn or a function-response turn
  (role-alternation, error); other consecutive same-role turns and a model-first history
  (role-alternation, warning); system-not-first (error: only systemInstruction exists);
  invalid-arguments (error: args must be an object).
Tool messages count as the user's turn for alternation (writers turn them into user turns).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any, Literal

from ._frozen import value
from .blocks import ServerToolCallBlock, TextBlock, ToolCallBlock, ToolResultBlock
from .fixes import FIXERS
from .gc_pause import collections_paused
from .links import UNANSWERED, ToolLinks, link_tools
from .message import Message
from .tool_refs import _CallRow

Severity = Literal["error", "warning"]
PROVIDERS = (None, "openai", "anthropic", "gemini")


@value
class Fix:
    """A machine-applicable repair: ``apply(messages) -> messages`` is pure."""

    label: str
    """What the fix does, for an undo history ("Drop orphan result of call_7")."""
    apply: Callable[[list[Message]], list[Message]]
    kind: str = ""
    """Name of the batch fixer (``fixes.FIXERS``) behind it: fixes of one kind combine."""
    target: Any = None
    """What the fixer looks for: a call id, or the Message itself."""


@value
class Problem:
    """One problem: where it is (message ``index``, content ``block`` or None) and its fix."""

    code: str
    """Stable kebab-case name: "unanswered-call", "orphan-result"..."""
    severity: Severity
    """"error": a provider would reject the history; "warning": suspicious or lossy."""
    index: int
    block: int | None
    text: str
    fix: Fix | None = None


def _fix(kind: str, target: Any, label: str) -> Fix:
    """A fix running the ``kind`` fixer on one target."""
    return Fix(label, partial(_apply_one, kind, target), kind, target)


def _apply_one(kind: str, target: Any, messages: list[Message]) -> list[Message]:
    return FIXERS[kind](list(messages), (target,))


def fix_all(messages: Sequence[Message], problems: Iterable[Problem]) -> list[Message]:
    """Apply the fixes of ``problems`` in one pass per kind of fix.

    Lint again afterwards: a fix can reveal a problem the first run could not see.
    """
    targets: dict[str, list[Any]] = {}
    for p in problems:
        if p.fix is not None:
            targets.setdefault(p.fix.kind, []).append(p.fix.target)
    out = list(messages)
    for kind, fixer in FIXERS.items():
        if kind in targets:
            out = fixer(out, targets[kind])
    return out


# -- the rules --------------------------------------------------------------------------


def _call_label(row: _CallRow) -> str:
    return f"{row[3] or 'tool'} call {row[4]}"


def _is_empty(m: Message) -> bool:
    if m.tool_calls or m.invalid_tool_calls:
        return False
    c = m.content
    # ``not s or s.isspace()`` is ``not s.strip()`` without copying a long text.
    if type(c) is str:
        return not c or c.isspace()
    return all(type(b) is TextBlock and (not b.text or b.text.isspace()) for b in c)


def lint(messages: Sequence[Message], *, provider: str | None = None) -> list[Problem]:
    """The problems of ``messages``, in history order (O(n))."""
    if provider not in PROVIDERS:
        raise ValueError(
            f"unknown provider {provider!r}: expected None, 'openai', 'anthropic' or 'gemini'"
        )
    # Nothing built here forms cycles: pausing the collector keeps it from walking the whole
    # history again and again while the links and turns are made. They are gone before it
    # runs again, so it never walks them at all.
    with collections_paused():
        problems = _problems(messages, provider)
    problems.sort(key=lambda p: (p.index, -1 if p.block is None else p.block))
    return problems


def _problems(messages: Sequence[Message], provider: str | None) -> list[Problem]:
    problems: list[Problem] = []
    links = link_tools(messages)
    message_problems: list[Problem] = []
    turn_of, closed_at = _check_messages(messages, provider, message_problems)
    _check_calls(messages, links, provider, problems)
    _check_pairing(messages, links, provider, turn_of, closed_at, problems)
    problems += message_problems  # after the others: equal places keep this order
    return problems


def _check_calls(
    messages: Sequence[Message], links: ToolLinks, provider: str | None, out: list[Problem]
) -> None:
    """Call ids (missing, repeated) and arguments that did not parse."""
    rows = links._call_rows
    repeated = links._repeated
    # Only calls the linker flagged (no id, a repeated id, invalid) can have a problem here.
    ran = links._call_result
    for k in links._irregular:
        i, b, ci, name, cid, _, invalid = rows[k]
        if cid is None:
            if ran[k] != UNANSWERED:
                continue  # a server call the provider ran needs no id to be answered
            text = f"{name or 'tool'} call has no id: no result can answer it"
            fix = _fix("assign-ids", messages[i], "Give the tool calls of this message ids")
            out.append(Problem("missing-call-id", "error", i, b, text, fix))
            continue
        if k in repeated:
            text = f"call id {cid} is used by an earlier call too"
            fix = _fix("rename-duplicates", cid, f"Rename repeated id {cid}")
            out.append(Problem("duplicate-call-id", "error", i, b, text, fix))
        if invalid:
            bad = messages[i].invalid_tool_calls[ci or 0]
            severity: Severity = "error" if provider in ("anthropic", "gemini") else "warning"
            if bad.args is not None:
                text = f"arguments of {_call_label(rows[k])} are not valid JSON: {bad.args!r}"
            else:  # (no text kept, as Inspect keeps none: its error quotes it)
                text = f"arguments of {_call_label(rows[k])} did not parse: {bad.error!r}"
            fix = _fix("repair-arguments", cid, f"Repair arguments of {cid}")
            out.append(Problem("invalid-arguments", severity, i, b, text, fix))


def _check_pairing(
    messages: Sequence[Message],
    links: ToolLinks,
    provider: str | None,
    turn_of: list[int],
    closed_at: dict[int, int],
    out: list[Problem],
) -> None:
    """Calls without results, results without calls, and results out of place."""
    calls = links._call_rows
    results = links._result_rows
    call_result = links._call_result
    waiting_from = _last_turn_start(messages)
    # ``-1 in`` scans in C: a history with no unanswered call (or orphan) skips the loop.
    for k, j in enumerate(call_result if UNANSWERED in call_result else ()):
        if j != UNANSWERED:
            continue
        row = calls[k]
        call_id = row[4]
        if call_id is None:
            continue  # reported as missing-call-id
        pending = row[0] >= waiting_from
        severity: Severity = "warning" if pending or row[5] else "error"
        text = f"{_call_label(row)} has no result"
        if pending:
            text += " (the history ends waiting for it)"
        fix = _fix("add-placeholders", call_id, f"Add a placeholder result for {call_id}")
        out.append(Problem("unanswered-call", severity, row[0], row[1], text, fix))
    result_call = links._result_call
    for j, k in enumerate(result_call if -1 in result_call else ()):
        if k >= 0:
            continue
        i, b, _, _, call_id, _ = results[j]
        text = f"result for {call_id} answers no call"
        fix = _fix("drop-orphans", call_id, f"Drop orphan result of {call_id}")
        out.append(Problem("orphan-result", "error", i, b, text, fix))

    turn_based = provider in ("anthropic", "gemini")
    for k, j in enumerate(call_result):
        if j < 0:
            continue
        row = calls[k]
        c = row[0]
        r = results[j][0]
        if turn_of[r] == c:
            continue  # the common case: the result is where every provider wants it
        _, cb, _, _, call_id, server, _ = row
        if server:
            continue  # a server result sits beside its call: no placement rule
        b = results[j][1]
        # History order: whole messages and tool_calls sort after the blocks of a message.
        if r < c or (r == c and (1 << 30 if b is None else b) < (1 << 30 if cb is None else cb)):
            text = f"result for {_call_label(row)} comes before the call"
            out.append(Problem("result-before-call", "error", r, b, text, _move(call_id)))
            continue
        if messages[c].role != "assistant":
            continue
        turn = turn_of[r]
        in_turn = r > c and (turn == c or turn == -2 - c)
        # In the turn but not wholly in the zone: in place only in the message that closes
        # the zone, ahead of the block that does.
        if in_turn and (turn == c or (b or 0) < closed_at.get(r, 0)):
            continue
        label = _call_label(row)
        if turn_based:
            if not in_turn:
                text = f"result for {label} is not in the user turn right after the call"
                out.append(Problem("result-not-next", "error", r, b, text, _move(call_id)))
            elif provider == "anthropic":
                text = f"result for {label} comes after other content: tool results go first"
                out.append(Problem("result-not-first", "error", r, b, text, _move(call_id)))
        else:
            severity = "error" if provider == "openai" else "warning"
            text = f"result for {label} comes after the next user or assistant turn"
            out.append(Problem("result-not-next", severity, r, b, text, _move(call_id)))


def _move(call_id: str | None) -> Fix:
    return _fix("move-results", call_id, f"Move result of {call_id} after its call")


def _last_turn_start(messages: Sequence[Message]) -> int:
    """Index after which no user or assistant message with content follows: a call at or
    after it is still waiting for its result, not forgotten."""
    for i in range(len(messages) - 1, -1, -1):
        m = messages[i]
        if m.role == "user" and not all(type(b) is ToolResultBlock for b in m.blocks):
            return i + 1
        if m.role == "assistant":
            return i
    return 0


def _check_messages(
    messages: Sequence[Message], provider: str | None, out: list[Problem]
) -> tuple[list[int], dict[int, int]]:
    """Empty messages, system placement and role alternation.

    The same pass finds the turns the pairing rules need: for each message, the index ``c`` of
    the last assistant/system message at or before it (the turn it belongs to). An assistant
    message's strict result zone runs up to the first content after it that is not a tool
    result; the turn is stored as ``c`` for a message after ``c`` and wholly inside its zone
    (a result there is in place whatever its block: the common case, decided by one
    comparison), else as ``-2 - c``. ``closed_at`` maps each user message that ends a zone to
    the block where it does (0 for text content).
    """
    last = len(messages) - 1
    leading_system = True
    prev: Message | None = None  # the previous user or assistant message
    turn_based = provider in ("anthropic", "gemini")
    turn_of: list[int] = []
    closed_at: dict[int, int] = {}
    current = -1
    open_zone = False
    for i, m in enumerate(messages):
        role = m.role
        if role == "tool":
            turn_of.append(current if open_zone else -2 - current)
            leading_system = False
            continue
        c = m.content
        if role == "assistant" or role == "system":
            current = i
            open_zone = role == "assistant"
            turn_of.append(-2 - i)  # a result in the calling message itself is out of place
        elif open_zone and role == "user":
            if type(c) is str:
                if c:
                    closed_at[i] = 0
                    open_zone = False
            else:
                for k, b in enumerate(c):
                    if type(b) is not ToolResultBlock:
                        closed_at[i] = k
                        open_zone = False
                        break
            turn_of.append(current if open_zone else -2 - current)
        else:
            turn_of.append(-2 - current)
        # ``_is_empty`` inline for the common cases, calls first: a message with calls is not
        # empty, and its content need not be read (at 100k messages, reads of memory not in
        # the cache are much of the cost).
        if m.tool_calls or m.invalid_tool_calls:
            empty = False
        elif type(c) is str:  # ``isspace`` stops at the first letter
            empty = not c or c.isspace()
        elif c and (type(c[0]) is not TextBlock or (c[0].text and not c[0].text.isspace())):
            empty = False  # the first block decides
        else:
            empty = _is_empty(m)
        if empty:
            prefill = i == last and role == "assistant"
            severity: Severity = "error" if provider == "anthropic" and not prefill else "warning"
            fix = _fix("drop-messages", m, "Drop the empty message")
            out.append(Problem("empty-message", severity, i, None, f"{role} message is empty", fix))
        if role == "system":
            if not leading_system and turn_based:
                text = f"system message after the start: {provider} has one system prompt, first"
                fix = _fix("move-system-first", m, "Move the system message to the start")
                out.append(Problem("system-not-first", "error", i, None, text, fix))
            continue
        first = leading_system
        leading_system = False
        if not turn_based:
            continue
        if first and role == "assistant":
            severity = "error" if provider == "anthropic" else "warning"
            text = "the conversation starts with the assistant, not the user"
            fix = _fix("start-with-user", m, "Start with a user message")
            out.append(Problem("role-alternation", severity, i, None, text, fix))
        elif prev is not None and prev.role == role and prev is messages[i - 1]:
            calls = role == "assistant" and _has_calls(m)
            severity = "error" if provider == "gemini" and calls else "warning"
            why = (
                "a function call turn must follow a user or function-response turn"
                if severity == "error"
                else "the provider merges consecutive turns"
            )
            text = f"two {role} messages in a row: {why}"
            fix = _fix("merge-into-previous", m, f"Merge with the previous {role} message")
            out.append(Problem("role-alternation", severity, i, None, text, fix))
        prev = m
    return turn_of, closed_at


def _has_calls(m: Message) -> bool:
    if m.tool_calls or m.invalid_tool_calls:
        return True
    return type(m.content) is tuple and any(
        type(b) is ToolCallBlock or type(b) is ServerToolCallBlock for b in m.content
    )
