"""Throttling against abuse (configuration: docs/configuration.md, "Abuse").

- Logins: django-axes locks out an (account, client address) pair, and separately a client
  address, for a cool-off period after too many failed logins (``AXES_*`` settings): failures
  from elsewhere never lock an account's owner out.
- Forms and mails: django-ratelimit counts in Django's cache (Redis when ``REDIS_URL`` is set,
  local memory in the embedded default) per client address, per account or per mail address;
  the rates are the ``HANSEWEB_RATES`` settings (``HANSEWEB_RATE_<NAME>=count/period``).
- Every other form of a signed-in account: its refused POSTs are counted (``RefusedPosts``);
  past ``refused_posts_per_user``, every POST of that account answers 429 until the period ends.
"""
from __future__ import annotations

import ipaddress
import logging
import threading
import time

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib import messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.shortcuts import render
from django_ratelimit.core import get_usage, is_ratelimited

log = logging.getLogger(__name__)


def client_ip(request) -> str:
    """The one client address every per-address limit of the site counts (axes' login lockout,
    django-ratelimit, the API's failed authentications, inbound webhook posts).

    It is ``REMOTE_ADDR``, or behind a reverse proxy the header that proxy sets and overwrites
    (``HANSEWEB_CLIENT_IP_HEADER``, e.g. ``X-Real-IP``); a header that does not hold one address is
    not trusted. An IPv6 address stands for its /64 network (one subscriber's prefix: a client
    that rotates through its own /64 is still one client), given as the network's first address;
    an IPv4-mapped IPv6 address is its IPv4 address."""
    value = ""
    header = getattr(settings, "HANSEWEB_CLIENT_IP_HEADER", "")
    if header:
        value = request.META.get("HTTP_" + header.upper().replace("-", "_"), "").strip()
    return _grouped(value) or _grouped(request.META.get("REMOTE_ADDR") or "") or "0.0.0.0"


def _grouped(value: str) -> str:
    """``value`` as the address that counts (IPv6: its /64), or "" if it is not one address."""
    try:
        address = ipaddress.ip_address(value.strip())
    except ValueError:
        return ""
    if address.version == 6:
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(address) >> 64 << 64, 64)).network_address)
    return str(address)


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


# --- refused POSTs -------------------------------------------------------------------------------
# A flood is made of posts that change nothing: a move that is not legal, a stale or forged form,
# the wrong seat, a form that does not validate. What an accepted post can do is bounded by the
# game and the league themselves (a move only when it is your turn; games, chat, notes, club
# invitations each have their own rate), so only refusals are counted, and a player, or a bot
# playing fast and well, is never slowed down: an accepted post costs no look-up here.


class MessageStorage(FallbackStorage):
    """Django's default message storage, noting whether the request queued an error: that is how
    this site's views say that a POST was refused (then redirect back to the page)."""

    refused = False

    def add(self, level, message, extra_tags=""):
        if level >= messages.ERROR:
            self.refused = True
        return super().add(level, message, extra_tags)


def accepted(request) -> None:
    """For a view that answers an accepted POST with a page instead of a redirect (a new API
    token, shown once): that page is not a form shown again."""
    request._hanseweb_accepted = True


def refused(request) -> None:
    """For a view that says a POST was refused other than with an error message (a refused move
    is kept in the session and shown inside "Your move"): the post counts as refused."""
    request._hanseweb_refused = True


def _refused(request, response) -> bool:
    """A POST that changed nothing: an error status, an error message queued before the
    redirect back, or its form shown again (this site answers an accepted form with a redirect,
    and a form that does not validate with the page of the form, status 200; a view that
    answers with a page says so with ``accepted``)."""
    if response.status_code >= 400 or getattr(request, "_hanseweb_refused", False):
        return True
    if getattr(getattr(request, "_messages", None), "refused", False):
        return True
    return (response.status_code == 200 and response.get("Content-Type", "").startswith("text/html")
            and not getattr(request, "_hanseweb_accepted", False))


class _Blocked:
    """This process's memory of the accounts over their limit, until when (``time.time()``):
    while it lasts their POSTs are answered without asking the cache. Another process learns of
    a block at its next refusal of that account, which the cache counts over the limit."""

    def __init__(self):
        self._until: dict[int, float] = {}
        self._lock = threading.Lock()

    def __contains__(self, user_id) -> bool:
        until = self._until.get(user_id)
        return until is not None and until > time.time()

    def add(self, user_id, until: float) -> None:
        with self._lock:
            now = time.time()
            self._until = {k: v for k, v in self._until.items() if v > now}
            self._until[user_id] = until

    def clear(self) -> None:
        with self._lock:
            self._until.clear()


blocked = _Blocked()


class RefusedPostsMiddleware:
    """Counts the refused POSTs of each signed-in account (``refused_posts_per_user``); past the
    limit, the account's POSTs answer 429 until the period ends, before their view runs. Placed
    after CsrfViewMiddleware: a forged cross-site POST is refused there and does not count
    against the account it was made to use. Anonymous POSTs (log in, sign up, password reset,
    language) have limits of their own; the API (bearer tokens) too."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user_id = getattr(request, "_hanseweb_post_user", None)
        if user_id is not None and user_id not in blocked and _refused(request, response):
            usage = get_usage(request, group="hanseweb.refused_posts", key=lambda group, r: str(user_id),
                              rate=settings.HANSEWEB_RATES["refused_posts_per_user"], increment=True)
            if usage and usage["should_limit"]:
                blocked.add(user_id, time.time() + max(1, usage["time_left"]))
                log.info("rate limit refused_posts_per_user reached for account %s", user_id)
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.method != "POST" or not request.user.is_authenticated:
            return None
        if request.user.pk in blocked:
            return too_many_requests(request)
        request._hanseweb_post_user = request.user.pk
        return None
