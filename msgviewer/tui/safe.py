"""Text from files made safe to show in the app, on top of ``core.safetext.visible``.

Everything the app draws from a file goes through these before it becomes a Rich ``Text``
(built with ``Text(...)``, never from markup), so an escape sequence in a tool output
(``\\x1b[31m``, OSC 52, OSC 8) shows as ``␛[31m`` instead of reaching the terminal.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from rich.highlighter import Highlighter
from rich.text import Text

from ..core.safetext import visible, visible_in_place

printable = visible
"""``text`` with every control character but tab and newline shown as a visible mark."""


def one_line(text: str, limit: int = 200) -> str:
    """The first non-blank line of ``text``, visible, at most ``limit`` characters.

    Tabs become spaces and an ellipsis marks text that went on (more lines or more characters).
    Only the start of a long text is looked at: a row label must not cost what a 50 MB
    tool output costs.
    """
    window = max(4096, 4 * limit)
    if len(text) > window:
        head = text[:window]
        if not head.strip():  # rare: a long run of blank space first
            head = text.lstrip()[:window]
        text = head + "\n…"  # the text goes on after the window
    stripped = text.lstrip()
    end = stripped.find("\n")
    line = stripped if end == -1 else stripped[:end]
    more = end != -1 and bool(stripped[end:].strip())
    if len(line) > limit:
        line, more = line[:limit], True
    line = visible(line.replace("\t", " ").rstrip())
    return line + " …" if more else line


def line_text(line: str, limit: int = 400) -> str:
    """One line of a text shown as is (indentation kept), visible, at most ``limit`` chars."""
    return visible(line[:limit].replace("\t", "    "))


def markdown_parser() -> MarkdownIt:
    """A Markdown parser for text from files that hides nothing and links nowhere.

    Raw HTML is shown as text (Textual draws no HTML, so ``<!-- an instruction -->`` would
    vanish); links, images, autolinks and bare URLs stay as written instead of becoming
    clickable text whose target is out of sight; character references (``&#x1b;``) stay
    as written, since decoding them would bring back the controls ``visible`` took out.
    """
    parser = MarkdownIt("gfm-like", {"html": False, "linkify": False})
    parser.disable(["link", "image", "autolink", "linkify", "entity"], ignoreInvalid=True)
    return parser


class VisibleHighlighter(Highlighter):
    """For an ``Input`` holding text from a file: controls drawn as visible stand-ins.

    The value itself is untouched (it is what gets saved); only what is drawn changes, one
    character for one, so the cursor stays where it is.
    """

    def highlight(self, text: Text) -> None:
        text.plain = visible_in_place(text.plain)
