"""Throttling against abuse (configuration: docs/configuration.md, "Abuse").

- Logins: django-axes locks an account, and separately a client address, out for a cool-off
  period after too many failed logins (``AXES_*`` settings).
- Forms and mails: django-ratelimit counts in Django's cache (Redis when ``REDIS_URL`` is set,
  local memory in the embedded default) per client address, per account or per mail address;
  the rates are the ``HANSEWEB_RATES`` settings (``HANSEWEB_RATE_<NAME>=count/period``).
"""
from __future__ import annotations

import ipaddress
import logging

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.shortcuts import render
from django_ratelimit.core import is_ratelimited

log = logging.getLogger(__name__)


def client_ip(request) -> str:
    """The client's address: ``REMOTE_ADDR``, or behind a reverse proxy the header that proxy
    sets and overwrites (``HANSEWEB_CLIENT_IP_HEADER``, e.g. ``X-Real-IP``). A header that does
    not hold one address is not trusted."""
    header = getattr(settings, "HANSEWEB_CLIENT_IP_HEADER", "")
    if header:
        value = request.META.get("HTTP_" + header.upper().replace("-", "_"), "").strip()
        try:
            return str(ipaddress.ip_address(value))
        except ValueError:
            pass
    return request.META.get("REMOTE_ADDR") or "0.0.0.0"


def login_username(request, credentials=None) -> str:
    """The account a login attempt is for, as axes counts it: the address, lower case, so that
    ``Alice@Example.com`` and ``alice@example.com`` are one account."""
    credentials = credentials or {}
    value = credentials.get("username") or credentials.get("email")
    if value is None and request is not None:
        value = request.POST.get("username", "")
    return str(value or "").strip().lower()


class LoginLockoutBackend(AxesStandaloneBackend):
    """axes' lockout check, first in AUTHENTICATION_BACKENDS. Every login through a page passes
    the request; a call without one (Django's test client ``login()``, a shell) has no client to
    count and goes on to the next backend."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def rate(name: str):
    """A django-ratelimit ``rate`` that reads ``HANSEWEB_RATES[name]`` when it is used."""

    def current(group, request):
        return settings.HANSEWEB_RATES[name]

    current.__name__ = f"rate_{name}"
    return current


def allowed(name: str, value: str) -> bool:
    """Count one event of kind ``name`` for ``value`` (an address, an account); False once
    ``HANSEWEB_RATES[name]`` is exceeded. For limits outside a request (mails, workers)."""
    value = str(value or "").strip().lower()
    limited = is_ratelimited(None, group=f"hanseweb.{name}", key=lambda group, request: value,
                             rate=settings.HANSEWEB_RATES[name], increment=True)
    if limited:
        log.info("rate limit %s reached for %s", name, value)
    return not limited


def post_email(group, request) -> str:
    """django-ratelimit key: the address typed into a form."""
    return request.POST.get("email", "").strip().lower()


def too_many_requests(request, exception=None):
    """What a rate-limited request gets (RATELIMIT_VIEW)."""
    return render(request, "429.html", status=429)
