"""The command line through its real entry point: stdout, stderr and exit codes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import msgviewer as mv
from msgviewer.cli import main
from msgviewer.cli.commands import COMMANDS
from msgviewer.formats import lossy_warnings

SAMPLES = sorted(p for p in (Path(__file__).parents[2] / "sample_data").iterdir() if p.is_file())
WRITABLE = [name for name, (_, can_write, _) in mv.FORMATS.items() if can_write]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse exits on --help and usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def agent_run(tmp_path: Path) -> Path:
    """A small history with an answered call, an errored call and an unanswered call."""
    messages = [
        mv.Message.system("You are a careful agent."),
        mv.Message.user("Look up the weather in Paris and Rome."),
        mv.Message.assistant(
            "",
            tool_calls=[
                mv.ToolCall("call_1", "weather", {"city": "Paris"}),
                mv.ToolCall("call_2", "weather", {"city": "Rome"}),
            ],
            usage=mv.Usage(input_tokens=120, output_tokens=30),
            response_metadata={"model": "gpt-test"},
        ),
        mv.Message.tool("18 C, cloudy", tool_call_id="call_1", name="weather"),
        mv.Message.tool("timeout", tool_call_id="call_2", name="weather", is_error=True),
        mv.Message.assistant(
            "Paris is 18 C. Let me retry Rome.",
            tool_calls=[mv.ToolCall("call_3", "weather", {"city": "Rome"})],
            usage=mv.Usage(input_tokens=180, output_tokens=20),
            response_metadata={"model": "gpt-test"},
        ),
    ]
    path = tmp_path / "run.json"
    mv.dump(mv.Conversation(tuple(messages)), path)
    return path


def test_every_command_has_help_with_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    for name in COMMANDS:
        code, out, _ = run(capsys, name, "--help")
        assert code == 0
        assert "example:" in out and f"msgviewer {name}" in out


def test_formats_lists_every_format(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "formats", "--json")
    assert code == 0
    rows = json.loads(out)
    assert [r["name"] for r in rows] == list(mv.FORMATS)
    assert all(isinstance(r["cannot_carry"], str) for r in rows)
    code, out, _ = run(capsys, "formats")
    assert code == 0 and "msgviewer" in out


def test_stats_counts_tool_calls_and_usage(
    capsys: pytest.CaptureFixture[str], agent_run: Path
) -> None:
    code, out, err = run(capsys, "stats", str(agent_run), "--json")
    assert code == 0, err
    stats = json.loads(out)
    assert stats["messages"]["total"] == 6
    assert stats["messages"]["by_role"] == {"assistant": 2, "system": 1, "tool": 2, "user": 1}
    assert stats["tool_calls"] == {"total": 3, "answered": 2, "errored": 1, "unanswered": 1}
    assert stats["usage"]["total"]["input_tokens"] == 300
    assert stats["usage"]["by_model"]["gpt-test"]["output_tokens"] == 50
    assert stats["approx_tokens"] == mv.count_tokens_approximately(mv.load(agent_run)[0].messages)
    code, table, _ = run(capsys, "stats", str(agent_run))
    assert code == 0
    assert re.search(r"unanswered\s+1", table)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_stats_reads_every_sample(capsys: pytest.CaptureFixture[str], sample: Path) -> None:
    code, out, err = run(capsys, "stats", str(sample), "--json")
    assert code == 0, err
    expected = sum(len(c.messages) for c in mv.load(sample))
    assert json.loads(out)["messages"]["total"] == expected


@pytest.mark.parametrize("target", WRITABLE)
def test_convert_to_every_writable_format(
    capsys: pytest.CaptureFixture[str], agent_run: Path, tmp_path: Path, target: str
) -> None:
    out_path = tmp_path / "out"
    code, out, err = run(capsys, "convert", str(agent_run), "--to", target, "-o", str(out_path))
    assert code == 0, err
    assert out == ""
    written = out_path.read_bytes()
    assert written
    if mv.FORMATS[target][0]:  # readable: the tool calls come back
        [conv] = mv.loads(written, format=target)
        calls = [c.name for m in conv.messages for c in m.tool_calls]
        assert calls.count("weather") == 3


def test_convert_strict_fails_and_writes_nothing_when_data_would_be_lost(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "reasoning.json"
    mv.dump(
        [
            mv.Message.user("hi"),
            mv.Message.assistant([mv.ReasoningBlock("thinking..."), mv.TextBlock("hello")]),
        ],
        path,
    )
    target = "openai-chat"  # Chat Completions has no place for reasoning
    assert lossy_warnings(mv.load(path), format=target)
    code, out, err = run(capsys, "convert", str(path), "--to", target, "--strict")
    assert code == 1
    assert out == ""
    assert "error:" in err and "nothing written" in err
    code, out, err = run(capsys, "convert", str(path), "--to", target)
    assert code == 0 and out
    assert "warning:" in err


def test_pipe_convert_into_stats_from_stdin(agent_run: Path) -> None:
    exe = [sys.executable, "-m", "msgviewer"]
    converted = subprocess.run(
        [*exe, "convert", str(agent_run), "--to", "msgviewer"],
        capture_output=True,
        check=True,
    ).stdout
    result = subprocess.run(
        [*exe, "stats", "-", "--json"], input=converted, capture_output=True, check=True
    )
    assert json.loads(result.stdout)["tool_calls"]["total"] == 3


def test_trim_keeps_within_budget(
    capsys: pytest.CaptureFixture[str], agent_run: Path, tmp_path: Path
) -> None:
    out_path = tmp_path / "short.json"
    code, _, err = run(
        capsys,
        "trim",
        str(agent_run),
        "--max-tokens",
        "40",
        "--include-system",
        "--start-on",
        "human",
        "-o",
        str(out_path),
    )
    assert code == 0, err
    [conv] = mv.load(out_path)
    original = mv.load(agent_run)[0].messages
    expected = mv.trim(
        list(original), max_tokens=40, include_system=True, start_on="user", keep_tool_pairs=True
    )
    assert list(conv.messages) == expected
    assert conv.messages[0].role == "system"


def _unpaired(messages: list[mv.Message]) -> set[str]:
    calls = {c.id for m in messages for c in m.tool_calls}
    results = {m.tool_call_id for m in messages if m.role == "tool"}
    return calls ^ results


def test_trim_keeps_calls_with_their_results_unless_asked_to_split(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The default never leaves a call without its result or a result without its call (as
    the app's trim); --split-pairs cuts where LangChain's trim_messages cuts."""
    source = Path(__file__).resolve().parents[2] / "sample_data" / "demo-agent-run.json"
    original = list(mv.load(source)[0].messages)
    unanswered = _unpaired(original)  # the run ends on a call it never saw answered

    def split_pairs(messages: list[mv.Message]) -> set[str]:
        return _unpaired(messages) - unanswered

    # The budgets at which LangChain's cut lands between a call and its result
    splitting = [
        budget
        for budget in range(50, 3000, 25)
        if split_pairs(mv.trim(original, max_tokens=budget))
    ]
    assert splitting, "the sample should have a budget that splits a tool pair"
    budget = splitting[0]
    kept, split = tmp_path / "kept.json", tmp_path / "split.json"
    assert run(capsys, "trim", str(source), "--max-tokens", str(budget), "-o", str(kept))[0] == 0
    args = ("trim", str(source), "--max-tokens", str(budget), "--split-pairs", "-o", str(split))
    assert run(capsys, *args)[0] == 0
    kept_messages = list(mv.load(kept)[0].messages)
    assert kept_messages and not split_pairs(kept_messages)
    assert list(mv.load(split)[0].messages) == mv.trim(original, max_tokens=budget)
    assert split_pairs(list(mv.load(split)[0].messages))


