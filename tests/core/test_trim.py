"""trim: LangChain's trim_messages semantics over msgviewer messages, plus keep_tool_pairs."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from msgviewer.core import (
    ImageBlock,
    InvalidMessageError,
    Message,
    TextBlock,
    ToolCall,
    ToolCallBlock,
    ToolResultBlock,
)
from msgviewer.core.errors import InvalidArgumentError
from msgviewer.core.tokens import count_tokens_approximately
from msgviewer.core.trim import trim


def count_messages(messages: list[Message]) -> int:
    """One token per message: makes budgets easy to read."""
    return len(messages)


def ids(messages: list[Message]) -> list[str | None]:
    return [m.id for m in messages]


def weather_history() -> list[Message]:
    """A realistic OpenAI-shaped run: system, a question, a tool round trip, an answer."""
    return [
        Message.system("You are a weather assistant.", id="sys"),
        Message.user("What is the weather in Paris and Rome?", id="u1"),
        Message.assistant(
            "",
            id="a1",
            tool_calls=[
                ToolCall("call_p", "get_weather", {"city": "Paris"}),
                ToolCall("call_r", "get_weather", {"city": "Rome"}),
            ],
        ),
        Message.tool("Paris: 18 C, sunny", tool_call_id="call_p", name="get_weather", id="t1"),
        Message.tool("Rome: 24 C, clear", tool_call_id="call_r", name="get_weather", id="t2"),
        Message.assistant("Paris is 18 C and sunny; Rome is 24 C and clear.", id="a2"),
        Message.user("And tomorrow?", id="u2"),
    ]


def anthropic_history() -> list[Message]:
    """The same run in Anthropic's shape: calls as blocks, results in a user message."""
    return [
        Message.user("What is the weather in Paris and Rome?", id="u1"),
        Message.assistant(
            (
                TextBlock("Let me look both up."),
                ToolCallBlock("toolu_p", "get_weather", {"city": "Paris"}),
                ToolCallBlock("toolu_r", "get_weather", {"city": "Rome"}),
            ),
            id="a1",
        ),
        Message.user(
            (
                ToolResultBlock("toolu_p", "Paris: 18 C, sunny"),
                ToolResultBlock("toolu_r", "Rome: 24 C, clear"),
            ),
            id="u2",
        ),
        Message.assistant("Paris is 18 C and sunny; Rome is 24 C and clear.", id="a2"),
    ]


# -- basics -----------------------------------------------------------------------------


def test_empty_history() -> None:
    assert trim([], max_tokens=100) == []
    assert trim([], max_tokens=100, strategy="first") == []
    assert trim([], max_tokens=100, include_system=True, keep_tool_pairs=True) == []


def test_budget_larger_than_everything_keeps_all() -> None:
    history = weather_history()
    total = count_tokens_approximately(history)
    assert trim(history, max_tokens=total) == history
    assert trim(history, max_tokens=total * 10, strategy="first") == history


def test_budget_zero_keeps_nothing() -> None:
    history = weather_history()
    assert trim(history, max_tokens=0) == []
    assert trim(history, max_tokens=0, strategy="first") == []
    assert trim(history, max_tokens=0, allow_partial=True) == []


def test_last_keeps_newest_and_first_keeps_oldest() -> None:
    history = weather_history()
    assert ids(trim(history, max_tokens=3, token_counter=count_messages)) == ["t2", "a2", "u2"]
    first = trim(history, max_tokens=3, token_counter=count_messages, strategy="first")
    assert ids(first) == ["sys", "u1", "a1"]


def test_the_result_is_the_longest_run_that_fits() -> None:
    history = weather_history()
    for budget in range(count_tokens_approximately(history) + 1):
        kept = trim(history, max_tokens=budget)
        assert count_tokens_approximately(kept) <= budget
        assert kept == history[len(history) - len(kept) :]
        if len(kept) < len(history):
            one_more = history[len(history) - len(kept) - 1 :]
            assert count_tokens_approximately(one_more) > budget


def test_only_a_system_message() -> None:
    system = [Message.system("You are terse.")]
    assert trim(system, max_tokens=100) == system
    assert trim(system, max_tokens=1) == []
    assert trim(system, max_tokens=1, include_system=True) == system


def test_include_system_keeps_an_oversized_system_message() -> None:
    history = [Message.system("rules " * 200, id="sys"), *weather_history()[1:]]
    kept = trim(history, max_tokens=20, include_system=True)
    assert ids(kept) == ["sys"]
    # the budget left after the system message goes to the newest messages
    kept = trim(history, max_tokens=3, token_counter=count_messages, include_system=True)
    assert ids(kept) == ["sys", "a2", "u2"]


