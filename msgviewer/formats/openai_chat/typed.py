"""Chat Completions files of the common shapes, decoded straight into typed records.

``orjson.loads`` makes a dict for every message and call, with every key, and the reader then
looks each one up again; ``msgspec`` decoding into the records of ``records`` costs about 0.55x
of that parse, for the same checks. The records admit only the keys and value types of the
shapes the quick reader builds (plus ``name`` and the content parts, which the careful reader
takes): any other key or type fails the decode of that message alone, which is then parsed as
the usual way parses a file (``io.loads_whole``) and read by the careful reader, as the usual
way would.
An assistant message that carries a ``reasoning_content`` and a ``usage`` of its own, as
DeepSeek-style loggers write, is of the common shapes too. So this path never decides anything
the readers would decide otherwise; a property test holds the two to equal results.

Request fields, which the records do not look into, are kept as raw JSON and parsed the same
way, so every number and string reads as it does on the usual way, integers past 64 bits
exactly. The records hold no numbers but a message's usage counts (integers, decoded exactly as
the usual way reads them), and call arguments are looked at for long integers (``fast``); a
body whose fields the records cannot vouch for (one given twice, a key written with escapes...)
goes the usual way too.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from operator import attrgetter
from typing import Any

import msgspec
import orjson
from msgspec import UNSET, Raw

from ...core.json_numbers import msgspec_reads_as_orjson
from ..io import loads_whole
from . import pieces
from .detect import names_a_role
from .field_order import fields_in_order
from .read import MESSAGE_KEYS, READ_KEYS
from .records import Body, LooseRequest, MessageRecord, Request

Item = MessageRecord | dict[str, Any]
"""A message as a record, or (off the common shapes) as the dict the usual way makes of it."""
Document = Body | list[Item]
_decoder = msgspec.json.Decoder(Request | list[MessageRecord])
_loose = msgspec.json.Decoder(LooseRequest | list[Raw])
_one = msgspec.json.Decoder(MessageRecord)
_many = msgspec.json.Decoder(list[MessageRecord]).decode
_BATCH = 256
"""Messages decoded in one call on the loose way: one off the common shapes costs its batch
a second decode, one by one."""
_MOSTLY_ODD = 4
"""More than one message in this many of the first batch off the common shapes: the usual way
(with most messages read by the careful reader either way, it is the quicker)."""
_REQUEST_FIELDS = Request.__struct_fields__[1:]
OFF_SHAPES: Any = object()
"""What ``_Learner.decode`` gives for a message off the common shapes (but by a key of its own
that it can learn)."""
SAMPLE = 20
"""How many messages detection looks at, but for other formats' blocks (Anthropic's sniffer
looks for them in every message): those are in no record, so ``sample`` adds the messages
off the records' shapes."""


def decode(data: Any, check: Callable[[Any], bool] | None = None) -> Document | None:
    """The file as typed records (a message off their shapes as a dict), or None when it is
    not a list of messages or a request body (or not valid JSON: the usual way then says what
    is wrong, and where). ``check``, given what detection sees (``sample``), tells a file with
    messages off the common shapes from another format's before the rest is decoded.

    A message past what detection sees with a key of its own (a logger's note) is decoded again
    with that key learned, up to ``LEARNED_AT_MOST`` keys: with its piece of the file where the
    messages are decoded a piece at a time (``pieces``), else with the whole file; where
    decoding every message alone would cost the file a skim and a decode more. Any other
    message off the common shapes has its piece decoded loosely (``_loosely``), the file
    whole where it is not cut."""
    learner = _Learner(check)
    decoded = pieces.decode(data, learner.piece, _raws) if pieces.cuttable(data) else None
    if decoded is None:
        learner = _Learner()  # (anew: places counted in pieces cut wrong are no places)
        doc = learner.decode(data)
        decoded = doc if doc is None or doc is OFF_SHAPES else _messages_and_fields(doc)
    if decoded is OFF_SHAPES:
        return _off_the_shapes(data, check)
    if decoded is None or decoded is pieces.USUAL:
        return None
    messages, raws = decoded
    if not messages or not learner.as_dicts(messages):
        return None
    if raws is None:
        return messages
    meta = _request_fields(data, raws)
    return None if meta is None else Body(messages, meta)


def _messages_and_fields(doc: Any) -> tuple[list[Item], dict[str, Raw] | None]:
    """A decoded file's messages, and its request fields (None: a list of messages)."""
    return (doc, None) if type(doc) is list else (doc.messages, _raws(doc))


