"""Output that cannot be written is one line on stderr and exit status 2, never a traceback:
a missing or read-only directory, a directory as ``-o``, a full disk, standard output on a full
device or closed, standard input closed."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from msgviewer.cli import main
from tests.unprivileged import as_ordinary_user, ordinary_tmp  # noqa: F401

SAMPLE = Path(__file__).parents[2] / "sample_data" / "anthropic-agent.json"
ROOT = str(Path(__file__).resolve().parents[2])


def _one_line_error(code: int, err: str, *expected: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("msgviewer: error: "), err
    for text in expected:
        assert text in lines[0]


def _convert(capsys: pytest.CaptureFixture[str], output: str) -> tuple[int, str]:
    code = main(["convert", str(SAMPLE), "--to", "msgviewer", "-o", output])
    return code, capsys.readouterr().err


def test_a_missing_directory(tmp_path: Path, capsys) -> None:
    target = tmp_path / "nowhere" / "out.json"
    _one_line_error(*_convert(capsys, str(target)), f"{target}: cannot write: no such directory")


def test_a_directory_as_output(tmp_path: Path, capsys) -> None:
    _one_line_error(*_convert(capsys, str(tmp_path)), f"{tmp_path}: cannot write: is a directory")
    assert os.listdir(tmp_path) == []


def test_a_full_disk(capsys) -> None:
    _one_line_error(*_convert(capsys, "/dev/full"), "/dev/full: cannot write: no space left")


def test_a_read_only_directory(ordinary_tmp: Path) -> None:  # noqa: F811
    directory = ordinary_tmp / "locked"
    directory.mkdir()
    os.chown(directory, os.stat(ordinary_tmp).st_uid, -1)
    os.chmod(directory, 0o555)
    target = directory / "out.json"

    def convert() -> str:
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            code = main(["convert", str(SAMPLE), "--to", "msgviewer", "-o", str(target)])
        return f"{code} {err.getvalue()}"

    code, err = as_ordinary_user(convert).split(" ", 1)
    _one_line_error(int(code), err, f"{target}: cannot write: permission denied in the directory")
    assert os.listdir(directory) == []


def test_a_read_only_file(ordinary_tmp: Path) -> None:  # noqa: F811
    target = ordinary_tmp / "out.json"
    target.write_bytes(b"{}")
    os.chown(target, os.stat(ordinary_tmp).st_uid, -1)
    os.chmod(target, 0o444)

    def convert() -> str:
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            code = main(["convert", str(SAMPLE), "--to", "msgviewer", "-o", str(target)])
        return f"{code} {err.getvalue()}"

    code, err = as_ordinary_user(convert).split(" ", 1)
    _one_line_error(int(code), err, f"{target}: cannot write: the file is read-only")
    assert target.read_bytes() == b"{}"


def _run(args: list[str], **streams) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    done = subprocess.run(
        [sys.executable, "-m", "msgviewer", *args],
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": ROOT},
        timeout=120,
        **streams,
    )
    return done.returncode, done.stderr.decode()


@pytest.mark.parametrize("command", [["convert", "--to", "msgviewer"], ["print"], ["stats"]])
def test_standard_output_on_a_full_device(command: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        result = _run([command[0], str(SAMPLE), *command[1:]], stdout=full)
    _one_line_error(*result, "cannot write to standard output: no space left")


def _closing(fd: int):  # type: ignore[no-untyped-def]
    return lambda: os.close(fd)


@pytest.mark.parametrize("command", [["convert", "--to", "msgviewer"], ["print"]])
def test_standard_output_closed(command: list[str]) -> None:
    result = _run([command[0], str(SAMPLE), *command[1:]], preexec_fn=_closing(1))
    _one_line_error(*result, "cannot write to standard output: it is closed")


def test_output_to_a_file_needs_no_standard_output(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    args = ["convert", str(SAMPLE), "--to", "msgviewer", "-o", str(target)]
    code, err = _run(args, preexec_fn=_closing(1))
    assert (code, err) == (0, "") and target.stat().st_size > 0


def test_standard_input_closed() -> None:
    result = _run(["convert", "-", "--to", "msgviewer"], preexec_fn=_closing(0))
    _one_line_error(*result, "<stdin>: standard input is closed")
