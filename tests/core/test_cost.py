"""Cost against figures worked out by hand, one for each provider's usage shape.

Each payload is read by its real reader, then priced. The rates (US dollars per million tokens)
are the providers' list prices as the bundled ``genai-prices`` data has them:

- o4-mini: input 1.10, cached input 0.275, output 4.40 (reasoning is output)
- gpt-5-mini: input 0.25, cached input 0.025, output 2.00
- claude-sonnet-4-5: input 3, cache read 0.30, 5-minute cache write 3.75, 1-hour write 6,
  output 15
- gemini-2.5-pro: input 1.25, cached 0.125, output 10 (thoughts are output)
- gemini-2.5-flash: input 0.30, audio input 1.00, cached 0.03, cached audio 0.10, output 2.50
"""

from __future__ import annotations

import json
from decimal import Decimal

import orjson
import pytest

from msgviewer.core import Message, Usage
from msgviewer.core.cost import cost_totals, format_usd
from msgviewer.core.prices import PriceOverride
from msgviewer.formats import loads
from msgviewer.formats.prices import conversation_cost

pytest.importorskip("genai_prices", reason="the price database needs Python 3.11")


def _cost(payload: object, fmt: str | None = None) -> float | None:
    [conv] = loads(json.dumps(payload), format=fmt)
    return conversation_cost(conv).total_usd


def test_openai_chat_with_cached_and_reasoning_tokens() -> None:
    completion = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1745000000,
        "model": "o4-mini-2025-04-16",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "42"}, "finish_reason": "stop"}
        ],
        "usage": {
            "prompt_tokens": 2000,
            "completion_tokens": 800,
            "total_tokens": 2800,
            "prompt_tokens_details": {"cached_tokens": 1500},
            "completion_tokens_details": {"reasoning_tokens": 600},
        },
    }
    # 500 uncached x 1.10 + 1500 cached x 0.275 + 800 output x 4.40 (reasoning inside)
    expected = (500 * 1.10 + 1500 * 0.275 + 800 * 4.40) / 1e6
    assert _cost(completion, "openai-chat") == pytest.approx(expected) == pytest.approx(0.0044825)


def test_openai_responses_with_cached_and_reasoning_tokens() -> None:
    response = {
        "id": "resp_1",
        "object": "response",
        "created_at": 1755000000,
        "model": "gpt-5-mini-2025-08-07",
        "status": "completed",
        "output": [
            {
                "type": "message",
                "id": "msg_1",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": "Done.", "annotations": []}],
            }
        ],
        "usage": {
            "input_tokens": 10000,
            "input_tokens_details": {"cached_tokens": 8000},
            "output_tokens": 1200,
            "output_tokens_details": {"reasoning_tokens": 1000},
            "total_tokens": 11200,
        },
    }
    expected = (2000 * 0.25 + 8000 * 0.025 + 1200 * 2.0) / 1e6
    assert _cost(response, "openai-responses") == pytest.approx(expected) == pytest.approx(0.0031)


def _anthropic(cache_creation: dict[str, int]) -> dict:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5-20250929",
        "content": [{"type": "text", "text": "Hi."}],
        "stop_reason": "end_turn",
        "usage": {
            "input_tokens": 1000,
            "cache_read_input_tokens": 2000,
            "cache_creation_input_tokens": 3000,
            "cache_creation": cache_creation,
            "output_tokens": 500,
        },
    }


def test_anthropic_cache_reads_and_five_minute_and_one_hour_writes() -> None:
    mixed = _anthropic({"ephemeral_5m_input_tokens": 2000, "ephemeral_1h_input_tokens": 1000})
    expected = (1000 * 3 + 2000 * 0.30 + 2000 * 3.75 + 1000 * 6 + 500 * 15) / 1e6
    assert _cost(mixed, "anthropic") == pytest.approx(expected) == pytest.approx(0.0246)
    # the same writes all for five minutes cost less: one-hour writes are not priced as 5m ones
    short = _anthropic({"ephemeral_5m_input_tokens": 3000, "ephemeral_1h_input_tokens": 0})
    assert _cost(short, "anthropic") == pytest.approx(expected - 1000 * (6 - 3.75) / 1e6)


def test_gemini_thoughts_and_cached_tokens() -> None:
    response = {
        "candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}}],
        "modelVersion": "gemini-2.5-pro",
        "usageMetadata": {
            "promptTokenCount": 10000,
            "cachedContentTokenCount": 4000,
            "candidatesTokenCount": 500,
            "thoughtsTokenCount": 1500,
            "totalTokenCount": 12000,
        },
    }
    expected = (6000 * 1.25 + 4000 * 0.125 + 2000 * 10) / 1e6
    assert _cost(response, "gemini") == pytest.approx(expected) == pytest.approx(0.028)


def test_gemini_audio_tokens_at_their_own_rate() -> None:
    response = {
        "candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}}],
        "modelVersion": "gemini-2.5-flash",
        "usageMetadata": {
            "promptTokenCount": 1000,
            "candidatesTokenCount": 300,
            "thoughtsTokenCount": 200,
            "cachedContentTokenCount": 200,
            "totalTokenCount": 1500,
            "promptTokensDetails": [
                {"modality": "TEXT", "tokenCount": 600},
                {"modality": "AUDIO", "tokenCount": 400},
            ],
            "cacheTokensDetails": [
                {"modality": "TEXT", "tokenCount": 100},
                {"modality": "AUDIO", "tokenCount": 100},
            ],
        },
    }
    # text input 500 x 0.30, audio input 300 x 1.00, cached text 100 x 0.03,
    # cached audio 100 x 0.10, output (candidates + thoughts) 500 x 2.50
    expected = (500 * 0.30 + 300 * 1.0 + 100 * 0.03 + 100 * 0.10 + 500 * 2.5) / 1e6
    assert _cost(response, "gemini") == pytest.approx(expected) == pytest.approx(0.001713)