class _Learner:
    """The decoder, learning the keys of a logger's own that messages past the sample hold."""

    def __init__(self, check: Callable[[Any], bool] | None = None) -> None:
        self.decoder = _decoder
        self.learned: tuple[str, ...] = ()
        self.firsts: list[int] = []  # (the first message holding each: none before it does)
        # What detection would see of the pieces decoded so far (``sample``), for ``check`` to
        # be asked before a piece decoded loosely has the rest decoded for nothing
        self.check = check
        self.heads: list[Item] = []  # (the file's first ``SAMPLE`` messages)
        self.odds: list[dict[str, Any]] = []  # (every later one off the records' shapes)
        self.fields: dict[str, Raw] | None = None  # (a body's before its messages, raw)

    def decode(self, buffer: Any, before: int = 0) -> Any:
        """``buffer`` (messages after ``before`` others) decoded; ``OFF_SHAPES`` for a
        message off the common shapes other than by a key it can learn; None for what is no
        JSON."""
        while True:
            try:
                return self.decoder.decode(buffer)
            except msgspec.ValidationError as error:
                found = _key_to_learn(str(error), self.learned, before)
                if found is None or len(self.learned) == LEARNED_AT_MOST:
                    return OFF_SHAPES
                self.learned += (found[0],)
                self.firsts.append(found[1])
                self.decoder = _learning(self.learned)
            except (ValueError, TypeError, RecursionError):
                # DecodeError, UnicodeDecodeError; input msgspec does not take (a str subclass);
                # nesting past msgspec's depth: the usual way reads or reports them all
                return None

    def piece(self, buffer: Any, before: int) -> Any:
        """``decode`` of a piece of the file; one holding a message off the common shapes is
        decoded loosely (``_loosely``), so that the message costs its piece, not the file."""
        doc = self.decode(buffer, before)
        loose = doc is OFF_SHAPES
        if loose:
            doc = self._loosely(buffer, before)
        if self.check is not None and doc is not None and doc is not pieces.USUAL:
            self._saw(doc, before, loose)
        return doc

    def _loosely(self, piece: Any, before: int) -> Any:
        """A piece holding a message off the common shapes, decoded as ``_decode_loosely``
        decodes a file (a body's first or last piece: its raw fields too); ``pieces.USUAL``
        where ``_items`` gives None, as the loose way would for the whole file: one message
        is no message or not valid, what detection would see of the file is another format's,
        or (in the first piece: at the file's start) most messages are off the shapes. None
        for a piece that is no JSON."""
        try:
            doc: Any = _loose.decode(piece)
        except (ValueError, TypeError, RecursionError):
            return None
        body = type(doc) is not list
        if body and before == 0:
            self.fields = _raws(doc)
        items = _items(doc.messages if body else doc, self._seen(before), before == 0)
        if items is None:
            return pieces.USUAL
        if not body:
            return items
        doc.messages = items
        return doc

    def _seen(self, before: int) -> Callable[[list[Item]], bool] | None:
        """``check`` of what detection would see of the file, given the first messages of a
        piece after ``before`` others (and the pieces before it)."""
        check = self.check
        if check is None:
            return None

        def seen(items: list[Item]) -> bool:
            cut = max(0, SAMPLE - before)
            messages = self.heads + items[:cut] + self.odds + items[cut:]
            if self.fields is None:
                return check(sample(messages))
            try:  # (read only now: most files never have a piece decoded loosely)
                fields = {k: loads_whole(memoryview(v)) for k, v in self.fields.items()}
            except orjson.JSONDecodeError:
                return False  # (the usual way says what is wrong with it)
            return check(sample(Body(messages, fields)))

        return seen

    def _saw(self, doc: Any, before: int, loose: bool) -> None:
        """Keep what detection would see of a piece decoded (``_seen``)."""
        body = type(doc) is not list
        items = doc.messages if body else doc
        if body and before == 0:
            self.fields = _raws(doc)
        cut = max(0, SAMPLE - before)
        self.heads += items[:cut]
        if loose:  # (a piece decoded as records holds no message off their shapes)
            self.odds += [m for m in items[cut:] if type(m) is dict]

    def as_dicts(self, messages: list[Item]) -> bool:
        """``_learned_as_dicts`` of the keys learned."""
        return not self.learned or _learned_as_dicts(messages, self.learned, self.firsts)


def _off_the_shapes(data: Any, check: Callable[[Any], bool] | None) -> Document | None:
    """``decode`` of a file some message of which is off the common shapes."""
    if not names_a_role(data):
        return None  # (another format's file: skimming it all for messages costs ~0.1x)
    return _decode_loosely(data, check)


