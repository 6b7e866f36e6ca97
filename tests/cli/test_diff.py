"""``msgviewer diff``: exit codes, the readable report, ``--stat``, the JSON schema, stdin."""

from __future__ import annotations

import io
import json
import warnings
from pathlib import Path

import pytest

import msgviewer as mv
from msgviewer.cli import main

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
FIXTURE = str(SAMPLES / "diff-fixture.json")
NEW_RUN = str(SAMPLES / "diff-new-run.json")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse exits on usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_same_file_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "diff", FIXTURE, FIXTURE)
    assert (code, err) == (0, "")
    assert out.endswith("same 6, changed 0, added 0, removed 0\n")


def test_different_files_exit_1_with_a_readable_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "diff", FIXTURE, NEW_RUN)
    assert (code, err) == (1, "")
    assert "\x1b" not in out  # plain when piped
    lines = out.splitlines()
    assert "@@ changed a[3] b[3] tool" in lines
    assert "  result.temp_c: 19 -> 21" in lines
    assert "  usage.output_tokens: 41 -> 44 (+3)" in lines
    assert any("[-sunny-]{+sunny, light wind+}" in line for line in lines)
    assert "@@ added a[-] b[6] user" in lines
    assert "+ And is the 9:00 train on time?" in lines


def test_stat(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "diff", FIXTURE, NEW_RUN, "--stat")
    assert (code, out) == (1, "same 4, changed 2, added 2, removed 0\n")


def test_json_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "diff", FIXTURE, NEW_RUN, "--json")
    assert code == 1
    data = json.loads(out)
    assert list(data) == ["same", "stat", "changes"]
    assert data["same"] is False
    assert data["stat"] == {"same": 4, "changed": 2, "added": 2, "removed": 0}
    for change in data["changes"]:
        assert set(change) == {"op", "a", "b", "details"}
        assert change["op"] in ("same", "changed", "added", "removed")
        assert change["a"] is None or isinstance(change["a"], int)
        assert change["b"] is None or isinstance(change["b"], int)
        assert (change["a"] is None) == (change["op"] == "added")
        assert (change["b"] is None) == (change["op"] == "removed")
        for d in change["details"]:
            assert (
                {"kind", "path", "a", "b"} <= set(d) <= {"kind", "path", "a", "b", "words", "delta"}
            )
    added = [c for c in data["changes"] if c["op"] == "added"]
    assert [(c["a"], c["b"]) for c in added] == [(None, 6), (None, 7)]


def test_ignore_flags(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    [conv] = mv.load(FIXTURE)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        other = tmp_path / "fixture.anthropic.json"
        mv.dump(conv, other, format="anthropic")
    assert run(capsys, "diff", FIXTURE, str(other))[0] == 1  # metadata and ids differ
    code, out, _ = run(capsys, "diff", FIXTURE, str(other), "--ignore-metadata", "--stat")
    assert (code, out) == (0, "same 6, changed 0, added 0, removed 0\n")
    code, out, _ = run(capsys, "diff", FIXTURE, NEW_RUN, "--ignore-usage", "--json")
    assert "usage" not in {d["kind"] for c in json.loads(out)["changes"] for d in c["details"]}


def test_stdin_on_one_side(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    data = Path(NEW_RUN).read_bytes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, _ = run(capsys, "diff", FIXTURE, "-", "--stat")
    assert (code, out) == (1, "same 4, changed 2, added 2, removed 0\n")


def test_format_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "diff", FIXTURE, NEW_RUN, "--format-b", "anthropic")
    assert code == 2 and err.count("\n") == 1 and "error" in err


@pytest.mark.parametrize(
    "argv",
    [
        ("diff", FIXTURE),
        ("diff", "-", "-"),
        ("diff", FIXTURE, NEW_RUN, "--conversation", "0"),
        ("diff", FIXTURE, NEW_RUN, "--stat", "--json"),
        ("diff", FIXTURE, NEW_RUN, "--format-a", "no-such-format"),
    ],
)
def test_bad_usage_exits_2(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.strip().splitlines()[-1].startswith("msgviewer")


def test_unreadable_input_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    for argv in (
        ("diff", FIXTURE, str(tmp_path / "missing.json")),
        ("diff", str(bad), FIXTURE),
        ("diff", FIXTURE, NEW_RUN, "--conversation", "2"),
    ):
        code, out, err = run(capsys, *argv)
        assert (code, out) == (2, "")
        assert err.count("\n") == 1 and err.startswith("msgviewer: error: ")


def test_file_text_stays_inert(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    mv.dump([mv.Message.user("hello")], a)
    mv.dump([mv.Message.user("hello \x1b]52;c;cHduZWQ=\x07 [bold]x[/bold]")], b)
    for extra in ((), ("--color", "always"), ("--json",)):
        code, out, _ = run(capsys, "diff", str(a), str(b), *extra)
        assert code == 1
        assert "\x1b]52" not in out and "\x07" not in out
    code, out, _ = run(capsys, "diff", str(a), str(b), "--color", "always")
    assert "[bold]x[/bold]" in out  # shown as text, not read as markup
