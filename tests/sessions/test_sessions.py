"""Finding, summarising, caching and searching sessions in the standard layouts."""

from __future__ import annotations

import os
from pathlib import Path

import orjson
import pytest

from msgviewer import load
from msgviewer.sessions import (
    Matcher,
    SummaryCache,
    cache_dir,
    file_hits,
    list_sessions,
    session_files,
    standard_places,
)
from msgviewer.sessions.summary import is_prompt

from .layouts import SAMPLES, build


@pytest.fixture
def home() -> Path:
    home = Path(os.environ["HOME"])  # (a temporary one: tests/conftest.py)
    build(home)
    return home


def test_the_standard_places_are_those_that_exist(home: Path) -> None:
    assert [p.relative_to(home).as_posix() for p in standard_places()] == [
        ".claude/projects",
        ".codex/sessions",
        ".gemini/tmp",
        "logs",
    ]
    env = {"HOME": str(home / "nobody")}
    assert standard_places(env, cwd=str(home / "nowhere")) == []


def test_every_session_is_listed_newest_first_sub_agents_inside_theirs(home: Path) -> None:
    found = list_sessions()
    names = [Path(s.path).name for s in found]
    assert names == [
        "session-2026-03-02T09-14-3b6f0c2e.json",
        "5d0c1f3e-8a2b-4c7d-9e61-2f4a8b3c9d10.jsonl",
        "4f1c9a52-7d3e-4b8a-9c61-2e5f0d8b7a13.jsonl",
        "rollout-2025-09-14T10-21-03-01994a6e.jsonl",
        "2025-06-03T14-12-31_unit-convert.eval",
    ]
    assert not any("agent-" in s.path for s in found)  # sub-agent files are not sessions
    by_format = {s.format: s for s in found}
    assert set(by_format) == {"gemini-cli", "claude-code", "codex", "inspect"}
    with_agents = next(s for s in found if s.subagents)
    assert with_agents.subagents == 1 and with_agents.project == "/home/dev/tidy-dates"
    sub = with_agents.size - Path(with_agents.path).stat().st_size
    assert (
        sub
        == (Path(with_agents.path).with_suffix("") / "subagents" / "agent-a3f9c2e1.jsonl")
        .stat()
        .st_size
    )


def test_several_processes_list_what_one_does(home: Path, monkeypatch, tmp_path: Path) -> None:
    from msgviewer.sessions import listing

    one = list_sessions(cache=SummaryCache(tmp_path / "one"))
    # a few small files: worth a second process only when the threshold says so
    monkeypatch.setattr(listing, "_WORTH_A_PROCESS", 1)
    files = list(session_files(standard_places()))
    pool = listing._pool(2, files)
    assert pool is not None
    pool.terminate()
    two = list_sessions(cache=SummaryCache(tmp_path / "two"), workers=2)
    assert [s.to_json() for s in two] == [s.to_json() for s in one]
    again = list_sessions(cache=SummaryCache(tmp_path / "two"), workers=2)  # from the cache
    assert [s.to_json() for s in again] == [s.to_json() for s in one]


def test_counts_titles_times_and_tokens_agree_with_the_readers(home: Path) -> None:
    for s in list_sessions():
        convs = load(s.path)  # the full reader: sub-agent runs included
        assert s.messages == sum(len(c.messages) for c in convs), s.path
        assert s.conversations == len(convs)
        first_prompt = next(
            m.text
            for m in convs[0].messages
            if m.role == "user" and not m.metadata.get("isMeta") and is_prompt(m.text)
        )
        assert s.title == " ".join(first_prompt.split())[:200], s.path
        usage = [m.usage for c in convs for m in c.messages if m.usage is not None]
        if usage:  # (Inspect keeps its usage on the sample, not the messages)
            assert s.input_tokens == sum(u.input_tokens for u in usage)
            assert s.output_tokens == sum(u.output_tokens for u in usage)
        assert s.input_tokens > 0 and s.output_tokens > 0 and s.models
        assert s.started is not None and s.updated is not None and s.started <= s.updated


def test_the_facts_of_each_format(home: Path) -> None:
    by = {Path(s.path).suffix + s.format: s for s in list_sessions()}
    claude = next(s for s in by.values() if s.format == "claude-code" and not s.subagents)
    assert claude.project == "/home/dana/src/ledger"
    assert claude.title.startswith("tests/test_dates.py::test_parse_dates fails")  # not the caveat
    assert claude.models == ["claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001"]
    codex = by[".jsonlcodex"]
    assert codex.title == "The date parser test fails on leap years. Find the bug and fix it."
    assert codex.project == "/home/dev/parsely" and codex.models == ["gpt-5-codex"]
    assert (codex.input_tokens, codex.output_tokens) == (35020, 812)  # the last running total
    gemini = by[".jsongemini-cli"]
    assert (
        gemini.started == "2026-03-02T09:14:05.120Z"
        and gemini.updated == "2026-03-02T09:15:41.902Z"
    )
    assert by[".evalinspect"].conversations == 2