def _cc_line(uid: str, parent: str | None, kind: str, message: dict, **more: object) -> dict:
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "sessionId": "s-1",
        "type": kind,
        "message": message,
        "uuid": uid,
        "timestamp": "2025-10-14T09:12:00.000Z",
        **more,
    }


def test_a_claude_code_response_split_over_lines_is_priced_once() -> None:
    usage = {
        "input_tokens": 10,
        "cache_read_input_tokens": 5000,
        "cache_creation_input_tokens": 1000,
        "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 1000},
        "output_tokens": 200,
    }
    blocks = [
        {"type": "thinking", "thinking": "Look first.", "signature": "sig"},
        {"type": "text", "text": "Reading the file."},
        {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {"path": "a.py"}},
    ]
    lines = [_cc_line("u0", None, "user", {"role": "user", "content": "Fix a.py"})]
    parent = "u0"
    for k, block in enumerate(blocks):  # one API response, one line per block, usage on each
        inner = {"id": "msg_A", "type": "message", "role": "assistant"}
        inner |= {"model": "claude-sonnet-4-5-20250929", "content": [block], "usage": usage}
        lines.append(_cc_line(f"a{k}", parent, "assistant", inner, requestId="req_A"))
        parent = f"a{k}"
    data = b"".join(orjson.dumps(line) + b"\n" for line in lines)
    [conv] = loads(data, format="claude-code")
    assert sum(m.role == "assistant" for m in conv.messages) == 1
    once = (10 * 3 + 5000 * 0.30 + 1000 * 6 + 200 * 15) / 1e6
    assert conversation_cost(conv).total_usd == pytest.approx(once) == pytest.approx(0.01053)


def test_a_model_without_a_price_is_unpriced_and_left_out() -> None:
    messages = [
        Message.user("hi"),
        Message.assistant(
            "a",
            usage=Usage(input_tokens=1000, output_tokens=100),
            response_metadata={"model": "house-model-7"},
        ),
        Message.assistant(
            "b",
            usage=Usage(input_tokens=1_000_000, output_tokens=0),
            response_metadata={"model": "gpt-4o-2024-08-06"},
        ),
        Message.assistant("no usage", response_metadata={"model": "gpt-4o-2024-08-06"}),
        Message.assistant("no model", usage=Usage(input_tokens=5, output_tokens=5)),
    ]
    costs = cost_totals(messages, provider="openai")
    assert costs.unpriced == ("house-model-7", "unknown")
    assert costs.by_model == {"gpt-4o-2024-08-06": pytest.approx(2.50)}
    assert costs.total_usd == pytest.approx(2.50)
    assert costs.of(1) is None and costs.of(2) == pytest.approx(2.50) and costs.of(3) is None
    only_unpriced = cost_totals(messages[:2])
    assert only_unpriced.total_usd is None and only_unpriced.unpriced == ("house-model-7",)


def test_an_override_adds_a_model_and_replaces_a_price() -> None:
    usage = Usage(
        input_tokens=6000,
        output_tokens=500,
        cache_read_tokens=2000,
        cache_write_tokens=3000,
        extra={"cache_creation": {"ephemeral_1h_input_tokens": 1000}},
    )
    messages = [
        Message.assistant("a", usage=usage, response_metadata={"model": "house-model-7"}),
        Message.assistant("b", usage=usage, response_metadata={"model": "gpt-4o-2024-08-06"}),
    ]
    house = PriceOverride(Decimal(1), Decimal(2))  # cache tokens at the input rate
    cheap = PriceOverride(
        Decimal(1), Decimal(4), Decimal("0.1"), Decimal("1.5"), cache_write_1h=Decimal(3)
    )
    costs = cost_totals(messages, prices={"house-model-7": house, "gpt-4o-2024-08-06": cheap})
    assert costs.of(0) == pytest.approx((6000 * 1 + 500 * 2) / 1e6)
    # 1000 plain x 1 + 2000 read x 0.1 + 2000 5m writes x 1.5 + 1000 1h writes x 3 + 500 x 4
    assert costs.of(1) == pytest.approx((1000 + 200 + 3000 + 3000 + 2000) / 1e6)
    assert costs.unpriced == ()


def test_provider_prefixes_and_pydantic_ai_provider_names() -> None:
    usage = Usage(input_tokens=1_000_000, output_tokens=1_000_000)
    for model in ("openai/gpt-4o-2024-08-06", "openai:gpt-4o-2024-08-06"):
        costs = cost_totals(
            [Message.assistant("x", usage=usage, response_metadata={"model": model})]
        )
        assert costs.total_usd == pytest.approx(12.50), model


def test_dollars_for_people() -> None:
    assert [format_usd(x) for x in (None, 0, 12.345, 0.52, 0.0246, 0.0031, 1234.5)] == [
        "unpriced",
        "$0",
        "$12.35",
        "$0.52",
        "$0.025",
        "$0.0031",
        "$1,234.50",
    ]


def test_prices_never_come_from_the_network(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a price lookup opened a network connection")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    usage = Usage(input_tokens=1_000_000, output_tokens=1_000_000)
    message = Message.assistant("x", usage=usage, response_metadata={"model": "gpt-4o-mini"})
    assert cost_totals([message], provider="openai").total_usd == pytest.approx(0.75)
