"""Receiving mail: anymail's inbound webhooks (any ESP, at /anymail/<esp>/inbound/) send the
``inbound`` signal; we store the message as an InboundEmail row and process it in a Celery task
after commit. What a reply means is decided by ``games.email_replies``."""
from django.db import transaction
from django.dispatch import receiver

from anymail.signals import inbound

from .models import InboundEmail
from .outbox import enqueue


def _addresses(message) -> list[str]:
    found = []
    for header in ("to", "cc"):
        for address in getattr(message, header, None) or []:
            found.append(address.addr_spec.lower())
    envelope = getattr(message, "envelope_recipient", None)
    if envelope:
        found.append(envelope.lower())
    return list(dict.fromkeys(found))


def store(*, sender: str, recipients: list[str], subject: str, text: str) -> InboundEmail:
    """Keep the mail first; then hand it to the worker once the row is committed."""
    from .tasks import process_inbound

    with transaction.atomic():
        row = InboundEmail.objects.create(
            sender=(sender or "").strip().lower()[:320], recipients=recipients,
            subject=(subject or "")[:300], text=(text or "")[:20000],
        )
        transaction.on_commit(lambda: enqueue(process_inbound, row.pk))
    return row


@receiver(inbound, dispatch_uid="hanseweb.mail.inbound")
def on_inbound(sender, event, esp_name, **kwargs):
    message = event.message
    from_email = message.from_email.addr_spec if message.from_email else ""
    # Some ESPs strip the quoted original for us (Postmark: StrippedTextReply).
    text = getattr(message, "stripped_text", None) or message.text or ""
    store(sender=from_email, recipients=_addresses(message), subject=message.subject or "", text=text)
