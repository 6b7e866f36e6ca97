"""filter_messages and merge_runs: LangChain semantics, both tool shapes."""

from __future__ import annotations

import pytest

from msgviewer.core import (
    ImageBlock,
    InvalidMessageError,
    InvalidToolCall,
    Message,
    TextBlock,
    ToolCall,
    ToolCallBlock,
    ToolResultBlock,
    Usage,
)
from msgviewer.core.ops import filter_messages, merge_runs


def ids(messages: list[Message]) -> list[str | None]:
    return [m.id for m in messages]


def openai_history() -> list[Message]:
    return [
        Message.system("You are a travel assistant.", id="sys"),
        Message.user("Weather in Paris and Rome?", id="u1", name="ann"),
        Message.assistant(
            "Checking both.",
            id="a1",
            tool_calls=[
                ToolCall("call_p", "get_weather", {"city": "Paris"}),
                ToolCall("call_r", "get_weather", {"city": "Rome"}),
            ],
        ),
        Message.tool("18 C", tool_call_id="call_p", name="get_weather", id="t1"),
        Message.tool("24 C", tool_call_id="call_r", name="get_weather", id="t2"),
        Message.assistant("", id="a2", tool_calls=[ToolCall("call_f", "get_flights", {})]),
        Message.tool("3 flights", tool_call_id="call_f", name="get_flights", id="t3"),
        Message.assistant("Paris is 18 C, Rome 24 C; three flights.", id="a3", name="bot"),
    ]


def anthropic_history() -> list[Message]:
    return [
        Message.user("Weather in Paris and Rome?", id="u1"),
        Message.assistant(
            (
                TextBlock("Checking both."),
                ToolCallBlock("toolu_p", "get_weather", {"city": "Paris"}),
                ToolCallBlock("toolu_r", "get_weather", {"city": "Rome"}),
            ),
            id="a1",
        ),
        Message.user(
            (
                ToolResultBlock("toolu_p", "18 C"),
                ToolResultBlock("toolu_r", "24 C"),
                TextBlock("Also, any flights?"),
            ),
            id="u2",
        ),
        Message.assistant("Paris 18 C, Rome 24 C.", id="a2"),
    ]


# -- filter_messages --------------------------------------------------------------------


def test_no_criteria_keeps_everything() -> None:
    history = openai_history()
    assert filter_messages(history) == history
    assert filter_messages([]) == []


def test_includes_are_ored_and_excludes_win() -> None:
    history = openai_history()
    kept = filter_messages(history, include_roles=["system"], include_names=["ann", "bot"])
    assert ids(kept) == ["sys", "u1", "a3"]
    kept = filter_messages(history, include_roles="assistant", exclude_ids=["a2"])
    assert ids(kept) == ["a1", "a3"]
    kept = filter_messages(history, include_ids=["t1", "u1"], exclude_names=["ann"])
    assert ids(kept) == ["t1"]


def test_roles_accept_aliases() -> None:
    history = openai_history()
    assert filter_messages(history, include_roles=["human"]) == filter_messages(
        history, include_roles=["user"]
    )
    assert ids(filter_messages(history, exclude_roles=("ai", "tool", "developer"))) == ["u1"]
    with pytest.raises(InvalidMessageError):
        filter_messages(history, include_roles=["robot"])


def test_a_single_string_is_one_value_not_its_letters() -> None:
    history = openai_history()
    assert ids(filter_messages(history, include_names="ann")) == ["u1"]
    assert ids(filter_messages(history, include_ids="a")) == []


def test_exclude_all_tool_calls_openai_shape() -> None:
    kept = filter_messages(openai_history(), exclude_tool_calls=True)
    assert ids(kept) == ["sys", "u1", "a3"]


def test_exclude_all_tool_calls_anthropic_shape() -> None:
    kept = filter_messages(anthropic_history(), exclude_tool_calls=True)
    assert ids(kept) == ["u1", "u2", "a2"]
    assert kept[1].content == (TextBlock("Also, any flights?"),)


def test_exclude_all_tool_calls_drops_messages_left_empty_and_invalid_calls() -> None:
    history = [
        Message.user((ToolResultBlock("toolu_1", "done"),), id="r"),
        Message.assistant("", id="bad", invalid_tool_calls=[InvalidToolCall("c", "f", "{", "x")]),
        Message.user("thanks", id="u"),
    ]
    assert ids(filter_messages(history, exclude_tool_calls=True)) == ["u"]


def test_exclude_some_tool_calls_openai_shape() -> None:
    kept = filter_messages(openai_history(), exclude_tool_calls=["call_p", "call_f"])
    assert ids(kept) == ["sys", "u1", "a1", "t2", "a3"]
    assert [c.id for c in kept[2].tool_calls] == ["call_r"]
    assert kept[2].content == "Checking both."


def test_exclude_some_tool_calls_anthropic_shape() -> None:
    kept = filter_messages(anthropic_history(), exclude_tool_calls={"toolu_p"})
    assert ids(kept) == ["u1", "a1", "u2", "a2"]
    assert [b.id for b in kept[1].content if isinstance(b, ToolCallBlock)] == ["toolu_r"]
    assert kept[1].content[0] == TextBlock("Checking both.")
    assert [b.tool_call_id for b in kept[2].content if isinstance(b, ToolResultBlock)] == [
        "toolu_r"
    ]


