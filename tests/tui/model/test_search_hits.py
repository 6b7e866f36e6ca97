"""Search matches kept compactly (``Hits``) and haystacks kept in chunks, edited a chunk at a
time: each compared with the plain list it stands for, and with an index built afresh."""

from __future__ import annotations

import bisect
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from msgviewer import Message
from msgviewer.formats import Conversation
from msgviewer.tui.model import search
from msgviewer.tui.model.search import SearchIndex
from msgviewer.tui.model.search_hits import Hits, next_hit
from msgviewer.tui.model.session import Session

_BY_CONV = st.lists(st.lists(st.integers(0, 60), unique=True).map(sorted), max_size=4)


@given(_BY_CONV, st.data())
def test_hits_read_as_the_sorted_pairs_they_stand_for(by_conv: list[list[int]], data) -> None:
    hits = Hits(enumerate(by_conv))
    pairs = [(c, m) for c, found in enumerate(by_conv) for m in found]
    assert list(hits) == pairs and len(hits) == len(pairs)
    assert hits == pairs and hits == tuple(pairs) and hits == Hits(enumerate(by_conv))
    assert hits != [*pairs, (9, 9)]
    for i in range(-len(pairs), len(pairs)):
        assert hits[i] == pairs[i]
    assert hits[1:3] == tuple(pairs[1:3])
    here = data.draw(st.tuples(st.integers(0, 4), st.integers(0, 61)))
    assert bisect.bisect_left(hits, here) == bisect.bisect_left(pairs, here)
    if pairs:
        for step in (1, -1):
            got = next_hit(hits, here, -1, step, from_cursor=True)
            assert got == next_hit(pairs, here, -1, step, from_cursor=True)
    odd = hits.kept(lambda c, m: (c + m) % 2 == 1)
    assert list(odd) == [(c, m) for c, m in pairs if (c + m) % 2 == 1]


def test_hits_out_of_range_raise_index_error() -> None:
    hits = Hits([(0, [1, 2]), (2, [])])
    for i in (2, -3):
        try:
            hits[i]
        except IndexError:
            continue
        raise AssertionError(f"hits[{i}] answered")
    assert Hits() == () and not Hits() and len(Hits([(0, []), (1, [])])) == 0


_WORDS = st.lists(st.sampled_from(["alpha", "beta", "Gamma", "delta"]), max_size=3)
_EDIT = st.tuples(st.integers(0, 30), st.integers(0, 6), st.lists(_WORDS, max_size=6))


def _messages(words: list[list[str]]) -> tuple[Message, ...]:
    return tuple(Message.user(" ".join(w) or "-") for w in words)


@settings(max_examples=80, deadline=None)
@given(before=st.lists(_WORDS, min_size=1, max_size=30), edits=st.lists(_EDIT, max_size=6))
def test_edits_across_chunks_find_what_a_fresh_index_finds(
    before: list[list[str]], edits: list[tuple[int, int, list[list[str]]]]
) -> None:
    # Chunks of three haystacks: an edit of a few messages falls across two or three chunks,
    # at their edges, or past the last one.
    with mock.patch.object(search, "CHUNK", 3):
        session = Session.from_conversations([Conversation(_messages(before))])
        index = SearchIndex(session)
        index.find("a")
        for start, old, words in edits:
            kept = session.convs[0].messages
            start = min(start, len(kept))
            old = min(old, len(kept) - start)
            new = _messages(words)
            session.replace_messages(0, Conversation(kept[:start] + new + kept[start + old :]))
            index.splice(0, start, old, len(new))
            chunks = index._hay[0]  # type: ignore[index]
            assert all(0 < len(chunk) <= 3 for chunk in chunks)
            assert sum(map(len, chunks)) == len(session.convs[0].messages)
        for query in ("alpha", "BETA", "gamma", "delta", "a b"):
            assert index.find(query) == SearchIndex(session).find(query)


def test_an_edit_makes_again_only_the_chunks_it_touched() -> None:
    session = Session.from_conversations([Conversation(_messages([["alpha"]] * 10_000))])
    index = SearchIndex(session)
    index.find("alpha")
    before = list(index._hay[0])  # type: ignore[index]
    kept = session.convs[0].messages
    session.replace_messages(0, Conversation(kept[:5000] + kept[5001:]))
    index.splice(0, 5000, 1, 0)
    after = index._hay[0]  # type: ignore[index]
    remade = [chunk for chunk in after if not any(chunk is old for old in before)]
    assert len(remade) == 1 and len(remade[0]) == search.CHUNK - 1
    assert len(index.find("alpha")) == 9_999  # type: ignore[arg-type]
