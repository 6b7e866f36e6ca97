"""Pages rendered in a real browser (headless Chromium): every message is in the DOM, every
anchor leads somewhere, nothing hostile ran, and no request left the page. Each check is
first shown able to fail, on a page built to fail it."""

from __future__ import annotations

import base64
import io
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import msgviewer as mv
from msgviewer.cli import main
from msgviewer.core.blocks import ImageBlock, TextBlock

from .browser import needs_chromium, render
from .hostile import PWN, hostile_conversation, tricks

pytestmark = needs_chromium
SAMPLES = Path(mv.__file__).parent / "samples"


class Counter:
    def __init__(self) -> None:
        self.paths: list[str] = []
        self.base = ""


@pytest.fixture
def server() -> Iterator[Counter]:
    """A local web server that counts every request made to it."""
    counter = Counter()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            counter.paths.append(self.path)
            self.send_response(404)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    counter.base = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield counter
    httpd.shutdown()
    httpd.server_close()


def test_a_hostile_page_runs_nothing_and_loads_nothing(server: Counter, tmp_path: Path) -> None:
    conv = hostile_conversation(server.base)
    dom = render(mv.dumps(conv, format="html"), tmp_path)
    assert dom.root["data-pwned"] == "undefined"
    assert dom.root["data-canary"] == "intact"
    assert dom.root["data-title"] == conv.title  # shown as text, never changed
    assert dom.root["data-broken"] == ""
    assert dom.root["data-resources"] == "0"
    assert dom.root["data-violations"] == ""
    assert server.paths == []
    assert dom.ids("article") == [f"c0-m{i}" for i in range(len(conv.messages))]


def test_the_checks_catch_a_page_that_runs_or_loads(server: Counter, tmp_path: Path) -> None:
    # the same page with a trick let through raw: the harness sees it run and load...
    page = mv.dumps(hostile_conversation(server.base), format="html")
    open_page = page.replace(b'<meta http-equiv="Content-Security-Policy"', b"<meta x")
    raw = (tricks(server.base)[1] + '<a href="#nowhere">x</a>').encode()
    dom = render(open_page.replace(b"</main>", raw + b"</main>"), tmp_path)
    assert dom.root["data-pwned"] == "1" and dom.root["data-canary"] == "pwned"
    assert dom.root["data-title"] == "pwned"
    assert dom.root["data-broken"] == "nowhere"
    assert server.paths == ["/img.png"]
    # ...and with the policy kept, it is blocked, and the violation seen
    blocked = page.replace(b"</main>", f"<script>{PWN}</script>".encode() + b"</main>")
    dom = render(blocked, tmp_path)
    assert dom.root["data-pwned"] == "undefined"
    assert dom.root["data-violations"] == "script-src-elem"


@pytest.mark.parametrize("name", ["demo-agent-run.json", "claude-code-session.jsonl"])
def test_a_sample_page_holds_every_message_and_every_link_resolves(
    name: str, tmp_path: Path
) -> None:
    convs = mv.load(SAMPLES / name)
    dom = render(mv.dumps(convs, format="html"), tmp_path)
    expected = [f"c{c}-m{i}" for c, conv in enumerate(convs) for i in range(len(conv.messages))]
    assert dom.ids("article") == expected
    assert dom.root["data-broken"] == "" and dom.root["data-violations"] == ""
    assert dom.root["data-resources"] == "0"
    # each call links to its result and back
    calls = dom.ids(cls="tool-call")
    results = dom.ids(cls="tool-result")
    assert calls and results
    hrefs = {a["href"][1:] for t, a in dom.elements if t == "a" and "jump" in a.get("class", "")}
    assert set(results) <= hrefs and set(calls) & hrefs


def test_media_extracted_beside_the_page_are_drawn_from_their_files(
    server: Counter, tmp_path: Path
) -> None:
    from PIL import Image

    picture = io.BytesIO()
    Image.new("RGB", (3, 2), (200, 30, 30)).save(picture, format="PNG")
    (tmp_path / "photo.png").write_bytes(picture.getvalue())  # beside the page, not asked for
    inline = base64.b64encode(picture.getvalue()).decode()
    conv = mv.Conversation(
        (
            mv.Message.user(
                (
                    TextBlock("what is this?"),
                    ImageBlock(data=inline, mime_type="image/png"),
                    ImageBlock(url="photo.png", mime_type="image/png"),
                    ImageBlock(url=f"{server.base}/tracker.png", mime_type="image/png"),
                )
            ),
            mv.Message.assistant("A red rectangle."),
        )
    )
    source = tmp_path / "run.json"
    mv.dump(conv, source)
    out = tmp_path / "page.out.html"
    media = tmp_path / "media #1?"  # (characters a URL reads otherwise)
    assert main(["convert", str(source), "--to", "html", "--extract-media",
                 str(media), "-o", str(out)]) == 0  # fmt: skip
    [name] = [p.name for p in media.iterdir()]
    dom = render(out.read_bytes(), tmp_path)
    assert dom.root["data-drawn"] == f"media%20%231%3F/{name}"  # drawn from its file, only it
    assert dom.root["data-violations"] == "" and server.paths == []
    assert dom.ids("article") == ["c0-m0", "c0-m1"]
