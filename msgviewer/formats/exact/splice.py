"""Splicing a writer's new output into the file it replaces, keeping every unedited byte.

``splice(original, baseline, new)``: ``original`` is the file as it is on disk, ``baseline`` the
writer's output for the conversations as they were read from it, ``new`` the writer's output for
them as they are now. What differs between ``baseline`` and ``new`` is the edit; everywhere else
the original's bytes are kept, whatever the writer would have made of them (its key order,
indentation, number spellings, escapes, ``""`` it writes as ``null``, keys it adds or drops).

Where ``baseline`` and ``new`` differ, objects are merged key by key in the original's key order
(keys the edit added come after, keys it removed are dropped), arrays are aligned element by
element (an element inserted or removed leaves every other element's bytes as they were), and a
changed value is written in the original's layout. JSONL files are aligned line by line, and a
changed line is spliced the same way. Whatever cannot be matched up (the writer makes a
different number of elements than the file has, a text that is not JSON) falls back to the
writer's own bytes for that part, or for the whole file: never to bytes that are not the edit.
"""

from __future__ import annotations

from difflib import SequenceMatcher

import orjson

from ..io import ZIP_MAGIC, content_end
from .archive import splice_archive
from .match import correspond
from .scan import Member, ScanError, members, skip, skip_ws
from .style import Style, line_indent

__all__ = ["splice"]

_Span = tuple[int, int]


def splice(original: bytes, baseline: bytes, new: bytes) -> bytes:
    """``new`` as it would replace ``original``, with the original's bytes wherever the edit
    (``baseline`` → ``new``) did not reach. Falls back to ``new`` when the texts cannot be
    matched up."""
    if new == baseline:
        return original
    if original == baseline:
        # The file is the writer's own output (saved by msgviewer, or written the same way):
        # every byte the edit did not reach is already the new output's, and scanning three
        # texts of the whole history to find that out is what made such a save slow.
        return new
    if original.startswith(ZIP_MAGIC) and new.startswith(ZIP_MAGIC):
        return splice_archive(original, baseline, new, splice)
    try:
        kinds = {_kind(original), _kind(baseline), _kind(new)}
        if len(kinds) != 1:
            return new
        splicer = _Splicer(original, baseline, new)
        out = splicer.lines() if kinds == {"jsonl"} else splicer.document()
    except (ScanError, RecursionError, IndexError, UnicodeDecodeError, ValueError):
        return new
    return out if _valid(out, kinds == {"jsonl"}) else new


def _start(buf: bytes) -> int:
    return skip_ws(buf, 3 if buf[:3] == b"\xef\xbb\xbf" else 0)


def _kind(buf: bytes) -> str:
    """ "json" (one value) or "jsonl" (a first line that is a whole value, and more after)."""
    start = _start(buf)
    end = content_end(buf)
    if start >= end or buf[start] not in b'{["-0123456789tfn':
        raise ScanError("not JSON")
    newline = buf.find(b"\n", start, end)
    if newline == -1:
        return "json"
    first = buf[start:newline]
    try:
        value_end = skip(first, 0)
    except ScanError:
        return "json"
    return "jsonl" if skip_ws(first, value_end) == len(first) else "json"


def _valid(out: bytes, jsonl: bool) -> bool:
    try:
        if jsonl:
            for line in out.splitlines():
                if line.strip():
                    orjson.loads(line)
        else:
            orjson.loads(out)
    except orjson.JSONDecodeError as exc:
        # (numbers orjson does not take: the spliced text is checked by the scanner instead)
        return "number" in str(exc) and _scans(out, jsonl)
    return True


def _scans(out: bytes, jsonl: bool) -> bool:
    try:
        for line in out.splitlines() if jsonl else [out]:
            start = skip_ws(line, 0)
            if start < len(line) and skip_ws(line, skip(line, start)) != len(line):
                return False
    except ScanError:
        return False
    return True