def test_include_system_without_a_leading_system_message() -> None:
    history = weather_history()[1:]
    kept = trim(history, max_tokens=2, token_counter=count_messages, include_system=True)
    assert ids(kept) == ["a2", "u2"]


def test_start_on_drops_up_to_the_first_match() -> None:
    history = weather_history()
    kept = trim(history, max_tokens=5, token_counter=count_messages, start_on="user")
    assert ids(kept) == ["u2"]
    kept = trim(history, max_tokens=4, token_counter=count_messages, start_on=["human", "ai"])
    assert ids(kept) == ["a2", "u2"]


def test_start_on_with_no_match_gives_nothing_but_the_system_message() -> None:
    history = weather_history()
    assert trim(history, max_tokens=3, token_counter=count_messages, start_on="system") == []
    kept = trim(
        history, max_tokens=3, token_counter=count_messages, start_on="system", include_system=True
    )
    assert ids(kept) == ["sys"]


def test_end_on_drops_trailing_messages_before_the_budget_with_last() -> None:
    history = weather_history()
    kept = trim(history, max_tokens=2, token_counter=count_messages, end_on="assistant")
    assert ids(kept) == ["t2", "a2"]


def test_end_on_applies_after_the_budget_with_first() -> None:
    history = weather_history()
    kept = trim(history, max_tokens=4, token_counter=count_messages, strategy="first", end_on="ai")
    assert ids(kept) == ["sys", "u1", "a1"]


def test_roles_accept_aliases_and_reject_unknown_names() -> None:
    history = weather_history()
    a = trim(history, max_tokens=5, token_counter=count_messages, start_on="human")
    b = trim(history, max_tokens=5, token_counter=count_messages, start_on="user")
    assert a == b
    with pytest.raises(InvalidMessageError):
        trim(history, max_tokens=5, start_on="robot")


@pytest.mark.parametrize("option", [{"start_on": "user"}, {"include_system": True}])
def test_first_refuses_last_only_options(option: dict) -> None:
    with pytest.raises(InvalidArgumentError, match="only valid with strategy='last'") as info:
        trim(weather_history(), max_tokens=10, strategy="first", **option)
    assert isinstance(info.value, ValueError)


def test_unknown_strategy_is_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="strategy"):
        trim(weather_history(), max_tokens=10, strategy="middle")  # type: ignore[arg-type]


def test_tool_messages_at_the_cut_are_kept_without_their_call_by_default() -> None:
    # LangChain parity: strategy "last" can start on a tool result.
    history = weather_history()
    kept = trim(history, max_tokens=4, token_counter=count_messages)
    assert ids(kept) == ["t1", "t2", "a2", "u2"]


# -- allow_partial ----------------------------------------------------------------------


def test_partial_last_keeps_the_last_lines_of_string_content() -> None:
    log = "line one\nline two\nline three\nline four"
    history = [Message.user(log, id="u"), Message.assistant("ok", id="a")]
    full = count_tokens_approximately(history)
    kept = trim(history, max_tokens=full - 4, allow_partial=True)
    assert ids(kept) == ["u", "a"]
    assert log.endswith(kept[0].content)
    assert kept[0].content != log
    assert count_tokens_approximately(kept) <= full - 4


def test_partial_first_keeps_the_first_lines_of_string_content() -> None:
    log = "line one\nline two\nline three\nline four"
    history = [Message.assistant("ok", id="a"), Message.user(log, id="u")]
    full = count_tokens_approximately(history)
    kept = trim(history, max_tokens=full - 4, strategy="first", allow_partial=True)
    assert ids(kept) == ["a", "u"]
    assert log.startswith(kept[1].content)
    assert kept[1].content.endswith("\n")


def test_partial_keeps_whole_blocks_from_the_kept_side() -> None:
    image = ImageBlock(url="https://example.com/chart.png")
    blocks = (TextBlock("first part"), image, TextBlock("last part"))
    history = [Message.user(blocks, id="u"), Message.assistant("ok", id="a")]
    budget = count_tokens_approximately(history) - 1
    last = trim(history, max_tokens=budget, allow_partial=True)
    assert last[0].content == (image, TextBlock("last part"))
    history_first = [Message.assistant("ok", id="a"), Message.user(blocks, id="u")]
    first = trim(history_first, max_tokens=budget, strategy="first", allow_partial=True)
    assert first[1].content == (TextBlock("first part"), image)


def test_partial_falls_back_to_lines_of_the_edge_text_block() -> None:
    text = TextBlock("alpha\nbeta\ngamma\ndelta " * 5, extra={"cache_control": {"type": "x"}})
    history = [Message.user((ImageBlock(url="https://example.com/a.png"), text), id="u")]
    kept = trim(history, max_tokens=15, allow_partial=True)
    assert len(kept) == 1
    (block,) = kept[0].content
    assert isinstance(block, TextBlock)
    assert text.text.endswith(block.text)
    assert block.extra == text.extra
    assert count_tokens_approximately(kept) <= 15


