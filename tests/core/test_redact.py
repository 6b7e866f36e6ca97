"""The core redaction walk with a detector of its own: what is scanned, what never is, and what
is left exactly as it was."""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator

from hypothesis import given, settings

import msgviewer as mv
from msgviewer.core.blocks import ImageBlock, ReasoningBlock, TextBlock
from msgviewer.core.redact import OPAQUE_KEYS, Hit, Placeholders, Redactor, redact_messages
from tests.strategies import histories


def words(*secret: str):  # a detector finding the given words anywhere
    pattern = re.compile("|".join(re.escape(s) for s in secret))

    def detect(text: str, key: str | None) -> Iterator[Hit]:
        for m in pattern.finditer(text):
            yield Hit("word", m.group())

    return detect


def _without_signatures(value: object) -> object:
    if isinstance(value, dict):
        return {k: _without_signatures(v) for k, v in value.items() if k not in OPAQUE_KEYS}
    if isinstance(value, list):
        return [_without_signatures(v) for v in value]
    return value


def test_structure_and_opaque_data_are_never_scanned() -> None:
    data = base64.b64encode(b"user text image").decode()  # holds the words, as base64 does
    messages = [
        mv.Message.user(
            (TextBlock("a text for the user"), ImageBlock(data=data, mime_type="image/png"))
        ),
        mv.Message.assistant(
            (ReasoningBlock("", signature="user", data="text-user", redacted=True),),
        ),
    ]
    out, findings, warnings = redact_messages(messages, words("user", "text", "image", "png"))
    assert out[0].role == "user" and out[0].content[0].type == "text"  # type: ignore[index]
    assert out[0].content[1] == messages[0].content[1]  # type: ignore[index]
    assert out[1] is messages[1]
    assert out[0].content[0].text == "a [REDACTED:word:1] for the [REDACTED:word:2]"  # type: ignore[index]
    assert [f.path for f in findings] == ["content[0].text", "content[0].text"]
    assert warnings == []


def test_unchanged_messages_are_the_same_objects_and_keys_are_redacted() -> None:
    messages = [
        mv.Message.user("nothing here"),
        mv.Message.user("x", metadata={"hunter2": {"k": "hunter2"}}),
    ]
    out, findings, _ = redact_messages(messages, words("hunter2"))
    assert out[0] is messages[0]
    assert out[1].metadata == {"[REDACTED:word:1]": {"k": "[REDACTED:word:1]"}}
    assert [f.where() for f in findings] == [
        "message 1: metadata (a key)",  # (a report never shows the secret)
        "message 1: metadata['[REDACTED:word:1]'].k",
    ]


def test_placeholders_number_each_kind_in_order_of_first_sight() -> None:
    p = Placeholders()
    assert [p.get("a", "x"), p.get("b", "y"), p.get("a", "z"), p.get("b", "x")] == [
        "[REDACTED:a:1]",
        "[REDACTED:b:1]",
        "[REDACTED:a:2]",
        "[REDACTED:a:1]",  # the same secret keeps its placeholder whatever finds it next
    ]
    r = Redactor(words("REDACTED", "1]"), p)
    assert (
        r.text("see [REDACTED:a:1] and 1]", None, (0, 0, "t"))
        == "see [REDACTED:a:1] and [REDACTED:word:1]"
    )


@settings(max_examples=60, deadline=None, derandomize=True)
@given(histories())
def test_any_history_redacts_to_valid_messages_and_redacting_again_changes_nothing(
    messages: list[mv.Message],
) -> None:
    detect = words("e", "Paris")  # common enough to land in every kind of place
    out, _, _ = redact_messages(messages, detect)
    assert mv.from_dict(mv.to_dict(out)) == out  # still valid messages
    assert [m.role for m in out] == [m.role for m in messages]
    again, more, _ = redact_messages(out, words("Paris"))
    assert more == [] and again == out
    # nowhere but in a signature, which is opaque data (never scanned: a provider checks it)
    assert not any("Paris" in str(_without_signatures(mv.to_dict([m]))) for m in out)


def test_a_calls_argument_named_like_a_signature_is_still_redacted() -> None:
    # found by the property above: arguments are the program's own, whatever their keys
    call = mv.ToolCall("c1", "get_weather", {"type": {"thoughtSignature": "in Paris today"}})
    block = mv.ToolCallBlock(None, "get_weather", {"signature": "Paris, France"})
    messages = [
        mv.Message.user((TextBlock("hi"), block)),
        mv.Message.assistant("", tool_calls=[call]),
    ]
    out, found, _ = redact_messages(messages, words("Paris"))
    assert "Paris" not in str(mv.to_dict(out))
    assert len(found) == 2
    # a reasoning block's signature is still left alone (it is not text)
    signed = mv.Message.assistant((ReasoningBlock("thinking of Paris", signature="Paris=="),))
    [kept], _, _ = redact_messages([signed], words("Paris"))
    assert kept.content[0].text != "thinking of Paris" and kept.content[0].signature is None
