"""Thousands of parallel tool calls in one turn: every format reads and writes them with each
call still paired with its own result, in order.

(Their speed is measured by bench/parallel_calls.py; these tests prove the results at a scale
where the pairing code works through long queues of waiting calls.)
"""

from __future__ import annotations

import random
import warnings

import orjson
import pytest

from msgviewer import (
    Conversation,
    Message,
    ToolCall,
    Usage,
    dumps,
    fix_all,
    link_tools,
    lint,
    loads,
)
from msgviewer.core.message_fixes import merge_into_previous, merge_message
from msgviewer.formats import FORMATS
from msgviewer.formats.shared.placing import insert_each

N = 5000
# Every format that both reads and writes, in an order where each is written from a
# conversation another format read (the shapes differ: results as tool messages, as blocks of
# one user turn, as one line each...).
CHAIN = (
    "openai-chat",
    "anthropic",
    "gemini",
    "claude-code",
    "openai-responses",
    "langchain",
    "pydantic-ai",
    "codex",
    "inspect",
    "gemini-cli",
    "sharegpt",
    "msgviewer",
)


def _turn(n: int) -> Conversation:
    calls = tuple(ToolCall(f"call_{k}", f"tool_{k % 3}", {"k": k}) for k in range(n))
    messages = [
        Message.user("read every file"),
        Message.assistant("", tool_calls=calls, usage=Usage(100, 20)),
        *(Message.tool(f"result {k}", tool_call_id=c.id, name=c.name) for k, c in enumerate(calls)),
        Message.assistant("done"),
    ]
    return Conversation(tuple(messages))


def _pairs(conv: Conversation) -> list[tuple[int, str]]:
    """(the call's ``k`` argument, its result's text) for every call, in call order; every
    call answered, no result left over."""
    messages = list(conv.messages)
    links = link_tools(messages)
    assert not links.unanswered_calls and not links.orphan_results and not links.duplicate_ids
    out = []
    for call, result in links:
        m = messages[call.message_index]
        args = (
            m.content[call.block_index].args  # type: ignore[union-attr,index]
            if call.block_index is not None
            else m.tool_calls[call.call_index or 0].args
        )
        r = messages[result.message_index]  # type: ignore[union-attr]
        if result.block_index is None:  # type: ignore[union-attr]
            text = r.text
        else:
            content = r.content[result.block_index].content  # type: ignore[union-attr,index]
            text = content if isinstance(content, str) else "".join(b.text for b in content)
        out.append((args["k"], text))
    return out


def test_every_format_in_turn_keeps_each_call_with_its_result() -> None:
    assert set(CHAIN) == {n for n, (r, w, _) in FORMATS.items() if r and w}
    expected = [(k, f"result {k}") for k in range(N)]
    conv = _turn(N)
    for fmt in CHAIN:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # what a format cannot carry is not the point
            data = dumps(conv, format=fmt)
        [conv] = loads(data, format=fmt)
        assert _pairs(conv) == expected, fmt


def test_calls_between_text_blocks_come_back_in_place() -> None:
    # Anthropic content alternating text and tool_use: the calls go back among the blocks.
    content = []
    for k in range(N):
        content += [{"type": "text", "text": f"t{k}"}, {"type": "tool_use", "id": f"toolu_{k}"}]
        content[-1].update(name="read", input={"k": k})
    results = [
        {"type": "tool_result", "tool_use_id": f"toolu_{k}", "content": f"r{k}"} for k in range(N)
    ]
    body = {
        "model": "claude",
        "max_tokens": 1024,
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": content},
            {"role": "user", "content": results},
        ],
    }
    [conv] = loads(orjson.dumps(body), format="anthropic")
    again = orjson.loads(dumps(conv, format="anthropic"))
    assert again["messages"][1]["content"] == content
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the request's model: Gemini names it elsewhere)
        data = dumps(conv, format="gemini")
    [gemini] = loads(data, format="gemini")
    assert _pairs(gemini) == [(k, f"r{k}") for k in range(N)]