def test_partial_gives_nothing_when_not_even_one_line_fits() -> None:
    history = [Message.user("x" * 400, id="u")]
    assert trim(history, max_tokens=10, allow_partial=True) == []


# -- keep_tool_pairs --------------------------------------------------------------------


def test_keep_tool_pairs_drops_results_whose_call_was_cut_openai_shape() -> None:
    history = weather_history()
    kept = trim(history, max_tokens=4, token_counter=count_messages, keep_tool_pairs=True)
    assert ids(kept) == ["a2", "u2"]
    kept = trim(history, max_tokens=5, token_counter=count_messages, keep_tool_pairs=True)
    assert ids(kept) == ["a1", "t1", "t2", "a2", "u2"]


def test_keep_tool_pairs_drops_results_whose_call_was_cut_anthropic_shape() -> None:
    history = anthropic_history()
    kept = trim(history, max_tokens=2, token_counter=count_messages, keep_tool_pairs=True)
    assert ids(kept) == ["a2"]
    kept = trim(history, max_tokens=3, token_counter=count_messages, keep_tool_pairs=True)
    assert ids(kept) == ["a1", "u2", "a2"]


def test_keep_tool_pairs_then_applies_start_on_again() -> None:
    history = weather_history()
    kept = trim(
        history,
        max_tokens=4,
        token_counter=count_messages,
        keep_tool_pairs=True,
        start_on="assistant",
    )
    assert ids(kept) == ["a2", "u2"]
    # a user message holding only tool results counts as a user message for start_on
    kept = trim(
        anthropic_history(),
        max_tokens=2,
        token_counter=count_messages,
        start_on="user",
        keep_tool_pairs=True,
    )
    assert kept == []


def test_keep_tool_pairs_with_first_drops_calls_whose_results_were_cut() -> None:
    for history, budget, expected in [
        (weather_history(), 4, ["sys", "u1"]),
        (anthropic_history(), 2, ["u1"]),
    ]:
        kept = trim(
            history,
            max_tokens=budget,
            token_counter=count_messages,
            strategy="first",
            keep_tool_pairs=True,
        )
        assert ids(kept) == expected


def test_keep_tool_pairs_with_end_on_cutting_off_results() -> None:
    history = weather_history()[:5]  # ends on the two tool results
    plain = trim(history, max_tokens=10, token_counter=count_messages, end_on="assistant")
    assert ids(plain) == ["sys", "u1", "a1"]  # a call left unanswered (LangChain parity)
    paired = trim(
        history,
        max_tokens=10,
        token_counter=count_messages,
        end_on="assistant",
        keep_tool_pairs=True,
    )
    assert paired == []  # without a1 nothing ends on an assistant message
    with_system = trim(
        history,
        max_tokens=10,
        token_counter=count_messages,
        end_on="assistant",
        include_system=True,
        keep_tool_pairs=True,
    )
    assert ids(with_system) == ["sys"]


def test_keep_tool_pairs_with_a_partial_message_that_lost_its_call_block() -> None:
    history = anthropic_history()
    rome_call = history[1].content[-1]
    only_rome = Message.assistant((rome_call,), id="a1")
    budget = count_tokens_approximately([only_rome, *history[2:]])
    plain = trim(history, max_tokens=budget, allow_partial=True)
    assert plain == [only_rome, *history[2:]]
    paired = trim(history, max_tokens=budget, allow_partial=True, keep_tool_pairs=True)
    # The result blocks still in u2 lost at least one call: the cut moves past u2.
    assert ids(paired) == ["a2"]


def test_keep_tool_pairs_ignores_unanswered_calls_and_orphan_results() -> None:
    history = [
        Message.tool("stale result", tool_call_id="gone", id="t0"),
        Message.user("hi", id="u1"),
        Message.assistant("", tool_calls=[ToolCall("never", "f", {})], id="a1"),
    ]
    kept = trim(history, max_tokens=10, token_counter=count_messages, keep_tool_pairs=True)
    assert kept == history


# -- counting ---------------------------------------------------------------------------


def test_counter_is_called_a_logarithmic_number_of_times() -> None:
    history = [Message.user(f"message {i}") for i in range(4096)]
    calls = 0

    def counting(messages: list[Message]) -> int:
        nonlocal calls
        calls += 1
        return count_tokens_approximately(messages)

    kept = trim(history, max_tokens=5000, token_counter=counting)
    assert kept == trim(history, max_tokens=5000)
    assert calls <= 2 + (4096).bit_length()