LEARNED_AT_MOST = 2
"""Keys of their own learned from messages past the sample; past that, every message is
decoded alone (or the file goes the usual way)."""
_UNKNOWN_KEY = re.compile(
    r"Object contains unknown field `(.*)` - at `\$(?:\.messages)?\[(\d+)\]`", re.S
)


def _key_to_learn(error: str, learned: tuple[str, ...], before: int = 0) -> tuple[str, int] | None:
    """The key a message has that no record has, and that message's place, from the decoder's
    error (of a piece after ``before`` messages), when that message is one detection does not
    see; None for any other error.

    Not a key the records have or have learned: the error of a request body's own unknown key
    has no place, and the key's name may end like one (``x` - at `$[25]``). Nor a key msgspec
    takes no field of (a quote, a backslash or a control character in it)."""
    found = _UNKNOWN_KEY.fullmatch(error)
    at = -1 if found is None else before + int(found[2])
    if found is None or at < SAMPLE or not msgspec_reads_as_orjson():
        return None  # (seen by detection: it may be another format's, told by the loose way)
    key = found[1]
    if key in learned or key in _MESSAGE_KEYS or _UNNAMEABLE.search(key):
        return None
    return key, at


_MESSAGE_KEYS = frozenset(MessageRecord.__struct_encode_fields__)
_UNNAMEABLE = re.compile(r'["\\\x00-\x1f]')


@functools.lru_cache(maxsize=16)
def _learning(keys: tuple[str, ...]) -> msgspec.json.Decoder[Any]:
    """A decoder whose messages take ``keys`` too (as ``learned_0``...), each value decoded
    as the usual way decodes it (``loads_whole``, where msgspec reads as deep as orjson)."""
    names = {f"learned_{i}": key for i, key in enumerate(keys)}
    config = {"forbid_unknown_fields": True, "gc": False}
    fields = [(name, Any, UNSET) for name in names]
    message: Any = msgspec.defstruct(
        "_LearnedMessage", fields, bases=(MessageRecord,), rename=names, **config
    )
    request: Any = msgspec.defstruct(
        "_LearnedRequest", [("messages", list[message])], bases=(Request,), **config
    )
    return msgspec.json.Decoder(request | list[message])


def _learned_as_dicts(messages: list[Item], keys: tuple[str, ...], firsts: list[int]) -> bool:
    """Each message holding a learned key made the dict the usual way makes of it (for the
    careful reader); False when its keys' order in the file, which the records do not have,
    would be kept (``keeps_order``). None before ``firsts[i]`` holds key ``i`` (the decode
    without it took them, and a message decoded then has no field for it): the rest are looked
    at a field at a time, a few ms for 100k messages where a dict made for each cost 70 ms."""
    fields = [(f"learned_{i}", key) for i, key in enumerate(keys)]
    holding = set()
    for (field, _), first in zip(fields, firsts, strict=True):
        try:
            values = list(map(attrgetter(field), messages[first:]))
        except AttributeError:  # (a message of a piece decoded loosely is a dict already)
            values = [getattr(m, field, UNSET) for m in messages[first:]]
        holding.update(i for i, v in enumerate(values, first) if v is not UNSET)
    for i in sorted(holding):
        m = messages[i]
        d = as_dict(m)
        d.update((key, v) for field, key in fields if (v := getattr(m, field, UNSET)) is not UNSET)
        if not keeps_order(d):
            return False
        messages[i] = d
    return True


def _decode_loosely(data: Any, check: Callable[[Any], bool] | None) -> Document | None:
    """Like ``decode`` for a file some of whose messages are off the common shapes: the
    messages are decoded in batches, a batch holding such a message one by one, and that
    message is parsed as the usual way parses it (one with no role, such as a dataset's
    record, sends the file the usual way)."""
    try:
        doc: Any = _loose.decode(data)
    except (ValueError, TypeError, RecursionError):
        return None
    raws = doc if type(doc) is list else doc.messages
    if not raws:
        return None
    meta: dict[str, Any] | None = {}
    if type(doc) is not list and (meta := _request_fields(data, _raws(doc))) is None:
        return None
    seen = None if check is None else lambda items: check(_sample(items, meta, doc))
    items = _items(raws, seen)
    if items is None:
        return None
    return items if type(doc) is list else Body(items, meta or {})


