"""``ToolLinks``: the pairing of a history's tool calls and results that ``link_tools`` builds,
asked by call id, by reference or by message; and the calls left unanswered, the results that
answer nothing, the ids used twice."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ._frozen import builder
from .tool_refs import CallRef, ResultRef, _CallRow, _ResultRow

# What ``ToolLinks._call_result`` holds for a call without a result row: unanswered, or a server
# call whose own status says it ran (well or not).
UNANSWERED, RAN, RAN_FAILED = -1, -2, -3
_RAN_STATUSES = frozenset({"completed", "complete", "done", "succeeded", "success"})


class ToolLinks:
    """The pairing of a history's tool calls and results. Built by ``link_tools``.

    The pairing is kept as plain rows (the fields of ``CallRef``/``ResultRef`` in order);
    the refs are made on first use, so linking a large history for a count or a lint builds
    no per-call objects.
    """

    __slots__ = (
        "__weakref__",  # (a cache of what it holds must not keep a 100k-call analysis alive)
        "_call_by_id",
        "_call_result",
        "_call_rows",
        "_calls",
        "_calls_at",
        "_irregular",
        "_pos_index",
        "_repeated",
        "_result_call",
        "_result_rows",
        "_results",
        "_results_at",
        "duplicate_ids",
    )

    def __init__(
        self,
        call_rows: list[_CallRow],
        result_rows: list[_ResultRow],
        call_result: list[int],
        result_call: list[int],
        duplicate_ids: tuple[str, ...],
        irregular: list[int],
        repeated: set[int],
    ) -> None:
        self.duplicate_ids = duplicate_ids
        """Call ids used by more than one call, in order of first use."""
        self._call_rows = call_rows
        self._result_rows = result_rows
        self._call_result = call_result
        self._result_call = result_call
        self._calls_at: dict[int, tuple[int, int]] | None = None
        self._results_at: dict[int, tuple[int, int]] | None = None
        # Per id space (client, server): the first call with each id, made on first use.
        self._call_by_id: tuple[dict[str, int], dict[str, int]] | None = None
        self._irregular = irregular  # calls without an id, with a repeated id, or invalid
        self._repeated = repeated  # calls whose id an earlier call (same id space) used
        self._calls: tuple[CallRef, ...] | None = None
        self._results: tuple[ResultRef, ...] | None = None
        self._pos_index: dict[tuple[bool, int], dict[Any, int]] = {}

    @property
    def calls(self) -> tuple[CallRef, ...]:
        """Every call, in history order."""
        if self._calls is None:
            build = builder(CallRef)
            self._calls = tuple([build(*row) for row in self._call_rows])
        return self._calls

    @property
    def results(self) -> tuple[ResultRef, ...]:
        """Every result, in history order."""
        if self._results is None:
            build = builder(ResultRef)
            rows = self._call_rows
            out = []
            for (mi, bi, is_error, name, cid, server), i in zip(
                self._result_rows, self._result_call, strict=True
            ):
                if name is None and i >= 0:
                    name = rows[i][3]  # a result block is named after the call it answers
                out.append(build(mi, bi, is_error, name, cid, server))
            self._results = tuple(out)
        return self._results

    # -- by id ----------------------------------------------------------------------------

    def call_for(self, call_id: str, *, server: bool | None = None) -> CallRef | None:
        """The (first) call with ``call_id``; client calls first unless ``server`` is given."""
        by_id = self._first_calls()
        for srv in (False, True) if server is None else (server,):
            i = by_id[srv].get(call_id)
            if i is not None:
                return self.calls[i]
        return None

    def result_for(self, call_id: str, *, server: bool | None = None) -> ResultRef | None:
        """The result answering the (first) call with ``call_id``, or None."""
        call = self.call_for(call_id, server=server)
        return None if call is None else self.result_of(call)

    # -- by reference ---------------------------------------------------------------------

    def result_of(self, call: CallRef) -> ResultRef | None:
        """The result paired with this call (exact even when ids are duplicated); None for a
        server call that ran with no result of its own (see ``status``)."""
        j = self._call_result[self._call_pos(call)]
        return None if j < 0 else self.results[j]

    def call_of(self, result: ResultRef) -> CallRef | None:
        """The call this result answers, or None for an orphan."""
        i = self._result_call[self._result_pos(result)]
        return None if i < 0 else self.calls[i]

    def status(self, call: CallRef) -> str:
        """``"answered"``, ``"error"`` (answered by an error result) or ``"unanswered"``.

        A server call the provider reports as run, with no result of its own, is answered (or
        an error, by its status): ``result_of`` is None for it."""
        j = self._call_result[self._call_pos(call)]
        if j == UNANSWERED:
            return "unanswered"
        if j < 0:
            return "error" if j == RAN_FAILED else "answered"
        return "error" if self.results[j].is_error else "answered"

    # -- by message -----------------------------------------------------------------------

    def calls_in(self, message_index: int) -> tuple[CallRef, ...]:
        """The calls made in message ``message_index``, in order."""
        span = self._call_spans().get(message_index)
        return () if span is None else self.calls[span[0] : span[1]]

    def results_in(self, message_index: int) -> tuple[ResultRef, ...]:
        """The results carried by message ``message_index``, in order."""
        span = self._result_spans().get(message_index)
        return () if span is None else self.results[span[0] : span[1]]

    # -- problems -------------------------------------------------------------------------

    @property
    def pairs(self) -> tuple[tuple[CallRef, ResultRef], ...]:
        """(call, result) for every answered call, in call order."""
        results = self.results
        return tuple(
            (call, results[j])
            for call, j in zip(self.calls, self._call_result, strict=True)
            if j >= 0
        )

    @property
    def unanswered_calls(self) -> tuple[CallRef, ...]:
        """Calls no result answers (and that did not run on the provider's side), in order."""
        return tuple(
            c for c, j in zip(self.calls, self._call_result, strict=True) if j == UNANSWERED
        )

    @property
    def orphan_results(self) -> tuple[ResultRef, ...]:
        """Results that answer no call, in order."""
        return tuple(r for r, i in zip(self.results, self._result_call, strict=True) if i < 0)

    @property
    def result_before_call(self) -> tuple[tuple[CallRef, ResultRef], ...]:
        """(call, result) pairs where the result comes earlier in the history than its call."""
        return tuple(
            (call, result) for call, result in self.pairs if _position(result) < _position(call)
        )

    def __iter__(self) -> Iterator[tuple[CallRef, ResultRef | None]]:
        """(call, result or None) for every call, in order."""
        results = self.results
        for call, j in zip(self.calls, self._call_result, strict=True):
            yield call, (results[j] if j >= 0 else None)

    def __repr__(self) -> str:
        return (
            f"ToolLinks({len(self.calls)} calls, {len(self.results)} results, "
            f"{len(self.unanswered_calls)} unanswered, {len(self.orphan_results)} orphans)"
        )

    # -- helpers --------------------------------------------------------------------------

    def _first_calls(self) -> tuple[dict[str, int], dict[str, int]]:
        """Per id space (client, server): each id's first call. Made only when asked for: at
        100k calls the dict costs a fifth of the linking."""
        if self._call_by_id is None:
            by_id: tuple[dict[str, int], dict[str, int]] = ({}, {})
            for k, row in enumerate(self._call_rows):
                cid = row[4]
                if cid is not None:
                    by_id[row[5]].setdefault(cid, k)
            self._call_by_id = by_id
        return self._call_by_id

    def _call_spans(self) -> dict[int, tuple[int, int]]:
        if self._calls_at is None:
            self._calls_at = _spans(self._call_rows)
        return self._calls_at

    def _result_spans(self) -> dict[int, tuple[int, int]]:
        if self._results_at is None:
            self._results_at = _spans(self._result_rows)
        return self._results_at

    def _call_pos(self, call: CallRef) -> int:
        lo, hi = self._call_spans().get(call.message_index, (0, 0))
        i = _find(self.calls, lo, hi, call, self._pos_index)
        if i is None:
            raise ValueError(f"{call!r} is not a call of this history")
        return i

    def _result_pos(self, result: ResultRef) -> int:
        lo, hi = self._result_spans().get(result.message_index, (0, 0))
        i = _find(self.results, lo, hi, result, self._pos_index)
        if i is None:
            raise ValueError(f"{result!r} is not a result of this history")
        return i


_SCAN = 16
"""A message with more calls (or results) than this gets an index: asking for the status
of each of its 100,000 calls must not scan them all every time."""


def _find(
    refs: tuple[Any, ...], lo: int, hi: int, ref: Any, indexes: dict[tuple[bool, int], Any]
) -> int | None:
    """Position of ``ref`` among ``refs[lo:hi]`` (one message's calls or results)."""
    if hi - lo <= _SCAN:
        for i in range(lo, hi):
            if refs[i] == ref:
                return i
        return None
    key = (type(ref) is CallRef, lo)
    index = indexes.get(key)
    if index is None:
        index = indexes[key] = {refs[i]: i for i in range(lo, hi)}
    return index.get(ref)


def _spans(rows: list[_CallRow] | list[_ResultRow]) -> dict[int, tuple[int, int]]:
    """Message index -> (first, end) of its rows: rows come in message order."""
    spans: dict[int, tuple[int, int]] = {}
    start = 0
    for n, row in enumerate(rows):
        mi = row[0]
        if n + 1 == len(rows) or rows[n + 1][0] != mi:
            spans[mi] = (start, n + 1)
            start = n + 1
    return spans


def _position(ref: CallRef | ResultRef) -> tuple[int, int]:
    """Order of a ref in the history: whole messages and ``tool_calls`` sort after blocks."""
    block = ref.block_index
    return (ref.message_index, 1 << 30 if block is None else block)
