"""Raw mail in: one RFC 5322 message, as bytes, through the inbound path (stored first, then
processed). ``manage.py receive_mail`` (stdin or a Maildir) and the IMAP poller
(``hanseweb.mail.imap``) both call ``receive``; the ESP webhooks come in through
``hanseweb.mail.inbound`` and reach the same ``store_message``.
"""
from __future__ import annotations

from django.db import transaction

from anymail.inbound import AnymailInboundMessage

from .inbound import MAX_SENDER, clean_text, store, store_message
from .models import InboundEmail
from .tasks import process_inbound

MAX_BYTES = 25 * 1024 * 1024  # a raw message larger than this is not stored


def envelope_recipients(message) -> list[str]:
    """The addresses a local MDA or IMAP server adds (Delivered-To, X-Original-To)."""
    found = []
    for header in ("Delivered-To", "X-Original-To"):
        try:
            values = message.get_all(header) or []
        except Exception:  # noqa: BLE001 - a malformed header
            continue
        for value in values:
            value = clean_text(str(value), MAX_SENDER).strip().strip("<>").lower()
            if "@" in value:
                found.append(value)
    return found


def receive(raw: bytes, *, source: str, recipients: list[str] | None = None) -> InboundEmail:
    """Store one raw message and process it; returns the row as it is afterwards."""
    with transaction.atomic():
        try:
            message = AnymailInboundMessage.parse_raw_mime_bytes(raw)
            row = store_message(message, esp=source, raw=raw, raw_content_type="message/rfc822",
                                extra_recipients=[*envelope_recipients(message), *(recipients or [])])
        except Exception as exc:  # noqa: BLE001 - any bytes: keep them, say why they could not be read
            row = store(sender="", recipients=[], subject="", text="", raw=raw, raw_content_type="message/rfc822",
                        esp=source, status=InboundEmail.UNREADABLE,
                        outcome=clean_text(f"could not be read: {type(exc).__name__}: {exc}", 5000))
    if row.status == InboundEmail.PENDING:
        process_inbound(row.pk)  # idempotent: a worker that took it first makes this a no-op
    row.refresh_from_db()
    return row