def _items(
    raws: list[Raw], seen: Callable[[list[Item]], bool] | None = None, start: bool = True
) -> list[Item] | None:
    """The messages of ``raws`` decoded in batches, a batch holding a message off the common
    shapes one by one, that message parsed as the usual way parses it; None where one is no
    message, where ``seen`` (given the first batch: what detection sees) says no, or (``raws``
    at the file's ``start``) where most of the first batch is off them (reading each alone
    costs more than it saves)."""
    items: list[Item] = []
    for at in range(0, len(raws), _BATCH):
        batch = raws[at : at + _BATCH]
        try:  # a run of messages of the common shapes decodes as one array, in one call
            items.extend(_many(b"[" + b",".join(batch) + b"]"))
        except msgspec.ValidationError:
            odd = _each(batch, items)
            if odd < 0 or (start and at == 0 and odd * _MOSTLY_ODD > len(batch)):
                return None
        except (ValueError, TypeError, RecursionError):
            return None
        if seen is not None and at == 0 and not seen(items):
            return None  # (before the rest is decoded for nothing)
    return items


def _each(raws: list[Raw], items: list[Item]) -> int:
    """Decode messages one by one, one off the common shapes parsed as the usual way parses
    it: how many were off them, or -1 when one is not a message at all."""
    append = items.append
    one = _one.decode
    odd = 0
    for raw in raws:
        try:
            append(one(raw))
        except msgspec.ValidationError:
            try:
                value = loads_whole(memoryview(raw))
            except orjson.JSONDecodeError:
                return -1
            if type(value) is not dict or type(value.get("role")) is not str:
                return -1  # (the usual way reads it, or says what is wrong with it)
            append(value)
            odd += 1
        except (ValueError, TypeError, RecursionError):
            return -1
    return odd


def _sample(items: list[Item], meta: Any, doc: Any) -> Any:
    return sample(items if type(doc) is list else Body(items, meta or {}))


def _raws(doc: Request) -> dict[str, Raw]:
    """The request fields a body gives, as raw JSON."""
    return {name: raw for name in _REQUEST_FIELDS if (raw := getattr(doc, name)) is not UNSET}


def _request_fields(data: Any, raws: dict[str, Raw]) -> dict[str, Any] | None:
    """The request fields as the usual way reads them, in the file's order; None when that
    cannot be told from the records: a value it refuses (msgspec skips a raw value without
    checking its UTF-8 or its numbers' range), a field given twice (msgspec keeps the last
    value and checks none of the others), a key written with escapes, or any other layout than
    fields before and after the messages, each written once."""
    if not raws:
        return {}  # every key is "messages": given twice, each value was decoded and checked
    try:
        values = {name: loads_whole(memoryview(raw)) for name, raw in raws.items()}
    except orjson.JSONDecodeError:
        return None
    order = fields_in_order(data, raws)
    return None if order is None else {name: values[name] for name in order}


def as_dict(m: Item) -> dict[str, Any]:
    """The message as the dict the usual way would have made of it (keys in another order)."""
    if type(m) is dict:
        return m
    d: dict[str, Any] = {"role": m.role}
    content = m.content
    if type(content) is list:
        d["content"] = [_part_dict(p) for p in content]
    elif content is not UNSET:
        d["content"] = content
    if m.name is not UNSET:
        d["name"] = m.name
    if m.tool_calls is not UNSET:
        d["tool_calls"] = msgspec.to_builtins(m.tool_calls)
    if m.tool_call_id is not UNSET:
        d["tool_call_id"] = m.tool_call_id
    if m.refusal is not UNSET:
        d["refusal"] = m.refusal
    if m.annotations is not UNSET:
        d["annotations"] = []
    if m.reasoning_content is not UNSET:
        d["reasoning_content"] = m.reasoning_content
    if m.usage is not UNSET:
        d["usage"] = m.usage
    return d


def keeps_order(d: dict[str, Any]) -> bool:
    """Whether the careful reader makes the same message of ``d`` whatever its keys' order:
    it keeps at most one key in the metadata, and no calls (nor the order of a call's keys)."""
    role = d["role"]
    kept = d.keys() - READ_KEYS.get(role, MESSAGE_KEYS)
    if role == "assistant":
        kept.discard("reasoning_content")  # (read into a block, not kept)
    return len(kept) <= 1 and "tool_calls" not in kept


def _part_dict(part: Any) -> dict[str, Any]:
    [field] = part.__struct_fields__
    payload = getattr(part, field)
    if type(payload) is not str:
        payload = msgspec.to_builtins(payload)  # (the fields left unset are left out)
    return {"type": part.__struct_config__.tag, field: payload}


def sample(doc: Document) -> Any:
    """What detection looks at: the request fields, the first messages and every later one
    off the records' shapes, as parsed JSON (in the file's order: the messages come last)."""
    items = doc if type(doc) is list else doc.messages
    seen = [as_dict(m) for m in items[:SAMPLE]]
    seen += [m for m in items[SAMPLE:] if type(m) is dict]
    return seen if type(doc) is list else {**doc.meta, "messages": seen}
