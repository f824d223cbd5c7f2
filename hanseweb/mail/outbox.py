"""Queue mail: render a subject/text/html template trio into an outbox row, send after commit."""
from __future__ import annotations

import re
from email.utils import make_msgid, parseaddr
from urllib.parse import urlsplit

from django.conf import settings
from django.db import IntegrityError, transaction
from django.template import Context
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils import translation

from hanseweb import fastsql
from hanseweb.handover import enqueue

from .models import OutboundEmail


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
    return make_msgid(domain=_mail_domain())


def _mail_domain() -> str:
    return parseaddr(settings.DEFAULT_FROM_EMAIL)[1].rpartition("@")[2] or "hanseweb.localhost"


def site_host() -> str:
    """The host of ``SITE_URL`` (no port), for identifiers such as List-Id."""
    return (urlsplit(settings.SITE_URL).hostname or "hanseweb.localhost").lower()


_ATOM = re.compile(r"[^a-z0-9-]+")
_DOT_ATOM = re.compile(r"[^a-z0-9.-]+|\.{2,}")


def list_id(key: str, name: str = "") -> str:
    """A List-Id header (RFC 2919) for the mails of one ``key`` (e.g. ``game-123``):
    ``"Name" <game-123.hanseweb.example>`` with the host of SITE_URL."""
    ident = f"<{_ATOM.sub('-', key.lower()).strip('-')}.{site_host()}>"
    name = " ".join(str(name).replace('"', "'").replace("\\", "/").split())[:80]
    return f'"{name}" {ident}' if name else ident


def thread_root(key: str) -> str:
    """The deterministic Message-ID of a conversation (e.g. ``game-123.seat-2``): the first mail
    of the thread carries it as its own Message-ID, every later one refers to it."""
    return f"<{_DOT_ATOM.sub('-', key.lower()).strip('.-')}@{_mail_domain()}>"


def queue_mail(*, to: str, template: str, context: dict, user=None, kind: str | None = None,
               headers: dict | None = None, thread: str | None = None, list_key: str | None = None,
               list_name: str = "", inline_svg: str = "", language: str | None = None,
               wanted_while: dict | None = None) -> OutboundEmail:
    """Render ``templates/<template>_{subject.txt,body.txt,body.html}`` and queue it.

    Call inside the transaction that makes the mail true; the send task is enqueued on commit.
    ``thread`` makes the mail part of one conversation in the reader's client: the first mail of
    the thread gets ``thread_root(thread)`` as its Message-ID, the later ones ``In-Reply-To`` and
    ``References`` to it. ``list_key`` adds a List-Id (``list_id(list_key, list_name)``).
    ``inline_svg``: a picture sent as an inline PNG; the HTML template shows it as
    ``<img src="{{ inline_image }}">`` (``cid:...``), converted by the worker (``images``).
    ``language``: the mail's language; by default the recipient's (``hanseweb.i18n.language_for``).
    ``wanted_while``: a ``relevance`` check the mail must pass before a retry (else it is obsolete).
    Code that builds translated text for ``context`` runs inside ``translation.override`` too.
    """
    from hanseweb.i18n import language_for

    from hanseweb.timezones import override_for

    headers = dict(headers or {})
    # in the recipient's language and time zone (dates, deadlines, time left)
    with translation.override(language or language_for(user=user, email=to)), override_for(user):
        fields = rendered_fields(template=template, context=context, user=user, headers=headers, inline_svg=inline_svg)
    if wanted_while:
        fields["wanted_while"] = wanted_while
    return _queue(to=to, user=user, kind=kind or template.rsplit("/", 1)[-1], headers=headers, thread=thread,
                  list_key=list_key, list_name=list_name, fields=fields)


def queue_rendered_later(*, to: str, kind: str, renderer: str, params: dict, user=None,
                         thread: str | None = None, list_key: str | None = None, list_name: str = "",
                         wanted_while: dict | None = None) -> OutboundEmail:
    """Queue a mail that the sending worker renders (``renderers``): the row, its Message-ID and
    threading are fixed now, in the caller's transaction, so the mail cannot be lost; the text is
    made by ``renderer(params)`` just before the first attempt to send it, in the recipient's
    language (``render_pending``)."""
    return _queue(to=to, user=user, kind=kind, headers={}, thread=thread, list_key=list_key, list_name=list_name,
                  fields={"subject": "", "text": "", "html": "", "render": {"name": renderer, "params": params},
                          "wanted_while": wanted_while})