def test_lint_reports_problems_and_fix_resolves_them(
    capsys: pytest.CaptureFixture[str], agent_run: Path, tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "lint", str(agent_run))
    assert code == 1
    lines = out.strip().splitlines()
    assert lines
    pattern = re.compile(re.escape(str(agent_run)) + r":\d+: [a-z-]+: .+")
    assert all(pattern.fullmatch(line) for line in lines), lines
    assert any(": unanswered-call: " in line for line in lines)
    fixed = tmp_path / "fixed.json"
    code, _, err = run(capsys, "lint", str(agent_run), "--fix", "-o", str(fixed))
    assert "applied" in err
    code, out, _ = run(capsys, "lint", str(fixed))
    assert "unanswered-call" not in out


def test_print_is_plain_when_not_a_terminal(
    capsys: pytest.CaptureFixture[str], agent_run: Path
) -> None:
    code, out, _ = run(capsys, "print", str(agent_run))
    assert code == 0
    assert "── #0 system" in out and "── #3 tool" in out
    assert "\x1b" not in out  # no colour codes when stdout is not a terminal
    assert '"city": "Rome"' in out


def test_an_unparsable_call_with_no_text_is_printed_and_found_by_its_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # inspect_ai keeps no text of arguments that did not parse: its error quotes them
    error = 'Error parsing the following tool call arguments:\n\n{"path": \n\nError details: x'
    call = {"id": "c2", "function": "read", "arguments": {}, "parse_error": error}
    sample = {"id": 1, "epoch": 1, "input": "go", "target": "", "messages": [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": "", "tool_calls": [call]},
    ]}  # fmt: skip
    path = tmp_path / "log.json"
    path.write_text(json.dumps({"version": 2, "status": "success", "eval": {"task": "t"},
                                "samples": [sample]}))  # fmt: skip
    code, out, _ = run(capsys, "print", str(path))
    assert code == 0 and "→ invalid tool call read: Error parsing" in out
    assert "None" not in out
    from msgviewer.sessions.grep import haystack

    (conv,) = mv.load(path)
    assert '{"path":' in haystack(conv.messages[1]) and "None" not in haystack(conv.messages[1])