class _Splicer:
    def __init__(self, original: bytes, baseline: bytes, new: bytes) -> None:
        self.o = original
        self.b = baseline
        self.n = new
        self.style = Style.of(original)
        self.ov = memoryview(original)

    # -- one JSON document --------------------------------------------------------------

    def document(self) -> bytes:
        o, b, n = self.o, self.b, self.n
        os_, oe = _start(o), content_end(o)
        bs, be = _start(b), content_end(b)
        ns, ne = _start(n), content_end(n)
        middle = self.value((os_, oe), (bs, be), (ns, ne))
        return b"".join([self.ov[:os_], *middle, self.ov[oe:]])

    def value(self, o: _Span, b: _Span, n: _Span) -> list[bytes | memoryview]:
        """The chunks of the merged value at these spans of the three texts."""
        if b[1] - b[0] == n[1] - n[0] and self.b[b[0] : b[1]] == self.n[n[0] : n[1]]:
            return [self.ov[o[0] : o[1]]]
        kinds = {self.o[o[0]], self.b[b[0]], self.n[n[0]]}
        if kinds == {0x7B}:
            return self.container(o, b, n, self.object_items)
        if kinds == {0x5B}:
            return self.container(o, b, n, self.array_items)
        return [self.style.emit(self.n, n[0], n[1], self._indent_at(o[0]))]

    def _indent_at(self, pos: int) -> bytes | None:
        """The indent of the line a value of the original starts on; None if the file is
        written on one line (or is JSONL)."""
        return None if self.style.unit is None else line_indent(self.o, pos)

    def container(self, o: _Span, b: _Span, n: _Span, items_of) -> list[bytes | memoryview]:  # type: ignore[no-untyped-def]
        om, _ = members(self.o, o[0])
        bm, _ = members(self.b, b[0])
        nm, _ = members(self.n, n[0])
        ov = self.ov
        multiline = bool(om) and b"\n" in self.o[o[0] : om[0].start]
        if om:
            inner = line_indent(self.o, om[0].start) if multiline else None
        else:
            outer = self._indent_at(o[0])
            inner = None if outer is None else outer + self.style.unit  # type: ignore[operator]
        items = items_of(om, bm, nm, inner)
        if items is None:  # (the elements do not match up: the writer's, in the file's layout)
            return [self.style.emit(self.n, n[0], n[1], self._indent_at(o[0]))]
        if not items:
            return [b"{}" if self.o[o[0]] == 0x7B else b"[]"]
        if om:
            lead = ov[o[0] : om[0].start]
            trail = ov[om[-1].value_end : o[1]]
            sep = ov[om[0].value_end : om[1].start] if len(om) > 1 else None
        else:
            outer = self._indent_at(o[0])
            lead = self.o[o[0] : o[0] + 1] + (b"" if inner is None else self.style.newline + inner)
            trail = (b"" if outer is None else self.style.newline + outer) + self.o[o[1] - 1 : o[1]]
            sep = None
        if sep is None:
            sep = self.style.separator(inner)
        chunks: list[bytes | memoryview] = [lead]
        previous: int | None = None
        for position, (index, pieces) in enumerate(items):
            if position:
                if index is not None and previous is not None and previous == index - 1:
                    chunks.append(ov[om[previous].value_end : om[index].start])
                else:
                    chunks.append(sep)
            chunks.extend(pieces)
            previous = index
        chunks.append(trail)
        return chunks

    def object_items(self, om: list[Member], bm: list[Member], nm: list[Member], inner):  # type: ignore[no-untyped-def]
        okeys = {m.key: m for m in om}
        bkeys = {m.key: m for m in bm}
        nkeys = {m.key: m for m in nm}
        if len(okeys) != len(om) or len(bkeys) != len(bm) or len(nkeys) != len(nm):
            raise ScanError("an object has a key twice")
        items: list[tuple[int | None, list[bytes | memoryview]]] = []
        for index, m in enumerate(om):
            new = nkeys.get(m.key)
            base = bkeys.get(m.key)
            head = self.ov[m.start : m.value]
            if new is None:
                if base is None:  # (never written for the file: not the edit's to drop)
                    items.append((index, [self.ov[m.start : m.value_end]]))
                continue
            if base is None:
                value = [self.style.emit(self.n, new.value, new.value_end, inner)]
            else:
                value = self.value(
                    (m.value, m.value_end), (base.value, base.value_end), (new.value, new.value_end)
                )
            items.append((index, [head, *value]))
        key_sep = self._key_sep(om)
        for m in nm:
            if m.key in okeys:
                continue
            base = bkeys.get(m.key)
            if base is not None and self._same(base, m):
                continue  # the writer adds it whatever the edit: not in the file, not added
            value = self.style.emit(self.n, m.value, m.value_end, inner)
            items.append((None, [self.style.key(m.key), key_sep, value]))  # type: ignore[arg-type]
        return items

    def _key_sep(self, om: list[Member]) -> bytes:
        if om:
            m = om[0]
            key_end = skip(self.o, m.start)
            return self.o[key_end : m.value]
        return self.style.key_sep

    def _same(self, base: Member, new: Member) -> bool:
        return self.b[base.value : base.value_end] == self.n[new.value : new.value_end]

    def array_items(self, om: list[Member], bm: list[Member], nm: list[Member], inner):  # type: ignore[no-untyped-def]
        base = [self._bytes(self.b, m) for m in bm]
        plan = _plan(
            [self._bytes(self.o, m) for m in om], base, [self._bytes(self.n, m) for m in nm]
        )
        if plan is None:
            return None
        items: list[tuple[int | None, list[bytes | memoryview]]] = []
        for action, i, j, k in plan:
            if action == "keep":
                items.append((i, [self.ov[om[i].start : om[i].value_end]]))
            elif action == "merge":
                o, b, n = om[i], bm[j], nm[k]
                spans = (o.value, o.value_end), (b.value, b.value_end), (n.value, n.value_end)
                items.append((i, self.value(*spans)))
            else:
                m = nm[k]
                items.append((None, [self.style.emit(self.n, m.value, m.value_end, inner)]))
        return items

    @staticmethod
    def _bytes(buf: bytes, m: Member) -> bytes:
        return buf[m.value : m.value_end]

    # -- JSONL --------------------------------------------------------------------------

    def lines(self) -> bytes:
        o = self.o
        records = _records(o)
        base = self.b.splitlines()
        new = self.n.splitlines()
        ov = self.ov
        plan = _plan([o[r[1] : r[2]] for r in records], base, new)
        if plan is None:
            raise ScanError("a changed line of the writer's stands for no line of the file")
        out: list[bytes | memoryview] = []
        needs_newline = False
        for action, i, j, k in plan:
            if needs_newline:
                out.append(self.style.newline)
            if action == "new":
                out.append(self.style.emit(new[k], 0, len(new[k]), None) + self.style.newline)
                needs_newline = False
                continue
            lead, start, end, stop = records[i]
            if action == "keep":
                out.append(ov[lead:stop])
            else:
                out.append(ov[lead:start])
                out.extend(self.line(start, end, base[j], new[k]))
                out.append(ov[end:stop])
            needs_newline = stop == end
        tail = records[-1][3] if records else 0
        out.append(ov[tail:])
        return b"".join(out)

    def line(self, start: int, end: int, base: bytes, new: bytes) -> list[bytes | memoryview]:
        """A changed JSONL line, spliced (or the writer's line, if the original's is no JSON)."""
        saved = self.b, self.n
        self.b, self.n = base, new
        try:
            return self.value((start, end), (0, len(base)), (0, len(new)))
        except ScanError:
            return [new]
        finally:
            self.b, self.n = saved


