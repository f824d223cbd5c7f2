import logging
from datetime import timedelta

from celery import shared_task
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.utils import timezone

from .autoreply import auto_reply_reason
from .images import inline_png, svg_to_png
from .models import InboundEmail, OutboundEmail
from .outbox import enqueue, render_pending

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
AUTOMATIC_HEADERS = {"Auto-Submitted": "auto-generated", "X-Auto-Response-Suppress": "OOF, AutoReply"}


@shared_task(name="hanseweb.mail.tasks.send_email")
def send_email(email_id: int) -> str:
    """Send one outbox row, once. Safe to call twice: a sent row is skipped."""
    with transaction.atomic():
        email = (
            OutboundEmail.objects.select_for_update(skip_locked=True)
            .filter(pk=email_id, sent_at__isnull=True)
            .first()
        )
        if email is None:
            return "skipped"
        email.attempts += 1
        # queued to be rendered (outbox.queue_rendered_later) and not yet made by render_email
        if email.render and not _rendered(email, also=["attempts"]):
            return "failed"  # kept for the sweep like a failed send
        # The row's own Message-ID on every attempt: if a worker dies after the ESP accepted the
        # mail but before this transaction commits, the resend carries the same Message-ID.
        # Every mail we send is automatic (RFC 3834): auto-responders must not answer it, and
        # Exchange is asked not to send its out-of-office notes either.
        headers = {**AUTOMATIC_HEADERS, **email.headers, "Message-ID": email.message_id}
        message = EmailMultiAlternatives(email.subject, email.text, to=[email.to], headers=headers)
        if email.html:
            message.attach_alternative(email.html, "text/html")
        if email.inline_svg:  # the picture as a related part the HTML shows with cid:
            picture = inline_png(email.inline_svg)
            if picture is not None:
                message.mixed_subtype = "related"
                message.attach(picture)
        try:
            message.send()
        except Exception as exc:  # the ESP failed: keep the row for the sweep
            email.last_error = f"{type(exc).__name__}: {exc}"[:2000]
            email.save(update_fields=["attempts", "last_error"])
            log.warning("sending email %s failed: %s", email_id, email.last_error)
            return "failed"
        status = getattr(message, "anymail_status", None)
        email.esp_message_id = str(getattr(status, "message_id", None) or "")[:300]
        email.sent_at = timezone.now()
        email.save(update_fields=["attempts", "sent_at", "esp_message_id", "last_error"])
        return "sent"


def _rendered(email: OutboundEmail, also: list[str] = ()) -> bool:
    """Render ``email`` (``outbox.render_pending``) in a savepoint; on failure the row is left as
    it was but for ``last_error`` (and the fields ``also`` names), and False."""
    try:
        with transaction.atomic():
            render_pending(email)
    except Exception as exc:  # noqa: BLE001 - any renderer error: kept, logged, retried later
        email.last_error = f"rendering failed: {type(exc).__name__}: {exc}"[:2000]
        email.save(update_fields=[*also, "last_error"])
        log.exception("rendering email %s failed", email.pk)
        return False
    return True


@shared_task(name="hanseweb.mail.tasks.render_email")
def render_email(email_id: int) -> str:
    """Make a row queued by ``outbox.queue_rendered_later`` (its text, HTML and the board's PNG),
    then hand it to ``send_email``. This is the CPU-heavy part of a turn mail (the board as a PNG
    above all); with ``HANSEWEB_RENDER_QUEUE`` set it goes to a queue of its own, so workers made
    for it (prefork, one process per core) make mails while the sending workers (threads, waiting
    on the ESP) only send. Safe to run twice; if it fails, ``send_email`` renders the row itself."""
    result = "rendered"
    with transaction.atomic():
        email = (OutboundEmail.objects.select_for_update(skip_locked=True)
                 .filter(pk=email_id, sent_at__isnull=True, render__isnull=False).first())
        if email is None:
            result = "nothing to render"  # rendered or sent already, or another worker has it
        elif not _rendered(email):
            result = "failed"  # send_email tries again, the sweep after it
    if email is not None and email.render is None and email.inline_svg:
        try:  # the PNG is cached by the SVG's hash: the sending worker finds it made
            svg_to_png(email.inline_svg)
        except Exception:  # noqa: BLE001 - send_email sends without the picture if it cannot make it
            log.warning("could not make the PNG of email %s", email_id, exc_info=True)
    enqueue(send_email, email_id)
    return result


@shared_task(name="hanseweb.mail.tasks.sweep_outbox")
def sweep_outbox() -> int:
    """Re-enqueue mail that is still unsent a minute after it was queued."""
    cutoff = timezone.now() - timedelta(minutes=1)
    ids = list(
        OutboundEmail.objects.filter(sent_at__isnull=True, created_at__lt=cutoff, attempts__lt=MAX_ATTEMPTS)
        .values_list("pk", flat=True)[:500]
    )
    for pk in ids:
        send_email.delay(pk)
    return len(ids)


@shared_task(name="hanseweb.mail.tasks.process_inbound")
def process_inbound(inbound_id: int) -> str:
    """Apply one received reply (moves by email). Runs once per row: a processed row is skipped."""
    from .handlers import dispatch

    with transaction.atomic():
        row = (
            InboundEmail.objects.select_for_update(skip_locked=True)
            .filter(pk=inbound_id, status=InboundEmail.PENDING)
            .first()
        )
        if row is None:
            return "skipped"
        automatic = auto_reply_reason(row.headers, row.subject)
        if automatic:  # an out-of-office note or another machine's answer: never played, never answered
            status, outcome = InboundEmail.IGNORED, f"auto-reply ignored ({automatic}): not processed, not answered"
        elif row.spam_detected:  # the ESP's verdict: kept and recorded, but neither played nor answered
            score = "" if row.spam_score is None else f" (score {row.spam_score:g})"
            status, outcome = InboundEmail.IGNORED, f"marked as spam by the ESP{score}: not processed, not answered"
        else:
            status, outcome = dispatch(row)
        outcome = "; ".join([outcome, *getattr(row, "notes", [])])
        row.status, row.outcome, row.processed_at = status, outcome[:5000], timezone.now()
        row.save(update_fields=["status", "outcome", "processed_at"])
        return status


@shared_task(name="hanseweb.mail.tasks.sweep_inbound")
def sweep_inbound() -> int:
    """Re-enqueue received mail still unprocessed a minute after it arrived."""
    cutoff = timezone.now() - timedelta(minutes=1)
    ids = list(InboundEmail.objects.filter(status=InboundEmail.PENDING, received_at__lt=cutoff)
               .values_list("pk", flat=True)[:500])
    for pk in ids:
        process_inbound.delay(pk)
    return len(ids)


@shared_task(name="hanseweb.mail.tasks.poll_imap")
def poll_imap() -> int:
    """The beat's IMAP poll (only scheduled when HANSEWEB_IMAP_HOST is set): messages taken."""
    from .imap import poll

    return len(poll())
