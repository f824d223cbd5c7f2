"""Receiving mail: anymail's inbound webhooks (any ESP, at /anymail/<esp>/inbound/) send the
``inbound`` signal; we store the message as an InboundEmail row and process it in a Celery task
after commit. What a reply means is decided by ``games.email_replies``.

No accepted mail is lost, whatever its bytes:

- ``keep_every_post`` wraps each anymail inbound view (see ``hanseweb/mail/urls.py``). Once a post
  is authenticated, its body is kept byte for byte; a post that anymail or we cannot read (invalid
  UTF-8, a broken payload, a bug) is stored as an ``unreadable`` row and answered 200, so the ESP
  does not retry it forever. Only when even that row cannot be written (the database is down) does
  the ESP get an error, and then it retries.
- The signal handler stores sanitised text fields (no NUL, valid UTF-8, bounded lengths) next to
  the raw bytes, the ESP's spam verdict, and the text of an HTML-only mail.
"""
from __future__ import annotations

import contextvars
import io
import logging
import math
import re
from dataclasses import dataclass, field
from functools import wraps

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.dispatch import receiver
from django.http import HttpResponse
from django.views.decorators.csrf import csrf_exempt

from anymail.exceptions import AnymailWebhookValidationFailure
from anymail.signals import inbound
from anymail.webhooks.base import AnymailBasicAuthMixin

from hanseweb.handover import enqueue

from .models import InboundEmail

log = logging.getLogger(__name__)

MAX_SENDER, MAX_SUBJECT, MAX_TEXT, MAX_HTML, MAX_RECIPIENTS = 320, 300, 20000, 1_000_000, 50
MAX_HEADERS, MAX_HEADER_VALUE = 200, 2000
_SURROGATE = re.compile("[\ud800-\udfff]")


# --- sanitising ------------------------------------------------------------------------------

def clean_text(value, limit: int) -> str:
    """``value`` as text PostgreSQL can store: valid UTF-8 (lone surrogates, as Python's parsers
    keep invalid bytes, become U+FFFD), no NUL characters, at most ``limit`` characters."""
    if value is None:
        return ""
    if not isinstance(value, str):
        value = str(value)
    value = value[: limit * 2]  # bound the work on huge input (room for dropped NULs)
    return _SURROGATE.sub("\ufffd", value).replace("\x00", "")[:limit]


def html_to_text(html: str) -> str:
    """The text of an HTML mail as a reader sees it (blocks on their own lines, no markup)."""
    if not html:
        return ""
    from inscriptis import get_text

    try:
        return get_text(clean_text(html, MAX_HTML))
    except Exception:  # noqa: BLE001 - a broken HTML part must not lose the mail
        log.warning("could not convert an inbound HTML part to text", exc_info=True)
        return ""


def _safely(read, default=None):
    try:
        return read()
    except Exception:  # noqa: BLE001 - any header or part may be malformed
        log.info("unreadable part of an inbound mail", exc_info=True)
        return default


def _addresses(message) -> list[str]:
    found = []
    for header in ("to", "cc"):
        for address in _safely(lambda: getattr(message, header, None), None) or []:
            spec = _safely(lambda: address.addr_spec, "")
            if spec:
                found.append(clean_text(spec, MAX_SENDER).lower())
    envelope = _safely(lambda: getattr(message, "envelope_recipient", None))
    if envelope:
        found.append(clean_text(envelope, MAX_SENDER).lower())
    return list(dict.fromkeys(found))[:MAX_RECIPIENTS]


def header_pairs(message) -> list[list[str]]:
    """The headers of a parsed message as ``[name, value]`` pairs PostgreSQL can store (at most
    ``MAX_HEADERS``, each value bounded); unreadable headers are left out."""
    pairs = []
    for item in _safely(lambda: list(message.raw_items()) if hasattr(message, "raw_items") else list(message.items()),
                        []) or []:
        try:
            name, value = item
        except (TypeError, ValueError):
            continue
        value = _safely(lambda: str(value), "")
        pairs.append([clean_text(name, 100), clean_text(" ".join(value.split()), MAX_HEADER_VALUE)])
        if len(pairs) >= MAX_HEADERS:
            break
    return pairs


