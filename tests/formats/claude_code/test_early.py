"""A session loaded from its file, its lines' content read as they are parsed (``early``), is
the session its bytes give read the usual way, and is written back the same."""

from __future__ import annotations

import dataclasses
import warnings
from functools import partial
from pathlib import Path
from typing import Any

import orjson
import pytest

from msgviewer import dumps, load, loads
from msgviewer.formats import jsonl_file
from msgviewer.formats.claude_code import early as early_module
from msgviewer.formats.claude_code.early import Early, Preparer, early_content, restore, wire
from msgviewer.formats.claude_code.read import OTHER_LINES
from msgviewer.formats.jsonl_file import parse_jsonl_file
from msgviewer.formats.loading import _preparer

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "claude-code"
SAMPLES = Path(__file__).resolve().parents[3] / "msgviewer" / "samples"
SESSION = "00000000-0000-4000-8000-000000000000"


def _line(uid: str, parent: str | None, kind: str, message: Any, **more: Any) -> dict[str, Any]:
    return {
        "type": kind,
        "message": message,
        "isSidechain": False,
        "sessionId": SESSION,
        "uuid": uid,
        "parentUuid": parent,
        **more,
    }


def _user(uid: str, parent: str | None, content: Any) -> dict[str, Any]:
    return _line(uid, parent, "user", {"role": "user", "content": content})


def _assistant(
    uid: str, parent: str | None, mid: str, content: Any, usage: Any = None
) -> dict[str, Any]:
    inner = {"id": mid, "type": "message", "model": "m", "role": "assistant", "content": content}
    if usage is not None:
        inner["usage"] = usage
    return _line(uid, parent, "assistant", inner)


def _text(t: str) -> dict[str, Any]:
    return {"type": "text", "text": t}


