"""Whole list pages from the cache while nothing they show has changed (issue 26).

A page (lobby, archive, player, club, league, season, feeds, API lists) is rendered once per
*version* and viewer and then served from the cache: one cache round trip, plus whatever the page
reads to know its version. A version is the page's own business, in two parts:

- ``version``: a value the view reads cheaply from the database (one indexed query at most) that
  changes whenever anything the page shows changes: e.g. the viewer's seats' move counts and
  statuses for the lobby. Exact: no write can slip past it.
- ``scopes``: names of generation counters kept in the cache and bumped (``bump``) after the
  commit of every write that changes what pages of that scope show, e.g. ``"leagues"`` for any
  change of a club, league, season, table, standing or rating. Cheap to read (they come in the
  same cache round trip as the page) but only as exact as the writes that bump them: every write
  path that changes such data must call ``bump`` (tests prove it for each fact a page shows).

The key also holds what every page shows around its content: the viewer (id, display name, staff),
the scheme, host and path with its query string, the language and the time zone. A page is kept only for a GET
that answered 200 and set no cookie, with no flash message waiting; this request's CSRF token and
CSP nonce are put into the slots the stored copy has in their place. Time-dependent text (a
deadline's time left) belongs in ``version`` (e.g. the current minute) or must not be cached.

``HANSEWEB_LIST_CACHE_SECONDS`` (default 300; 0 turns it off) bounds how long a page is kept.
The cache is used only where it is shared by every process (Redis, ``REDIS_URL``): with the
embedded default's per-process memory a bump in one process would not reach the others.
"""
from __future__ import annotations

import hashlib
import re
import time
from typing import Callable, Iterable

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.utils import timezone
from django.utils.translation import get_language

TOKEN_SLOT = "\x00csrf\x00"  # no page holds NUL
NONCE_SLOT = "\x00nonce\x00"
_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([A-Za-z0-9]+)"')
_KEPT_HEADERS_SKIP = {"set-cookie", "vary", "content-length"}


def enabled() -> bool:
    return bool(getattr(settings, "REDIS_URL", None)) and seconds() > 0


def seconds() -> int:
    return int(getattr(settings, "HANSEWEB_LIST_CACHE_SECONDS", 300))


def _gen_key(scope: str) -> str:
    return f"pagegen:{scope}"


def bump(*scopes: str) -> None:
    """Every cached page of ``scopes`` is stale once the current transaction commits (at once
    outside a transaction)."""
    if scopes:
        transaction.on_commit(lambda: _bump_now(scopes))


def _bump_now(scopes: Iterable[str]) -> None:
    for scope in scopes:
        key = _gen_key(scope)
        try:
            if cache.incr(key) is not None:
                continue
        except ValueError:  # not in the cache (evicted or never set)
            pass
        # A fresh start far from any value used before, so a page stored under an evicted
        # generation never matches again.
        cache.set(key, time.time_ns(), None)


def _generations(found: dict, scopes: tuple[str, ...]) -> tuple | None:
    gens = []
    for scope in scopes:
        value = found.get(_gen_key(scope))
        if value is None:
            return None  # unknown: the page cannot be trusted nor filed
        gens.append(value)
    return tuple(gens)


def _start_generations(scopes: tuple[str, ...]) -> None:
    for scope in scopes:
        cache.add(_gen_key(scope), time.time_ns(), None)


def page_key(request, name: str) -> str:
    user = request.user
    who = (user.pk, user.display_name, user.is_staff) if user.is_authenticated else None
    # the host and scheme too: absolute links (calendar, invitations) are made from the request
    digest = hashlib.blake2b(repr((who, request.scheme, request.get_host(), request.get_full_path(), get_language(),
                                   timezone.get_current_timezone_name())).encode(), digest_size=12).hexdigest()
    return f"listpage:1:{name}:{digest}"


def respond(request, name: str, make: Callable[[], HttpResponse], *, version=None,
            scopes: Iterable[str] = ()) -> HttpResponse:
    """The page ``name`` for this request: from the cache when it was made from the same
    ``version`` and ``scopes`` generations, else ``make()`` (filed for the next request)."""
    scopes = tuple(scopes)
    if request.method not in ("GET", "HEAD") or not enabled() or len(messages.get_messages(request)):
        return make()
    key = page_key(request, name)
    found = cache.get_many([key, *(_gen_key(s) for s in scopes)])
    gens = _generations(found, scopes)
    stamp = (version, gens)
    kept = found.get(key)
    if gens is not None and kept is not None and kept[0] == stamp:
        _stamp, status, headers, body = kept
        return _rebuild(request, status, headers, body)
    if gens is None:  # a counter not in the cache (new, evicted): start it, read what is there now
        _start_generations(scopes)
        gens = _generations(cache.get_many([_gen_key(s) for s in scopes]), scopes)
        stamp = (version, gens)
    response = make()
    if (gens is not None and response.status_code == 200 and not response.cookies
            and not getattr(response, "streaming", False)):
        headers = [(k, v) for k, v in response.items() if k.lower() not in _KEPT_HEADERS_SKIP]
        cache.set(key, (stamp, response.status_code, headers, _slots_out(request, response.content.decode())),
                  seconds())
    return response


def _slots_out(request, html: str) -> str:
    tokens = set(_TOKEN.findall(html))
    for token in tokens:
        html = html.replace(token, TOKEN_SLOT)
    nonce = getattr(request, "_csp_nonce", None)
    return html.replace(nonce, NONCE_SLOT) if nonce else html


def _rebuild(request, status: int, headers: list, body: str) -> HttpResponse:
    if TOKEN_SLOT in body:
        body = body.replace(TOKEN_SLOT, get_token(request))
    if NONCE_SLOT in body:
        body = body.replace(NONCE_SLOT, str(request.csp_nonce))
    response = HttpResponse(body, status=status)
    for k, v in headers:
        response[k] = v
    return response
