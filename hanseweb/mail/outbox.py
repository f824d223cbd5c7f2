"""Queue mail: render a subject/text/html template trio into an outbox row, send after commit."""
from __future__ import annotations

import logging
from email.utils import make_msgid, parseaddr

from django.conf import settings
from django.db import transaction
from django.template import Context
from django.template.loader import get_template, render_to_string
from django.urls import reverse

from .models import OutboundEmail

log = logging.getLogger(__name__)


def absolute(path: str) -> str:
    return settings.SITE_URL + path


def render_plain(template_name: str, context: dict) -> str:
    """Render a text template (a subject or a text body) without HTML escaping: a plain-text mail
    shows ``Tom's game``, not ``Tom&#x27;s game``. HTML parts go through ``render_to_string``,
    which escapes as usual."""
    return get_template(template_name).template.render(Context(context, autoescape=False))


def new_message_id() -> str:
    """A Message-ID for one outbox row, made when the row is queued and sent with every attempt,
    so a mail sent twice (a worker killed after the ESP accepted it) is recognisable as one."""
    domain = parseaddr(settings.DEFAULT_FROM_EMAIL)[1].rpartition("@")[2] or "hanseweb.localhost"
    return make_msgid(domain=domain)


def queue_mail(*, to: str, template: str, context: dict, user=None, kind: str | None = None,
               headers: dict | None = None) -> OutboundEmail:
    """Render ``templates/<template>_{subject.txt,body.txt,body.html}`` and queue it.

    Call inside the transaction that makes the mail true; the send task is enqueued on commit.
    """
    context = {"site_url": settings.SITE_URL, **context}
    headers = dict(headers or {})
    if user is not None:
        from hanseweb.accounts.tokens import unsubscribe_token

        url = absolute(reverse("unsubscribe", args=[unsubscribe_token(user)]))
        context.setdefault("unsubscribe_url", url)
        headers.setdefault("List-Unsubscribe", f"<{url}>")
        headers.setdefault("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
    subject = " ".join(render_plain(f"{template}_subject.txt", context).split())
    email = OutboundEmail.objects.create(
        user=user,
        to=to,
        kind=kind or template.rsplit("/", 1)[-1],
        subject=subject[:300],
        text=render_plain(f"{template}_body.txt", context),
        html=render_to_string(f"{template}_body.html", context),
        headers=headers,
        message_id=new_message_id(),
    )
    from .tasks import send_email

    transaction.on_commit(lambda: enqueue(send_email, email.pk))
    return email


def enqueue(task, *args) -> None:
    """Hand a task to the broker after commit. If the broker is down, the committed row stays
    pending and the beat's sweep hands it over later: the user's action has succeeded."""
    try:
        task.delay(*args)
    except Exception:  # noqa: BLE001 - kombu raises many kinds of connection errors
        log.warning("could not enqueue %s%r; the sweep will retry", task.name, args, exc_info=True)
