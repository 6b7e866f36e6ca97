"""Aligning two histories: which unit of one is which unit of the other.

Near-linear when the histories mostly agree, which is the usual case (a fixture and a new
run): units with the same id on both sides are anchors first (the longest run of them in
order); between anchors, a common prefix and suffix of equal fingerprints is matched in one
pass, and what is left is split again on the fingerprints that occur once on each side
(patience alignment), until the pieces are small enough for ``difflib.SequenceMatcher``.
Where neither side matches, units of the same role are paired (a changed message) and the
rest are removed or added, so a moved message shows as one removal and one addition.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from difflib import SequenceMatcher

Pair = tuple[int | None, int | None]
"""Positions of a unit on each side; None where it exists on one side only."""

_SMALL = 40_000  # len(a) * len(b) up to which SequenceMatcher aligns a piece directly
_PAIR_SMALL = 10_000  # the same for pairing unmatched units by role


def align(
    fa: Sequence[int],
    fb: Sequence[int],
    roles_a: Sequence[str],
    roles_b: Sequence[str],
    anchors: Sequence[tuple[int, int]] = (),
) -> list[Pair]:
    """Pairs covering every position of both sides, in order.

    ``fa``/``fb`` are the fingerprints, ``anchors`` pairs known to match (by id), ascending
    on the first side; those out of order on the second side are dropped.
    """
    out: list[Pair] = []
    _Aligner(fa, fb, roles_a, roles_b, out)._between(_increasing(anchors), 0, len(fa), 0, len(fb))
    return out


def _increasing(pairs: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest subsequence of ``pairs`` (sorted on the first) increasing on the second."""
    if not pairs:
        return []
    tails: list[int] = []  # tails[k]: the smallest second value ending a run of length k+1
    tail_at: list[int] = []  # ... and the index in ``pairs`` of that pair
    before = [-1] * len(pairs)
    for n, (_, j) in enumerate(pairs):
        k = bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            tail_at.append(n)
        else:
            tails[k] = j
            tail_at[k] = n
        before[n] = tail_at[k - 1] if k else -1
    run = []
    n = tail_at[-1]
    while n != -1:
        run.append(pairs[n])
        n = before[n]
    run.reverse()
    return run


class _Aligner:
    __slots__ = ("fa", "fb", "out", "ra", "rb")

    def __init__(
        self,
        fa: Sequence[int],
        fb: Sequence[int],
        ra: Sequence[str],
        rb: Sequence[str],
        out: list[Pair],
    ) -> None:
        self.fa, self.fb, self.ra, self.rb, self.out = fa, fb, ra, rb, out

    def piece(self, a0: int, a1: int, b0: int, b1: int) -> None:
        """Align ``fa[a0:a1]`` with ``fb[b0:b1]``, appending to ``out``."""
        fa, fb, out = self.fa, self.fb, self.out
        while a0 < a1 and b0 < b1 and fa[a0] == fb[b0]:
            out.append((a0, b0))
            a0 += 1
            b0 += 1
        end = 0
        while a1 - end > a0 and b1 - end > b0 and fa[a1 - end - 1] == fb[b1 - end - 1]:
            end += 1
        self._middle(a0, a1 - end, b0, b1 - end)
        out.extend((a1 - end + k, b1 - end + k) for k in range(end))

    def _middle(self, a0: int, a1: int, b0: int, b1: int) -> None:
        if a0 == a1 or b0 == b1:
            self.out.extend((i, None) for i in range(a0, a1))
            self.out.extend((None, j) for j in range(b0, b1))
            return
        if (a1 - a0) * (b1 - b0) <= _SMALL:
            self._matcher(a0, a1, b0, b1)
            return
        anchors = self._unique_anchors(a0, a1, b0, b1)
        if not anchors:
            self._matcher(a0, a1, b0, b1, autojunk=True)
            return
        self._between(anchors, a0, a1, b0, b1)

    def _between(self, anchors: list[tuple[int, int]], a0: int, a1: int, b0: int, b1: int) -> None:
        """The anchors, and the pieces between them aligned."""
        out = self.out
        for i, j in anchors:
            if i != a0 or j != b0:  # (most anchors follow the one before)
                self.piece(a0, i, b0, j)
            out.append((i, j))
            a0, b0 = i + 1, j + 1
        self.piece(a0, a1, b0, b1)

    def _unique_anchors(self, a0: int, a1: int, b0: int, b1: int) -> list[tuple[int, int]]:
        """Fingerprints found once on each side, the longest run of them in order."""
        count_a = Counter(self.fa[a0:a1])
        count_b = Counter(self.fb[b0:b1])
        at_b = {f: j for j, f in enumerate(self.fb[b0:b1], b0) if count_b[f] == 1}
        pairs = [
            (i, at_b[f]) for i, f in enumerate(self.fa[a0:a1], a0) if count_a[f] == 1 and f in at_b
        ]
        return _increasing(pairs)

    def _matcher(self, a0: int, a1: int, b0: int, b1: int, autojunk: bool = False) -> None:
        # autojunk off for small pieces: it would treat a fingerprint seen in more than 1% of
        # a 200+ long piece ("ok", a repeated tool result) as noise that cannot anchor a match.
        # On a large piece without a single unique fingerprint it bounds the time taken.
        matcher = SequenceMatcher(None, self.fa[a0:a1], self.fb[b0:b1], autojunk=autojunk)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                self.out.extend((a0 + i1 + k, b0 + j1 + k) for k in range(i2 - i1))
            else:
                self._by_role(a0 + i1, a0 + i2, b0 + j1, b0 + j2)

    def _by_role(self, a0: int, a1: int, b0: int, b1: int) -> None:
        """Units matched by nothing else: the same role at the same place is a change."""
        out = self.out
        if a0 == a1 or b0 == b1:
            out.extend((i, None) for i in range(a0, a1))
            out.extend((None, j) for j in range(b0, b1))
            return
        ra, rb = self.ra[a0:a1], self.rb[b0:b1]
        if len(ra) * len(rb) <= _PAIR_SMALL:
            ops = SequenceMatcher(None, ra, rb, autojunk=False).get_opcodes()
        else:  # too many to align: pair in place where the roles agree
            n = min(len(ra), len(rb))
            ops = [
                ("equal", k, k + 1, k, k + 1) if ra[k] == rb[k] else ("replace", k, k + 1, k, k + 1)
                for k in range(n)
            ]
            ops.append(("replace", n, len(ra), n, len(rb)))
        for tag, i1, i2, j1, j2 in ops:
            if tag == "equal":
                out.extend((a0 + i1 + k, b0 + j1 + k) for k in range(i2 - i1))
            else:
                out.extend((a0 + i, None) for i in range(i1, i2))
                out.extend((None, b0 + j) for j in range(j1, j2))
