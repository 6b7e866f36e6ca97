"""The secrets detector redaction uses: ``detect-secrets`` plugins, provider key shapes it does
not know, emails, and the user's own patterns and literals.

``detect-secrets`` (Yelp's maintained scanner) knows cloud keys, GitHub, Slack, Stripe and
many more token shapes, JWTs, private key headers, passwords in URLs and secret-sounding
assignments. Its plugins are used one string at a time (``analyze_string``), without its file
scanning, settings or network verification. Added here: Anthropic (``sk-ant-…``) and current
OpenAI (``sk-proj-…``) keys, which its OpenAI plugin (legacy keys only) misses; whole private
key blocks (the plugin matches the header alone); and random-looking values in key-like places
(a field named ``token``, ``API_KEY=…``), judged by their Shannon entropy.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any

from ..core.redact import Hit
from .needles import absent, fold, needles

# Kinds of the plugins, as placeholders name them; any other plugin is named by a slug.
_KIND = {
    "AWS Access Key": "aws-key",
    "GitHub Token": "github-token",
    "GitLab Token": "gitlab-token",
    "Slack Token": "slack-token",
    "JSON Web Token": "jwt",
    "OpenAI Token": "openai-key",
    "Basic Auth Credentials": "url-password",
    "Stripe Access Key": "stripe-key",
}
# Plugins not used: public IPs are not secrets; entropy and keyword plugins are applied below
# with the place in mind; the private key plugin is replaced by whole-block matching.
_SKIPPED = frozenset(
    {
        "Public IP (ipv4)",
        "Base64 High Entropy String",
        "Hex High Entropy String",
        "Secret Keyword",
        "Private Key",
        "JSON Web Token",
    }
)

_PROVIDER_KEYS = (
    ("anthropic-key", re.compile(r"sk-ant-[A-Za-z0-9]+-[A-Za-z0-9_\-]{20,}")),
    ("openai-key", re.compile(r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{20,}")),
    ("openai-key", re.compile(r"\bsk-[A-Za-z0-9]{40,}\b")),
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b")),
    ("huggingface-token", re.compile(r"\bhf_[A-Za-z0-9]{30,}\b")),
    ("github-token", re.compile(r"\bgithub_pat_[A-Za-z0-9_]{40,}\b")),
)
# The plugin's pattern stops before the signature (a lazy tail): the whole token is matched here,
# and checked with the plugin's own test of a well-formed token.
_JWT = re.compile(r"eyJ[A-Za-z0-9_\-]+=*\.[A-Za-z0-9_\-]+=*\.?[A-Za-z0-9_\-+/=]*")
_PRIVATE_KEY = re.compile(
    r"-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----"
    r"(?:.*?-----END \1-----|.*\Z)",  # a block cut short is redacted to the end of the text
    re.DOTALL,
)
_EMAIL = re.compile(
    r"(?<![\w.%+\-:/])[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}\b"
)
_KEYLIKE = re.compile(
    r"pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|auth|credential|"
    r"private[_-]?key|access[_-]?key|session[_-]?id|cookie",
    re.IGNORECASE,
)
# _KEYLIKE's words as plain text, for telling quickly which lines have one (a substring search
# of the case-folded text costs a fraction of the case-insensitive alternation)
_KEYLIKE_WORDS = (
    "pass", "pwd", "secret", "token", "apikey", "api_key", "api-key", "auth", "credential",
    "privatekey", "private_key", "private-key", "accesskey", "access_key", "access-key",
    "sessionid", "session_id", "session-id", "cookie",
)  # fmt: skip
_SCHEME = re.compile(r"^(?:Bearer|Basic|Token|token|bearer)\s+")
_MIN_LEN = 8
_MIN_ENTROPY = 3.0  # bits per character (base64 alphabet): a word scores ~2.5-3, a key 4+


class SecretDetector:
    """A redaction detector: ``detector(text, key)`` yields ``Hit``s, most specific first."""

    def __init__(
        self,
        *,
        patterns: Sequence[str] = (),
        literals: Sequence[str] = (),
        emails: bool = True,
    ) -> None:
        self.patterns = [re.compile(p) for p in patterns]
        self.literals = [t for t in literals if t]
        self.emails = emails

    def __call__(self, text: str, key: str | None) -> Iterator[Hit]:
        yield from _known_shapes(text)
        yield from _keyed(text, key)
        for pattern in self.patterns:
            for m in pattern.finditer(text):
                if m.group():
                    yield Hit("pattern", m.group())
        for literal in self.literals:
            if literal in text:
                yield Hit("literal", literal)
        if self.emails:
            for m in _EMAIL.finditer(text):
                yield Hit("email", m.group())


def _known_shapes(text: str) -> Iterator[Hit]:
    # (a pattern runs only over a text holding one of the words every match of it holds)
    folded = fold(text)
    for m in _PRIVATE_KEY.finditer(text):
        yield Hit("private-key", m.group())
    for kind, regex, words in _provider_keys():
        if not absent(words, folded):
            for m in regex.finditer(text):
                yield Hit(kind, m.group())
    for m in _JWT.finditer(text):
        if _jwt_valid(m.group()):
            yield Hit("jwt", m.group())
    for kind, regex, words in _plugin_patterns():
        if not absent(words, folded):
            for m in regex.finditer(text):
                secret = _secret_of(m)
                if secret:
                    yield Hit(kind, secret)


@lru_cache(maxsize=1)
def _provider_keys() -> list[tuple[str, re.Pattern[str], tuple[str, ...] | None]]:
    return [(kind, regex, needles(regex)) for kind, regex in _PROVIDER_KEYS]


@lru_cache(maxsize=1)
def _plugin_patterns() -> list[tuple[str, re.Pattern[str], tuple[str, ...] | None]]:
    """Each regex plugin's patterns, with the words one of which a match of it holds."""
    patterns = [(kind, regex) for kind, plugin in _plugins() for regex in plugin.denylist]
    return [(kind, regex, needles(regex)) for kind, regex in patterns]


