"""Price overrides from a TOML file named by ``--prices`` or ``MSGVIEWER_PRICES``."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from msgviewer.core import Message, Usage
from msgviewer.core.errors import FormatError
from msgviewer.core.prices import PriceOverride
from msgviewer.formats import Conversation
from msgviewer.formats.prices import ENV_VAR, conversation_cost, load_prices, prices_from

PRICES = """
[models."house-model-7"]
input = 0.5
output = 1.5

[models."claude-sonnet-4-5-20250929"]
input = 2
output = 10
cache_read = 0.2
cache_write = 2.5
"""


def _file(tmp_path: Path, text: str = PRICES) -> Path:
    path = tmp_path / "prices.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_file_is_read(tmp_path: Path) -> None:
    prices = load_prices(_file(tmp_path))
    assert prices == {
        "house-model-7": PriceOverride(Decimal("0.5"), Decimal("1.5")),
        "claude-sonnet-4-5-20250929": PriceOverride(
            Decimal(2), Decimal(10), Decimal("0.2"), Decimal("2.5")
        ),
    }


def test_the_option_wins_over_the_environment(tmp_path: Path) -> None:
    path = _file(tmp_path)
    other = tmp_path / "other.toml"
    other.write_text('[models."x"]\ninput = 1\noutput = 1\n', encoding="utf-8")
    assert prices_from(None, {}) is None
    assert set(prices_from(None, {ENV_VAR: str(path)}) or {}) == {
        "house-model-7",
        "claude-sonnet-4-5-20250929",
    }
    assert set(prices_from(str(other), {ENV_VAR: str(path)}) or {}) == {"x"}


def test_overrides_price_a_conversation(tmp_path: Path) -> None:
    conv = Conversation(
        (
            Message.user("hi"),
            Message.assistant(
                "a",
                usage=Usage(input_tokens=3000, output_tokens=100, cache_read_tokens=1000),
                response_metadata={"model": "house-model-7"},
            ),
            Message.assistant(
                "b",
                usage=Usage(
                    input_tokens=4000,
                    output_tokens=200,
                    cache_read_tokens=1000,
                    cache_write_tokens=2000,
                ),
                response_metadata={"model": "claude-sonnet-4-5-20250929"},
            ),
        ),
        format="anthropic",
    )
    costs = conversation_cost(conv, load_prices(_file(tmp_path)))
    assert costs.unpriced == ()
    assert costs.of(1) == pytest.approx((3000 * 0.5 + 100 * 1.5) / 1e6)  # cache read at input's
    assert costs.of(2) == pytest.approx((1000 * 2 + 1000 * 0.2 + 2000 * 2.5 + 200 * 10) / 1e6)
    without = conversation_cost(conv)
    assert without.unpriced == ("house-model-7",)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("models = 3", 'expected a [models."NAME"] table'),
        ('[models."m"]\ninput = 1\n', 'models."m" needs output'),
        ('[models."m"]\ninput = 1\noutput = "cheap"\n', 'models."m".output must be a number'),
        ('[models."m"]\ninput = -1\noutput = 1\n', 'models."m".input must be a number >= 0'),
        ('[models."m"]\ninput = 1\noutput = 1\nprompt = 2\n', "unknown key 'prompt'"),
        ("[models\n", "not valid TOML"),
    ],
)
def test_a_bad_file_is_one_clear_error(tmp_path: Path, text: str, message: str) -> None:
    path = _file(tmp_path, text)
    with pytest.raises(FormatError, match=r"prices\.toml") as e:
        load_prices(path)
    assert message in str(e.value)
    assert "\n" not in str(e.value).strip()


def test_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="cannot read the prices file"):
        load_prices(tmp_path / "absent.toml")
