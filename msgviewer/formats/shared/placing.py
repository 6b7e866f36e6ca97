"""``insert_each``: items put back at their recorded positions among a list, as ``list.insert``
would put them one after the other, in one pass.

Writers put each tool call back at its place among a message's content blocks. An insert per
call moves every block after it: quadratic in the parallel calls of one message.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def insert_each(items: Sequence[Any], placed: Sequence[tuple[int, Any]]) -> list[Any]:
    """``items`` with each ``(index, value)`` of ``placed`` (sorted by index) inserted in
    turn at ``min(index, len(so_far))``: the list the inserts would make."""
    if placed and placed[0][0] < 0:  # a hand-made negative index: insert as a list would
        out = list(items)
        for index, value in placed:
            out.insert(min(index, len(out)), value)
        return out
    out = []
    taken = 0
    for index, value in placed:
        if len(out) < index and taken < len(items):
            more = items[taken : taken + index - len(out)]
            out.extend(more)
            taken += len(more)
        if index < len(out):
            out.insert(index, value)  # an index repeated: in front, as an insert puts it
        else:
            out.append(value)
    out.extend(items[taken:])
    return out
