"""Make the README's screenshots (SVG) from the real app on the bundled samples.

    python scripts/screenshots.py            # writes screenshots/*.svg

Each shot opens a sample at a fixed size, presses keys as a user would, and exports the
screen. Run it again after a visible change and look at the results before committing.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from msgviewer.tui.app import MsgViewerApp  # noqa: E402

SAMPLES = ROOT / "msgviewer" / "samples"
OUT = ROOT / "screenshots"
SIZE = (132, 36)

SHOTS: dict[str, tuple[str | tuple[str, str], list[str]]] = {
    # name: (sample, or two samples to compare, keys)
    # The demo opens with results under their calls: message 2 open on its calls and results.
    "overview": ("demo-agent-run.json", ["j", "j", "j", "j"]),
    "tool-linkage": ("demo-agent-run.json", ["j", "j", "j", "j", "j", "j", "j"]),
    "usage": ("demo-agent-run.json", ["u"]),
    "timeline": ("claude-code-session.jsonl", ["m"]),
    "reasoning": ("demo-agent-run.json", ["j", "j", "j", "l"]),
    "media": ("demo-agent-run.json", ["j", "l", "j", "j"]),
    "sub-agent": ("claude-code-session.jsonl", ["j"] * 16),
    "search": ("demo-agent-run.json", ["slash", *"utf-8", "enter", "n"]),
    "trim-preview": ("demo-agent-run.json", ["T", *"1500"]),
    "diff": (("diff-fixture.json", "diff-new-run.json"), ["n"]),
    # The failing test run's output with the detail pane widened (> three times)
    "wide-detail": ("demo-agent-run.json", ["colon", "6", "enter", *[">"] * 3]),
}


async def _settle(app: MsgViewerApp, pilot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(3):
        await pilot.pause()
        await app.workers.wait_for_complete()
    await pilot.pause()


def _app(sample: str | tuple[str, str]) -> tuple[MsgViewerApp, str]:
    """The app on a sample, or on the diff of two (as ``msgviewer diff --view A B``)."""
    if isinstance(sample, str):
        return MsgViewerApp([str(SAMPLES / sample)]), sample
    from msgviewer import load

    a, b = (load(SAMPLES / name)[0] for name in sample)
    return MsgViewerApp(conversations=[a, b], compare=(sample, {})), "diff " + " ".join(sample)


async def shoot(name: str, sample: str | tuple[str, str], keys: list[str]) -> Path:
    """Open ``sample``, press ``keys``, write ``screenshots/<name>.svg``."""
    app, label = _app(sample)
    async with app.run_test(size=SIZE) as pilot:
        await _settle(app, pilot)
        await pilot.press(*keys)
        await _settle(app, pilot)
        svg = app.export_screenshot(title=f"msgviewer {label}")
    target = OUT / f"{name}.svg"
    target.write_text(svg, encoding="utf-8")
    return target


async def main(names: list[str]) -> None:
    OUT.mkdir(exist_ok=True)
    for name in names or list(SHOTS):
        sample, keys = SHOTS[name]
        print(f"wrote {(await shoot(name, sample, keys)).relative_to(ROOT)}")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
