"""``msgviewer redact`` through the real entry point: exit codes of --check, the report, the
output in the input's format (a small diff), media pulled out into files and read back."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

import pytest

import msgviewer as mv
from msgviewer.cli import main
from msgviewer.core.blocks import AudioBlock, ImageBlock, TextBlock, ToolResultBlock

TOKEN = "ghp_Zq8rT4pLm2Xv9bN1cD5fG7hJ3kL6mP0sR2tW"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(64))
WAV = b"RIFF\x00\x00\x00\x00WAVEfmt " + bytes(32)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def leaky(tmp_path: Path) -> Path:
    """An OpenAI Chat request with a token in a tool call and its result, and an email."""
    body = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "Push it. My address is dana@example.com"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {
                            "name": "sh",
                            "arguments": json.dumps({"cmd": f"GH_TOKEN={TOKEN} git push"}),
                        },
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": f"used {TOKEN}: ok"},
            {"role": "assistant", "content": "Pushed."},
        ],
    }
    path = tmp_path / "run.json"
    path.write_text(json.dumps(body, indent=4) + "\n")
    return path


def test_check_exits_1_when_anything_would_change_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], leaky: Path, tmp_path: Path
) -> None:
    before = leaky.read_bytes()
    code, out, err = run(capsys, "redact", str(leaky), "--check", "-o", str(tmp_path / "x"))
    assert code == 1
    assert not (tmp_path / "x").exists() and leaky.read_bytes() == before
    assert f"{leaky}: message 1: tool_calls[0].args.cmd: github-token" in out
    assert TOKEN not in out + err and "dana@example.com" not in out + err
    assert err.strip().endswith("2 secret(s) at 3 place(s)")


def test_check_exits_0_on_a_clean_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "clean.json"
    mv.dump(mv.Conversation((mv.Message.user("hello"), mv.Message.assistant("hi"))), path)
    code, out, err = run(capsys, "redact", str(path), "--check")
    assert (code, out) == (0, "")
    assert err.strip() == f"{path}: clean"
    # and its redaction is the file itself, byte for byte
    code, out, _ = run(capsys, "redact", str(path))
    assert code == 0 and out.encode() == path.read_bytes()


def test_output_is_the_input_format_changed_only_where_redacted(
    capsys: pytest.CaptureFixture[str], leaky: Path, tmp_path: Path
) -> None:
    target = tmp_path / "shared.json"
    code, out, err = run(capsys, "redact", str(leaky), "-o", str(target), "--report")
    assert code == 0, err
    report = out.splitlines()
    assert len(report) == 3 and all(TOKEN not in line for line in report)
    written = target.read_text()
    assert TOKEN not in written and "dana@example.com" not in written
    [conv] = mv.load(target)
    assert conv.format == "openai-chat"
    assert conv.messages[1].tool_calls[0].args == {
        "cmd": "GH_TOKEN=[REDACTED:github-token:1] git push"
    }
    assert conv.messages[2].text == "used [REDACTED:github-token:1]: ok"
    # the file's own indentation and key order stay: only the redacted lines differ
    old, new = leaky.read_text().splitlines(), written.splitlines()
    assert len(old) == len(new)
    assert sum(a != b for a, b in zip(old, new, strict=True)) == 3


def test_to_another_format_and_to_html(capsys: pytest.CaptureFixture[str], leaky: Path) -> None:
    code, out, _ = run(capsys, "redact", str(leaky), "--to", "anthropic")
    assert code == 0 and TOKEN not in out
    assert mv.loads(out)[0].format == "anthropic"
    code, out, _ = run(capsys, "redact", str(leaky), "--to", "html", "--literal", "Pushed")
    assert code == 0 and TOKEN not in out and "Pushed" not in out
    assert "[REDACTED:literal:1]" in out


def test_bad_pattern_is_a_usage_error(capsys: pytest.CaptureFixture[str], leaky: Path) -> None:
    code, _, err = run(capsys, "redact", str(leaky), "--pattern", "(unclosed")
    assert code == 2 and "bad regular expression" in err


def test_extract_media_writes_each_medium_once_and_the_file_reads_back(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    png, wav = base64.b64encode(PNG).decode(), base64.b64encode(WAV).decode()
    conv = mv.Conversation(
        (
            mv.Message.user((TextBlock("look"), ImageBlock(data=png, mime_type="image/png"))),
            mv.Message.user(
                (
                    ToolResultBlock("c", (ImageBlock(data=png, mime_type="image/png"),)),
                    AudioBlock(data=wav, mime_type="audio/wav"),
                )
            ),
        )
    )
    source = tmp_path / "in.json"
    mv.dump(conv, source)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    target = out_dir / "fixture.json"
    media = out_dir / "media"
    code, _, err = run(
        capsys, "redact", str(source), "--extract-media", str(media), "-o", str(target)
    )
    assert code == 0, err
    png_name = hashlib.sha256(PNG).hexdigest()[:32] + ".png"
    wav_name = hashlib.sha256(WAV).hexdigest()[:32] + ".wav"
    assert sorted(p.name for p in media.iterdir()) == sorted([png_name, wav_name])
    assert (media / png_name).read_bytes() == PNG and (media / wav_name).read_bytes() == WAV
    assert len(target.read_bytes()) < len(source.read_bytes())
    [back] = mv.load(target)
    first = back.messages[0].content[1]
    nested = back.messages[1].content[0].content[0]  # type: ignore[union-attr]
    audio = back.messages[1].content[1]
    assert isinstance(first, ImageBlock) and first.data is None
    assert first.url == nested.url == f"media/{png_name}"  # relative to the output file
    assert audio.url == f"media/{wav_name}" and audio.mime_type == "audio/wav"
    # without --extract-media, media are kept inline
    code, out, _ = run(capsys, "redact", str(source))
    assert mv.loads(out)[0].messages[0].content[1].data == png


SAMPLE_DIR = Path(mv.__file__).parent / "samples"


@pytest.mark.parametrize(
    "name", sorted(p.name for p in SAMPLE_DIR.iterdir() if p.suffix in (".json", ".jsonl"))
)
def test_a_token_planted_all_over_any_sample_is_gone_from_the_output(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    raw = (SAMPLE_DIR / name).read_bytes()
    planted = raw.replace(b"the ", f"the {TOKEN} ".encode())
    assert planted != raw
    source = tmp_path / name
    source.write_bytes(planted)
    target = tmp_path / f"out-{name}"
    code, _, err = run(capsys, "redact", str(source), "-o", str(target))
    assert code == 0, err
    written = target.read_bytes()
    assert TOKEN.encode() not in written and b"[REDACTED:github-token:1]" in written
    assert mv.load(target)[0].format == mv.load(source)[0].format


def test_convert_extracts_media_too_into_its_own_format_and_into_a_page(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    png = base64.b64encode(PNG).decode()
    conv = mv.Conversation(
        (
            mv.Message.user((TextBlock("look"), ImageBlock(data=png, mime_type="image/png"))),
            mv.Message.assistant("A picture."),
        )
    )
    source = tmp_path / "in.json"
    source.write_bytes(mv.dumps(conv).replace(b'"look"', b'"look"   '))  # a spacing of its own
    name = hashlib.sha256(PNG).hexdigest()[:32] + ".png"
    target = tmp_path / "small.json"
    code, _, err = run(
        capsys, "convert", str(source), "--to", "msgviewer", "--extract-media", "m", "-o",
        str(target),
    )  # fmt: skip
    assert code == 0, err
    assert b'"look"   ' in target.read_bytes()  # unchanged parts keep the file's own bytes
    [back] = mv.load(target)
    assert back.messages[0].content[1].url == f"m/{name}"
    assert (tmp_path / "m" / name).read_bytes() == PNG
    page = tmp_path / "page.html"
    code, _, err = run(
        capsys, "redact", str(source), "--to", "html", "--extract-media", str(tmp_path / "pics"),
        "-o", str(page),
    )  # fmt: skip
    assert code == 0, err
    assert f'<img class="media" alt="image" src="pics/{name}">' in page.read_text()
    assert (tmp_path / "pics" / name).read_bytes() == PNG