def rendered_fields(*, template: str, context: dict, user=None, headers: dict, inline_svg: str = "") -> dict:
    """The subject, text, HTML and picture of a mail from its template trio and context; adds the
    unsubscribe headers of ``user`` to ``headers``."""
    context = {"site_url": settings.SITE_URL, **context}
    if inline_svg:
        from .images import CONTENT_ID

        context.setdefault("inline_image", f"cid:{CONTENT_ID}")
    if user is not None:
        from hanseweb.accounts.tokens import unsubscribe_token

        url = absolute(reverse("unsubscribe", args=[unsubscribe_token(user)]))
        context.setdefault("unsubscribe_url", url)
        headers.setdefault("List-Unsubscribe", f"<{url}>")
        headers.setdefault("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
    subject = " ".join(render_plain(f"{template}_subject.txt", context).split())
    return {
        "subject": subject[:300],
        "text": render_plain(f"{template}_body.txt", context),
        "html": render_to_string(f"{template}_body.html", context),
        "inline_svg": inline_svg,
    }


def render_pending(email: OutboundEmail) -> None:
    """Render a row queued by ``queue_rendered_later`` (in the sending worker's transaction) and
    keep the result in the row, so a failed send retries the same mail."""
    from . import renderers

    from hanseweb.i18n import language_for

    spec = email.render
    # in the recipient's language: the renderer's words (view text, log lines, prompt) and the templates
    from hanseweb.timezones import override_for

    with translation.override(language_for(user=email.user, email=email.to)), override_for(email.user):
        made = renderers.get(spec["name"])(dict(spec.get("params") or {}))
        extra = dict(made.get("headers") or {})
        fields = rendered_fields(template=made["template"], context=made["context"], user=email.user, headers=extra,
                                 inline_svg=made.get("inline_svg", ""))
    headers = dict(email.headers or {})
    # threading and List-Id were fixed when the row was queued; the renderer adds e.g. Reply-To
    email.headers = {**extra, **headers}
    for name, value in fields.items():
        setattr(email, name, value)
    email.render = None
    email.save(update_fields=["headers", "subject", "text", "html", "inline_svg", "render"])


def _queue(*, to, user, kind, headers, thread, list_key, list_name, fields) -> OutboundEmail:
    if list_key:
        headers.setdefault("List-Id", list_id(list_key, list_name))
    fields = dict(fields, user=user, to=to, kind=kind)
    email = None
    if thread and fastsql.can_batch():  # one statement: the thread's first mail, else a reply to it
        root = thread_root(thread)
        reply = {**headers, "In-Reply-To": root, "References": root}
        email = fastsql.insert_first(OutboundEmail(**fields, headers=headers, message_id=root), "message_id",
                                     {"headers": reply, "message_id": new_message_id()})
    elif thread:
        root = thread_root(thread)
        if not fastsql.exists(OutboundEmail, "message_id", root):
            try:
                with transaction.atomic():  # a savepoint: a concurrent first mail only costs the retry below
                    # sent at once (not batched): a clash must fail inside this savepoint
                    email = fastsql.insert(OutboundEmail(**fields, headers=headers, message_id=root), now=True)
            except IntegrityError:
                email = None
        if email is None:
            headers.update({"In-Reply-To": root, "References": root})
    if email is None:
        email = fastsql.insert(OutboundEmail(**fields, headers=headers, message_id=new_message_id()))
    from .tasks import render_email, send_email

    if fields.get("render"):  # a row to render first: rendered (on the render queue), then sent
        transaction.on_commit(lambda: enqueue(render_email, email.pk, queue=settings.HANSEWEB_RENDER_QUEUE))
    else:
        transaction.on_commit(lambda: enqueue(send_email, email.pk))
    return email
