"""Email backends that add the ESP's own protection against a mail sent twice.

A sending worker that dies after the ESP accepted a mail but before the outbox recorded it sends
the mail again (``tasks.send_email``: same Message-ID, counted as a possible duplicate). Where the
ESP's API takes an idempotency key, the second request can be recognised by the ESP itself and
not delivered again. Of anymail's ESPs, Resend does (an ``Idempotency-Key`` HTTP header, kept
24 hours); anymail does not send one, so this backend adds it: the row's Message-ID, the same on
every attempt. Use ``HANSEWEB_EMAIL_BACKEND=hanseweb.mail.backends.ResendEmailBackend`` instead of
``anymail.backends.resend.EmailBackend`` (same ``ANYMAIL_RESEND_*`` settings).

ESPs without such a key (Mailgun, Postmark, SES, SendGrid, SMTP servers) leave the Message-ID as
the one thing that makes the copies one mail in the reader's client.
"""
from __future__ import annotations

from anymail.backends.resend import EmailBackend as AnymailResendBackend


def idempotency_key(message) -> str:
    """The key for one outbox row: its Message-ID without the angle brackets (at most 256)."""
    message_id = str((getattr(message, "extra_headers", None) or {}).get("Message-ID", "")).strip().strip("<>")
    return f"hanseweb-{message_id}"[:256] if message_id else ""


class ResendEmailBackend(AnymailResendBackend):
    def build_message_payload(self, message, defaults):
        payload = super().build_message_payload(message, defaults)
        key = idempotency_key(message)
        if key:
            payload.headers["Idempotency-Key"] = key
        return payload