def _call(cid: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": cid, "name": "run", "input": {"cmd": cid}}


def _session() -> list[dict[str, Any]]:
    """Lines of every shape the early reading takes or leaves, past the first twenty (read
    before the format is told) and within them."""
    usage = {"input_tokens": 3, "output_tokens": 2}
    lines: list[dict[str, Any]] = []
    parent = None
    for i in range(12):  # the plain shapes
        lines.append(_user(f"u{i}", parent, [_text(f"ask {i}")]))
        lines.append(
            _assistant(
                f"a{i}",
                f"u{i}",
                f"m{i}",
                [
                    {"type": "thinking", "thinking": "hm", "signature": "s"},
                    _text("ok"),
                    _call(f"c{i}"),
                ],
                usage,
            )
        )
        result = {"type": "tool_result", "tool_use_id": f"c{i}", "content": "done"}
        if i % 2:  # Claude Code's own key order
            result = {"tool_use_id": f"c{i}", "type": "tool_result", "content": "done"}
        lines.append(_user(f"r{i}", f"a{i}", [result]))
        parent = f"r{i}"
    odd = [
        # both key orders in one line; an error result; a call with text after it
        _user(
            "x1",
            parent,
            [
                {"type": "tool_result", "tool_use_id": "c1", "content": "a"},
                {"tool_use_id": "c2", "type": "tool_result", "content": "b"},
            ],
        ),
        _user(
            "x2",
            "x1",
            [{"type": "tool_result", "tool_use_id": "c3", "content": "e", "is_error": True}],
        ),
        _assistant("x3", "x2", "mx3", [_call("cx"), _text("after the call")], usage),
        # a user line's call block, and string content
        _user("x4", "x3", [_call("cu")]),
        _user("x5", "x4", "plain text"),
        # a response split over two lines (one message), its usage repeated
        _assistant("x6", "x5", "split", [_text("first half")], usage),
        _assistant("x7", "x6", "split", [_call("cs")], usage),
        # a rewind: x8 is left for x9 (another branch, kept aside as it was)
        _user("x8", "x7", [_text("abandoned")]),
        _user("x9", "x7", [_text("taken")]),
        # a line whose usage cannot be read: kept aside as it was
        _assistant("x10", "x9", "bad", [_text("t")], {"input_tokens": "many"}),
        # a line that cannot be read (its uuid is not a string): kept aside as it was
        {**_user("x11", "x9", [_text("odd uuid")]), "uuid": 11},
        # a repeated uuid: kept aside
        _user("x9", "x7", [_text("again")]),
        {"type": "summary", "summary": "a title", "leafUuid": "x9"},
    ]
    return lines + odd


def _bytes(records: list[dict[str, Any]]) -> bytes:
    return b"".join(orjson.dumps(r) + b"\n" for r in records)


def _both(path: Path) -> tuple[Any, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load(path), loads(path.read_bytes())


@pytest.mark.parametrize("piece", [7, 1 << 20])
def test_a_session_of_every_shape_loads_as_its_bytes_read(
    tmp_path: Path, monkeypatch: Any, piece: int
) -> None:
    monkeypatch.setattr(jsonl_file, "PIECE", piece)
    data = _bytes(_session())
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    chosen: list[str] = []
    parsed = parse_jsonl_file(str(path), str(path), partial(_preparer, None, chosen))
    assert parsed is not None and chosen == ["claude-code"]
    messages = [r.get("message") for r in parsed.records]
    bare = [m for m in messages if early_content(m)]  # a user line's content alone
    read_early = bare + [m for m in messages if type(m) is dict and early_content(m["content"])]
    assert len(read_early) == 36 + 8  # the plain shapes, and the odd lines of those shapes
    assert 0 < len(bare) < len(read_early)  # (not the assistant lines')
    early, usual = _both(path)
    assert early == usual
    conv = early[0]
    assert not any(type(b) is Early for m in conv.messages for b in m.blocks)
    aside = [o["line"] for o in conv.metadata[OTHER_LINES] if "message" in o["line"]]
    assert len(aside) == 4  # the other branch, the unreadable lines, the repeated uuid
    for line in aside:  # as parsed, content and all
        assert type(line["message"]["content"]) is list
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert dumps(conv, format="claude-code") == dumps(usual[0], format="claude-code")
    assert early_module._NONE == {}  # the extra all blocks read early share: still empty


def test_an_edited_session_loaded_early_writes_as_the_usual_one(tmp_path: Path) -> None:
    data = _bytes(_session())
    path = tmp_path / "s.jsonl"
    path.write_bytes(data)
    early, usual = _both(path)
    for conv in (early[0], usual[0]):
        assert conv.messages[3].role == "user"
    edits = [
        dataclasses.replace(c, messages=c.messages[:3] + c.messages[4:])
        for c in (early[0], usual[0])
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert dumps(edits[0], format="claude-code") == dumps(edits[1], format="claude-code")


def _files() -> list[Path]:
    found = sorted(CORPUS.glob("*.jsonl")) if CORPUS.is_dir() else []
    return [*found, SAMPLES / "claude-code-session.jsonl"]


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_real_sessions_load_as_their_bytes_read(path: Path) -> None:
    early, usual = _both(path)
    assert early == usual
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert dumps(early, format="claude-code") == dumps(usual, format="claude-code")


def test_content_read_early_is_given_back_as_parsed() -> None:
    prepare = Preparer()
    for record in _session():
        parsed = orjson.loads(orjson.dumps(record))
        prepare(parsed)
        assert orjson.dumps(restore(parsed)) == orjson.dumps(record)


def test_content_of_other_shapes_is_left_as_parsed() -> None:
    prepare = Preparer()
    for content in (
        [_call("c"), _text("after")],  # (on an assistant line)
        [{"type": "text", "text": "t", "cache_control": {"type": "ephemeral"}}],
        [{"text": "t", "type": "text"}],
        [{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AA"}}],
        [{"type": "text", "text": 1}],
        ["not a block"],
        [],
    ):
        record = _assistant("a", None, "m", content)
        prepare(record)
        assert record["message"]["content"] == content
    assert wire(Early((), (), 0)) == []
