"""count_tokens_approximately: LangChain's formula over string content, and how blocks count."""

from __future__ import annotations

import math

from msgviewer.core import (
    AudioBlock,
    ImageBlock,
    Message,
    ReasoningBlock,
    TextBlock,
    ToolCall,
    ToolCallBlock,
    ToolResultBlock,
    UnknownBlock,
    block_to_dict,
)
from msgviewer.core.tokens import count_tokens_approximately


def tokens(chars: int, per: float = 4.0, extra: float = 3.0) -> int:
    return math.ceil(chars / per) + extra


def test_empty_history_is_zero() -> None:
    assert count_tokens_approximately([]) == 0


def test_worked_examples_from_the_format_notes() -> None:
    assert count_tokens_approximately([Message.system("You are helpful.")]) == 9
    bob = Message.user("What is the weather in Paris?", name="bob")
    assert count_tokens_approximately([bob]) == 12
    assert count_tokens_approximately([bob], count_name=False) == math.ceil(33 / 4) + 3


def test_rounds_up_per_message_then_sums() -> None:
    # "a" + "user" = 5 chars -> 2 tokens each, + 3 extra each
    history = [Message.user("a"), Message.user("a")]
    assert count_tokens_approximately(history) == 2 * (2 + 3)


def test_float_parameters_round_the_total_once_more() -> None:
    history = [Message.user("abc")] * 3  # 7 chars each
    got = count_tokens_approximately(history, chars_per_token=3.5, extra_tokens_per_message=0.5)
    assert got == math.ceil(3 * (math.ceil(7 / 3.5) + 0.5))


def test_tool_calls_count_as_langchain_repr_of_the_calls() -> None:
    call = ToolCall("call_1", "get_weather", {"city": "Paris"})
    msg = Message.assistant("Checking.", tool_calls=[call])
    as_langchain = [
        {"name": "get_weather", "args": {"city": "Paris"}, "id": "call_1", "type": "tool_call"}
    ]
    chars = len("Checking.") + len(repr(as_langchain)) + len("assistant")
    assert count_tokens_approximately([msg]) == tokens(chars)


def test_tool_message_counts_its_call_id() -> None:
    msg = Message.tool("18 C", tool_call_id="call_1", name="get_weather")
    chars = len("18 C") + len("call_1") + len("tool") + len("get_weather")
    assert count_tokens_approximately([msg]) == tokens(chars)


def test_developer_message_counts_the_developer_role() -> None:
    msg = Message("developer", "Be brief.")
    assert msg.role == "system"
    assert count_tokens_approximately([msg]) == tokens(len("Be brief.") + len("developer"))


def test_text_blocks_count_their_text_only() -> None:
    blocks = (TextBlock("Hello "), TextBlock("world"))
    assert count_tokens_approximately([Message.user(blocks)]) == count_tokens_approximately(
        [Message.user("Hello world")]
    )


def test_images_cost_a_fixed_number_of_tokens_whatever_their_data() -> None:
    small = ImageBlock(data="iVBORw0KGgo=", mime_type="image/png")
    large = ImageBlock(data="A" * 100_000, mime_type="image/png")
    base = count_tokens_approximately([Message.user((TextBlock("see"),))])
    for image in (small, large, ImageBlock(url="https://example.com/cat.png")):
        msg = Message.user((TextBlock("see"), image))
        assert count_tokens_approximately([msg]) == base + 85
        assert count_tokens_approximately([msg], tokens_per_image=1000) == base + 1000


def test_other_blocks_count_the_repr_of_their_native_dict() -> None:
    reasoning = ReasoningBlock("Let me think about the weather.", signature="sig==")
    audio = AudioBlock(data="UklGRg==", mime_type="audio/wav")
    msg = Message.assistant((reasoning, audio, TextBlock("Sunny.")))
    chars = (
        len(repr(block_to_dict(reasoning)))
        + len(repr(block_to_dict(audio)))
        + len("Sunny.")
        + len("assistant")
    )
    assert count_tokens_approximately([msg]) == tokens(chars)


def test_tool_call_block_matches_langchain_standard_block() -> None:
    block = ToolCallBlock("call_1", "get_weather", {"city": "Paris"})
    langchain_block = {
        "type": "tool_call",
        "id": "call_1",
        "name": "get_weather",
        "args": {"city": "Paris"},
    }
    msg = Message.assistant((block,))
    assert count_tokens_approximately([msg]) == tokens(len(repr(langchain_block)) + 9)


def test_calls_in_tool_calls_are_not_counted_twice_when_also_blocks() -> None:
    call = ToolCall("call_1", "get_weather", {"city": "Paris"})
    block = ToolCallBlock("call_1", "get_weather", {"city": "Paris"})
    both = Message.assistant((TextBlock("Checking."), block), tool_calls=[call])
    only_block = Message.assistant((TextBlock("Checking."), block))
    assert count_tokens_approximately([both]) == count_tokens_approximately([only_block])


def test_calls_outside_block_content_are_counted() -> None:
    call = ToolCall("call_1", "get_weather", {"city": "Paris"})
    with_call = Message.assistant((TextBlock("Checking."),), tool_calls=[call])
    without = Message.assistant((TextBlock("Checking."),))
    assert count_tokens_approximately([with_call]) > count_tokens_approximately([without])


def test_tool_result_block_counts_its_native_dict() -> None:
    block = ToolResultBlock("call_1", "18 C and sunny")
    msg = Message.user((block,))
    assert count_tokens_approximately([msg]) == tokens(len(repr(block_to_dict(block))) + 4)


def test_unknown_blocks_count_as_langchain_counts_the_original_dict() -> None:
    text_like = UnknownBlock("text", {"type": "text", "text": "twelve chars"})
    image_like = UnknownBlock("image_url", {"type": "image_url", "image_url": {"url": "x"}})
    other = UnknownBlock("web_search_call", {"type": "web_search_call", "id": "ws_1"})
    assert count_tokens_approximately([Message.user((text_like,))]) == tokens(12 + 4)
    assert count_tokens_approximately([Message.user((image_like,))]) == tokens(4) + 85
    expected = tokens(len(repr(other.data)) + 4)
    assert count_tokens_approximately([Message.user((other,))]) == expected


def test_counting_is_additive_over_messages_for_integer_parameters() -> None:
    history = [
        Message.system("You are a weather bot."),
        Message.user("Paris?", name="ann"),
        Message.assistant("", tool_calls=[ToolCall("c1", "weather", {"q": "Paris"})]),
        Message.tool("Sunny", tool_call_id="c1"),
    ]
    total = count_tokens_approximately(history)
    assert total == sum(count_tokens_approximately([m]) for m in history)


def test_unknown_block_with_any_json_under_type_counts_by_repr() -> None:
    data = {"type": ["not", "a", "name"], "payload": {"type": {"nested": 1}}}
    message = Message.user((UnknownBlock("future", data),))
    chars = len(repr(data)) + len("user")
    assert count_tokens_approximately([message]) == math.ceil(chars / 4) + 3
