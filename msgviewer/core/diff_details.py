"""What differs between two units the alignment paired: the details of a changed message.

Each difference is a ``Detail``: its kind, the path where it is, the value on each side, and
for texts the word-level pieces. Kinds: ``role``, ``name``, ``id`` (message, call and result
ids, compared only where both sides have one), ``is_error``, ``text`` (a text or reasoning
block), ``block`` (any other block, added, removed or changed), ``tool_call`` (a call added,
removed or renamed), ``args`` (a call's arguments, by JSON path), ``result`` (a tool result:
by JSON path when both sides are JSON, else word by word), ``usage`` (a count, with its
delta) and ``metadata`` (provider fields the model keeps aside).
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from ._frozen import value
from .blocks import Block, ReasoningBlock, TextBlock, ToolCallBlock, ToolResultBlock
from .diff_units import Normal, is_synthetic, joined
from .diff_values import MISSING, WordOp, json_diff, word_diff
from .json_numbers import loads_exactly
from .message import Message, ToolCall
from .serialize import block_to_dict
from .usage import Usage

USAGE_FIELDS = (
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "reasoning_tokens",
)


@value
class Detail:
    """One difference inside a changed message; ``a``/``b`` are None where a side has none."""

    kind: str
    path: str
    a: Any = None
    b: Any = None
    words: tuple[WordOp, ...] = ()
    """For ``text`` (and non-JSON ``result``): the pieces, ``("=" | "-" | "+", text)``."""

    @property
    def delta(self) -> int | None:
        """For ``usage``: how much the count grew from ``a`` to ``b``."""
        if self.kind == "usage" and isinstance(self.a, int) and isinstance(self.b, int):
            return self.b - self.a
        return None


@dataclass(slots=True)
class Options:
    """What to leave out of the comparison, and the two histories (for what each holds)."""

    ignore_ids: bool = False
    ignore_usage: bool = False
    ignore_metadata: bool = False
    history_a: Any = ()
    history_b: Any = ()
    _held: tuple[Held, Held] | None = None

    @property
    def held(self) -> tuple[Held, Held]:
        """What each whole history holds (scanned once, when a changed pair first asks)."""
        if self._held is None:
            self._held = (Held(self.history_a), Held(self.history_b))
        return self._held

    def both_hold(self, feature: str) -> bool:
        """With ``ignore_metadata``: what one side never holds anywhere, its format could not
        carry (or the run never made), so it is not a difference."""
        if not self.ignore_metadata:
            return True
        a, b = self.held
        return feature in a and feature in b


class Held:
    """What a history holds somewhere: block types (tool results' too), names, error flags,
    each usage count; and the call ids its reader made up. Each feature is looked for when
    first asked about, up to the first message holding it."""

    __slots__ = ("_found", "_messages", "_synthetic")

    def __init__(self, messages: Any) -> None:
        self._messages = messages
        self._found: dict[str, bool] = {}
        self._synthetic: frozenset[str] | None = None

    def __contains__(self, feature: str) -> bool:
        found = self._found.get(feature)
        if found is None:
            found = self._found[feature] = any(feature in _features(m) for m in self._messages)
        return found

    @property
    def synthetic_ids(self) -> frozenset[str]:
        if self._synthetic is None:
            ids = set()
            for m in self._messages:
                ids.update(c.id for c in m.tool_calls if c.extra.get("synthetic_id"))
                if type(m.content) is tuple:
                    ids.update(
                        b.id
                        for b in m.content
                        if type(b) is ToolCallBlock and b.extra.get("synthetic_id")
                    )
            self._synthetic = frozenset(ids)
        return self._synthetic


def _features(m: Message) -> set[str]:
    out: set[str] = set()
    content = m.content
    if type(content) is str:
        if content:
            out.add("block:text")
    else:
        for b in content:
            out.add(f"block:{b.type}")
            if type(b) is ToolResultBlock:
                inner = b.content
                if type(inner) is str:
                    out.add("block:text")
                else:
                    out.update(f"block:{x.type}" for x in inner)
                if b.is_error:
                    out.add("is_error")
    if m.name is not None:
        out.add("name")
    if m.is_error:
        out.add("is_error")
    if m.usage is not None:
        out.add("usage")
        out.update(f"usage.{f}" for f in USAGE_FIELDS if getattr(m.usage, f))
    return out


def details(a: Normal, b: Normal, opts: Options) -> list[Detail]:
    """Every difference between two paired units (empty: they are the same)."""
    out: list[Detail] = []
    if a.role != b.role:
        out.append(Detail("role", "role", a.role, b.role))
    name_a, name_b = a.name or None, b.name or None  # an empty name is no name
    if name_a != name_b and ((name_a and name_b) or not opts.ignore_metadata):
        out.append(Detail("name", "name", name_a, name_b))
    if not opts.ignore_ids:
        if not opts.ignore_metadata:  # a message id is the provider's (or the file's) name
            _id(out, "id", a.id, b.id)
        ta, tb = a.tool_call_id, b.tool_call_id
        if ta and tb and ta != tb and not (_made_up(a, opts.held[0]) or _made_up(b, opts.held[1])):
            _id(out, "tool_call_id", ta, tb)
    if a.is_error != b.is_error and opts.both_hold("is_error"):
        out.append(Detail("is_error", "is_error", a.is_error, b.is_error))
    tool = a.role == "tool" and b.role == "tool"
    _blocks(out, a.blocks, b.blocks, opts, "result" if tool else "")
    _calls(out, a.calls, b.calls, opts)
    if a.invalid_calls != b.invalid_calls:
        ia = [_plain_call(c, opts) for c in a.invalid_calls]
        ib = [_plain_call(c, opts) for c in b.invalid_calls]
        _json(out, "tool_call", "invalid_tool_calls", ia, ib)
    if not opts.ignore_usage:
        _usage(out, a.usage, b.usage, opts)
    if not opts.ignore_metadata:
        _json(out, "metadata", "metadata", a.metadata, b.metadata)
        _json(out, "metadata", "response_metadata", a.response_metadata, b.response_metadata)
        _json(out, "metadata", "artifacts", list(a.artifacts), list(b.artifacts))
    return out


def _made_up(n: Normal, held: Held) -> bool:
    """A result's call id the reader made up (marked so, or the id of a made-up call)."""
    if n.tool_call_id is None:
        return False
    return bool(n.metadata.get("synthetic_id")) or n.tool_call_id in held.synthetic_ids


def _id(out: list[Detail], path: str, a: str | None, b: str | None) -> None:
    if a and b and a != b:  # an empty id is no id (some formats write one)
        out.append(Detail("id", path, a, b))


def _json(out: list[Detail], kind: str, base: str, a: Any, b: Any) -> None:
    if a == b:
        return
    for path, va, vb in json_diff(a, b, base):
        out.append(Detail(kind, path, _none(va), _none(vb)))


def _none(v: Any) -> Any:
    return None if v is MISSING else v


# -- content blocks ----------------------------------------------------------------------


def _blocks(
    out: list[Detail], a: tuple[Block, ...], b: tuple[Block, ...], opts: Options, prefix: str
) -> None:
    if a == b:
        return
    if opts.ignore_metadata:
        # texts that stood either side of a block the other side cannot carry are one text
        in_both = {x.type for x in a} & {x.type for x in b}  # held by both: no scan needed
        a = joined(tuple(x for x in a if _compared(x, opts, in_both)))
        b = joined(tuple(x for x in b if _compared(x, opts, in_both)))
    if prefix and _json_result(out, a, b):
        return
    names_a, names_b = _block_names(a, prefix), _block_names(b, prefix)
    ops = SequenceMatcher(None, [x.type for x in a], [x.type for x in b], autojunk=False)
    for tag, i1, i2, j1, j2 in ops.get_opcodes():
        if tag == "equal":
            for i, j in zip(range(i1, i2), range(j1, j2), strict=False):
                _block(out, names_b[j], a[i], b[j], opts, prefix)
            continue
        for i in range(i1, i2):
            out.append(Detail("block", names_a[i], _block_value(a[i], opts), None))
        for j in range(j1, j2):
            out.append(Detail("block", names_b[j], None, _block_value(b[j], opts)))


def _compared(block: Block, opts: Options, in_both: set[str]) -> bool:
    """With ``ignore_metadata``: a block kind both sides hold, and not an opaque reasoning
    blob (redacted or encrypted reasoning without text is the provider's data)."""
    if type(block) is ReasoningBlock and not block.text:
        return False
    return block.type in in_both or opts.both_hold(f"block:{block.type}")


def _block_names(blocks: tuple[Block, ...], prefix: str) -> list[str]:
    """``text[0]``, ``image[1]``...: the type and its ordinal among blocks of that type."""
    seen: dict[str, int] = {}
    out = []
    for x in blocks:
        k = seen.get(x.type, 0)
        seen[x.type] = k + 1
        name = f"{x.type}[{k}]"
        out.append(f"{prefix}.{name}" if prefix else name)
    return out


def _block_value(block: Block, opts: Options) -> dict[str, Any]:
    d = block_to_dict(block)
    if opts.ignore_metadata:
        d.pop("extra", None)
    return d


def _block(out: list[Detail], path: str, a: Block, b: Block, opts: Options, prefix: str) -> None:
    if a == b:
        return
    if type(a) in (TextBlock, ReasoningBlock):
        if a.text != b.text:  # type: ignore[attr-defined]
            kind = "result" if prefix else "text"
            out.append(Detail(kind, path, a.text, b.text, word_diff(a.text, b.text)))  # type: ignore[attr-defined]
        if opts.ignore_metadata:  # signatures, citations, encrypted reasoning: the provider's
            return
    da, db = _block_value(a, opts), _block_value(b, opts)
    for d in (da, db):
        d.pop("text", None)
        d.pop("type", None)
    if opts.ignore_metadata:  # a field one side's format dropped (a file name, a mime type)
        da, db = {k: v for k, v in da.items() if k in db}, {k: v for k, v in db.items() if k in da}
    _json(out, "block", path, da, db)


def _json_result(out: list[Detail], a: tuple[Block, ...], b: tuple[Block, ...]) -> bool:
    """Tool results that are both one JSON object or array: compared by path."""
    va, vb = _json_text(a), _json_text(b)
    if va is None or vb is None:
        return False
    _json(out, "result", "result", va, vb)
    return True


def _json_text(blocks: tuple[Block, ...]) -> Any:
    if len(blocks) != 1 or type(blocks[0]) is not TextBlock:
        return None
    text = blocks[0].text.strip()
    if not text or text[0] not in "[{":
        return None
    try:
        return loads_exactly(text)
    except ValueError:
        return None


# -- tool calls ------------------------------------------------------------------------------


def _calls(
    out: list[Detail], a: tuple[ToolCall, ...], b: tuple[ToolCall, ...], opts: Options
) -> None:
    if a == b:
        return
    pairs = match_calls(a, b, use_ids=not opts.ignore_ids)
    for i, j in pairs:
        if i is None:
            out.append(Detail("tool_call", f"tool_calls[{j}]", None, _plain_call(b[j], opts)))  # type: ignore[index]
        elif j is None:
            out.append(Detail("tool_call", f"tool_calls[{i}]", _plain_call(a[i], opts), None))
        else:
            ca, cb, path = a[i], b[j], f"tool_calls[{j}]"
            if ca.name != cb.name:
                out.append(Detail("tool_call", f"{path}.name", ca.name, cb.name))
            if not opts.ignore_ids and not (is_synthetic(ca) or is_synthetic(cb)):
                _id(out, f"{path}.id", ca.id, cb.id)
            _json(out, "args", f"{path}.args", ca.args, cb.args)
            if not opts.ignore_metadata:
                _json(out, "metadata", f"{path}.extra", ca.extra, cb.extra)


def match_calls(
    a: tuple[ToolCall, ...], b: tuple[ToolCall, ...], *, use_ids: bool = True
) -> list[tuple[int | None, int | None]]:
    """Calls paired by id where both have one, the rest in order by name; then the unpaired."""
    pair_of: dict[int, int] = {}
    if use_ids:
        ids_b = {c.id: j for j, c in enumerate(b) if c.id is not None and not is_synthetic(c)}
        for i, c in enumerate(a):
            j = ids_b.get(c.id) if c.id is not None and not is_synthetic(c) else None
            if j is not None and j not in pair_of.values():
                pair_of[i] = j
    taken = set(pair_of.values())
    for i, c in enumerate(a):
        if i in pair_of:
            continue
        j = next((j for j, d in enumerate(b) if j not in taken and d.name == c.name), None)
        if j is not None:
            pair_of[i] = j
            taken.add(j)
    pairs: list[tuple[int | None, int | None]] = [(i, pair_of.get(i)) for i in range(len(a))]
    pairs.extend((None, j) for j in range(len(b)) if j not in taken)
    return pairs


def _plain_call(call: Any, opts: Options) -> dict[str, Any]:
    d: dict[str, Any] = {"name": call.name, "args": call.args}
    if call.id is not None and not is_synthetic(call) and not opts.ignore_ids:
        d = {"id": call.id, **d}
    if call.extra and not opts.ignore_metadata:
        d["extra"] = call.extra
    return d


# -- usage -----------------------------------------------------------------------------------


def _usage(out: list[Detail], a: Usage | None, b: Usage | None, opts: Options) -> None:
    if a == b or ((a is None or b is None) and not opts.both_hold("usage")):
        return
    ua, ub = a or Usage(), b or Usage()
    for name in USAGE_FIELDS:
        va, vb = getattr(ua, name), getattr(ub, name)
        if va != vb and ((va and vb) or opts.both_hold(f"usage.{name}")):
            out.append(Detail("usage", f"usage.{name}", va, vb))
    if not opts.ignore_metadata:
        _json(out, "metadata", "usage.extra", ua.extra, ub.extra)
