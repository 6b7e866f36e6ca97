"""The words a pattern cannot match without: every text a detector's pattern matches holds
one of them (checked on texts made from the patterns themselves), and passing over texts
without them leaves the findings as they were."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from msgviewer.document.needles import absent, fold, needles
from msgviewer.document.secrets import _plugin_patterns, _provider_keys

PATTERNS = [(kind, regex) for kind, regex, _ in [*_provider_keys(), *_plugin_patterns()]]


@pytest.mark.parametrize(
    ("kind", "regex"), PATTERNS, ids=[f"{k}-{n}" for n, (k, _) in enumerate(PATTERNS)]
)
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_match_holds_one_of_the_patterns_words(
    kind: str, regex: re.Pattern[str], data: st.DataObject
) -> None:
    text = data.draw(st.from_regex(regex))
    assert regex.search(text)
    assert not absent(needles(regex), fold(text))


@pytest.mark.parametrize(
    ("pattern", "flags", "expected"),
    [
        (r"AKIA[0-9A-Z]{16}", 0, ("akia",)),
        (r"(?:ghp|gho)_[a-z]+", 0, ("gho_", "ghp_")),
        (r"x?(?:key|secret)=", re.IGNORECASE, ("key", "secret")),
        (r"(?:abc|)def", 0, ("def",)),  # one way needs no "abc": the run after it is taken
        (r"(?:abc|)\d+", 0, None),  # nothing every match holds
        (r"(ab)+c", 0, ("ab",)),
        (r"(ab)*c", 0, ("c",)),
        (r"(?<=pre)x", 0, ("x",)),
    ],
)
def test_the_words_of_small_patterns(pattern: str, flags: int, expected: object) -> None:
    assert needles(re.compile(pattern, flags)) == expected


def test_folding_finds_what_a_case_insensitive_pattern_takes_for_ascii() -> None:
    regex = re.compile(r"secret_key|session_id", re.IGNORECASE)
    words = needles(regex)
    for text in ["SECRET_KEY", "\u017fecret_\u212aey", "sess\u0130on_\u0131d", "session_id"]:
        assert regex.search(text) and not absent(words, fold(text))
    assert absent(words, fold("nothing here"))