def _records(buf: bytes) -> list[tuple[int, int, int, int]]:
    """Each non-blank line of a JSONL text: (where its blank lines before it start, where it
    starts, where its text ends, where its line end ends)."""
    out = []
    lead = pos = 0
    size = len(buf)
    find = buf.find
    while pos < size:
        nl = find(b"\n", pos)
        stop = size if nl == -1 else nl + 1
        end = stop if nl == -1 else nl
        if end > pos and buf[end - 1] == 0x0D:
            end -= 1
        if buf[pos:end].strip():
            out.append((lead, pos, end, stop))
            lead = stop
        pos = stop
    return out


def _plan(
    original: list[bytes], base: list[bytes], new: list[bytes]
) -> list[tuple[str, int, int, int]] | None:
    """The elements to write, in the original's order: ("keep", original index, -, -), ("merge",
    original index, baseline index, new index) or ("new", -, -, new index). None when an element
    the edit changed or removed stands for none of the original's."""
    fate: dict[int, int | None] = {}  # baseline index -> new index it became (None: removed)
    inserts: dict[int, list[int]] = {}  # baseline index -> new elements after it (-1: first)
    for tag, i1, i2, j1, j2 in _align(base, new):
        if tag == "equal":
            continue
        pairs = min(i2 - i1, j2 - j1)
        for k in range(pairs):
            fate[i1 + k] = j1 + k
        for i in range(i1 + pairs, i2):
            fate[i] = None
        if j2 > j1 + pairs:
            inserts.setdefault(i1 + pairs - 1, []).extend(range(j1 + pairs, j2))
    b2o = correspond(original, base)
    if any(b2o[i] is None for i in fate):
        return None
    o2b = {o: b for b, o in enumerate(b2o) if o is not None}
    plan = [("new", -1, -1, k) for k in inserts.pop(-1, ())]
    for i in range(len(original)):
        j = o2b.get(i)
        if j is None or j not in fate:
            plan.append(("keep", i, -1, -1))
        elif fate[j] is not None:
            plan.append(("merge", i, j, fate[j]))  # type: ignore[arg-type]
        if j is not None:
            plan.extend(("new", -1, -1, k) for k in inserts.pop(j, ()))
    for rest in inserts.values():
        plan.extend(("new", -1, -1, k) for k in rest)
    return plan


def _align(a: list[bytes], b: list[bytes]) -> list[tuple[str, int, int, int, int]]:
    """difflib opcodes of two lists of byte strings, the common head and tail found first."""
    head = 0
    limit = min(len(a), len(b))
    while head < limit and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < limit - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    ops: list[tuple[str, int, int, int, int]] = []
    if head:
        ops.append(("equal", 0, head, 0, head))
    matcher = SequenceMatcher(
        None, a[head : len(a) - tail], b[head : len(b) - tail], autojunk=False
    )
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        ops.append((tag, i1 + head, i2 + head, j1 + head, j2 + head))
    if tail:
        ops.append(("equal", len(a) - tail, len(a), len(b) - tail, len(b)))
    return ops