def test_detection_is_by_content_not_name(tmp_path: Path) -> None:
    (tmp_path / "a-session.txt").write_bytes((SAMPLES / "codex-rollout.jsonl").read_bytes())
    (tmp_path / "b.jsonl").write_text('{"not": "a conversation"}\n')
    (tmp_path / "c.json").write_bytes(b"\x00\x01binary")
    (tmp_path / "d.jsonl").write_text("")
    found = list_sessions([tmp_path])
    assert [(Path(s.path).name, s.format) for s in found] == [("a-session.txt", "codex")]


def test_the_cache_answers_for_unchanged_files_and_forgets_changed_ones(home: Path) -> None:
    first = list_sessions()
    cache_file = cache_dir() / "sessions.json"
    assert cache_file.is_file()
    # A summary from the cache is the same summary.
    assert [s.to_json() for s in list_sessions()] == [s.to_json() for s in first]
    # Tamper with a cached entry: an unchanged file is answered from the cache...
    data = orjson.loads(cache_file.read_bytes())
    codex = next(k for k in data["entries"] if k.endswith(".jsonl") and "codex" in k)
    data["entries"][codex]["summary"]["title"] = "from the cache"
    cache_file.write_bytes(orjson.dumps(data))
    assert any(s.title == "from the cache" for s in list_sessions())
    # ... and a file whose size changed is read again.
    with open(codex, "ab") as fh:
        fh.write(b"\n")
    assert not any(s.title == "from the cache" for s in list_sessions())


@pytest.mark.parametrize("content", [b"{not json", b'{"version": 1, "entries": []}', b"\xff\xfe"])
def test_a_corrupt_cache_is_an_empty_one(home: Path, content: bytes) -> None:
    expected = [s.to_json() for s in list_sessions(cache=SummaryCache(None))]
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sessions.json").write_bytes(content)
    assert [s.to_json() for s in list_sessions()] == expected


def test_an_unwritable_cache_is_no_cache(home: Path) -> None:
    blocker = Path(os.environ["XDG_CACHE_HOME"])
    blocker.parent.mkdir(parents=True, exist_ok=True)
    blocker.write_text("a file where the cache folder would be")
    assert len(list_sessions()) == 5


def test_grep_finds_messages_and_skips_files_without_the_bytes(home: Path) -> None:
    files = list(session_files(standard_places()))
    hits = [h for f in files for h in file_hits(f, Matcher("LEAP YEAR", ignore_case=True))]
    assert {Path(h.path).suffix for h in hits} == {".jsonl"}
    codex = [h for h in hits if "rollout" in h.path]
    assert (codex[0].message, codex[0].role) == (2, "user")
    assert "leap years" in codex[0].snippet.lower()
    # Each hit names a message that holds the text, found again by the reader.
    for h in hits:
        conv = load(h.path)[h.conversation]
        assert h.role == conv.messages[h.message].role
    # Case matters without ignore_case; a tool name and its arguments are searched too.
    assert not [h for f in files for h in file_hits(f, Matcher("LEAP YEAR"))]
    by_tool = [h for f in files for h in file_hits(f, Matcher("apply_patch"), tool="apply_patch")]
    assert [h.role for h in by_tool] == ["assistant"]


def test_grep_reaches_sub_agent_files_and_zipped_logs(home: Path) -> None:
    files = list(session_files(standard_places()))
    # In the tidy-dates session, "output_mode" is only in the sub-agent file: the hits are in
    # its session, on sidechain messages.
    session = next(f for f in files if f.parts)
    hits = file_hits(session, Matcher("output_mode"))
    assert hits and {h.path for h in hits} == {str(session.path)}
    assert b"output_mode" not in session.path.read_bytes()
    messages = load(hits[0].path)[0].messages
    assert all(messages[h.message].metadata.get("isSidechain") for h in hits)
    eval_hits = [h for f in files for h in file_hits(f, Matcher("metres", ignore_case=True))]
    assert {(h.conversation, h.role) for h in eval_hits if h.path.endswith(".eval")} >= {
        (0, "user")
    }


@pytest.mark.parametrize(
    ("pattern", "needle"),
    [('say "hi"', b"say "), ("a/b<c>", b"a"), ("Zoë Ångström", b"ngstr"), ("x" * 3, b"xxx")],
)
def test_the_byte_prefilter_uses_only_text_a_json_writer_keeps(pattern: str, needle: bytes) -> None:
    assert Matcher(pattern).needle == needle
    # What JSON made of the pattern still passes the prefilter.
    for written in (
        orjson.dumps(pattern),
        orjson.dumps(pattern).decode().encode("ascii", "backslashreplace"),
    ):
        assert Matcher(pattern).may_match(written)
