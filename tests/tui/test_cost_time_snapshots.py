"""Snapshots of the cost and time views: the timeline, the cost column, the usage view's cost.

Regenerate after a deliberate change with ``--snapshot-update`` and look at the SVGs first.
"""

from __future__ import annotations

import pytest

from .conftest import DEMO, SAMPLES, SIZE, make_app, settle

pytest.importorskip("genai_prices", reason="the price database needs Python 3.11")

VIEWS = {
    "timeline_claude_code": ("claude-code-session.jsonl", ["m"]),
    "timeline_codex_slowest_step": ("codex-rollout.jsonl", ["m", "end"]),
    "timeline_without_timestamps": ("openai-chat-agent.json", ["m"]),
    "cost_column_claude_code": ("claude-code-session.jsonl", ["dollar_sign"]),
    "usage_with_cost_claude_code": ("claude-code-session.jsonl", ["u"]),
}


@pytest.mark.parametrize("view", list(VIEWS))
def test_cost_time_view(snap_compare, view: str) -> None:
    name, keys = VIEWS[view]
    app = make_app(SAMPLES / name)
    assert snap_compare(app, press=keys, terminal_size=SIZE, run_before=settle)


def test_cost_column_on_the_demo(snap_compare) -> None:
    app = make_app(DEMO)
    assert snap_compare(app, press=["dollar_sign"], terminal_size=SIZE, run_before=settle)