def test_print_shows_escapes_and_markup_literally(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    hostile = (
        "[bold red]x[/] \x1b[31mred\x1b[0m \x1b]52;c;aGVsbG8=\x07 \x1b]8;;http://e.vil\x1b\\link"
    )
    path = tmp_path / "hostile.json"
    mv.dump([mv.Message.user(hostile)], path)
    for flag in ("never", "always"):
        code, out, _ = run(capsys, "print", str(path), "--color", flag)
        assert code == 0
        assert "[bold red]x[/]" in out
        assert "␛[31mred" in out and "␛]52;c;aGVsbG8=␇" in out
        assert "\x07" not in out and "]52;" not in out.replace("␛]52;", "")


def test_bad_input_exits_2_with_one_clear_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "nope.json"
    code, out, err = run(capsys, "stats", str(missing))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and str(missing) in err and "no such file" in err

    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "msgviewer", "version": 1,\n "messages": [\n')
    code, _, err = run(capsys, "convert", str(broken), "--to", "msgviewer")
    assert code == 2 and "line" in err and str(broken) in err and "Traceback" not in err

    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"format": "msgviewer", "version": 1, "messages": [{"role": 3}]}')
    code, _, err = run(capsys, "stats", str(wrong))
    assert code == 2 and "$.messages[0].role" in err

    code, _, err = run(capsys, "convert", str(wrong), "--to", "no-such-format")
    assert code == 2

    code, _, err = run(capsys, "trim", "--max-tokens", "x", str(wrong))
    assert code == 2 and "error" in err


def test_stats_on_a_log_with_no_conversations_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "no-samples.json"  # an Inspect eval that ran no sample
    log.write_text(json.dumps({"version": 2, "status": "error", "eval": {"task": "t"}}))
    code, out, _ = run(capsys, "stats", str(log))
    assert code == 0
    assert out == f"{log}  (inspect): no conversations\n"
    code, out, _ = run(capsys, "stats", "--json", str(log))
    stats = json.loads(out)
    assert code == 0
    assert (stats["conversations"], stats["format"]) == (0, "inspect")


def test_stats_counts_a_server_call_that_ran_as_answered(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    searched = mv.ServerToolCallBlock(None, "web_search", {}, extra={"status": "completed"})
    path = tmp_path / "search.json"
    mv.dump([mv.Message.user("news?"), mv.Message.assistant((searched,))], path)
    code, out, _ = run(capsys, "stats", "--json", str(path))
    assert code == 0
    assert json.loads(out)["tool_calls"] == {
        "total": 1,
        "answered": 1,
        "errored": 0,
        "unanswered": 0,
    }


def test_lint_fix_never_makes_the_written_file_lose_anything(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # A completion response that ends waiting for its tool call: a placeholder result would
    # turn it into a request body, which has no place for the response's usage
    response = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "gpt-test",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "weather", "arguments": '{"city": "Paris"}'},
                        }
                    ],
                },
            }
        ],
        "usage": {"prompt_tokens": 50, "completion_tokens": 12, "total_tokens": 62},
    }
    path = tmp_path / "response.json"
    path.write_text(json.dumps(response))
    fixed = tmp_path / "fixed.json"
    code, _, err = run(capsys, "lint", str(path), "--fix", "-o", str(fixed))
    assert code == 1  # the pending call is still reported
    assert "unanswered-call at 0: not fixed (" in err and "usage" in err
    assert "applied" not in err
    assert json.loads(fixed.read_text())["usage"] == response["usage"]


def test_integers_of_any_length_are_read_shown_and_counted(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    big, wide = "9" * 5000, "123456789012345678901234567890"
    path = tmp_path / "big.json"
    path.write_text(
        '{"format": "msgviewer", "version": 1, "messages": ['
        f'{{"role": "user", "content": "hi", "metadata": {{"n": {big}}}}}, '
        '{"role": "assistant", "content": "", "tool_calls": '
        f'[{{"id": "c1", "name": "f", "args": {{"x": {wide}}}}}]}}]}}'
    )
    code, out, _ = run(capsys, "stats", "--json", str(path))
    assert code == 0 and json.loads(out)["messages"]["total"] == 2
    code, out, _ = run(capsys, "print", str(path))
    assert code == 0 and f'"x": {wide}' in out
    code, out, _ = run(capsys, "convert", str(path), "--to", "msgviewer")
    assert code == 0 and out.encode() == path.read_bytes()
