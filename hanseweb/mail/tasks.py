import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from hanseweb.handover import enqueue

from .autoreply import auto_reply_reason
from .images import inline_png, svg_to_png
from .models import InboundEmail, OutboundEmail
from .outbox import render_pending
from .relevance import still_wanted

log = logging.getLogger(__name__)

AUTOMATIC_HEADERS = {"Auto-Submitted": "auto-generated", "X-Auto-Response-Suppress": "OOF, AutoReply"}


def retry_delay(attempts: int) -> timedelta:
    """How long a mail waits after its ``attempts``-th failed attempt: exponential backoff from
    ``HANSEWEB_MAIL_RETRY_FIRST_SECONDS`` (1 min, 2, 4, 8, ...) up to
    ``HANSEWEB_MAIL_RETRY_MAX_SECONDS`` (an hour) between attempts."""
    first, cap = settings.HANSEWEB_MAIL_RETRY_FIRST_SECONDS, settings.HANSEWEB_MAIL_RETRY_MAX_SECONDS
    return timedelta(seconds=min(cap, first * 2 ** min(max(attempts - 1, 0), 30)))


def _lease() -> timedelta:
    """How long one attempt may take before the row counts as abandoned (the worker died)."""
    return timedelta(seconds=settings.HANSEWEB_MAIL_SEND_LEASE_SECONDS)


def _expired(email: OutboundEmail, now) -> bool:
    return email.created_at < now - timedelta(hours=settings.HANSEWEB_MAIL_RETRY_HOURS)


def give_up(email: OutboundEmail, reason: str, now, why: str = "") -> None:
    email.given_up_at, email.given_up_reason, email.sending_since = now, reason, None
    if why:
        email.last_error = why[:2000]
    email.save(update_fields=["given_up_at", "given_up_reason", "sending_since", "last_error", "attempts"])
    log.warning("email %s (%s to %s) given up as %s after %d attempts: %s", email.pk, email.kind, email.to,
                reason, email.attempts, why or email.last_error)


@shared_task(name="hanseweb.mail.tasks.send_email", bind=True)
def send_email(self, email_id: int) -> str:
    """Send one outbox row, once; safe to run twice, at once or later (a sent row, a row another
    worker is sending, a row not yet due for its retry are all skipped).

    The attempt is recorded and committed *before* the mail is handed to the ESP (``attempts``,
    ``sending_since``), and its outcome in a second transaction afterwards. A worker killed in
    between leaves a row that says an attempt began and never came back: the next attempt (after
    ``HANSEWEB_MAIL_SEND_LEASE_SECONDS``) counts it as a possible duplicate and sends the same
    mail with the same Message-ID (mail clients show copies with one Message-ID as one mail). A failed attempt waits ``retry_delay`` for the next; a mail
    unsent ``HANSEWEB_MAIL_RETRY_HOURS`` after it was queued is given up as failed, and a retry
    of a mail whose point has passed (``relevance``) is given up as obsolete.

    A task the broker delivers again because its worker died (``redelivered``) does not wait for
    the lease: the attempt it finds under way was that dead worker's."""
    now = timezone.now()
    redelivered = bool((getattr(self.request, "delivery_info", None) or {}).get("redelivered"))
    with transaction.atomic():
        email = (
            OutboundEmail.objects.select_for_update(skip_locked=True)
            .filter(pk=email_id, sent_at__isnull=True, given_up_at__isnull=True)
            .first()
        )
        if email is None:
            return "skipped"
        if email.sending_since is not None and email.sending_since > now - _lease() and not redelivered:
            return "in flight"  # another worker is sending it right now
        if email.next_attempt_at is not None and email.next_attempt_at > now:
            return "not due"  # a failed attempt's backoff is not over (a task published twice)
        if _expired(email, now):
            give_up(email, OutboundEmail.FAILED, now)
            return "failed for good"
        retry = email.attempts > 0 or email.sending_since is not None
        if retry and email.wanted_while and not still_wanted(email.wanted_while):
            give_up(email, OutboundEmail.OBSOLETE, now, "no longer worth sending: the decision it was about has passed")
            return "obsolete"
        if email.sending_since is not None:  # an earlier attempt began and never recorded its outcome
            email.possible_duplicates += 1
            log.warning("email %s: attempt %d began at %s and never came back; it may have been delivered "
                        "(sent again with the same Message-ID)", email.pk, email.attempts, email.sending_since)
        email.attempts += 1
        # queued to be rendered (outbox.queue_rendered_later) and not yet made by render_email
        if email.render and not _rendered(email, also=["attempts", "possible_duplicates"]):
            _failed_later(email, now)
            return "failed"  # retried after the backoff like a failed send
        email.sending_since = now
        email.save(update_fields=["attempts", "sending_since", "possible_duplicates"])
    # Committed: the row now says an attempt is under way. Send outside any transaction.
    message = _message(email)
    try:
        message.send()
    except Exception as exc:  # the ESP failed: the row waits for its next attempt
        error = f"{type(exc).__name__}: {exc}"[:2000]
        wait = retry_delay(email.attempts)
        OutboundEmail.objects.filter(pk=email.pk, sent_at__isnull=True).update(
            last_error=error, sending_since=None, next_attempt_at=timezone.now() + wait)
        log.warning("sending email %s failed (attempt %d, next in %s): %s", email_id, email.attempts, wait, error)
        return "failed"
    status = getattr(message, "anymail_status", None)
    OutboundEmail.objects.filter(pk=email.pk).update(
        sent_at=timezone.now(), sending_since=None, next_attempt_at=None,
        esp_message_id=str(getattr(status, "message_id", None) or "")[:300])
    return "sent"


