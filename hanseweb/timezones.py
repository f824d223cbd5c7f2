"""The reader's time zone (issue 24 item 6): deadlines, log times and the digest hour are shown
in it, on pages and in mails.

- A signed-in player: ``User.time_zone`` (the profile's setting). Empty until known: the browser's
  zone (``Intl.DateTimeFormat().resolvedOptions().timeZone``, kept by ``base.html`` in the cookie
  ``tz``) is taken as the account's on the first request that brings it — at sign-up or the
  first visit after this setting came — and can be changed on the profile page.
- A visitor: the ``tz`` cookie.
- Otherwise, and for a name that is no IANA zone: the site's ``TIME_ZONE``.
- A mail: its recipient's zone (``hanseweb.mail.outbox`` renders inside ``override_for``).
"""
from __future__ import annotations

import contextlib
import functools
import zoneinfo

from django.utils import timezone

COOKIE = "tz"


@functools.lru_cache(maxsize=1)
def names() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def valid(name) -> str:
    """``name`` when it is an IANA time zone this machine knows, else ""."""
    name = (name or "").strip()
    return name if len(name) <= 64 and name in names() else ""


@functools.lru_cache(maxsize=512)
def _zone(name: str):
    return zoneinfo.ZoneInfo(name)


def zone_of(user):
    """The zone of an account (the site's when it has none)."""
    name = valid(getattr(user, "time_zone", ""))
    return _zone(name) if name else timezone.get_default_timezone()


def override_for(user):
    """Dates rendered inside are in ``user``'s zone (no user: as they are)."""
    return timezone.override(zone_of(user)) if user is not None else contextlib.nullcontext()


class TimeZoneMiddleware:
    """After ``AuthenticationMiddleware``: activates the reader's zone for the request."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        browser = valid(request.COOKIES.get(COOKIE))
        user = getattr(request, "user", None)
        name = ""
        if user is not None and user.is_authenticated:
            name = valid(user.time_zone)
            if not name and browser:  # the first guess, from the browser: kept (the profile changes it)
                user._meta.model.objects.filter(pk=user.pk, time_zone="").update(time_zone=browser)
                user.time_zone = name = browser
        else:
            name = browser
        if name:
            timezone.activate(_zone(name))
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
