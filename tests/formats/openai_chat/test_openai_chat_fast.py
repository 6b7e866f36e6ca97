"""The quick reader of common Chat messages agrees with the careful one wherever it answers."""

from __future__ import annotations

import copy
import json
import warnings
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from msgviewer import loads
from msgviewer.core.errors import MsgviewerError
from msgviewer.formats.base import Context
from msgviewer.formats.openai_chat.fast import read_all, read_plain
from msgviewer.formats.openai_chat.read import Links, read_message

_ARGS = ['{"path": "a.py", "limit": 3}', "{}", "", "[1]", '{"x": ', "null", '{"q": "\\u00e9"}',
         # integers past 64 bits: orjson would read each as a float
         '{"n": -9223372036854775809}', '{"n": 99999999999999999999}']  # fmt: skip
_call = st.fixed_dictionaries(
    {
        "id": st.sampled_from(["call_1", "call_2", "call_1"]),
        "type": st.just("function"),
        "function": st.fixed_dictionaries(
            {"name": st.sampled_from(["run", "", "search"]), "arguments": st.sampled_from(_ARGS)}
        ),
    }
)
# The common shapes, then now and then one change that the quick reader must notice.
_common = st.one_of(
    st.fixed_dictionaries(
        {"role": st.sampled_from(["user", "system", "assistant"]), "content": st.text(max_size=5)}
    ),
    st.fixed_dictionaries(
        {"role": st.just("tool"), "tool_call_id": st.just("call_1"), "content": st.text(max_size=5)}
    ),
    st.fixed_dictionaries(
        {
            "role": st.just("assistant"),
            "content": st.one_of(st.none(), st.text(max_size=5)),
            "tool_calls": st.lists(_call, max_size=3),
        }
    ),
)
_odd_values = st.sampled_from([None, 3, "x", [], {}, [{"type": "text", "text": "hi"}], "developer"])
_paths = st.sampled_from(
    [("role",), ("content",), ("tool_call_id",), ("name",), ("refusal",), ("annotations",),
     ("weight",), ("tool_calls",), ("tool_calls", 0, "type"), ("tool_calls", 0, "id"),
     ("tool_calls", 0, "x"),
     ("tool_calls", 0, "function"), ("tool_calls", 0, "function", "name"),
     ("tool_calls", 0, "function", "arguments"), ("tool_calls", 0, "function", "strict")]
)  # fmt: skip


def _perturb(d: dict[str, Any], path: tuple[Any, ...] | None, new: Any, delete: bool) -> Any:
    d = copy.deepcopy(d)
    if path is None:
        return d
    target: Any = d
    for key in path[:-1]:
        if (isinstance(target, dict) and key in target) or (isinstance(target, list) and target):
            target = target[key]
        else:
            return d
    if isinstance(target, dict):
        if delete:
            target.pop(path[-1], None)
        else:
            target[path[-1]] = new
    return d


_message = st.builds(_perturb, _common, st.one_of(st.none(), _paths), _odd_values, st.booleans())


def _careful(d: dict[str, Any], unanswered: dict[str, str | None]) -> Any:
    links = Links()
    links.unanswered.update(unanswered)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            m = read_message(copy.deepcopy(d), Context(), "$", links)
        except MsgviewerError:
            return None, unanswered
    return m, links.unanswered


@settings(max_examples=600, deadline=None)
@given(_message, st.dictionaries(st.sampled_from(["call_1", "call_2"]), st.just("run")))
def test_quick_reader_equals_careful_reader(d: dict[str, Any], waiting: dict[str, Any]) -> None:
    unanswered = dict(waiting)
    quick = read_plain(d, unanswered)
    if quick is None:
        assert unanswered == waiting  # declining leaves the state as it was
        return
    message, after = _careful(d, dict(waiting))
    assert quick == message
    assert list(unanswered.items()) == list(after.items())


def test_common_shapes_take_the_quick_way() -> None:
    calls = [{"id": "c1", "type": "function", "function": {"name": "run", "arguments": "{}"}}]
    shapes = [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "hello"},
        {"role": "assistant", "content": None, "tool_calls": calls},
        {"role": "tool", "tool_call_id": "c1", "content": "done"},
    ]
    unanswered: dict[str, str | None] = {}
    assert all(read_plain(d, unanswered) is not None for d in shapes)
    assert unanswered == {}
    [conv] = loads({"messages": shapes}, format="openai-chat")
    assert conv.messages[3].tool_calls[0].name == "run"
    assert conv.messages[4].tool_call_id == "c1"


@settings(max_examples=200, deadline=None)
@given(st.lists(_message, max_size=8))
def test_whole_list_equals_the_careful_reader(items: list[dict[str, Any]]) -> None:
    links = Links()
    careful: list[Any] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            for d in copy.deepcopy(items):
                careful.append(read_message(d, Context(), "$", links))
        except MsgviewerError:
            return  # the reader refuses the list: nothing to compare
        unanswered: dict[str, str | None] = {}
        fallback = Links()
        fallback.unanswered = unanswered

        def slow(i: int, d: Any) -> Any:
            return read_message(d, Context(), f"$[{i}]", fallback)

        quick = read_all(items, unanswered, slow)
    assert quick == careful
    assert list(unanswered.items()) == list(links.unanswered.items())


@pytest.mark.parametrize("shape", ["list", "request body"])
@pytest.mark.parametrize("n", [-9223372036854775809, 99999999999999999999, 10**30])
def test_call_arguments_past_64_bits_are_read_exactly(shape: str, n: int) -> None:
    function = {"name": "f", "arguments": f'{{"n": {n}}}'}
    calls = [{"id": "c1", "type": "function", "function": function}]
    messages = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": None, "tool_calls": calls},
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
    ]
    text = json.dumps(messages if shape == "list" else {"messages": messages})
    [conv] = loads(text, format="openai-chat")
    [call] = conv.messages[1].tool_calls
    assert type(call.args["n"]) is int
    assert call.args["n"] == n
