"""Rendering a page in headless Chromium and reading what happened there.

A small harness script is put first in the page's head, before its security policy (a policy
given by a meta element governs only what follows it), so the harness runs whatever the
policy says. It records, once the page has loaded and its own script has run: whether a
global hostile content would set is set, whether a canary global changed, the title, the
anchors that lead nowhere, the resources the page loaded, the images it drew and the policy's
violations.
Chromium's ``--dump-dom`` prints the DOM after that, with those records as attributes.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest

CHROMIUM = next(
    (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None
)
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium here (Debian: apt-get install chromium)"
)

HARNESS = """<script>
window.__canary = "intact";
var __violations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  __violations.push(e.violatedDirective);
});
addEventListener("load", function () { setTimeout(function () {
  var r = document.documentElement, broken = [];
  document.querySelectorAll('a[href^="#"]').forEach(function (a) {
    var id = decodeURIComponent(a.getAttribute("href").slice(1));
    if (!document.getElementById(id)) broken.push(id);
  });
  r.setAttribute("data-pwned", String(window.__pwned));
  r.setAttribute("data-canary", String(window.__canary));
  r.setAttribute("data-title", document.title);
  r.setAttribute("data-broken", broken.join(" "));
  r.setAttribute("data-resources", String(performance.getEntriesByType("resource").length));
  r.setAttribute("data-drawn", Array.prototype.filter.call(document.images, function (i) {
    return i.naturalWidth > 0;
  }).map(function (i) { return i.getAttribute("src").slice(0, 60); }).join(" "));
  r.setAttribute("data-violations", __violations.join(" "));
  r.setAttribute("data-done", "1");
}, 300); });
</script>"""

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def with_harness(page: bytes) -> bytes:
    head = page.index(b"<head>") + len(b"<head>")
    return page[:head] + HARNESS.encode() + page[head:]


def chromium(args: list[str], work: Path) -> str:
    assert CHROMIUM is not None
    profile = tempfile.mkdtemp(dir=work)
    done = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def render(page: bytes, work: Path) -> Dom:
    """The DOM of ``page`` (with the harness) after its scripts ran."""
    path = work / "page.html"
    path.write_bytes(with_harness(page))
    dom = Dom(chromium(["--virtual-time-budget=5000", "--dump-dom", path.as_uri()], work))
    assert dom.root.get("data-done") == "1", "the harness never reported"
    return dom


class Dom(HTMLParser):
    """The dumped DOM: the root's attributes, every element's tag and attributes."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.root: dict[str, str] = {}
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "html":
            self.root = a
        self.elements.append((tag, a))

    def ids(self, tag: str | None = None, cls: str | None = None) -> list[str]:
        return [
            a["id"]
            for t, a in self.elements
            if "id" in a
            and (tag is None or t == tag)
            and (cls is None or cls in a.get("class", "").split())
        ]
