"""The html page without a browser: one self-contained document whose only script and style
are its own (allowed by hash), with file text escaped everywhere."""

from __future__ import annotations

import base64
import hashlib
import re
import warnings
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings

import msgviewer as mv
from msgviewer.core.blocks import AudioBlock, ImageBlock
from msgviewer.formats.html import page as page_with
from msgviewer.formats.html.markdown import render
from tests.strategies import histories

from .hostile import hostile_conversation

SAMPLES = Path(mv.__file__).parent / "samples"


class Tags(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.data: dict[str, list[str]] = {}
        self._open: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))
        self._open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1] == tag:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        if self._open:
            self.data.setdefault(self._open[-1], []).append(data)


def page(conv: mv.Conversation | list[mv.Conversation]) -> str:
    return mv.dumps(conv, format="html").decode()


def test_html_is_a_write_only_format() -> None:
    assert mv.FORMATS["html"][:2] == (False, True)


def test_hostile_content_makes_no_element_attribute_or_link() -> None:
    text = page(hostile_conversation("http://127.0.0.1:9"))
    tags = Tags(text)
    names = [t for t, _ in tags.tags]
    assert names.count("script") == 1 and names.count("style") == 1
    for forbidden in ("iframe", "object", "base", "link", "svg", "embed", "form"):
        assert forbidden not in names
    assert [a for t, a in tags.tags if t == "meta" and "http-equiv" in a] == [
        next(
            a
            for t, a in tags.tags
            if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"
        )
    ]
    for tag, attrs in tags.tags:
        assert not [k for k in attrs if k.startswith("on")], (tag, attrs)
        assert "style" not in attrs
        href = attrs.get("href")
        if href is not None:
            assert re.match(r"(https?://|mailto:|#c\d+-m\d+)", href), href
        if tag in ("img", "audio", "video"):
            assert attrs["src"].startswith("data:"), attrs
    # an SVG is shown as an image (which runs no script), and only with a well-formed type
    imgs = [a for t, a in tags.tags if t == "img"]
    assert [a["src"][:26] for a in imgs] == ["data:image/svg+xml;base64,"]


def test_the_policy_allows_exactly_the_pages_own_style_and_script() -> None:
    text = page(mv.load(SAMPLES / "demo-agent-run.json"))
    tags = Tags(text)
    [csp] = [a["content"] for t, a in tags.tags if a.get("http-equiv") == "Content-Security-Policy"]
    assert csp.startswith("default-src 'none';")

    def sha(s: str) -> str:
        return base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()

    [style] = tags.data["style"]
    [script] = tags.data["script"]
    assert f"style-src 'sha256-{sha(style)}'" in csp
    assert f"script-src 'sha256-{sha(script)}'" in csp
    assert "img-src data:" in csp and "'unsafe-inline'" not in csp


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        ("**bold** and `code`", "<p><strong>bold</strong> and <code>code</code></p>\n"),
        ("<b>raw</b>", "<p>&lt;b&gt;raw&lt;/b&gt;</p>\n"),
        ("[x](javascript:alert(1))", "<p>[x](javascript:alert(1))</p>\n"),
        ("[x](JAVASCRIPT&#58;alert(1))", "<p>[x](JAVASCRIPT:alert(1))</p>\n"),
        ("[x](data:text/html,hi)", "<p>[x](data:text/html,hi)</p>\n"),
        (
            "[x](https://example.com/?a=1&b=2)",
            '<p><a href="https://example.com/?a=1&amp;b=2" rel="noopener noreferrer nofollow">'
            "x</a></p>\n",
        ),
        (
            "![cat](https://example.com/cat.png)",
            '<p><a href="https://example.com/cat.png" rel="noopener noreferrer nofollow">'
            "[image: cat]</a></p>\n",
        ),
        (
            "<mailto:a@example.com>",
            '<p><a href="mailto:a@example.com" rel="noopener noreferrer nofollow">'
            "mailto:a@example.com</a></p>\n",
        ),
        ("a\x1b[31mred", "<p>a\u241b[31mred</p>\n"),
    ],
)
def test_markdown_is_rendered_safely(markdown: str, expected: str) -> None:
    assert render(markdown) == expected


def test_every_sample_writes_a_page_with_every_message() -> None:
    for path in sorted(SAMPLES.glob("*.json*")):
        convs = mv.load(path)
        tags = Tags(page(convs))
        ids = {a["id"] for t, a in tags.tags if t == "article"}
        expected = {f"c{c}-m{i}" for c, conv in enumerate(convs) for i in range(len(conv.messages))}
        assert ids == expected, path.name
        targets = {a["id"] for _, a in tags.tags if "id" in a}
        links = {a["href"][1:] for _, a in tags.tags if a.get("href", "").startswith("#")}
        assert links <= targets, path.name


@settings(max_examples=60, deadline=None, derandomize=True)
@given(histories())
def test_any_history_writes_a_page_with_every_message_and_only_its_own_script(
    messages: list[mv.Message],
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tags = Tags(page(messages))
    assert [a["id"] for t, a in tags.tags if t == "article"] == [
        f"c0-m{i}" for i in range(len(messages))
    ]
    names = [t for t, _ in tags.tags]
    assert names.count("script") == 1 and names.count("style") == 1
    assert not [k for _, a in tags.tags for k in a if k.startswith("on")]
    targets = {a["id"] for _, a in tags.tags if "id" in a}
    assert {a["href"][1:] for _, a in tags.tags if a.get("href", "").startswith("#")} <= targets


def test_media_files_extracted_beside_the_page_are_drawn_and_no_other_reference_is() -> None:
    png = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(16)).decode()
    conv = mv.Conversation(
        (
            mv.Message.user(
                (
                    ImageBlock(url="media/ab12.png", mime_type="image/png"),  # extracted
                    ImageBlock(url="photo.png", mime_type="image/png"),  # the file's own
                    AudioBlock(url="media/cd34.wav", mime_type="audio/wav"),  # extracted
                    ImageBlock(data=png, mime_type="image/png"),
                )
            ),
        )
    )
    drawn = Tags(page_with([conv], local_media=["media/ab12.png", "media/cd34.wav"]).decode())
    srcs = [(t, a["src"]) for t, a in drawn.tags if "src" in a]
    assert srcs == [
        ("img", "media/ab12.png"),
        ("audio", "media/cd34.wav"),
        ("img", f"data:image/png;base64,{png}"),
    ]
    assert [a["href"] for t, a in drawn.tags if t == "a" and a.get("href") == "photo.png"]
    [csp] = [a["content"] for t, a in drawn.tags if a.get("http-equiv")]
    assert "img-src data: 'self';" in csp and "media-src data: 'self';" in csp
    # the same blocks in a page told of no files: links only, and a policy of data: alone
    plain = Tags(page(conv))
    assert [t for t, a in plain.tags if "src" in a] == ["img"]
    [csp] = [a["content"] for t, a in plain.tags if a.get("http-equiv")]
    assert "'self'" not in csp and "img-src data:;" in csp
