"""Redaction with the real detector: every kind of secret in every place text can hide, stable
placeholders, signatures dropped, nothing redacted that is not a secret."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

import msgviewer as mv
from msgviewer.core.blocks import (
    FileBlock,
    ReasoningBlock,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
)
from msgviewer.core.message import InvalidToolCall
from msgviewer.document.redaction import leaked, redact_conversations
from msgviewer.document.secrets import _KEYLIKE, SecretDetector, _has_keylike_word

PRIVATE_KEY = (
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    "-----END OPENSSH PRIVATE KEY-----"
)
JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwi"
    "aWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
# kind -> (text holding the secret, the secret itself)
SECRETS: dict[str, tuple[str, str]] = {
    "aws-key": ("key AKIAZ7Q3R5T8V2X4Y6W1 set", "AKIAZ7Q3R5T8V2X4Y6W1"),
    "github-token": (
        "token ghp_Zq8rT4pLm2Xv9bN1cD5fG7hJ3kL6mP0sR2tW",
        "ghp_Zq8rT4pLm2Xv9bN1cD5fG7hJ3kL6mP0sR2tW",
    ),
    "slack-token": (
        "xoxb-123456789012-1234567890123-abcdefghijklmnopqrst posted",
        "xoxb-123456789012-1234567890123-abcdefghijklmnopqrst",
    ),
    "jwt": (f"Authorization: Bearer {JWT}", JWT),
    "private-key": (f"cat id_ed25519\n{PRIVATE_KEY}\n$ ", PRIVATE_KEY),
    "url-password": ("git clone https://deploy:Zq8rT4pLm2Xv@git.example.org/r.git", "Zq8rT4pLm2Xv"),
    "anthropic-key": (
        "ANTHROPIC_API_KEY=sk-ant-api03-Zq8rT4pLm2Xv9bN1cD5fG7hJ3kL6mP0sR2tWxYz",
        "sk-ant-api03-Zq8rT4pLm2Xv9bN1cD5fG7hJ3kL6mP0sR2tWxYz",
    ),
    "openai-key": (
        "use sk-proj-Zq8rT4pLm2Xv9bN1cD5fG7hJ3kL6mP0sR2tWxYz9 please",
        "sk-proj-Zq8rT4pLm2Xv9bN1cD5fG7hJ3kL6mP0sR2tWxYz9",
    ),
    "secret": ('DB_PASSWORD = "Hx7pQ2zLr9wK"', "Hx7pQ2zLr9wK"),
    "email": ("mail dana.smith@example.com today", "dana.smith@example.com"),
    "pattern": ("ticket ACME-123456 closed", "ACME-123456"),
    "literal": ("for Project Bluebird only", "Project Bluebird"),
}
DETECTOR = SecretDetector(patterns=[r"ACME-\d{6}"], literals=["Project Bluebird"])
DATA = base64.b64encode(b"%PDF-1.4 not really").decode()

Place = Callable[[str], mv.Conversation]


def _conv(*messages: mv.Message, **kw: object) -> mv.Conversation:
    return mv.Conversation((mv.Message.user("hi"), *messages), **kw)  # type: ignore[arg-type]


# place -> (a conversation with text t there, the path a finding names)
PLACES: dict[str, tuple[Place, str]] = {
    "message text": (lambda t: _conv(mv.Message.user(t)), "message 1: content"),
    "text block": (
        lambda t: _conv(mv.Message.assistant((TextBlock(t),))),
        "message 1: content[0].text",
    ),
    "reasoning": (
        lambda t: _conv(mv.Message.assistant((ReasoningBlock(t, signature="c2ln"),))),
        "message 1: content[0].text",
    ),
    "tool arguments (nested JSON)": (
        lambda t: _conv(
            mv.Message.assistant((ToolCallBlock("c1", "bash", {"run": {"argv": ["sh", t]}}),))
        ),
        "message 1: content[0].args.run.argv[1]",
    ),
    "tool_calls arguments": (
        lambda t: _conv(mv.Message.assistant("", tool_calls=[mv.ToolCall("c1", "sh", {"c": t})])),
        "message 1: tool_calls[0].args.c",
    ),
    "invalid tool call text": (
        lambda t: _conv(
            mv.Message.assistant("", invalid_tool_calls=[InvalidToolCall("c1", "sh", t, "bad")])
        ),
        "message 1: invalid_tool_calls[0].args",
    ),
    "tool message result": (
        lambda t: _conv(mv.Message.tool(t, tool_call_id="c1")),
        "message 1: content",
    ),
    "tool result block": (
        lambda t: _conv(mv.Message.user((ToolResultBlock("c1", (TextBlock(t),)),))),
        "message 1: content[0].content[0].text",
    ),
    "message metadata": (
        lambda t: _conv(mv.Message.user("x", metadata={"env": {"note": t}})),
        "message 1: metadata.env.note",
    ),
    "response metadata": (
        lambda t: _conv(mv.Message.assistant("x", response_metadata={"system_note": t})),
        "message 1: response_metadata.system_note",
    ),
    "artifacts": (
        lambda t: _conv(mv.Message.tool("x", tool_call_id="c1", artifacts=({"stdout": t},))),
        "message 1: artifacts[0].stdout",
    ),
    "file name": (
        lambda t: _conv(mv.Message.user((FileBlock(data=DATA, filename=t + ".pdf"),))),
        "message 1: content[0].filename",
    ),
    "request fields": (
        lambda t: _conv(metadata={"tools": [{"name": "x", "description": t}]}),
        "request: metadata.tools[0].description",
    ),
    "title": (lambda t: _conv(title=t), "request: title"),
}


@pytest.mark.parametrize("place", list(PLACES))
@pytest.mark.parametrize("kind", list(SECRETS))
def test_every_kind_is_redacted_in_every_place(kind: str, place: str) -> None:
    text, secret = SECRETS[kind]
    make, where = PLACES[place]
    conv = make(text)
    result = redact_conversations([conv], DETECTOR)
    [out] = result.conversations
    written = mv.dumps(out)
    assert leaked(written, [secret]) == []
    assert f"[REDACTED:{kind}:1]".encode() in written
    assert [(f.kind, f.where()) for f in result.findings] == [(kind, where)]
    # and nothing else changed: with the placeholder put back, the conversation is the input
    assert mv.dumps(out).replace(f"[REDACTED:{kind}:1]".encode(), b"@@") == mv.dumps(
        _unsigned(conv) if place == "reasoning" else conv
    ).replace(json.dumps(secret)[1:-1].encode(), b"@@")


def _unsigned(conv: mv.Conversation) -> mv.Conversation:
    import dataclasses

    m = conv.messages[1]
    block = dataclasses.replace(m.content[0], signature=None)  # type: ignore[index]
    return dataclasses.replace(
        conv, messages=(conv.messages[0], dataclasses.replace(m, content=(block,)))
    )


def test_a_changed_reasoning_block_loses_its_signature_with_a_warning() -> None:
    conv = PLACES["reasoning"][0](SECRETS["github-token"][0])
    result = redact_conversations([conv], DETECTOR)
    block = result.conversations[0].messages[1].content[0]
    assert isinstance(block, ReasoningBlock) and block.signature is None
    assert result.warnings == [
        "message 1, block 0: signature dropped (the redacted text no longer matches it; a "
        "provider would reject it)"
    ]
    clean = PLACES["reasoning"][0]("nothing secret here")
    untouched = redact_conversations([clean], DETECTOR)
    assert untouched.conversations[0] is clean and untouched.warnings == []


def test_the_same_secret_is_the_same_placeholder_throughout() -> None:
    token, other = SECRETS["github-token"][1], "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    first = mv.Conversation(
        (
            mv.Message.user(f"here {token}"),
            mv.Message.assistant("", tool_calls=[mv.ToolCall("c", "gh", {"t": token, "u": other})]),
            mv.Message.tool(f"used {other} then {token}", tool_call_id="c"),
        ),
        metadata={"auth": token},
    )
    second = mv.Conversation((mv.Message.user(f"again {token}"),))
    result = redact_conversations([first, second], DETECTOR)
    text = b"".join(mv.dumps(c) for c in result.conversations)
    assert text.count(b"[REDACTED:github-token:1]") == 5
    assert text.count(b"[REDACTED:github-token:2]") == 2
    assert leaked(text, [token, other]) == []
    # a redacted file redacts to itself: placeholders are never secrets
    again = redact_conversations(result.conversations, DETECTOR)
    assert again.findings == [] and again.conversations == result.conversations


@pytest.mark.parametrize(
    ("where", "conv"),
    [
        (
            "a key-like field",
            mv.Conversation((mv.Message.user("x", metadata={"api_key": "q8Zr2LxP0aVn4Kd7WmT"}),)),
        ),
        (
            "a tool argument",
            mv.Conversation(
                (
                    mv.Message.assistant(
                        "",
                        tool_calls=[
                            mv.ToolCall("c", "login", {"token": "Bearer q8Zr2LxP0aVn4Kd7WmT"})
                        ],
                    ),
                )
            ),
        ),
        (
            "an environment dump",
            mv.Conversation(
                (
                    mv.Message.tool(
                        "HOME=/root\nSECRET_TOKEN=q8Zr2LxP0aVn4Kd7WmT\n", tool_call_id="c"
                    ),
                )
            ),
        ),
    ],
)
def test_random_values_in_key_like_places_are_secrets(where: str, conv: mv.Conversation) -> None:
    result = redact_conversations([conv], DETECTOR)
    assert [f.kind for f in result.findings] == ["secret"], where
    assert b"q8Zr2LxP0aVn4Kd7WmT" not in mv.dumps(result.conversations[0])


def test_ordinary_text_is_left_alone() -> None:
    conv = mv.Conversation(
        (
            mv.Message.user("Fix commit a3f9c2e4b1 in src/app.py; max_tokens is 1024."),
            mv.Message.assistant(
                "", tool_calls=[mv.ToolCall("c", "set", {"max_tokens": 4096, "token": "none"})]
            ),
            mv.Message.tool('password = input("Password: ")', tool_call_id="c"),
        ),
        metadata={"model": "claude-sonnet-4-5", "temperature": 0.2},
    )
    result = redact_conversations([conv], DETECTOR)
    assert result.findings == []
    assert result.conversations[0] is conv


def test_emails_can_be_kept() -> None:
    conv = PLACES["message text"][0](SECRETS["email"][0])
    assert redact_conversations([conv], SecretDetector(emails=False)).findings == []


def test_a_secret_left_inside_a_zipped_log_is_seen() -> None:
    import io
    import zipfile
    import zlib

    token = SECRETS["github-token"][1]
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("header.json", b'{"eval": {"task": "t"}}')
        archive.writestr("samples/1_epoch_1.json", ('{"input": "use ' + token + '"}').encode())
    data = packed.getvalue()
    assert token.encode() not in data  # compressed: the bytes alone would pass
    assert leaked(data, [token]) == [token]
    assert leaked(data, ["ghp_nothing_like_it"]) == []
    # a member whose stream is broken is looked at as its bytes; the others are still read
    header = data.index(b"samples/1_epoch_1.json") + len(b"samples/1_epoch_1.json")
    broken = data[:header] + bytes(b ^ 0xFF for b in data[header : header + 20])
    broken += data[header + 20 :]
    with zipfile.ZipFile(io.BytesIO(broken)) as archive, pytest.raises(zlib.error):
        archive.read("samples/1_epoch_1.json")
    assert leaked(broken, [token]) == []
    assert leaked(broken, ['"task"']) == ['"task"']  # (inside header.json, which unpacks)


# letters a case-insensitive pattern takes for an ASCII one
_ODD = {"i": "\u0130\u0131I", "s": "\u017fS", "k": "\u212aK"}


@st.composite
def _texts_with_key_like_words(draw: st.DrawFn) -> str:
    word = draw(st.sampled_from(["password", "pwd", "secret", "token", "api_key", "apikey",
                                 "authorization", "credential", "private-key", "accesskey",
                                 "session_id", "cookie"]))  # fmt: skip
    spelt = "".join(draw(st.sampled_from([c, c.upper(), *_ODD.get(c, "")])) for c in word)
    around = st.text(alphabet="ab \n=\u00e9\u00df\u0130", max_size=6)
    return draw(around) + spelt + draw(around)


@given(_texts_with_key_like_words())
def test_the_quick_look_for_key_like_words_misses_none_the_pattern_finds(text: str) -> None:
    # lines it passes over are never read by the keyword rules: it may say yes too often,
    # never no where the case-insensitive pattern says yes
    if _KEYLIKE.search(text):
        assert _has_keylike_word(text)
