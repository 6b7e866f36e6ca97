"""usage_totals: total, by model, and per assistant turn (with estimates where usage is missing)."""

from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, given, settings

from msgviewer.core import Message, ToolCall, TurnUsage, Usage, UsageTotals
from msgviewer.core.tokens import count_tokens_approximately
from msgviewer.core.totals import usage_totals
from tests.strategies import histories

GPT = {"model_name": "gpt-4o-2024-08-06"}
CLAUDE = {"model": "claude-sonnet-4-5"}


def run() -> list[Message]:
    """An agent run: two models, one turn without usage, tool results in between."""
    return [
        Message.system("You are a coding agent."),
        Message.user("List the files."),
        Message.assistant(
            tool_calls=[ToolCall("call_1", "ls", {"path": "."})],
            usage=Usage(input_tokens=1200, output_tokens=30, cache_read_tokens=1000),
            response_metadata=GPT,
        ),
        Message.tool("a.py\nb.py", tool_call_id="call_1", name="ls"),
        Message.assistant(
            "There are two files: a.py and b.py.",
            usage=Usage(input_tokens=1260, output_tokens=15),
            response_metadata=GPT,
        ),
        Message.user("Summarise a.py."),
        Message.assistant("a.py prints hello.", response_metadata=CLAUDE),  # no usage kept
        Message.user("Thanks."),
        Message.assistant(
            "You're welcome.",
            usage=Usage(input_tokens=900, output_tokens=8, total_tokens=910),
            response_metadata=CLAUDE,
        ),
        Message.assistant("(no model recorded)", usage=Usage(input_tokens=50, output_tokens=5)),
    ]


def test_total_sums_the_usage_the_messages_carry() -> None:
    totals = usage_totals(run())
    assert isinstance(totals, UsageTotals)
    assert totals.total == Usage(
        input_tokens=1200 + 1260 + 900 + 50,
        output_tokens=30 + 15 + 8 + 5,
        total_tokens=1230 + 1275 + 910 + 55,
        cache_read_tokens=1000,
    )


def test_by_model() -> None:
    totals = usage_totals(run())
    assert set(totals.by_model) == {"gpt-4o-2024-08-06", "claude-sonnet-4-5", "unknown"}
    assert totals.by_model["gpt-4o-2024-08-06"] == Usage(2460, 45, 2505, 1000)
    assert totals.by_model["claude-sonnet-4-5"] == Usage(900, 8, 910)
    assert totals.by_model["unknown"] == Usage(50, 5)


def test_per_turn_has_one_entry_per_assistant_message_in_order() -> None:
    history = run()
    turns = usage_totals(history).per_turn
    assert [t.index for t in turns] == [2, 4, 6, 8, 9]
    assert all(history[t.index].role == "assistant" for t in turns)
    assert turns[0] == TurnUsage(2, history[2].usage, "gpt-4o-2024-08-06", 1200)
    assert turns[1] == TurnUsage(4, history[4].usage, "gpt-4o-2024-08-06", 1260)
    assert turns[3].context_tokens == 900 and not turns[3].approximate
    assert turns[4].model is None


def test_a_turn_without_usage_is_estimated() -> None:
    history = run()
    turn = usage_totals(history).per_turn[2]
    prompt = count_tokens_approximately(history[:6])
    output = count_tokens_approximately(history[6:7])
    assert turn == TurnUsage(
        6, Usage(input_tokens=prompt, output_tokens=output), "claude-sonnet-4-5", prompt, True
    )
    assert prompt > output > 0


def test_estimates_do_not_enter_the_totals() -> None:
    history = run()
    without = [m for i, m in enumerate(history) if i != 6]
    assert usage_totals(history).total == usage_totals(without).total
    assert usage_totals(history).by_model == usage_totals(without).by_model


def test_all_zero_usage_counts_as_missing() -> None:
    history = [Message.user("hi"), Message.assistant("hello", usage=Usage())]
    (turn,) = usage_totals(history).per_turn
    assert turn.approximate
    assert turn.context_tokens == count_tokens_approximately(history[:1])
    assert usage_totals(history).total == Usage()
    assert usage_totals(history).by_model == {}


def test_empty_history() -> None:
    assert usage_totals([]) == UsageTotals(Usage(), {}, ())


def test_accepts_any_iterable() -> None:
    history = run()
    assert usage_totals(iter(history)) == usage_totals(history)
    assert usage_totals(tuple(history)) == usage_totals(history)


def test_usage_on_other_roles_counts_in_totals_but_makes_no_turn() -> None:
    history = [Message.user("hi", usage=Usage(5, 0)), Message.assistant("yo", usage=Usage(7, 2))]
    totals = usage_totals(history)
    assert totals.total == Usage(12, 2)
    assert [t.index for t in totals.per_turn] == [1]


def test_provider_numbers_in_extra_are_summed() -> None:
    history = [
        Message.assistant(
            "a", usage=Usage(10, 1, extra={"input_tokens": 4}), response_metadata=GPT
        ),
        Message.assistant(
            "b", usage=Usage(20, 2, extra={"input_tokens": 6}), response_metadata=GPT
        ),
    ]
    assert usage_totals(history).total.extra == {"input_tokens": 10}


def _naive(history: list[Message]) -> UsageTotals:
    """The definition, computed the slow way: every prefix counted from scratch."""
    real = [m for m in history if m.usage is not None and not m.usage.is_empty()]
    total = sum((m.usage for m in real), Usage())
    by_model: dict[str, Usage] = {}
    for m in real:
        key = m.model or "unknown"
        by_model[key] = by_model[key] + m.usage if key in by_model else m.usage
    turns = []
    for i, m in enumerate(history):
        if m.role != "assistant":
            continue
        if m in real:
            turns.append(TurnUsage(i, m.usage, m.model, m.usage.input_tokens))
        else:
            prompt = count_tokens_approximately(history[:i])
            usage = Usage(prompt, count_tokens_approximately([m]))
            turns.append(TurnUsage(i, usage, m.model, prompt, approximate=True))
    return UsageTotals(total, by_model, tuple(turns))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_matches_the_definition_on_generated_histories(history: list[Message]) -> None:
    assert usage_totals(history) == _naive(history)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_matches_the_definition_with_usage_removed(history: list[Message]) -> None:
    # Generated histories mostly carry usage; without it every turn is an estimate.
    stripped = [dataclasses.replace(m, usage=None) for m in history]
    totals = usage_totals(stripped)
    assert totals == _naive(stripped)
    assert all(t.approximate for t in totals.per_turn)
    assert totals.total == Usage()