def _clean_headers(headers) -> list[list[str]]:
    pairs = []
    for pair in (headers or [])[:MAX_HEADERS]:
        if isinstance(pair, (list, tuple)) and len(pair) == 2:
            pairs.append([clean_text(pair[0], 100), clean_text(pair[1], MAX_HEADER_VALUE)])
    return pairs


def _spam_score(message) -> float | None:
    score = _safely(lambda: getattr(message, "spam_score", None))
    try:
        score = float(score)
    except (TypeError, ValueError):
        return None
    return score if math.isfinite(score) else None


def _mime_bytes(message) -> bytes:
    """The message as MIME, for mail that did not come through ``keep_every_post``."""
    as_bytes = _safely(message.as_bytes)
    if as_bytes is not None:
        return as_bytes
    as_string = _safely(message.as_string, "")
    return as_string.encode("utf-8", "surrogatepass") if as_string else b""


# --- storing ---------------------------------------------------------------------------------

def store(*, sender: str, recipients: list[str], subject: str, text: str, html: str = "", raw: bytes = b"",
          raw_content_type: str = "", esp: str = "", spam_detected: bool | None = None,
          spam_score: float | None = None, status: str = InboundEmail.PENDING, outcome: str = "",
          headers: list | None = None, esp_event_id: str = "") -> InboundEmail:
    """Keep the mail first; then hand it to the worker once the row is committed.

    A mail received before (the same Message-ID from the same sender, or the same ESP event: an
    ESP retrying its webhook, an IMAP message taken twice) is kept too, as a ``repeat`` pointing
    at the first copy, and is neither processed nor answered: the player gets one answer. The
    database's unique indexes decide, so concurrent posts of one mail store one original."""
    from .tasks import process_inbound

    text = clean_text(text, MAX_TEXT)
    if not text.strip():  # an HTML-only mail (or one whose text part is blank): read its HTML
        text = clean_text(html_to_text(html), MAX_TEXT) or text
    headers = _clean_headers(headers)
    fields = dict(
        sender=clean_text(sender, MAX_SENDER).strip().lower(),
        recipients=[clean_text(r, MAX_SENDER) for r in (recipients or [])][:MAX_RECIPIENTS],
        subject=clean_text(subject, MAX_SUBJECT), text=text,
        raw=bytes(raw or b""), raw_content_type=clean_text(raw_content_type, 200), esp=clean_text(esp, 40),
        spam_detected=spam_detected, spam_score=spam_score, status=status, outcome=outcome,
        headers=headers, message_id=message_id_of(headers), esp_event_id=clean_text(esp_event_id or "", 300),
    )
    with transaction.atomic():
        row = None
        if status == InboundEmail.PENDING and (fields["message_id"] or fields["esp_event_id"]):
            try:
                with transaction.atomic():  # a savepoint: a second copy fails here on a unique index
                    row = InboundEmail.objects.create(**fields)
            except IntegrityError:
                row = _repeat(fields)
        if row is None:
            row = InboundEmail.objects.create(**fields)
        if row.status == InboundEmail.PENDING:
            transaction.on_commit(lambda: enqueue(process_inbound, row.pk))
    return row


def message_id_of(headers: list[list[str]]) -> str:
    """The mail's Message-ID header (``<...>``, whitespace removed), or ""."""
    for name, value in headers:
        if name.lower() == "message-id":
            return "".join(value.split())[:300]
    return ""


def _repeat(fields: dict) -> InboundEmail:
    """Store a second copy of a mail already received, as a repeat of the first."""
    same = Q(repeat_of__isnull=True) & (
        (Q(sender=fields["sender"], message_id=fields["message_id"]) if fields["message_id"] else Q(pk__in=[]))
        | (Q(esp=fields["esp"], esp_event_id=fields["esp_event_id"]) if fields["esp_event_id"] else Q(pk__in=[])))
    original = InboundEmail.objects.filter(same).order_by("pk").first()
    same_id = original is not None and bool(fields["message_id"]) and original.message_id == fields["message_id"]
    how = "the same Message-ID" if same_id else "the same ESP event"
    outcome = f"a repeat of inbound #{original.pk if original else '?'} ({how}): not processed, not answered"
    log.info("inbound mail from %s is %s", fields["sender"], outcome)
    return InboundEmail.objects.create(**{**fields, "status": InboundEmail.REPEAT, "outcome": outcome,
                                          "repeat_of": original, "processed_at": timezone.now()})


