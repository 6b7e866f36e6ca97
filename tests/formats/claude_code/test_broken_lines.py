"""Claude Code sessions as they are found on disk: broken lines, lines without links, and
parents outside the file. The good lines load; each bad line is reported and written back."""

from __future__ import annotations

import warnings

import orjson
import pytest

from msgviewer.cli import main
from msgviewer.formats import FormatWarning, dumps, load, loads

from .test_claude_code import _jsonl, _line, _rewound


def _loaded(data: bytes) -> tuple[list, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        conversations = loads(data, format="claude-code")
    return conversations, [str(w.message) for w in caught if w.category is FormatWarning]


def _parsed(data: bytes) -> list:
    return [orjson.loads(line) for line in data.splitlines()]


@pytest.mark.parametrize(
    ("bad", "path", "reason"),
    [
        ({"message": "hello"}, "$.message", "needs a message object"),
        ({"message": {"role": "user", "contenst": "hi"}}, "$.message.content", "no content"),
        ({"message": {"role": "user", "content": 5}}, "$.message.content", "content"),
        (
            {"message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": 1}]}},
            "$.message.content[0].tool_use_id",
            "tool_use_id",
        ),
    ],
)
def test_a_bad_line_is_reported_kept_and_the_chain_goes_through_it(
    bad: dict, path: str, reason: str
) -> None:
    records = _rewound()
    records[4] = {**records[4], **bad}  # u3, on the active branch: u1 a1 (u3) a3
    data = _jsonl(records)
    [conv], reported = _loaded(data)
    assert len(reported) == 1
    assert f"line 5: {path}" in reported[0] and reason in reported[0]
    assert [m.text for m in conv.messages] == [
        "Write a haiku about rain.",
        "Grey clouds...",
        "Sunlit puddles...",
    ]
    # writing the session back gives every line again, the bad one as it was
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        written = dumps(conv, format="claude-code")
    assert _parsed(written) == records


def test_a_line_whose_uuid_is_not_a_string_is_reported() -> None:
    records = _rewound()
    records[5] = {**records[5], "uuid": 7}  # a3, the newest line
    [conv], reported = _loaded(_jsonl(records))
    assert len(reported) == 1 and "line 6: $.uuid" in reported[0]
    assert [m.text for m in conv.messages][-1] == "Make it happier."
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _parsed(dumps(conv, format="claude-code")) == records


def test_lines_that_are_not_json_or_not_objects_are_kept_as_they_were() -> None:
    records = _rewound()[:2]
    good = _jsonl(records).splitlines()
    data = b"\n".join([good[0], b'"massive error"', b"[1]", b'{"type": "user", "uuid": ', good[1]])
    [conv], reported = _loaded(data + b"\n")
    assert [m.text for m in conv.messages] == ["Write a haiku about rain.", "Grey clouds..."]
    assert [r.split(": ")[0] for r in reported] == ["line 2", "line 3", "line 4"]
    assert "invalid JSON" in reported[2]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        written = dumps(conv, format="claude-code").splitlines()
    assert written[1:4] == [b'"massive error"', b"[1]", b'{"type": "user", "uuid": ']
    assert [orjson.loads(written[0]), orjson.loads(written[4])] == records


def test_a_log_being_written_shows_the_rest_of_the_session(tmp_path) -> None:
    data = _jsonl(_rewound()[:4])
    path = tmp_path / "live.jsonl"
    path.write_bytes(data + data.splitlines()[1][:-30])  # the fifth line cut off mid-way
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        [conv] = load(path)
    assert [m.metadata["uuid"] for m in conv.messages] == ["u1", "a1", "u2", "a2"]
    [warning] = [str(w.message) for w in caught]
    assert f"{path}: line 5" in warning and "incomplete" in warning


def test_other_formats_still_refuse_a_line_that_is_not_json() -> None:
    data = b'{"messages": [{"role": "user", "content": "hi"}]}\n{"messages": [\n'
    with pytest.raises(Exception, match="line 2"):
        loads(data)


def test_lint_and_convert_strict_fail_on_a_broken_line(tmp_path, capsys) -> None:
    records = _rewound()
    records.insert(2, {**records[2], "message": "oops", "uuid": "broken"})
    path = tmp_path / "session.jsonl"
    path.write_bytes(_jsonl(records))
    assert main(["convert", str(path), "--to", "msgviewer", "-o", str(tmp_path / "o.json")]) == 0
    assert main(["convert", str(path), "--to", "msgviewer", "--strict"]) == 1
    err = capsys.readouterr().err
    assert "error" in err and "line 3" in err and "needs a message object" in err
    assert main(["lint", str(path), "--strict"]) == 1


def test_lines_without_links_are_shown_in_file_order() -> None:
    # an export whose every line has parentUuid null: no chain, so the file's order
    records = [
        _line("m1", None, "user", "What does this repo do?"),
        _line("m2", None, "assistant", [{"type": "text", "text": "It parses logs."}]),
        _line("m3", None, "user", "Thanks."),
    ]
    [conv], reported = _loaded(_jsonl(records))
    assert [m.text for m in conv.messages] == [
        "What does this repo do?",
        "It parses logs.",
        "Thanks.",
    ]
    assert reported == [] and "otherLines" not in conv.metadata
    assert _parsed(dumps(conv, format="claude-code")) == records


def test_a_lone_line_beside_a_chain_keeps_its_place() -> None:
    records = _rewound()[:2]
    records.insert(1, _line("note", None, "user", "(pasted later)"))
    [conv], _ = _loaded(_jsonl(records))
    assert [m.metadata["uuid"] for m in conv.messages] == ["u1", "note", "a1"]


def test_a_parent_outside_the_file_is_written_back_and_a_deleted_one_is_not() -> None:
    # an excerpt: its first line's parent is in a part of the session not in the file
    records = [
        _line("u7", "u6-not-here", "user", "Go on."),
        _line("a7", "u7", "assistant", [{"type": "text", "text": "Going on."}]),
        _line("u8", "a7", "user", "And then?"),
    ]
    [conv], _ = _loaded(_jsonl(records))
    assert _parsed(dumps(conv, format="claude-code")) == records
    # deleting a7 makes u8 follow u7; u7 still points outside
    edited = conv.__class__((conv.messages[0], conv.messages[2]), conv.format, conv.metadata)
    lines = [orjson.loads(x) for x in dumps(edited, format="claude-code").splitlines()]
    assert [(x["uuid"], x["parentUuid"]) for x in lines] == [("u7", "u6-not-here"), ("u8", "u7")]


def test_a_parent_written_after_its_child_is_not_outside_the_file() -> None:
    # lines appended out of order (a parent written after the line that names it): only the
    # parent no line has is outside
    records = [
        _line("a7", "u7", "assistant", [{"type": "text", "text": "Going on."}]),
        _line("u7", "u6-not-here", "user", "Go on."),
        _line("u8", "a7", "user", "And then?"),
    ]
    [conv], _ = _loaded(_jsonl(records))
    assert conv.metadata["outsideParents"] == ["u6-not-here"]
