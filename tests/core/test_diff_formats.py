"""Cross-format sameness: every sample written to each writable format with msgviewer's own
writers and read back is compared, with ``ignore_metadata``, against the sample and against
every other format's copy: the same.

Where a format truly cannot carry something in a sample, its copy differs, and ``LOSSES``
names that pair and why; the test checks the table both ways (a new loss fails, and so does a
loss that went away), and every pair of the formats that kept the sample must be the same.
"""

from __future__ import annotations

import itertools
import warnings
from functools import cache
from pathlib import Path

import pytest

import msgviewer as mv

SAMPLES = Path(__file__).resolve().parents[2] / "msgviewer" / "samples"
SAMPLE_FILES = sorted(p.name for p in SAMPLES.iterdir() if p.is_file())
WRITABLE = sorted(n for n, (r, w, _) in mv.FORMATS.items() if r and w)

_TEXT_BESIDE_CALLS = "ShareGPT writes a turn that calls tools as the calls only: its text is lost"
_INVALID_CALLS = "an invalid tool call (arguments that do not parse) is written as a valid call"
_RUNS = "two user messages in a row are merged into one (the API needs roles to alternate)"
_BOTH = f"{_RUNS}; {_TEXT_BESIDE_CALLS}"
_SERVER_TOOLS = "a server tool call splits the assistant turn into two output items"

LOSSES: dict[str, dict[str, str]] = {
    "anthropic-agent.json": {
        "codex": _SERVER_TOOLS,
        "openai-responses": _SERVER_TOOLS,
        "sharegpt": _TEXT_BESIDE_CALLS,
    },
    "claude-code-session.jsonl": {"anthropic": _RUNS, "gemini": _RUNS, "sharegpt": _BOTH},
    "codex-rollout.jsonl": {"anthropic": _RUNS, "gemini": _RUNS, "sharegpt": _BOTH},
    "demo-agent-run.json": {"sharegpt": _TEXT_BESIDE_CALLS},
    "diff-fixture.json": {"sharegpt": _TEXT_BESIDE_CALLS},
    "diff-new-run.json": {"sharegpt": _TEXT_BESIDE_CALLS},
    "gemini-cli-session.json": {"sharegpt": _TEXT_BESIDE_CALLS},
    "inspect-eval-log.eval": {"sharegpt": _TEXT_BESIDE_CALLS},
    "inspect-eval.json": {"sharegpt": _TEXT_BESIDE_CALLS},
    "langchain-agent.json": {
        **dict.fromkeys(["anthropic", "claude-code", "gemini", "inspect"], _INVALID_CALLS),
        "gemini-cli": "an invalid tool call is dropped, with its result",
        "sharegpt": _TEXT_BESIDE_CALLS,
    },
    "openai-chat-agent.json": {
        **dict.fromkeys(["anthropic", "claude-code", "gemini", "inspect"], _INVALID_CALLS),
        "gemini-cli": "an invalid tool call is dropped, with its result",
        "sharegpt": _TEXT_BESIDE_CALLS,
    },
    "openai-responses-agent.json": {
        "sharegpt": "the Responses item ids (fc_...) are written as the call ids"
    },
    "openai-responses-response.json": {"sharegpt": _TEXT_BESIDE_CALLS},
    "pydantic-ai-agent.json": {"sharegpt": _TEXT_BESIDE_CALLS},
}


@cache
def original(sample: str) -> mv.Conversation:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return mv.load(SAMPLES / sample)[0]


@cache
def copy(sample: str, fmt: str) -> mv.Conversation:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return mv.loads(mv.dumps(original(sample), format=fmt), format=fmt)[0]


@pytest.mark.parametrize("sample", SAMPLE_FILES)
def test_each_format_keeps_the_sample_except_the_named_losses(sample: str) -> None:
    lossy = {
        fmt
        for fmt in WRITABLE
        if not mv.diff(original(sample), copy(sample, fmt), ignore_metadata=True).same
    }
    assert lossy == set(LOSSES.get(sample, {}))


@pytest.mark.parametrize("sample", SAMPLE_FILES)
def test_every_pair_of_formats_that_keep_the_sample_is_the_same(sample: str) -> None:
    keeping = [fmt for fmt in WRITABLE if fmt not in LOSSES.get(sample, {})]
    different = [
        (fa, fb)
        for fa, fb in itertools.combinations(keeping, 2)
        if not mv.diff(copy(sample, fa), copy(sample, fb), ignore_metadata=True).same
    ]
    assert not different


def test_the_named_losses_are_what_differs() -> None:
    # ShareGPT's loss on the demo run is exactly the assistant texts beside tool calls
    sample = "demo-agent-run.json"
    a = original(sample).messages
    result = mv.diff(a, copy(sample, "sharegpt"), ignore_metadata=True)
    changed = [c for c in result.changes if c.op != "same"]
    assert changed and all(c.op == "changed" for c in changed)
    for c in changed:
        assert [(d.kind, d.path, d.b) for d in c.details] == [("block", "text[0]", None)]
        assert a[c.a_index].tool_calls or any(b.type == "tool_call" for b in a[c.a_index].blocks)


def test_without_ignore_metadata_a_lossy_copy_differs() -> None:
    sample = "demo-agent-run.json"
    assert mv.diff(original(sample), copy(sample, "anthropic"), ignore_metadata=True).same
    assert not mv.diff(original(sample), copy(sample, "openai-chat")).same