def _failed_later(email: OutboundEmail, now) -> None:
    email.next_attempt_at = now + retry_delay(email.attempts)
    email.save(update_fields=["next_attempt_at"])


def _message(email: OutboundEmail) -> EmailMultiAlternatives:
    # The row's own Message-ID on every attempt: if a worker dies after the ESP accepted the
    # mail but before the outcome is recorded, the resend carries the same Message-ID.
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
    return message


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
                 .filter(pk=email_id, sent_at__isnull=True, given_up_at__isnull=True, render__isnull=False).first())
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


def due(now=None):
    """Unsent rows whose turn has come: never tried a minute after they were queued (their task
    was lost), past their backoff, or abandoned mid-attempt (a worker died), oldest due first."""
    now = now or timezone.now()
    waiting = Q(next_attempt_at__isnull=True, created_at__lt=now - timedelta(minutes=1)) | Q(next_attempt_at__lte=now)
    abandoned = Q(sending_since__lte=now - _lease())
    return (OutboundEmail.objects.filter(sent_at__isnull=True, given_up_at__isnull=True)
            .filter((waiting & Q(sending_since__isnull=True)) | abandoned)
            .order_by(Coalesce("next_attempt_at", "created_at"), "pk"))


@shared_task(name="hanseweb.mail.tasks.sweep_outbox")
def sweep_outbox() -> int:
    """Give up mail unsent ``HANSEWEB_MAIL_RETRY_HOURS`` after it was queued (failed, logged);
    hand every row that is due (``due``) to ``send_email``, in the order it became due."""
    now = timezone.now()
    expired = OutboundEmail.objects.filter(
        sent_at__isnull=True, given_up_at__isnull=True,
        created_at__lt=now - timedelta(hours=settings.HANSEWEB_MAIL_RETRY_HOURS))
    expired = expired.filter(Q(sending_since__isnull=True) | Q(sending_since__lte=now - _lease()))
    given_up = expired.update(given_up_at=now, given_up_reason=OutboundEmail.FAILED, sending_since=None)
    if given_up:
        log.warning("%d mails unsent after %d hours were given up as failed (manage.py mail_status)",
                    given_up, settings.HANSEWEB_MAIL_RETRY_HOURS)
    ids = list(due(now).values_list("pk", flat=True)[:500])
    for pk in ids:
        enqueue(send_email, pk)
    return len(ids)