def test_results_without_ids_answer_their_calls_by_name_then_order() -> None:
    # Gemini function responses without ids: each answers the first waiting call of its name.
    calls = [{"functionCall": {"name": f"f{k % 7}", "args": {"k": k}}} for k in range(N)]
    responses = [
        {"functionResponse": {"name": f"f{k % 7}", "response": {"output": f"r{k}"}}}
        for k in range(N)
    ]
    random.Random(1).shuffle(responses)  # in any order: the name decides, then the order
    body = {
        "contents": [
            {"role": "user", "parts": [{"text": "go"}]},
            {"role": "model", "parts": calls},
            {"role": "user", "parts": responses},
        ]
    }
    [conv] = loads(orjson.dumps(body), format="gemini")
    by_name: dict[str, list[int]] = {}
    for k in range(N):
        by_name.setdefault(f"f{k % 7}", []).append(k)
    expected = {}
    for part in responses:
        name = part["functionResponse"]["name"]
        expected[by_name[name].pop(0)] = part["functionResponse"]["response"]["output"]
    assert _pairs(conv) == sorted(expected.items())


def test_merging_thousands_of_result_turns_is_one_merge_after_another() -> None:
    # Claude Code gives each result a user turn of its own; Anthropic wants them in one.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        [conv] = loads(dumps(_turn(N), format="claude-code"), format="claude-code")
    messages = list(conv.messages)
    problems = [p for p in lint(messages, provider="anthropic") if p.code == "role-alternation"]
    assert len(problems) == N - 1
    merged = merge_into_previous(messages, [p.fix.target for p in problems if p.fix])
    one_by_one = messages[:3]
    for m in messages[3:-1]:
        one_by_one[-1] = merge_message(one_by_one[-1], m)
    assert merged == [*one_by_one, messages[-1]]
    assert _pairs(Conversation(tuple(merged))) == [(k, f"result {k}") for k in range(N)]


class _CountedId(str):
    """A call id that counts how often it is compared: the pairing code compares ids, so a
    scan of the waiting calls per result shows as comparisons growing with the square."""

    compared = 0
    __hash__ = str.__hash__

    def __eq__(self, other: object) -> bool:
        _CountedId.compared += 1
        return str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        _CountedId.compared += 1
        return str.__ne__(self, other)


def _counted_turn(n: int, answered: bool = True) -> list[Message]:
    ids = [_CountedId(f"call_{k}") for k in range(n)]
    calls = tuple(ToolCall(cid, "read", {"k": k}) for k, cid in enumerate(ids))
    results = [Message.tool("r", tool_call_id=cid, name="read") for cid in ids]
    return [
        Message.user("go"),
        Message.assistant("", tool_calls=calls),
        *(results if answered else []),
        Message.user("next"),
    ]


@pytest.mark.parametrize("fmt", [n for n, (_, w, _) in FORMATS.items() if w])
def test_writing_compares_each_call_id_a_few_times_not_once_per_waiting_call(fmt: str) -> None:
    n = 2000  # a scan per result would compare about n * n / 2 = 2,000,000 times
    conv = Conversation(tuple(_counted_turn(n)))
    _CountedId.compared = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dumps(conv, format=fmt)
    assert _CountedId.compared <= 4 * n


def test_fixing_every_unanswered_call_compares_ids_a_few_times_each() -> None:
    n = 2000
    messages = _counted_turn(n, answered=False)
    problems = lint(messages)
    assert len(problems) == n
    _CountedId.compared = 0
    fixed = fix_all(messages, problems)
    assert _CountedId.compared <= 4 * n
    assert len(fixed) == len(messages) + n and not lint(fixed)


@pytest.mark.parametrize("seed", range(4))
def test_insert_each_is_the_inserts_one_after_another(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(500):
        items = [f"b{i}" for i in range(rng.randint(0, 8))]
        low = -3 if rng.random() < 0.1 else 0
        placed = sorted(
            ((rng.randint(low, 10), f"c{k}") for k in range(rng.randint(0, 8))),
            key=lambda x: x[0],
        )
        expected = list(items)
        for index, value in placed:
            expected.insert(min(index, len(expected)), value)
        assert insert_each(items, placed) == expected
