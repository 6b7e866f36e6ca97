"""Message text rendered as Markdown, safely: raw HTML in the text is shown as text, links are
kept only to ``http``, ``https`` and ``mailto`` addresses, and images become links (a page
that loads nothing cannot show them, and must not try)."""

from __future__ import annotations

from functools import lru_cache
from html import escape
from typing import Any

from ...core.safetext import visible

SAFE_SCHEMES = ("http://", "https://", "mailto:")


def safe_url(url: str) -> bool:
    """Whether a link may point there: a plain web or mail address (never a script)."""
    return url.lower().startswith(SAFE_SCHEMES) and not any(ord(c) < 33 for c in url)


@lru_cache(maxsize=1)
def _renderer() -> Any:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    md.validateLink = safe_url  # (on the normalised URL: escapes and entities are decoded)

    def link_open(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        href = tokens[idx].attrGet("href") or ""
        return f'<a href="{escape(href)}" rel="noopener noreferrer nofollow">'

    def image(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        src = token.attrGet("src") or ""
        alt = escape(token.content or "image")
        return f'<a href="{escape(src)}" rel="noopener noreferrer nofollow">[image: {alt}]</a>'

    md.add_render_rule("link_open", link_open)
    md.add_render_rule("image", image)
    return md


def render(text: str) -> str:
    """HTML for Markdown ``text`` (control and invisible characters made visible first)."""
    return str(_renderer().render(visible(text)))
