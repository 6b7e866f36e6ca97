"""A conversation made of content that tries to run script or load something when shown as a
page: every trick lands in every kind of place the page shows file text."""

from __future__ import annotations

import base64

import msgviewer as mv
from msgviewer.core.blocks import (
    AudioBlock,
    ErrorBlock,
    ImageBlock,
    ReasoningBlock,
    TextBlock,
    ToolCallBlock,
    ToolResultBlock,
)

PWN = "window.__pwned=1;window.__canary='pwned';document.title='pwned'"
SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" onload="' + PWN + '">'
    "<script>" + PWN + "</script><rect width='4' height='4'/></svg>"
)


def tricks(base: str) -> list[str]:
    """Hostile strings; ``base`` is an address whose every request the test counts."""
    return [
        f"<script>{PWN}</script>",
        f'<img src="{base}/img.png" onerror="{PWN}">',
        f"</style><script>{PWN}</script><style>",
        f"</title><script>{PWN}</script>",
        f'"><svg onload="{PWN}">',
        f"[click](javascript:{PWN})",
        f"[data](data:text/html;base64,{base64.b64encode(PWN.encode()).decode()})",
        f'<a href="javascript:{PWN}">raw link</a>',
        f"![tracker]({base}/md-image.png)",
        f'<iframe src="{base}/frame"></iframe>',
        f"<style>@import url({base}/import.css);body{{background:url({base}/bg.png)}}</style>",
        f'<link rel=stylesheet href="{base}/link.css">',
        f'<meta http-equiv=refresh content="0;url={base}/refresh">',
        f'<base href="{base}/">',
        f'<object data="{base}/object"></object>',
        f"<JaVaScRiPt:{PWN}>",
    ]


def hostile_conversation(base: str) -> mv.Conversation:
    t = tricks(base)
    joined = "\n\n".join(t)
    svg = base64.b64encode(SVG.encode()).decode()
    messages = [
        mv.Message.system(joined),
        mv.Message.user(
            (
                TextBlock(joined),
                ImageBlock(data=svg, mime_type="image/svg+xml", filename=t[0]),
                ImageBlock(data=svg, mime_type=f'image/png" onerror="{PWN}'),
                ImageBlock(url=f"{base}/remote.png"),
                AudioBlock(url=f"javascript:{PWN}", filename=t[1]),
            ),
            name=t[4],
        ),
        mv.Message.assistant(
            (
                ReasoningBlock(joined, signature=t[0]),
                ToolCallBlock(t[4], t[0], {t[2]: t[1], "nested": [t[3], {"x": t[6]}]}),
                ErrorBlock(t[1], code=t[0]),
            ),
            response_metadata={"model": t[0]},
            tool_calls=[mv.ToolCall(f'"><script>{PWN}</script>', t[2], {"q": joined})],
        ),
        mv.Message.user((ToolResultBlock(t[4], (TextBlock(joined),), is_error=True),)),
        mv.Message.tool(joined, tool_call_id=f'"><script>{PWN}</script>', name=t[3]),
        mv.Message.assistant(joined, usage=mv.Usage(input_tokens=10, output_tokens=5)),
    ]
    return mv.Conversation(tuple(messages), title=t[3] + t[2], metadata={"model": t[0]})
