"""Pictures in mail: many mail clients do not show SVG, so a mail's SVG (``OutboundEmail.inline_svg``)
is sent as a PNG, converted by CairoSVG (Kozea; needs the system cairo library) in the worker that
sends the mail, and attached as a related MIME part the HTML part shows with ``cid:``.

The PNG is a pure function of the SVG text, so it is cached by the SVG's hash: mails made from the
same SVG (one game, move number and seat: ``games.notifications``) convert it once. CairoSVG's
``unsafe`` mode stays off (no external files or entities are read).
"""
from __future__ import annotations

import hashlib
import logging
from email.mime.image import MIMEImage

from django.core.cache import cache

log = logging.getLogger(__name__)

CONTENT_ID = "board@hanseweb"
WIDTH = 640  # pixels: sharp on a phone, small enough for any mailbox
CACHE_SECONDS = 7 * 24 * 3600
MAX_SVG = 2_000_000


def svg_to_png(svg: str) -> bytes:
    """The PNG of ``svg``, ``WIDTH`` pixels wide (height to scale); cached by the SVG's hash."""
    key = "hanseweb:png:" + hashlib.sha256(svg.encode("utf-8", "surrogatepass")).hexdigest()
    png = cache.get(key)
    if png is None:
        import cairosvg

        png = cairosvg.svg2png(bytestring=svg.encode("utf-8", "replace")[:MAX_SVG], output_width=WIDTH)
        cache.set(key, png, CACHE_SECONDS)
    return png


def inline_png(svg: str) -> MIMEImage | None:
    """The related MIME part for ``svg``, or None when it cannot be made (the mail goes without
    the picture: its text part has the text picture, and the link)."""
    try:
        png = svg_to_png(svg)
    except Exception:  # noqa: BLE001 - no cairo, a broken SVG: the mail must still go
        log.warning("could not convert a mail's SVG to PNG; sending without the picture", exc_info=True)
        return None
    part = MIMEImage(png, "png")
    part.add_header("Content-ID", f"<{CONTENT_ID}>")
    part.add_header("Content-Disposition", "inline", filename="board.png")
    return part
