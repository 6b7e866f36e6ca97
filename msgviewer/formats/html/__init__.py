"""``html``: one self-contained page to share a run (write only).

Reads like the app: messages with their roles, collapsible reasoning and tool blocks, each
call linked to its result and back, errors marked, a usage summary, Markdown rendered, a small
keyboard script. It loads nothing: styles and script are inline and allowed by hash in a
Content-Security-Policy that forbids every request, images are ``data:`` URIs (or, with
``page(..., local_media=...)``, the media files extracted beside the page). Every piece of
text from the file is escaped; Markdown is rendered with raw HTML off and links only to
``http``, ``https`` and ``mailto`` addresses.

The package: ``write`` (page structure), ``blocks`` (each part of a message), ``markdown``
(safe Markdown), ``summary`` (the table at the top), ``assets`` (style, script, policy).
"""

from ..base import Format
from .write import FORMAT_NAME, page, write

FORMAT = Format(
    name=FORMAT_NAME,
    description="self-contained HTML page (write only)",
    sniff=None,
    read=None,
    write=write,
    multi=True,
    cannot_carry=(
        "cannot be read back; inline file data other than images, audio and video (shown by "
        "name and size), opaque reasoning data, reasoning signatures, message metadata"
    ),
)

__all__ = ["FORMAT", "FORMAT_NAME", "page", "write"]