@dataclass
class _Post:
    """One authenticated post to an inbound webhook, while anymail reads it."""
    esp: str
    raw: bytes
    content_type: str
    authentic: bool = False
    rows: list[int] = field(default_factory=list)


_current_post: contextvars.ContextVar[_Post | None] = contextvars.ContextVar("hanseweb_inbound_post", default=None)


@receiver(inbound, dispatch_uid="hanseweb.mail.inbound")
def on_inbound(sender, event, esp_name, **kwargs):
    post = _current_post.get()
    row = store_message(event.message, esp=esp_name or "", raw=post.raw if post else None,
                        raw_content_type=post.content_type if post else "message/rfc822",
                        esp_event_id=str(getattr(event, "event_id", None) or ""))
    if post is not None:
        post.rows.append(row.pk)


def store_message(message, *, esp: str, raw: bytes | None = None, raw_content_type: str = "message/rfc822",
                  extra_recipients: list[str] | None = None, esp_event_id: str = "") -> InboundEmail:
    """Store one parsed mail (anymail's ``AnymailInboundMessage``): the webhooks' signal handler
    and ``manage.py receive_mail`` both come through here. ``raw`` defaults to the message as MIME."""
    from_email = _safely(lambda: message.from_email.addr_spec if message.from_email else "", "")
    # Some ESPs strip the quoted original for us (Postmark: StrippedTextReply).
    text = _safely(lambda: getattr(message, "stripped_text", None), None) or _safely(lambda: message.text, "") or ""
    html = "" if text.strip() else (_safely(lambda: message.html, "") or "")
    spam = _safely(lambda: getattr(message, "spam_detected", None))
    recipients = list(dict.fromkeys([*_addresses(message),
                                     *(clean_text(r, MAX_SENDER).lower() for r in extra_recipients or [])]))
    return store(
        sender=from_email, recipients=recipients[:MAX_RECIPIENTS],
        subject=_safely(lambda: message.subject, "") or "",
        text=text, html=html,
        raw=raw if raw is not None else _mime_bytes(message),
        raw_content_type=raw_content_type,
        esp=esp, spam_detected=spam if isinstance(spam, bool) else None, spam_score=_spam_score(message),
        headers=header_pairs(message), esp_event_id=esp_event_id,
    )


# --- answering ---------------------------------------------------------------------------------

def may_answer(row: InboundEmail, to: str) -> bool:
    """Whether a processed mail may be answered: at most ``HANSEWEB_RATES["reply_answers_per_sender"]``
    answers to one address and ``["reply_answers_per_reply_address"]`` to mail sent to one reply
    address. The mail itself is stored and processed all the same; a withheld answer is noted in
    the row's outcome."""
    from hanseweb.throttle import allowed

    reply_address = next((r for r in row.recipients if r.lower().startswith("play+")), "")
    ok = allowed("reply_answers_per_sender", to) and (
        not reply_address or allowed("reply_answers_per_reply_address", reply_address))
    if not ok:
        row.notes = [*getattr(row, "notes", []), f"answer to {to} not sent (rate limit)"]
    return ok


# --- the webhook wrapper ---------------------------------------------------------------------

def _read_body(request, limit: int) -> bytes:
    """The whole posted body, up to ``limit`` bytes (an inbound mail with attachments is larger
    than Django's DATA_UPLOAD_MAX_MEMORY_SIZE for ordinary forms). Afterwards ``request.body``,
    ``request.POST`` and ``request.FILES`` read this copy, as after Django's own ``request.body``."""
    if not hasattr(request, "_body"):
        body = request.read(limit + 1)
        if len(body) > limit:
            raise ValueError("too large")
        request._body = body
        request._stream = io.BytesIO(body)
    return request._body


def _refuse_too_large(limit: int) -> HttpResponse:
    return HttpResponse(f"An inbound mail may be at most {limit} bytes.\n", status=413, content_type="text/plain")


def _source_allowed(request) -> bool:
    """Count one post to an inbound webhook for its client address (``inbound_per_ip``)."""
    from hanseweb.throttle import allowed, client_ip

    return allowed("inbound_per_ip", client_ip(request))