@shared_task(name="hanseweb.mail.tasks.process_inbound")
def process_inbound(inbound_id: int) -> str:
    """Apply one received reply (moves by email). Runs once per row: a processed row is skipped."""
    from .handlers import dispatch

    with transaction.atomic():
        row = (
            # NO KEY: a repeat being stored (its foreign key to this row takes a KEY SHARE lock) must not
            # make this task skip the row
            InboundEmail.objects.select_for_update(skip_locked=True, no_key=True)
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
    """Re-enqueue received mail still unprocessed a minute after it arrived, oldest first (the
    index on ``status`` holds the few pending rows; in batches: ``hanseweb.batches.batches``)."""
    from hanseweb.batches import batches

    cutoff = timezone.now() - timedelta(minutes=1)
    queued = 0
    for pk in batches(InboundEmail.objects.filter(status=InboundEmail.PENDING, received_at__lt=cutoff), "received_at"):
        process_inbound.delay(pk)
        queued += 1
    return queued


def _delete_in_batches(queryset, key: str) -> int:
    """Delete the rows of ``queryset`` a batch (``HANSEWEB_TASK_BATCH_SIZE``) at a time, oldest
    ``key`` first, each batch in a transaction of its own, while the run is younger than
    ``HANSEWEB_TASK_SECONDS``. Returns the rows deleted."""
    import time

    started, deleted = time.monotonic(), 0
    size = settings.HANSEWEB_TASK_BATCH_SIZE
    while True:
        ids = list(queryset.order_by(key, "pk").values_list("pk", flat=True)[:size])
        if ids:
            with transaction.atomic():
                deleted += queryset.model.objects.filter(pk__in=ids).delete()[1].get(queryset.model._meta.label, 0)
        if len(ids) < size or time.monotonic() - started >= settings.HANSEWEB_TASK_SECONDS:
            return deleted


def inbound_retention_days() -> float:
    """How long processed received mail is kept: ``HANSEWEB_INBOUND_RETENTION_DAYS``, but never
    less than ``HANSEWEB_INBOUND_DEDUP_DAYS`` (a stored mail is the key that tells a resent copy of
    it, by Message-ID or ESP event id, from a new mail)."""
    return max(settings.HANSEWEB_INBOUND_RETENTION_DAYS, settings.HANSEWEB_INBOUND_DEDUP_DAYS)


@shared_task(name="hanseweb.mail.tasks.delete_old_mail")
def delete_old_mail(now=None) -> dict:
    """Retention (docs/configuration.md): delete outbox rows sent, or given up (failed or
    obsolete), more than ``HANSEWEB_OUTBOX_RETENTION_DAYS`` ago, and received mail done with
    (processed, ignored, a repeat, unreadable) and received more than ``inbound_retention_days()``
    ago, in batches through partial indexes. Mail still to be
    sent and mail still to be processed are never deleted, nor anything of a game's log. A received
    mail that a newer copy (``repeat_of``) points at is kept until that copy is old enough too:
    repeats go first, their original after. Returns the rows deleted per table."""
    now = now or timezone.now()
    outbox_cutoff = now - timedelta(days=settings.HANSEWEB_OUTBOX_RETENTION_DAYS)
    sent = _delete_in_batches(OutboundEmail.objects.filter(sent_at__lt=outbox_cutoff), "sent_at")
    given_up = _delete_in_batches(OutboundEmail.objects.filter(sent_at__isnull=True, given_up_at__lt=outbox_cutoff),
                                  "given_up_at")
    inbound_cutoff = now - timedelta(days=inbound_retention_days())
    old = InboundEmail.objects.filter(received_at__lt=inbound_cutoff).exclude(status=InboundEmail.PENDING)
    repeats = _delete_in_batches(old.filter(repeat_of__isnull=False), "received_at")
    originals = _delete_in_batches(old.filter(repeat_of__isnull=True).exclude(repeats__isnull=False), "received_at")
    deleted = {"outbox": sent + given_up, "inbound": repeats + originals}
    if any(deleted.values()):
        log.info("retention: deleted %(outbox)d outbox rows and %(inbound)d received mails", deleted)
    return deleted


@shared_task(name="hanseweb.mail.tasks.poll_imap")
def poll_imap() -> int:
    """The beat's IMAP poll (only scheduled when HANSEWEB_IMAP_HOST is set): messages taken."""
    from .imap import poll

    return len(poll())
