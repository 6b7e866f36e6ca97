"""Writing conversations as one self-contained HTML page: the structure (head, summary,
messages) and the escaping every piece of file text goes through. How each block looks is in
``blocks``; the style, script and security policy in ``assets``."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from html import escape

from ...core.call_order import call_places
from ...core.links import link_tools
from ...core.message import Message
from ...core.safetext import visible
from ..base import Context, Conversation
from .assets import SCRIPT, STYLE, policy
from .blocks import Anchors, BlockWriter, text_html
from .summary import summary_rows

FORMAT_NAME = "html"


def esc(text: object) -> str:
    """File text as HTML text or attribute value: control characters visible, all escaped
    (a value that is not text, where a file put one, is shown as its JSON-ish self)."""
    shown = "" if text is None else text if isinstance(text, str) else repr(text)
    return escape(visible(shown), quote=True)


HELP = (
    '<div id="help" hidden><b>Keys</b><br>j / k next, previous message &middot; g / G first, '
    "last<br>t jump between a tool call and its result<br>e / c expand, collapse all"
    "<br>? this help</div>"
)


def write(conversations: Sequence[Conversation], ctx: Context) -> bytes:
    """The page (every conversation in turn), media drawn from ``data:`` URIs only."""
    return page(conversations, ctx)


def page(
    conversations: Sequence[Conversation],
    ctx: Context | None = None,
    *,
    local_media: Collection[str] = frozenset(),
) -> bytes:
    """The page; a medium whose reference is in ``local_media`` (the relative paths that
    ``extract_media`` wrote beside the page) is drawn from that file, and the page's policy
    lets it load from the page's own place. Any other reference stays a link."""
    ctx = ctx if ctx is not None else Context(target=FORMAT_NAME)
    local = frozenset(local_media)
    csp = policy(local_media=bool(local))
    title = next((c.title for c in conversations if c.title), None) or "Conversation"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{escape(csp)}">',
        '<meta name="referrer" content="no-referrer">',
        '<meta name="viewport" content="width=device-width,initial-scale=1">',
        f"<title>{esc(title)}</title>",
        f"<style>{STYLE}</style>",
        "</head><body><main>",
        f'<header class="page"><h1>{esc(title)}</h1>',
        '<p class="hint">Keys: j/k move, t call &harr; result, e/c expand/collapse, ? help</p>',
        "</header>",
    ]
    for n, conv in enumerate(conversations):
        parts.append(_conversation(conv, n, len(conversations), ctx, local))
    parts.append(HELP)
    parts.append(f"</main><script>{SCRIPT}</script></body></html>\n")
    return "\n".join(parts).encode("utf-8")


def _conversation(
    conv: Conversation, n: int, count: int, ctx: Context, local_media: frozenset[str]
) -> str:
    out = [f'<section class="conversation" id="c{n}">']
    if count > 1:
        out.append(f"<h1>{esc(conv.title or f'Conversation {n + 1}')}</h1>")
    out.append(f'<p class="meta">format: {esc(conv.format)}</p>')
    out.append('<table class="summary">')
    for label, value in summary_rows(conv):
        out.append(f"<tr><th>{esc(label)}</th><td>{esc(value)}</td></tr>")
    out.append("</table>")
    anchors = Anchors(n, link_tools(conv.messages))
    writer = BlockWriter(anchors, ctx, local_media)
    for i, m in enumerate(conv.messages):
        out.append(_message(m, i, anchors, writer))
    out.append("</section>")
    return "\n".join(out)


def _message(m: Message, i: int, anchors: Anchors, writer: BlockWriter) -> str:
    mid = anchors.message(i)
    head = [
        f'<a class="self" href="#{mid}">#{i}</a>',
        f'<span class="role">{esc(m.role)}</span>',
    ]
    if m.name:
        head.append(f'<span class="name">{esc(m.name)}</span>')
    model = m.response_metadata.get("model") or m.response_metadata.get("model_name")
    if isinstance(model, str):
        head.append(f'<span class="model">{esc(model)}</span>')
    if m.is_error:
        head.append('<span class="badge error">error</span>')
    body: list[str] = []
    if m.role == "tool":
        body.append(writer.tool_message(m, i))
    elif isinstance(m.content, str):
        if m.content:
            body.append(text_html(m.content))
    else:
        body.extend(writer.blocks(m.content, i))
    for invalid, c in call_places(m):  # (in the file's order)
        if invalid:
            bad = m.invalid_tool_calls[c]
            body.append(writer.invalid_call(anchors.invalid_id(i, c), bad, i))
        else:
            call = m.tool_calls[c]
            body.append(writer.call(anchors.call_id(i, None, c), call.name, call.args, i))
    if m.usage is not None:
        u = m.usage
        body.append(
            f'<div class="usage">usage: {u.input_tokens:,} in, {u.output_tokens:,} out</div>'
        )
    cls = f"msg role-{esc(m.role)}" + (" error" if m.is_error else "")
    return (
        f'<article class="{cls}" id="{mid}" tabindex="-1"><h2>{" ".join(head)}</h2>'
        + "\n".join(body)
        + "</article>"
    )
