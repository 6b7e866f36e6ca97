"""Take the README's picture of an HTML page: the demo sample written as ``html`` and shot
in headless Chromium.

    python scripts/html_screenshot.py            # writes screenshots/html-page.png
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import msgviewer as mv  # noqa: E402 (after the path is set)


def main() -> int:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("no chromium here", file=sys.stderr)
        return 1
    out = ROOT / "screenshots" / "html-page.png"
    with tempfile.TemporaryDirectory() as work:
        page = Path(work) / "demo.html"
        convs = mv.load(ROOT / "msgviewer" / "samples" / "demo-agent-run.json")
        page.write_bytes(mv.dumps(convs, format="html"))
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={work}/profile",
                "--hide-scrollbars",
                "--window-size=1000,1250",
                f"--screenshot={out}",
                page.as_uri(),
            ],
            check=True,
            capture_output=True,
        )
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