def test_an_assistant_message_left_without_calls_goes_even_with_text() -> None:
    # LangChain parity: a1 has text, but all its calls are excluded
    kept = filter_messages(openai_history(), exclude_tool_calls=["call_p", "call_r"])
    assert ids(kept) == ["sys", "u1", "a2", "t3", "a3"]
    kept = filter_messages(anthropic_history(), exclude_tool_calls=["toolu_p", "toolu_r"])
    assert ids(kept) == ["u1", "u2", "a2"]
    assert kept[1].content == (TextBlock("Also, any flights?"),)


def test_unmatched_ids_leave_messages_untouched() -> None:
    history = openai_history()
    kept = filter_messages(history, exclude_tool_calls=["nope"])
    assert all(a is b for a, b in zip(kept, history, strict=True))
    assert filter_messages(history, exclude_tool_calls=False) == history
    assert filter_messages(history, exclude_tool_calls=[]) == history


def test_includes_apply_after_tool_call_exclusion() -> None:
    kept = filter_messages(openai_history(), include_roles=["tool"], exclude_tool_calls=["call_r"])
    assert ids(kept) == ["t1", "t3"]


# -- merge_runs -------------------------------------------------------------------------


def test_merge_runs_of_strings_with_the_separator() -> None:
    history = [
        Message.system("Be brief.", id="s1"),
        Message.system("Be kind.", id="s2"),
        Message.user("Hi", id="u1"),
        Message.user("", id="u2"),
        Message.user("Paris?", id="u3"),
        Message.assistant("Sunny.", id="a1"),
    ]
    merged = merge_runs(history)
    assert [(m.role, m.id, m.content) for m in merged] == [
        ("system", "s1", "Be brief.\nBe kind."),
        ("user", "u1", "Hi\nParis?"),
        ("assistant", "a1", "Sunny."),
    ]
    assert merge_runs(history, separator=" | ")[1].content == "Hi | Paris?"


def test_merge_runs_never_merges_tool_messages() -> None:
    history = openai_history()
    merged = merge_runs(history)
    assert ids(merged) == ids(history)
    assert merged == history


def test_merge_runs_string_then_blocks_gives_blocks() -> None:
    image = ImageBlock(url="https://example.com/a.png")
    history = [
        Message.user("Look:", id="u1"),
        Message.user((image,), id="u2"),
        Message.user("and this", id="u3"),
        Message.user("", id="u4"),
    ]
    (merged,) = merge_runs(history)
    assert merged.content == (TextBlock("Look:"), image, TextBlock("and this"))
    assert merged.id == "u1"


def test_merge_runs_empty_string_before_blocks_adds_no_block() -> None:
    image = ImageBlock(url="https://example.com/a.png")
    (merged,) = merge_runs([Message.user(""), Message.user((image,))])
    assert merged.content == (image,)


def test_merge_runs_concatenates_calls_sums_usage_keeps_first_fields() -> None:
    history = [
        Message.assistant(
            "Let me check.",
            id=None,
            tool_calls=[ToolCall("c1", "f", {"x": 1})],
            usage=Usage(input_tokens=10, output_tokens=5),
            response_metadata={"model": "gpt-first"},
            metadata={"weight": 1},
        ),
        Message.assistant(
            "And this.",
            id="a2",
            name="helper",
            tool_calls=[ToolCall("c2", "g", {})],
            invalid_tool_calls=[InvalidToolCall("c3", "h", "{", "bad json")],
            usage=Usage(input_tokens=20, output_tokens=7),
            response_metadata={"model": "gpt-second"},
            metadata={"weight": 0},
        ),
        Message.assistant("Done.", id="a3"),
    ]
    (merged,) = merge_runs(history)
    assert merged.content == "Let me check.\nAnd this.\nDone."
    assert [c.id for c in merged.tool_calls] == ["c1", "c2"]
    assert [c.id for c in merged.invalid_tool_calls] == ["c3"]
    assert merged.usage == Usage(input_tokens=30, output_tokens=12)
    assert merged.id == "a2"  # the first id there is
    assert merged.name == "helper"
    assert merged.response_metadata == {"model": "gpt-first"}
    assert merged.metadata == {"weight": 1}


def test_merge_runs_without_usage_stays_without() -> None:
    (merged,) = merge_runs([Message.user("a"), Message.user("b")])
    assert merged.usage is None


def test_merge_runs_anthropic_turns() -> None:
    history = anthropic_history()
    extra = Message.user("One more thing.", id="u3")
    merged = merge_runs([*history[:3], extra, history[3]])
    assert ids(merged) == ["u1", "a1", "u2", "a2"]
    assert merged[2].content == (*history[2].content, TextBlock("One more thing."))


def test_merge_runs_joins_a_long_run() -> None:
    history = [Message.user(f"line {i}") for i in range(50_000)]
    (merged,) = merge_runs(history)
    assert merged.content == "\n".join(f"line {i}" for i in range(50_000))
