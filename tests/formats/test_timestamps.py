"""Time figures of the bundled samples that keep timestamps, worked out by hand from their lines.

A model call lasts from the message it answers to the response; a tool call from the message
making it to its result; parallel calls overlap and count once.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from msgviewer.core import Message
from msgviewer.core.timing import timing
from msgviewer.formats import load
from msgviewer.formats.timestamps import conversation_timing, parse_time

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"


def _timing(name: str):
    [conv, *_] = load(SAMPLES / name)
    found = conversation_timing(conv)
    assert found is not None
    return found


def _tools(found) -> list[tuple[str, float]]:
    return [(s.name, round(s.seconds, 3)) for s in found.slowest()]


def test_claude_code_main_agent_and_its_subagent() -> None:
    t = _timing("claude-code-session.jsonl")
    assert t.wall_s == pytest.approx(28.613)  # 09:11:58.120 -> 09:12:26.733
    # responses: 03.511->07.902, 08.912->12.455, 17.004->22.187, 22.918 (hook)->26.733
    assert t.model_s == pytest.approx(4.391 + 3.543 + 5.183 + 3.815)
    # Read 07.902->08.912, Task 12.455->17.004, Edit 22.187->22.402
    assert t.tool_s == pytest.approx(1.010 + 4.549 + 0.215)
    # the subagent's calls (inside Task) are listed, nested, and left out of the sums
    nested = [(s.kind, s.name, round(s.seconds, 3)) for s in t.steps if s.nested]
    assert nested == [
        ("model", "claude-haiku-4-5-20251001", 1.408),
        ("tool", "Grep", 0.183),
        ("model", "claude-haiku-4-5-20251001", 2.729),
    ]
    assert _tools(t) == [("Task", 4.549), ("Read", 1.01), ("Edit", 0.215), ("Grep", 0.183)]


def test_codex_items_and_parallel_calls() -> None:
    t = _timing("codex-rollout.jsonl")
    assert t.wall_s == pytest.approx(30.138)  # 10:21:03.514 -> 10:21:33.652
    assert t.model_s == pytest.approx(3.698 + 3.463 + 5.437 + 2.525 + 4.535)
    # two shells run side by side (19.461 -> 19.702 and -> 19.715) count as 0.254 s
    assert t.tool_s == pytest.approx(1.093 + 0.254 + 0.253 + 1.187)
    assert _tools(t) == [
        ("shell", 1.187),
        ("shell", 1.093),
        ("shell", 0.254),
        ("apply_patch", 0.253),
        ("shell", 0.241),
    ]


def test_gemini_cli_tool_results_take_their_calls_end() -> None:
    t = _timing("gemini-cli-session.json")
    assert t.wall_s == pytest.approx(96.782)  # 09:14:05.120 -> 09:15:41.902
    assert t.model_s == pytest.approx(14.414 + 31.338 + 40.857)
    assert t.tool_s == pytest.approx(7.338 + 2.835)
    assert _tools(t) == [("run_shell_command", 7.338), ("read_file", 2.835)]


def test_pydantic_ai_requests_and_responses() -> None:
    t = _timing("pydantic-ai-agent.json")
    assert t.wall_s == pytest.approx(6.772951)
    assert t.model_s == pytest.approx(3.421167 + 1.748815 + 1.353638)
    assert t.tool_s == pytest.approx(0.11847 + 0.130831)  # two calls side by side, then one
    assert len(t.turns) == 1


def test_inspect_events_give_the_times() -> None:
    # the sample's events are stamped to the second, all within one: honest zeros
    t = _timing("inspect-eval-log.eval")
    assert (t.wall_s, t.model_s, t.tool_s) == (0, 0, 0)
    assert [s.kind for s in t.steps] == ["model", "tool", "model"]
    assert t.times[0] == parse_time("2025-06-03T14:12:31+00:00")


def test_a_file_without_timestamps_has_no_timing() -> None:
    [conv] = load(SAMPLES / "openai-chat-agent.json")
    assert conversation_timing(conv) is None


def test_the_user_away_is_a_gap_not_model_time() -> None:
    messages = [
        Message.user("one"),
        Message.assistant("a"),
        Message.user("two"),  # an hour later
        Message.assistant("b"),
    ]
    t = timing(messages, [0.0, 5.0, 3605.0, 3610.0])
    assert t is not None
    assert (t.wall_s, t.model_s, t.tool_s, t.gap_s) == (3610.0, 10.0, 0.0, 3600.0)
    assert [(turn.index, turn.model_s, turn.gap_before_s) for turn in t.turns] == [
        (0, 5.0, 0.0),
        (2, 5.0, 3600.0),
    ]


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("1970-01-01T00:01:00Z", 60.0),
        ("1970-01-01T00:01:00.5+00:00", 60.5),
        ("1970-01-01T00:01:00.123456789Z", 60.123456),
        ("1970-01-01T01:01:00+01:00", 60.0),
        ("1970-01-01 00:01:00", 60.0),
        (60, 60.0),
        ("yesterday", None),
        (None, None),
        (True, None),
    ],
)
def test_parse_time(text: object, seconds: float | None) -> None:
    assert parse_time(text) == (pytest.approx(seconds) if seconds is not None else None)
