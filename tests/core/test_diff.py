"""``diff``: alignment (insertions, deletions, moves, ids or none) and every kind of detail."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import msgviewer as mv
from msgviewer import (
    ImageBlock,
    Message,
    ReasoningBlock,
    TextBlock,
    ToolCall,
    ToolCallBlock,
    ToolResultBlock,
    Usage,
    diff,
)
from msgviewer.core.diff_values import json_diff, word_diff

SAMPLES = Path(__file__).resolve().parents[2] / "msgviewer" / "samples"


def history(n: int, ids: bool = False) -> list[Message]:
    out = []
    for k in range(n):
        ident = {"id": f"m{k}"} if ids else {}
        if k % 2:
            out.append(Message.assistant(f"answer number {k} about topic {k}", **ident))
        else:
            out.append(Message.user(f"question number {k}?", **ident))
    return out


def ops(result: mv.HistoryDiff) -> list[tuple[str, int | None, int | None]]:
    return [(c.op, c.a_index, c.b_index) for c in result.changes]


def changed(result: mv.HistoryDiff) -> list[mv.Change]:
    return [c for c in result.changes if c.op != "same"]


# -- alignment -----------------------------------------------------------------------------


@pytest.mark.parametrize("ids", [False, True])
def test_equal_histories_are_the_same(ids: bool) -> None:
    a = history(50, ids)
    result = diff(a, [dataclasses.replace(m) for m in a])
    assert result.same
    assert result.stat == {"same": 50, "changed": 0, "added": 0, "removed": 0}
    assert ops(result) == [("same", k, k) for k in range(50)]


@pytest.mark.parametrize("ids", [False, True])
def test_an_insertion_is_one_added_message(ids: bool) -> None:
    a = history(40, ids)
    b = [*a[:17], Message.user("an extra turn", **({"id": "new"} if ids else {})), *a[17:]]
    result = diff(a, b)
    assert not result.same
    assert changed(result) == [mv.Change("added", None, 17)]
    assert result.stat == {"same": 40, "changed": 0, "added": 1, "removed": 0}


@pytest.mark.parametrize("ids", [False, True])
def test_a_deletion_is_one_removed_message(ids: bool) -> None:
    a = history(40, ids)
    result = diff(a, a[:5] + a[6:])
    assert changed(result) == [mv.Change("removed", 5, None)]
    # what follows is matched to its new place
    assert ("same", 6, 5) in ops(result) and ("same", 39, 38) in ops(result)


def test_a_moved_message_is_a_removal_and_an_addition() -> None:
    a = history(30)
    b = a[:3] + a[4:20] + [a[3]] + a[20:]
    assert sorted((c.op, c.a_index, c.b_index) for c in changed(diff(a, b))) == [
        ("added", None, 19),
        ("removed", 3, None),
    ]


def test_a_changed_message_is_changed_not_added_and_removed() -> None:
    a = history(30)
    b = list(a)
    b[11] = dataclasses.replace(a[11], content="a different answer")
    [change] = changed(diff(a, b))
    assert (change.op, change.a_index, change.b_index) == ("changed", 11, 11)
    assert [d.kind for d in change.details] == ["text"]


def test_ids_match_messages_whatever_their_content() -> None:
    a = history(10, ids=True)
    b = list(a)
    b[4] = dataclasses.replace(a[4], role="assistant", content="rewritten entirely")
    [change] = changed(diff(a, b))
    assert (change.op, change.a_index, change.b_index) == ("changed", 4, 4)
    assert {d.kind for d in change.details} == {"role", "text"}


def test_different_ids_are_a_detail_unless_ignored() -> None:
    a = history(6, ids=True)
    b = [dataclasses.replace(m, id=f"run2-{k}") for k, m in enumerate(a)]
    result = diff(a, b)
    assert result.stat["changed"] == 6
    assert all([d.kind for d in c.details] == ["id"] for c in result.changes)
    assert diff(a, b, ignore_ids=True).same
    # compared only where both sides have one
    assert diff(a, [dataclasses.replace(m, id=None) for m in a]).same


def test_long_histories_with_scattered_edits_align_near_linearly() -> None:
    a = history(20_000)
    b = list(a)
    for at in (19_000, 12_345, 5_000, 100):
        b.insert(at, Message.user(f"inserted at {at}"))
    del b[7_000]
    result = diff(a, b)
    assert result.stat == {"same": 19_999, "changed": 0, "added": 4, "removed": 1}


def test_histories_in_no_common_order_still_cover_every_message() -> None:
    a = history(300)
    b = list(reversed(a))
    result = diff(a, b)
    assert sorted(c.a_index for c in result.changes if c.a_index is not None) == list(range(300))
    assert sorted(c.b_index for c in result.changes if c.b_index is not None) == list(range(300))


def test_conversations_are_accepted() -> None:
    [a] = mv.load(SAMPLES / "diff-fixture.json")
    [b] = mv.load(SAMPLES / "diff-new-run.json")
    result = diff(a, b)
    assert result.stat == {"same": 4, "changed": 2, "added": 2, "removed": 0}


# -- details -------------------------------------------------------------------------------


def one_change(a: Message, b: Message, **kw: bool) -> list[tuple[str, str, object, object]]:
    result = diff([Message.user("hi"), a], [Message.user("hi"), b], **kw)
    return [(d.kind, d.path, d.a, d.b) for c in changed(result) for d in c.details]


def test_a_new_role_without_ids_is_a_removal_and_an_addition() -> None:
    result = diff([Message.user("x")], [Message.system("x")])
    assert ops(result) == [("removed", 0, None), ("added", None, 0)]


def test_role_and_name() -> None:
    a, b = Message.user("x", name="ann", id="m"), Message.system("x", name="bob", id="m")
    assert one_change(a, b) == [
        ("role", "role", "user", "system"),
        ("name", "name", "ann", "bob"),
    ]


def test_text_is_a_word_diff() -> None:
    result = diff(
        [Message.assistant("the quick brown fox jumps")],
        [Message.assistant("the quick red fox jumps high")],
    )
    [detail] = result.changes[0].details
    assert detail.kind == "text" and detail.path == "text[0]"
    assert detail.words == (
        ("=", "the quick "),
        ("-", "brown"),
        ("+", "red"),
        ("=", " fox jumps"),
        ("+", " high"),
    )
    for side, op in (("a", "+"), ("b", "-")):
        assert "".join(t for o, t in detail.words if o != op) == getattr(detail, side)


def test_reasoning_text_and_other_blocks() -> None:
    a = Message.assistant([ReasoningBlock("think first"), TextBlock("ok")])
    b = Message.assistant(
        [ReasoningBlock("think twice"), TextBlock("ok"), ImageBlock(url="https://x/y.png")]
    )
    assert one_change(a, b) == [
        ("text", "reasoning[0]", "think first", "think twice"),
        ("block", "image[0]", None, {"type": "image", "url": "https://x/y.png"}),
    ]


def test_tool_arguments_by_json_path() -> None:
    a = Message.assistant(tool_calls=[ToolCall("c1", "grep", {"q": "x", "opts": {"n": [1, 2]}})])
    b = Message.assistant(tool_calls=[ToolCall("c1", "grep", {"q": "y", "opts": {"n": [1, 3]}})])
    assert one_change(a, b) == [
        ("args", "tool_calls[0].args.q", "x", "y"),
        ("args", "tool_calls[0].args.opts.n[1]", 2, 3),
    ]


def test_tool_calls_match_by_id_else_by_position_and_name() -> None:
    a = Message.assistant(
        tool_calls=[ToolCall("c1", "read", {"p": 1}), ToolCall("c2", "grep", {"q": 1})]
    )
    # by id: the order changed, only the arguments of c2 did
    b = Message.assistant(
        tool_calls=[ToolCall("c2", "grep", {"q": 2}), ToolCall("c1", "read", {"p": 1})]
    )
    assert one_change(a, b) == [("args", "tool_calls[0].args.q", 1, 2)]
    # without ids: by name, in order; a call of a new name is added, the old one removed
    c = Message.assistant(tool_calls=[ToolCall(None, "read", {"p": 9}), ToolCall(None, "ls", {})])
    d = Message.assistant(tool_calls=[ToolCall(None, "read", {"p": 8}), ToolCall(None, "cat", {})])
    assert one_change(c, d) == [
        ("args", "tool_calls[0].args.p", 9, 8),
        ("tool_call", "tool_calls[1]", {"name": "ls", "args": {}}, None),
        ("tool_call", "tool_calls[1]", None, {"name": "cat", "args": {}}),
    ]


def test_tool_call_blocks_and_tool_call_fields_are_one_thing() -> None:
    a = Message.assistant(tool_calls=[ToolCall("c1", "read", {"p": 1})])
    b = Message.assistant([ToolCallBlock("c1", "read", {"p": 1})])
    assert one_change(a, b) == []


def test_tool_results_by_json_path_or_words() -> None:
    a = Message.tool('{"temp": 19, "sky": "sunny"}', tool_call_id="c1")
    b = Message.tool('{"temp": 21, "sky": "sunny"}', tool_call_id="c1")
    assert one_change(a, b) == [("result", "result.temp", 19, 21)]
    c = Message.tool("3 passed", tool_call_id="c1")
    d = Message.tool("2 passed, 1 failed", tool_call_id="c1", is_error=True)
    assert one_change(c, d) == [
        ("is_error", "is_error", False, True),
        ("result", "result.text[0]", "3 passed", "2 passed, 1 failed"),
    ]


def test_a_result_block_is_a_tool_message() -> None:
    # Anthropic's form (results in a user message) against OpenAI's (one tool message each)
    a = [
        Message.assistant(tool_calls=[ToolCall("c1", "f", {}), ToolCall("c2", "g", {})]),
        Message.user([ToolResultBlock("c1", "one"), ToolResultBlock("c2", "two")]),
    ]
    b = [a[0], Message.tool("one", tool_call_id="c1"), Message.tool("two", tool_call_id="c2")]
    result = diff(a, b)
    assert result.same and ops(result) == [("same", 0, 0), ("same", 1, 1), ("same", 1, 2)]
    b[2] = Message.tool("three", tool_call_id="c2")
    assert ops(diff(a, b))[-1] == ("changed", 1, 2)


def test_usage_deltas_unless_ignored() -> None:
    a = Message.assistant("x", usage=Usage(input_tokens=100, output_tokens=10))
    b = Message.assistant("x", usage=Usage(input_tokens=100, output_tokens=25))
    result = diff([a], [b])
    details = result.changes[0].details
    assert [(d.path, d.a, d.b, d.delta) for d in details] == [
        ("usage.output_tokens", 10, 25, 15),
        ("usage.total_tokens", 110, 125, 15),
    ]
    assert diff([a], [b], ignore_usage=True).same


def test_ids_of_calls_and_results() -> None:
    a = Message.tool("r", tool_call_id="c1")
    b = Message.tool("r", tool_call_id="c9")
    assert one_change(a, b) == [("id", "tool_call_id", "c1", "c9")]
    assert one_change(a, b, ignore_ids=True) == []
    c = Message.assistant(tool_calls=[ToolCall("c1", "f", {})])
    d = Message.assistant(tool_calls=[ToolCall("c9", "f", {})])
    assert one_change(c, d) == [("id", "tool_calls[0].id", "c1", "c9")]


def test_metadata_unless_ignored() -> None:
    a = Message.assistant("x", response_metadata={"model": "m1", "stop": "end"})
    b = Message.assistant("x", response_metadata={"model": "m2"}, metadata={"k": 1})
    assert one_change(a, b) == [
        ("metadata", "metadata.k", None, 1),
        ("metadata", "response_metadata.model", "m1", "m2"),
        ("metadata", "response_metadata.stop", "end", None),
    ]
    assert one_change(a, b, ignore_metadata=True) == []


def test_ignore_metadata_skips_what_one_side_never_holds() -> None:
    with_reasoning = Message.assistant([ReasoningBlock("hmm"), TextBlock("answer")])
    assert one_change(with_reasoning, Message.assistant("answer"), ignore_metadata=True) == []
    # ...but not what both sides hold
    a = [Message.assistant([ReasoningBlock("hmm"), TextBlock("a")])] * 2
    b = [a[0], Message.assistant("a")]
    assert not diff(a, b, ignore_metadata=True).same


def test_the_json_form() -> None:
    [a] = mv.load(SAMPLES / "diff-fixture.json")
    [b] = mv.load(SAMPLES / "diff-new-run.json")
    d = diff(a, b).to_dict()
    assert list(d) == ["same", "stat", "changes"]
    assert d["same"] is False
    assert all(set(c) == {"op", "a", "b", "details"} for c in d["changes"])
    result = next(c for c in d["changes"] if c["op"] == "changed")
    assert result["details"] == [
        {"kind": "result", "path": "result.temp_c", "a": 19, "b": 21},
        {"kind": "result", "path": "result.sky", "a": "sunny", "b": "sunny, light wind"},
    ]
    usage = [x for c in d["changes"] for x in c["details"] if x["kind"] == "usage"]
    assert usage[0]["delta"] == 3


# -- the two small diffs --------------------------------------------------------------------


def test_word_diff_of_equal_and_empty_texts() -> None:
    assert word_diff("a b", "a b") == (("=", "a b"),)
    assert word_diff("", "new") == (("+", "new"),)


def test_json_diff_paths() -> None:
    assert list(json_diff({"a b": [1, {"c": True}]}, {"a b": [1, {"c": 1}], "d": None})) == [
        ('["a b"][1].c', True, 1),
        ("d", json_diff.__globals__["MISSING"], None),
    ]


def test_json_results_differing_past_64_bits_differ() -> None:
    # orjson reads both numbers as one float: the change would be lost
    a = Message.tool('{"job": 123456789012345678901234}', tool_call_id="c1")
    b = Message.tool('{"job": 123456789012345678901235}', tool_call_id="c1")
    details = one_change(a, b)
    assert [(kind, a_, b_) for kind, _path, a_, b_ in details] == [
        ("result", 123456789012345678901234, 123456789012345678901235)
    ]