def test_partial_of_the_default_counter_gives_the_same_as_calling_it() -> None:
    history = weather_history()
    counter = functools.partial(
        count_tokens_approximately, chars_per_token=3.3, extra_tokens_per_message=0.7
    )
    for budget in range(0, 90, 7):
        for strategy in ("first", "last"):
            fast = trim(history, max_tokens=budget, token_counter=counter, strategy=strategy)
            slow = trim(
                history,
                max_tokens=budget,
                token_counter=lambda m: counter(m),
                strategy=strategy,
            )
            assert fast == slow


# -- properties -------------------------------------------------------------------------

_text = st.text(alphabet="abc xyz\n", max_size=60)


@st.composite
def histories(draw: st.DrawFn) -> list[Message]:
    """Histories mixing both tool shapes, blocks and strings, so every path is exercised."""
    out: list[Message] = []
    if draw(st.booleans()):
        out.append(Message.system(draw(_text), id="s"))
    for turn in range(draw(st.integers(0, 8))):
        out.append(Message.user(draw(_text), id=f"u{turn}"))
        kind = draw(st.sampled_from(["plain", "openai", "anthropic", "blocks"]))
        if kind == "plain":
            out.append(Message.assistant(draw(_text), id=f"a{turn}"))
        elif kind == "blocks":
            content = (TextBlock(draw(_text)), ImageBlock(url="u"), TextBlock(draw(_text)))
            out.append(Message.assistant(content, id=f"a{turn}"))
        elif kind == "openai":
            calls = [
                ToolCall(f"c{turn}_{k}", "f", {"k": k}) for k in range(draw(st.integers(1, 3)))
            ]
            out.append(Message.assistant(draw(_text), id=f"a{turn}", tool_calls=calls))
            for k, call in enumerate(calls):
                result = Message.tool(draw(_text), tool_call_id=call.id, id=f"t{turn}_{k}")
                out.append(result)
        else:
            n = draw(st.integers(1, 3))
            blocks = tuple(ToolCallBlock(f"c{turn}_{k}", "f", {"k": k}) for k in range(n))
            out.append(Message.assistant((TextBlock(draw(_text)), *blocks), id=f"a{turn}"))
            results = tuple(ToolResultBlock(f"c{turn}_{k}", draw(_text)) for k in range(n))
            out.append(Message.user(results, id=f"r{turn}"))
    return out


_roles = st.sampled_from([None, "user", "assistant", "tool", ["user", "tool"]])


@settings(max_examples=300, deadline=None)
@given(
    history=histories(),
    budget=st.integers(0, 300),
    last=st.booleans(),
    include_system=st.booleans(),
    start_on=_roles,
    end_on=_roles,
    allow_partial=st.booleans(),
    keep_tool_pairs=st.booleans(),
)
def test_trim_never_exceeds_the_budget(
    history, budget, last, include_system, start_on, end_on, allow_partial, keep_tool_pairs
) -> None:
    options = {"end_on": end_on, "allow_partial": allow_partial, "keep_tool_pairs": keep_tool_pairs}
    if last:
        options.update(include_system=include_system, start_on=start_on)
    kept = trim(history, max_tokens=budget, strategy="last" if last else "first", **options)
    total = count_tokens_approximately(kept)
    if last and include_system and kept and kept[0].role == "system":
        # end_on may have dropped it; if kept, it is the history's own and may be too big
        assert kept[0] is history[0]
        system_tokens = count_tokens_approximately(kept[:1])
        if system_tokens > budget:
            assert kept == history[:1]
        else:
            assert total <= budget
    else:
        assert total <= budget
    if keep_tool_pairs:
        assert_no_pair_split(history, kept)


def assert_no_pair_split(history: list[Message], kept: list[Message]) -> None:
    def calls(messages):
        out = set()
        for m in messages:
            out.update(c.id for c in m.tool_calls)
            out.update(b.id for b in m.blocks if isinstance(b, ToolCallBlock))
        return out

    def results(messages):
        out = {m.tool_call_id for m in messages if m.role == "tool"}
        for m in messages:
            out.update(b.tool_call_id for b in m.blocks if isinstance(b, ToolResultBlock))
        return out

    paired = calls(history) & results(history)
    assert calls(kept) & paired == results(kept) & paired


@settings(max_examples=150, deadline=None)
@given(history=histories(), budget=st.integers(0, 300), last=st.booleans())
def test_default_counter_shortcut_matches_calling_the_counter(history, budget, last) -> None:
    strategy = "last" if last else "first"
    for partial in (False, True):
        fast = trim(history, max_tokens=budget, strategy=strategy, allow_partial=partial)
        slow = trim(
            history,
            max_tokens=budget,
            strategy=strategy,
            allow_partial=partial,
            token_counter=lambda m: count_tokens_approximately(m),
        )
        assert fast == slow
