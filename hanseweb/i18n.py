"""The three languages (docs/i18n.md): which language a page or a mail is in.

- A signed-in player reads every page in the language of the account (``User.language``).
- A visitor: the language chosen with the switcher (a cookie), else the browser's
  ``Accept-Language`` (Django's ``LocaleMiddleware``), else English.
- A mail is in the language of its recipient (``hanseweb.mail.outbox.queue_mail`` and the
  code that builds a mail's context run inside ``translation.override(language_for(...))``).
"""
from __future__ import annotations

from django.conf import settings
from django.db import DatabaseError
from django.http import HttpResponseRedirect
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST
from django_ratelimit.decorators import ratelimit

CODES = tuple(code for code, _ in settings.LANGUAGES)


def supported(code) -> str | None:
    """``code`` as one of the site's languages (``de-AT`` -> ``de``), or None."""
    code = str(code or "").strip().lower()
    if code in CODES:
        return code
    base = code.split("-", 1)[0].split("_", 1)[0]
    return base if base in CODES else None


def language_of(user) -> str:
    """The language of an account's pages and mails (English when none is set)."""
    return supported(getattr(user, "language", "")) or settings.LANGUAGE_CODE


def language_for(*, user=None, email: str = "") -> str:
    """A mail's language: the recipient account's, found by ``user`` or by its address; for an
    address without an account (an invitation) the language currently active (the sender's page)."""
    if user is None and email:
        from hanseweb.accounts.models import User

        user = User.objects.filter(email__iexact=email.strip()).only("language").first()
    if user is not None:
        return language_of(user)
    return supported(translation.get_language()) or settings.LANGUAGE_CODE


class AccountLanguageMiddleware:
    """After ``AuthenticationMiddleware``: a signed-in player's pages are in the account's language
    (``LocaleMiddleware`` before it chose from the cookie and Accept-Language for visitors)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        try:
            signed_in = user is not None and user.is_authenticated
        except DatabaseError:  # the database is down: the page (e.g. /healthz's 503) says so itself
            signed_in = False
        if signed_in:
            code = language_of(user)
            translation.activate(code)
            request.LANGUAGE_CODE = code
        return self.get_response(request)


def _rate(group, request):
    return settings.HANSEWEB_RATES["set_language_per_ip"]


def _ip(group, request):
    from hanseweb.throttle import client_ip

    return client_ip(request)


@ratelimit(group="set_language", key=_ip, rate=_rate, method="POST")
@require_POST
def set_language(request):
    """The language switcher: remembers the choice in a cookie, and for a signed-in player in the
    account too. An unknown language changes nothing."""
    code = supported(request.POST.get("language"))
    target = request.POST.get("next") or request.META.get("HTTP_REFERER") or "/"
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        target = "/"
    response = HttpResponseRedirect(target)
    if getattr(request, "limited", False) or code is None:
        return response
    if request.user.is_authenticated and request.user.language != code:
        request.user.language = code
        request.user.save(update_fields=["language"])
    response.set_cookie(settings.LANGUAGE_COOKIE_NAME, code, max_age=365 * 24 * 3600,
                        samesite="Lax", secure=request.is_secure())
    return response