def _secret_of(m: re.Match[str]) -> str:
    """The secret a plugin's match stands for: the group that holds it (the password of a
    URL, the value of an assignment), or the whole match where the only groups are a prefix
    (``(ghp|gho)_…``): ``analyze_string`` would yield the bare prefix there."""
    for i in range(1, (m.re.groups or 0) + 1):
        start, end = m.span(i)
        if start < 0 or start == end or (start == m.start() and end < m.end()):
            continue
        return m.group(i)
    return m.group()


def _keyed(text: str, key: str | None) -> Iterator[Hit]:
    """Random-looking values in key-like places: a field named so, or an assignment."""
    if key is not None and _KEYLIKE.search(key):
        value = _SCHEME.sub("", text.strip())
        if _random_looking(value):
            yield Hit("secret", value)
    if not _has_keylike_word(text):
        return
    quoted, unquoted = _keyword_maps()
    keyword = _keyword_plugin()
    names = _keyword_names()
    for line in text.splitlines():
        # (the keyword rules are slow: a line is read by them only if it has a key-like word,
        # and one of the names they look for)
        folded = fold(line)
        if not any(word in folded for word in _KEYLIKE_WORDS):
            continue
        if names and not any(name in folded for name in names):
            continue
        for secret in keyword.analyze_string(line, denylist_regex_to_group=quoted):
            if _plausible(secret):
                yield Hit("secret", secret)
        for secret in keyword.analyze_string(line, denylist_regex_to_group=unquoted):
            if _random_looking(secret):
                yield Hit("secret", secret)


def _has_keylike_word(text: str) -> bool:
    """Whether ``_KEYLIKE`` may find a word in ``text`` (whenever it would, this says so)."""
    folded = fold(text)
    return any(word in folded for word in _KEYLIKE_WORDS)


@lru_cache(maxsize=1)
def _keyword_names() -> tuple[str, ...]:
    """A word of each name the keyword rules look for (``api_?key`` -> ``key``): their
    patterns match no line without one. Empty (read every line) if a name is not plain."""
    from detect_secrets.plugins import keyword

    names = tuple(dict.fromkeys(name.split("_?")[-1].casefold() for name in keyword.DENYLIST))
    return names if all(re.fullmatch(r"\w+", name) for name in names) else ()


def _plausible(secret: str) -> bool:
    """A quoted value assigned to a secret-sounding name that is not a template or empty."""
    s = secret.strip()
    return len(s) >= 6 and not re.search(r"\s", s) and s[0] not in "${<%*"


def _random_looking(value: str) -> bool:
    if len(value) < _MIN_LEN or re.search(r"\s", value) or not _plausible(value):
        return False
    return _entropy(value) >= _MIN_ENTROPY


def _entropy(value: str) -> float:
    return float(_entropy_plugin().calculate_shannon_entropy(value))


@lru_cache(maxsize=1)
def _plugins() -> list[tuple[str, Any]]:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    out = []
    for secret_type, cls in get_mapping_from_secret_type_to_class().items():
        if secret_type in _SKIPPED:
            continue
        try:
            plugin = cls()
        except TypeError:  # (a plugin that needs settings: not one of the defaults)
            continue
        if getattr(plugin, "denylist", None):  # (regex plugins: matched here, see _secret_of)
            out.append((_KIND.get(secret_type) or _slug(secret_type), plugin))
    return out


def _jwt_valid(token: str) -> bool:
    from detect_secrets.plugins.jwt import JwtTokenDetector

    return bool(JwtTokenDetector.is_formally_valid(token))


@lru_cache(maxsize=1)
def _keyword_plugin() -> Any:
    from detect_secrets.plugins.keyword import KeywordDetector

    return KeywordDetector()


@lru_cache(maxsize=1)
def _keyword_maps() -> tuple[dict[Any, int], dict[Any, int]]:
    from detect_secrets.plugins import keyword
    from detect_secrets.util.filetype import FileType

    return keyword.QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP, keyword.REGEX_BY_FILETYPE[
        FileType.CONFIG
    ]


@lru_cache(maxsize=1)
def _entropy_plugin() -> Any:
    from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString

    return Base64HighEntropyString()


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def kinds() -> Iterable[str]:
    """Every kind the detector can name (for documentation and tests)."""
    names = {k for k, _ in _plugins()} | {k for k, _ in _PROVIDER_KEYS}
    return sorted(names | {"jwt", "private-key", "secret", "pattern", "literal", "email"})
