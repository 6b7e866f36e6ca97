"""Properties of the OpenAI formats over generated histories of every block type."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import HealthCheck, assume, given, settings

from msgviewer.core.blocks import ToolCallBlock
from msgviewer.formats import Conversation, dumps, loads

from ..strategies import histories
from .openai_checks import assert_links_kept

FORMATS = ["openai-chat", "openai-responses", "codex"]


@pytest.mark.parametrize("fmt", FORMATS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(history=histories())
def test_any_history_converts_keeping_tool_links_and_then_round_trips(
    fmt: str, history: list
) -> None:
    # a tool call in a user or system message has no place in any OpenAI format (reported)
    assume(
        not any(
            type(b) is ToolCallBlock for m in history if m.role != "assistant" for b in m.blocks
        )
    )
    source = Conversation(tuple(history), format="msgviewer")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = dumps(source, format=fmt)
    [back] = loads(data, format=fmt)
    # id-less calls and results (which link_tools leaves apart) may be paired by position
    assert_links_kept(history, back.messages, strict=False)
    # once in the format, writing and reading again changes nothing and loses nothing
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = dumps(back, format=fmt)
    assert loads(again, format=fmt) == [back]
