"""Lint rules and their fixes: each fix removes its problem and breaks nothing else."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from msgviewer.core import (
    InvalidToolCall,
    Message,
    ServerToolCallBlock,
    ServerToolResultBlock,
    TextBlock,
    ToolCall,
    ToolCallBlock,
    ToolResultBlock,
    Usage,
)
from msgviewer.core.fixes import PLACEHOLDER
from msgviewer.core.links import link_tools
from msgviewer.core.lint import Fix, Problem, fix_all, lint
from msgviewer.core.message_fixes import START_PLACEHOLDER, merge_into_previous, merge_message
from msgviewer.core.repair_json import repair_json


def call(cid: str, name: str = "get_weather", **args: object) -> ToolCall:
    return ToolCall(cid, name, dict(args))


def summary(problems: list[Problem]) -> Counter[tuple[str, str]]:
    """Problems by what they say, not where: indices move when a fix inserts or drops."""
    return Counter((p.code, p.text) for p in problems)


def only(problems: list[Problem], code: str) -> Problem:
    found = [p for p in problems if p.code == code]
    assert len(found) == 1, problems
    return found[0]


def fix_one(messages: list[Message], code: str, provider: str | None = None) -> list[Message]:
    """Apply the fix of the one ``code`` problem; check it is gone and nothing else changed."""
    before = lint(messages, provider=provider)
    problem = only(before, code)
    assert problem.fix is not None
    snapshot = list(messages)
    fixed = problem.fix.apply(list(messages))
    assert messages == snapshot  # fixes are pure
    after = lint(fixed, provider=provider)
    expected = summary(before)
    expected[(problem.code, problem.text)] -= 1
    assert summary(after) == +expected
    return fixed


def clean_openai() -> list[Message]:
    return [
        Message.system("You are a weather bot."),
        Message.user("Weather in Paris and Oslo?"),
        Message.assistant("", tool_calls=[call("c1", city="Paris"), call("c2", city="Oslo")]),
        Message.tool("18", tool_call_id="c1", name="get_weather"),
        Message.tool("7", tool_call_id="c2", name="get_weather"),
        Message.assistant("Paris 18°C, Oslo 7°C."),
        Message.user("Thanks"),
    ]


def clean_anthropic() -> list[Message]:
    return [
        Message.system("You are a weather bot."),
        Message.user("Weather in Paris?"),
        Message.assistant(
            (
                TextBlock("Searching."),
                ServerToolCallBlock("srv1", "web_search", {"query": "paris"}),
                ServerToolResultBlock("srv1", [{"type": "web_search_result"}]),
                ToolCallBlock("toolu_1", "get_weather", {"city": "Paris"}),
            )
        ),
        Message.user((ToolResultBlock("toolu_1", "18"), TextBlock("and Oslo?"))),
        Message.assistant("Paris is 18°C; Oslo I do not know."),
    ]


@pytest.mark.parametrize("provider", [None, "openai", "anthropic", "gemini"])
@pytest.mark.parametrize("history", [clean_openai, clean_anthropic])
def test_clean_histories_have_no_problems(history, provider) -> None:
    assert lint(history(), provider=provider) == []


def test_unknown_provider_is_refused() -> None:
    with pytest.raises(ValueError, match="provider"):
        lint([], provider="cohere")


def test_problems_and_fixes_are_immutable() -> None:
    messages = [*clean_openai()[:3], Message.user("next")]
    problem = lint(messages)[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        problem.code = "x"  # type: ignore[misc]
    assert isinstance(problem.fix, Fix)
    with pytest.raises(dataclasses.FrozenInstanceError):
        problem.fix.label = "x"  # type: ignore[misc]


# -- unanswered calls -------------------------------------------------------------------


def test_unanswered_call_gets_a_tool_message_placeholder() -> None:
    messages = clean_openai()
    del messages[4]  # c2 never answered
    problem = only(lint(messages), "unanswered-call")
    assert (problem.severity, problem.index, problem.block) == ("error", 2, None)
    assert "c2" in problem.text
    fixed = fix_one(messages, "unanswered-call")
    placeholder = fixed[4]
    assert placeholder.role == "tool" and placeholder.tool_call_id == "c2"
    assert placeholder.is_error and placeholder.content == PLACEHOLDER
    assert placeholder.name == "get_weather"
    assert fixed[3].tool_call_id == "c1"  # the existing result keeps its place, first


def test_unanswered_call_gets_a_block_placeholder_in_anthropic_shape() -> None:
    messages = clean_anthropic()
    messages[2] = dataclasses.replace(
        messages[2], content=(*messages[2].content, ToolCallBlock("toolu_2", "get_weather", {}))
    )
    fixed = fix_one(messages, "unanswered-call", "anthropic")
    results = fixed[3].content
    assert [type(b).__name__ for b in results] == [
        "ToolResultBlock",
        "ToolResultBlock",
        "TextBlock",
    ]
    assert results[1].tool_call_id == "toolu_2" and results[1].is_error


def test_unanswered_call_at_the_end_is_only_a_warning() -> None:
    messages = [Message.user("go"), Message.assistant("", tool_calls=[call("c9")])]
    problem = only(lint(messages), "unanswered-call")
    assert problem.severity == "warning" and "waiting" in problem.text
    fixed = fix_one(messages, "unanswered-call")
    assert fixed[-1].role == "tool" and fixed[-1].tool_call_id == "c9"


def test_unanswered_server_call_is_answered_in_place() -> None:
    messages = [
        Message.user("search"),
        Message.assistant((ServerToolCallBlock("srv", "web_search", {}), TextBlock("found"))),
        Message.user("ok"),
    ]
    problem = only(lint(messages), "unanswered-call")
    assert problem.severity == "warning" and problem.block == 0
    fixed = fix_one(messages, "unanswered-call")
    block = fixed[1].content[1]
    assert isinstance(block, ServerToolResultBlock) and block.tool_call_id == "srv"


# -- orphans, duplicates, order ---------------------------------------------------------


def test_orphan_tool_message_is_dropped() -> None:
    messages = clean_openai()
    messages.insert(5, Message.tool("stray", tool_call_id="ghost"))
    problem = only(lint(messages), "orphan-result")
    assert (problem.severity, problem.index) == ("error", 5)
    fixed = fix_one(messages, "orphan-result")
    assert fixed == clean_openai()


def test_orphan_block_is_dropped_and_the_text_kept() -> None:
    messages = clean_anthropic()
    messages[3] = Message.user(
        (ToolResultBlock("toolu_1", "18"), ToolResultBlock("ghost", "?"), TextBlock("and Oslo?"))
    )
    problem = only(lint(messages, provider="anthropic"), "orphan-result")
    assert (problem.index, problem.block) == (3, 1)
    fixed = fix_one(messages, "orphan-result", "anthropic")
    assert fixed == clean_anthropic()


def test_orphan_only_message_is_dropped_whole() -> None:
    messages = [*clean_anthropic(), Message.user((ToolResultBlock("ghost", "?"),))]
    fixed = fix_one(messages, "orphan-result", "anthropic")
    assert fixed == clean_anthropic()


def test_duplicate_id_is_renamed_with_its_result() -> None:
    messages = [
        Message.user("list twice"),
        Message.assistant("", tool_calls=[call("dup", "ls")]),
        Message.tool("a", tool_call_id="dup"),
        Message.assistant("", tool_calls=[call("dup", "ls")]),
        Message.tool("b", tool_call_id="dup"),
        Message.assistant("done"),
    ]
    problem = only(lint(messages), "duplicate-call-id")
    assert (problem.severity, problem.index) == ("error", 3)
    fixed = fix_one(messages, "duplicate-call-id")
    assert fixed[1].tool_calls[0].id == "dup" and fixed[2].tool_call_id == "dup"
    new_id = fixed[3].tool_calls[0].id
    assert new_id != "dup" and fixed[4].tool_call_id == new_id
    assert link_tools(fixed).result_for(new_id).message_index == 4  # type: ignore[union-attr]


def test_duplicate_block_ids_are_renamed_with_their_results() -> None:
    messages = [
        Message.user("x"),
        Message.assistant((ToolCallBlock("t", "a", {}), ToolCallBlock("t", "b", {}))),
        Message.user((ToolResultBlock("t", "1"), ToolResultBlock("t", "2"))),
        Message.assistant("done"),
    ]
    fixed = fix_one(messages, "duplicate-call-id", "anthropic")
    assert [b.id for b in fixed[1].content] == ["t", "t_2"]
    assert [b.tool_call_id for b in fixed[2].content] == ["t", "t_2"]


def test_result_before_call_is_moved_after_it() -> None:
    messages = clean_openai()
    messages.insert(2, messages.pop(4))  # c2's result now precedes the call
    problem = only(lint(messages), "result-before-call")
    assert (problem.severity, problem.index) == ("error", 2)
    fixed = fix_one(messages, "result-before-call")
    assert fixed == clean_openai()


def test_openai_result_after_the_next_turn_is_not_next() -> None:
    messages = clean_openai()
    messages.append(messages.pop(4))  # c2 answered only after the user spoke again
    assert only(lint(messages), "result-not-next").severity == "warning"
    problem = only(lint(messages, provider="openai"), "result-not-next")
    assert (problem.severity, problem.index) == ("error", 6)
    fixed = fix_one(messages, "result-not-next", "openai")
    assert fixed == clean_openai()


def test_anthropic_result_after_text_is_not_first() -> None:
    messages = clean_anthropic()
    messages[3] = Message.user((TextBlock("and Oslo?"), ToolResultBlock("toolu_1", "18")))
    problem = only(lint(messages, provider="anthropic"), "result-not-first")
    assert (problem.severity, problem.index, problem.block) == ("error", 3, 1)
    fixed = fix_one(messages, "result-not-first", "anthropic")
    assert fixed == clean_anthropic()


def test_anthropic_result_in_a_later_turn_is_not_next() -> None:
    messages = [
        Message.user("go"),
        Message.assistant((ToolCallBlock("t1", "f", {}),)),
        Message.user("hello?"),
        Message.assistant("waiting"),
        Message.user((ToolResultBlock("t1", "late"),)),
    ]
    problem = only(lint(messages, provider="anthropic"), "result-not-next")
    assert (problem.severity, problem.index) == ("error", 4)
    fixed = fix_one(messages, "result-not-next", "anthropic")
    assert fixed[2].content == (ToolResultBlock("t1", "late"), TextBlock("hello?"))
    assert len(fixed) == 4


def test_placement_where_the_result_zone_ends() -> None:
    """The zone after a call runs to the first content that is not a result: results ahead
    of that block are in place, results after it (or in the calling message) are not."""
    messages = [
        Message.user("go"),
        Message.assistant(
            (ToolCallBlock("t0", "f", {}), ToolResultBlock("t0", "own")),
            tool_calls=[call("t1"), call("t2"), call("t3"), call("t4"), call("t5")],
        ),
        Message.user(""),  # empty text does not end the zone
        Message.tool("2", tool_call_id="t2"),
        Message.user((ToolResultBlock("t1", "1"), TextBlock("and?"), ToolResultBlock("t3", "3"))),
        Message.tool("4", tool_call_id="t4"),
        Message.user("thanks"),
        Message.assistant("done"),
        Message.tool("5", tool_call_id="t5"),
    ]
    placed = {
        provider: [(p.code, p.index, p.block) for p in lint(messages, provider=provider)]
        for provider in (None, "anthropic")
    }
    out_of_place = [("result-not-next", i, b) for i, b in ((1, 1), (4, 2), (5, None), (8, None))]
    assert [p for p in placed[None] if p[0] == "result-not-next"] == out_of_place
    assert [p for p in placed["anthropic"] if p[0].startswith("result-not")] == [
        ("result-not-next", 1, 1),
        ("result-not-first", 4, 2),
        ("result-not-first", 5, None),
        ("result-not-next", 8, None),
    ]


# -- arguments, ids, empty messages -----------------------------------------------------


def test_truncated_arguments_are_completed() -> None:
    bad = InvalidToolCall("c1", "search", '{"q": "weather in Par', "truncated")
    messages = [
        Message.user("go"),
        Message.assistant("", invalid_tool_calls=[bad]),
        Message.tool("none", tool_call_id="c1"),
        Message.assistant("done"),
    ]
    assert only(lint(messages), "invalid-arguments").severity == "warning"
    assert only(lint(messages, provider="anthropic"), "invalid-arguments").severity == "error"
    fixed = fix_one(messages, "invalid-arguments")
    assert fixed[1].invalid_tool_calls == ()
    assert fixed[1].tool_calls == (ToolCall("c1", "search", {"q": "weather in Par"}),)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ('{"a": [1, 2', {"a": [1, 2]}),
        ('{"a": {"b": "x', {"a": {"b": "x"}}),
        ('{"a": 1,', {"a": 1}),
        ('{"a": 1, "b":', {"a": 1}),
        ('{"a": "say \\"hi', {"a": 'say "hi'}),
        ("", {}),
        ("[1, 2]", None),
        ("not json", None),
        ('{"a": 1}}', None),
    ],
)
def test_repair_json(text: str, expected: object) -> None:
    assert repair_json(text) == expected


def test_unrepairable_arguments_become_an_empty_object() -> None:
    bad = InvalidToolCall("c1", "search", "<<garbage>>", "not JSON")
    messages = [Message.user("go"), Message.assistant("", invalid_tool_calls=[bad])]
    messages.append(Message.tool("r", tool_call_id="c1"))
    fixed = fix_one(messages, "invalid-arguments")
    assert fixed[1].tool_calls == (ToolCall("c1", "search", {}),)


def test_calls_without_ids_get_fresh_ones() -> None:
    messages = [
        Message.user("go"),
        Message.assistant("", tool_calls=[ToolCall(None, "f", {}), call("call_1", "g")]),
        Message.tool("g done", tool_call_id="call_1"),
    ]
    problem = only(lint(messages), "missing-call-id")
    assert problem.severity == "error"
    fixed = problem.fix.apply(messages)  # type: ignore[union-attr]
    ids = [c.id for c in fixed[1].tool_calls]
    assert ids[0] is not None and ids[0] != "call_1" and ids[1] == "call_1"
    # The call now has an id and so can be answered: what remains is that it is not.
    assert [p.code for p in lint(fixed)] == ["unanswered-call"]


def test_empty_message_is_dropped() -> None:
    messages = clean_openai()
    messages.insert(6, Message.assistant((TextBlock("  "),)))
    messages.insert(7, Message.assistant(""))
    problems = [p for p in lint(messages) if p.code == "empty-message"]
    assert [(p.index, p.severity) for p in problems] == [(6, "warning"), (7, "warning")]
    anthropic = [p for p in lint(messages, provider="anthropic") if p.code == "empty-message"]
    assert [p.severity for p in anthropic] == ["error", "error"]
    once = problems[0].fix.apply(messages)  # type: ignore[union-attr]
    # The second fix was made before the first was applied: it still finds its message.
    twice = problems[1].fix.apply(once)  # type: ignore[union-attr]
    assert twice == clean_openai()


def test_final_empty_assistant_is_a_prefill_not_an_error() -> None:
    messages = [*clean_openai(), Message.assistant("")]
    problem = only(lint(messages, provider="anthropic"), "empty-message")
    assert problem.severity == "warning"


# -- provider rules ---------------------------------------------------------------------


def test_system_not_first_for_anthropic_and_gemini_only() -> None:
    messages = clean_openai()
    messages.insert(3 + 2, Message.system("Be brief."))
    assert lint(messages) == [] and lint(messages, provider="openai") == []
    assert only(lint(messages, provider="gemini"), "system-not-first").severity == "error"
    problem = only(lint(messages, provider="anthropic"), "system-not-first")
    assert problem.index == 5
    fixed = fix_one(messages, "system-not-first", "anthropic")
    assert [m.role for m in fixed[:2]] == ["system", "system"]
    assert fixed[1].content == "Be brief."


def test_anthropic_history_must_start_with_the_user() -> None:
    messages = [Message.system("s"), Message.assistant("Hello!"), Message.user("hi")]
    assert lint(messages) == []
    problem = only(lint(messages, provider="anthropic"), "role-alternation")
    assert (problem.severity, problem.index) == ("error", 1)
    assert only(lint(messages, provider="gemini"), "role-alternation").severity == "warning"
    fixed = fix_one(messages, "role-alternation", "anthropic")
    assert fixed[1] == Message.user(START_PLACEHOLDER)


def test_consecutive_same_role_messages_merge() -> None:
    messages = [
        Message.user("first"),
        Message.user("second"),
        Message.assistant("reply"),
        Message.user("third"),
    ]
    assert lint(messages, provider="openai") == []
    problem = only(lint(messages, provider="anthropic"), "role-alternation")
    assert (problem.severity, problem.index) == ("warning", 1)
    fixed = fix_one(messages, "role-alternation", "anthropic")
    assert fixed[0] == Message.user("first\nsecond") and len(fixed) == 3


def test_a_run_of_merges_is_the_merges_one_after_another() -> None:
    # Merged as a run in one pass: the same message as merging each into the one before.
    messages = [
        Message.user("a", id="u1", metadata={"k": 1}),
        Message.user(""),
        Message.user("b"),
        Message.user((ToolResultBlock("c1", "r1"),)),
        Message.user("c"),
        Message.user((TextBlock("d"),)),
    ]
    one_by_one = messages[0]
    for m in messages[1:]:
        one_by_one = merge_message(one_by_one, m)
    assert merge_into_previous(messages, messages[1:]) == [one_by_one]
    assert one_by_one.content == (
        TextBlock("a\nb"),
        ToolResultBlock("c1", "r1"),
        TextBlock("c"),
        TextBlock("d"),
    )
    replies = [
        Message.assistant("x", tool_calls=[call("t1")], usage=Usage(3, 1)),
        Message.assistant("", tool_calls=[call("t2")]),
        Message.assistant("y", usage=Usage(5, 2), artifacts=({"a": 1},)),
    ]
    [merged] = merge_into_previous(replies, replies[1:])
    assert merged == merge_message(merge_message(replies[0], replies[1]), replies[2])
    assert merged.usage == Usage(8, 3) and [c.id for c in merged.tool_calls] == ["t1", "t2"]


def test_gemini_function_call_turn_must_follow_a_user_turn() -> None:
    messages = [
        Message.user("weather?"),
        Message.assistant("Let me look."),
        Message.assistant("", tool_calls=[call("g1")]),
        Message.tool("18", tool_call_id="g1", name="get_weather"),
        Message.assistant("18°C"),
    ]
    problem = only(lint(messages, provider="gemini"), "role-alternation")
    assert (problem.severity, problem.index) == ("error", 2)
    assert only(lint(messages, provider="anthropic"), "role-alternation").severity == "warning"
    fixed = fix_one(messages, "role-alternation", "gemini")
    assert fixed[1].content == "Let me look." and fixed[1].tool_calls == (call("g1"),)


# -- applying many fixes ----------------------------------------------------------------


def messy() -> list[Message]:
    return [
        Message.user("go"),
        Message.tool("stray", tool_call_id="ghost"),
        Message.assistant(
            "",
            tool_calls=[call("a"), call("b")],
            invalid_tool_calls=[InvalidToolCall("c", "h", '{"x": [1', "truncated")],
        ),
        Message.tool("ra", tool_call_id="a"),
        Message.user("hmm"),
        Message.tool("rb", tool_call_id="b"),
        Message.assistant(""),
        Message.assistant("again", tool_calls=[call("a")]),
        Message.tool("ra2", tool_call_id="a"),
        Message.system("late"),
        Message.user("more"),
        Message.user("more"),
    ]


@pytest.mark.parametrize("provider", [None, "openai", "anthropic", "gemini"])
def test_fixes_of_one_run_applied_one_by_one_clean_the_history(provider) -> None:
    messages = messy()
    problems = lint(messages, provider=provider)
    assert len({p.code for p in problems}) >= 6
    for problem in problems:
        assert problem.fix is not None
        messages = problem.fix.apply(messages)
    assert lint(messages, provider=provider) == []


@pytest.mark.parametrize("provider", [None, "openai", "anthropic", "gemini"])
def test_fix_all_cleans_the_history_in_one_pass_per_kind(provider) -> None:
    messages = messy()
    fixed = fix_all(messages, lint(messages, provider=provider))
    assert lint(fixed, provider=provider) == []


def test_fix_all_of_one_kind_only() -> None:
    messages = messy()
    problems = lint(messages)
    orphans = [p for p in problems if p.code == "orphan-result"]
    fixed = fix_all(messages, orphans)
    remaining = summary(problems)
    for p in orphans:
        remaining[(p.code, p.text)] -= 1
    assert summary(lint(fixed)) == +remaining


def test_a_fix_applied_twice_changes_nothing_more() -> None:
    messages = clean_openai()
    messages.insert(5, Message.tool("stray", tool_call_id="ghost"))
    del messages[4]
    for problem in lint(messages):
        once = problem.fix.apply(messages)  # type: ignore[union-attr]
        assert problem.fix.apply(once) == once  # type: ignore[union-attr]


# Random histories: repeated lint + fix_all reaches a clean history, for every provider.
_step = st.tuples(
    st.sampled_from(
        ["user", "assistant", "empty", "system", "call", "block_call", "result", "block_result"]
    ),
    st.integers(0, 3),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_step, max_size=14), st.sampled_from([None, "openai", "anthropic", "gemini"]))
def test_repeated_fixing_converges(steps, provider) -> None:
    messages: list[Message] = []
    for kind, n in steps:
        cid = f"id{n}"
        if kind == "user":
            messages.append(Message.user(f"u{n}"))
        elif kind == "assistant":
            messages.append(Message.assistant(f"a{n}"))
        elif kind == "empty":
            messages.append(Message.assistant(""))
        elif kind == "system":
            messages.append(Message.system(f"s{n}"))
        elif kind == "call":
            messages.append(Message.assistant("", tool_calls=[call(cid)]))
        elif kind == "block_call":
            messages.append(Message.assistant((ToolCallBlock(cid, "f", {}),)))
        elif kind == "result":
            messages.append(Message.tool("r", tool_call_id=cid))
        else:
            messages.append(Message.user((ToolResultBlock(cid, "r"),)))
    for _ in range(6):
        problems = lint(messages, provider=provider)
        if not problems:
            break
        messages = fix_all(messages, problems)
    assert lint(messages, provider=provider) == []