def _checker(view_class, initkwargs):
    """An instance of the ESP's webhook view to check a post with, or None when the webhook has
    no secret: neither ``ANYMAIL_WEBHOOK_SECRET`` (basic auth) nor a signing key the ESP signs its
    posts with (anymail's ``warn_if_no_basic_auth`` is off exactly then), or the ESP's settings
    are missing."""
    import warnings

    from anymail.exceptions import AnymailInsecureWebhookWarning
    from django.core.exceptions import ImproperlyConfigured

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AnymailInsecureWebhookWarning)
        try:
            checker = view_class(**initkwargs)
        except ImproperlyConfigured:
            return None
    basic_auth = isinstance(checker, AnymailBasicAuthMixin) and bool(checker.basic_auth)
    if basic_auth or not getattr(checker, "warn_if_no_basic_auth", True):
        return checker
    return None


def keep_every_post(view):
    """Wrap one of anymail's inbound webhook views so that every authenticated post is kept.

    Without ``ANYMAIL_WEBHOOK_SECRET`` (HTTP basic auth the ESP sends) the endpoint does not exist
    (404): an anonymous post could otherwise fill the database or speak with an old reply
    address. Posts are counted per client address (``HANSEWEB_RATES["inbound_per_ip"]``, 429
    beyond, which an ESP retries later) and bounded in size (``HANSEWEB_INBOUND_MAX_BYTES``, 413
    beyond), so a stored row is too."""
    view_class, initkwargs = view.view_class, view.view_initkwargs

    @csrf_exempt
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        checker = _checker(view_class, initkwargs)
        if checker is None:  # no secret, no inbound endpoint: nobody could tell our ESP from anyone
            return HttpResponse("Not found.\n", status=404, content_type="text/plain")
        basic_auth = isinstance(checker, AnymailBasicAuthMixin) and bool(checker.basic_auth)
        if request.method != "POST":
            return view(request, *args, **kwargs)
        if not _source_allowed(request):  # the ESP retries a 429 later: no mail is lost
            response = HttpResponse("Too many inbound posts from this address; try again later.\n",
                                    status=429, content_type="text/plain")
            response["Retry-After"] = "60"
            return response
        # headers only: an anonymous post is refused before its body is read
        AnymailBasicAuthMixin.validate_request(checker, request)
        limit = settings.HANSEWEB_INBOUND_MAX_BYTES
        try:
            if int(request.META.get("CONTENT_LENGTH") or 0) > limit:
                return _refuse_too_large(limit)
        except ValueError:
            pass
        try:
            raw = _read_body(request, limit)
        except ValueError:
            return _refuse_too_large(limit)
        post = _Post(esp=checker.esp_name, raw=raw, content_type=request.META.get("CONTENT_TYPE", ""),
                     authentic=basic_auth)
        token = _current_post.set(post)
        try:
            checker.run_validators(request)  # the ESP's own signature, where it signs its posts
            post.authentic = True
            return view(request, *args, **kwargs)
        except AnymailWebhookValidationFailure:
            raise  # 400, nothing kept: not a mail from our ESP
        except Exception as exc:
            if not post.authentic:
                raise
            return _keep_unreadable(post, exc)
        finally:
            _current_post.reset(token)

    return wrapped


def _keep_unreadable(post: _Post, exc: Exception) -> HttpResponse:
    """Anymail (or we) could not read an authenticated post: keep its bytes as an ``unreadable``
    row and tell the ESP it arrived. If even that fails, the ESP gets the error and retries."""
    log.warning("inbound %s post of %d bytes could not be read; kept as unreadable", post.esp, len(post.raw),
                exc_info=exc)
    try:
        row = store(sender="", recipients=[], subject="", text="", raw=post.raw, raw_content_type=post.content_type,
                    esp=post.esp, status=InboundEmail.UNREADABLE,
                    outcome=clean_text(f"could not be read: {type(exc).__name__}: {exc}", 5000))
    except Exception:
        log.exception("could not keep an unreadable inbound post; the ESP will retry it")
        raise exc from None
    post.rows.append(row.pk)
    return HttpResponse()
