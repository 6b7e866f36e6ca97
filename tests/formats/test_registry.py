"""The registry around the writers: odd data gives a located error, never a traceback."""

from __future__ import annotations

import contextlib
import warnings

import pytest

from msgviewer.core.message import Message
from msgviewer.formats import Conversation, FormatError, MsgviewerError, dumps

from .format_checks import writable_targets


def _history(odd_at: int) -> tuple[Message, ...]:
    # A set is no JSON value: every writer that writes the metadata fails on it.
    return tuple(
        Message(
            "assistant" if i % 2 else "user", f"m{i}", metadata={"k": {1}} if i == odd_at else {}
        )
        for i in range(7)
    )


@pytest.mark.parametrize("fmt", ["msgviewer", "anthropic", "langchain", "openai-chat"])
def test_a_writer_failing_on_a_message_names_it(fmt: str) -> None:
    conv = Conversation(_history(5), fmt)
    with (
        pytest.raises(FormatError, match=f"cannot write as {fmt}: message 5: TypeError"),
        warnings.catch_warnings(),
    ):
        warnings.simplefilter("ignore")
        dumps(conv, format=fmt)


def test_a_writer_failing_on_request_fields_names_them() -> None:
    conv = Conversation((Message.user("hi"),), "msgviewer", {"tools": {"a"}})
    with pytest.raises(FormatError, match="the conversation's metadata or title"):
        dumps(conv)


def test_several_conversations_name_the_one_that_fails() -> None:
    good = Conversation((Message.user("hi"),))
    bad = Conversation(_history(2))
    with pytest.raises(FormatError, match="conversation 1, message 2"):
        dumps([good, bad, good])


@pytest.mark.parametrize("fmt", writable_targets(set()))
def test_no_writer_lets_a_stray_exception_out(fmt: str) -> None:
    conv = Conversation(_history(3), fmt, {"temperature": {0.5}})
    # Written, or refused with a message: never a bare TypeError.
    with warnings.catch_warnings(), contextlib.suppress(MsgviewerError):
        warnings.simplefilter("ignore")
        dumps(conv, format=fmt)
