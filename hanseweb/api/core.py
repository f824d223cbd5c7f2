"""The JSON API's frame (docs/api.md): token authentication, rate limits and JSON errors.

Every operation mounted on ``api`` (the game endpoints in ``hanseweb.api.games``, and any router
added later with :func:`add_router`) inherits all three:

- authentication by ``Authorization: Bearer <token>`` only (``hanseweb.api.models.ApiToken``);
  no session cookie is read, so no request can be forged from another site (no CSRF question);
- one rate per account (``HANSEWEB_RATES["api_per_user"]``), counted by django-ratelimit in
  Django's cache like every other limit of the site (``hanseweb/throttle.py``); over it: 429 with
  ``Retry-After``;
- every error as ``{"code": "...", "detail": "..."}`` with its HTTP status (400 malformed,
  401 no or bad token, 403 not your seat, 404 no such game or path, 405 no such method, 409 stale
  or not now, 413 too large, 422 not a legal move, 429 throttled).
"""
from __future__ import annotations

import functools
import math
import threading

from django.conf import settings
from django.http import Http404, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage
from ninja import NinjaAPI, Router
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError
from ninja.security import HttpBearer
from ninja.throttling import BaseThrottle

from hanseweb import throttle
from hanseweb.i18n import language_of

from .models import ApiToken


class ApiError(HttpError):
    """An error answered as ``{"code", "detail"}`` with ``status``."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(status, detail)
        self.code = code


def _usage(name: str, key: str, request=None) -> dict | None:
    """Count one request of kind ``name`` for ``key``; django-ratelimit's usage (``should_limit``,
    ``time_left`` in seconds)."""
    return get_usage(request, group=f"hanseweb.{name}", key=lambda group, req: key,
                     rate=settings.HANSEWEB_RATES[name], increment=True)


def _limited(name: str, key: str, request=None) -> int | None:
    """None while allowed; else the seconds until the count starts again (at least 1)."""
    usage = _usage(name, key, request)
    if usage is None or not usage["should_limit"]:
        return None
    return max(1, math.ceil(usage["time_left"]))


class TokenAuth(HttpBearer):
    """``Authorization: Bearer <token>``: the token's account, or 401. A request body larger than
    ``HANSEWEB_API_MAX_BODY`` is refused here, before anything reads it (413). Failed attempts
    count against the client address (``api_per_ip``)."""

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            raise ApiError(400, "malformed", _("The Content-Length header is not a number.")) from None
        if length > settings.HANSEWEB_API_MAX_BODY:
            raise ApiError(413, "too_large", _("The request body is too large: at most %(limit)d bytes.")
                           % {"limit": settings.HANSEWEB_API_MAX_BODY})
        user = super().__call__(request)
        if user is None:
            wait = _limited("api_per_ip", throttle.client_ip(request), request)
            if wait is not None:
                raise Throttled(wait)
        return user

    def authenticate(self, request, token):
        row = ApiToken.find(token)
        if row is None:
            return None
        request.api_token = row
        # the request's account is the token's (no session is read): what keys per viewer, such as
        # the cached lists (hanseweb.pagecache), sees who asks
        request.user = row.user
        # a token's answers (every ``detail``) are in its account's language, like its pages
        translation.activate(language_of(row.user))
        request.LANGUAGE_CODE = translation.get_language()
        return row.user


class PerUserThrottle(BaseThrottle):
    """``api_per_user`` requests per account, whichever of its tokens they use."""

    _local = threading.local()

    def allow_request(self, request) -> bool:
        user = getattr(request, "auth", None)
        key = f"user:{user.pk}" if user is not None else f"ip:{throttle.client_ip(request)}"
        self._local.wait = _limited("api_per_user", key, request)
        return self._local.wait is None

    def wait(self):
        return getattr(self._local, "wait", None)


def _per_ip(view):
    """The OpenAPI document and the docs page: ``api_per_ip`` per client address."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        wait = _limited("api_per_ip", throttle.client_ip(request), request)
        if wait is not None:
            return error_response(429, "throttled", _too_many(), retry_after=wait)
        return view(request, *args, **kwargs)

    return wrapped


def _too_many() -> str:
    return _("Too many requests: wait a little (see the Retry-After header) and try again.")


def error_response(status: int, code: str, detail, retry_after: int | None = None, **extra) -> JsonResponse:
    response = JsonResponse({"code": code, "detail": detail, **extra}, status=status)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


api = NinjaAPI(
    title="Hanseweb API",
    version="1",
    description=(
        "Play Hanseweb's games from a program: list your games, read your view of a game and your "
        "legal moves, submit a move, read the log. Authenticate with a token made on your profile "
        "page: `Authorization: Bearer hw_…`. Every error is a JSON object `{code, detail}`. "
        "See docs/api.md."
    ),
    urls_namespace="api-v1",
    auth=TokenAuth(),
    throttle=[PerUserThrottle()],
    docs_decorator=_per_ip,
)


# --- errors as JSON ----------------------------------------------------------------

_STATUS_CODES = {400: "malformed", 401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
                 409: "conflict", 413: "too_large", 422: "illegal", 429: "throttled"}


@api.exception_handler(HttpError)
def _http_error(request, exc: HttpError):
    status = exc.status_code
    if isinstance(exc, Throttled):
        return error_response(429, "throttled", _too_many(), retry_after=math.ceil(exc.wait) if exc.wait else None)
    if isinstance(exc, AuthenticationError):
        return error_response(401, "unauthorized", _(
            "Send a valid API token as 'Authorization: Bearer <token>' (make one on your profile page); "
            "this one is missing, unknown or revoked."))
    detail = str(exc)
    if status == 400 and detail.startswith("Cannot parse request body"):
        detail = _("The request body is not valid JSON (UTF-8).")
    return error_response(status, getattr(exc, "code", _STATUS_CODES.get(status, "error")), detail)


@api.exception_handler(ValidationError)
def _validation_error(request, exc: ValidationError):
    """Wrong types, missing or unknown fields: 400, each problem named with where it is."""
    problems = []
    for err in exc.errors:
        where = ".".join(str(part) for part in err.get("loc", ()) if part not in ("body", "payload"))
        problems.append({"field": where, "problem": str(err.get("msg", "invalid"))})
    detail = "; ".join(f"{p['field']}: {p['problem']}" if p["field"] else p["problem"] for p in problems)
    return error_response(400, "malformed", _("The request is malformed: %(problems)s.") % {"problems": detail},
                          errors=problems)


@api.exception_handler(Http404)
def _not_found(request, exc):
    return error_response(404, "not_found", str(exc) or _("Not found."))


def not_found_view(request, *args, **kwargs):
    """Any other path under /api/v1/: a JSON 404 (not the site's HTML page)."""
    return error_response(404, "not_found", _("There is no such API path; the paths are listed in /api/v1/openapi.json."))


def json_method_not_allowed(view):
    """ninja answers a method a path does not have with Django's plain-text 405: make it JSON."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        if response.status_code == 405 and not response.get("Content-Type", "").startswith("application/json"):
            allowed = response.get("Allow", "")
            answer = error_response(405, "method_not_allowed", _("This path takes only %(methods)s requests.")
                                    % {"methods": allowed or "other"})
            answer["Allow"] = allowed
            return answer
        return response

    return wrapped


def add_router(prefix: str, router: Router, **kwargs) -> None:
    """Mount ``router`` under /api/v1/``prefix`` with the API's token auth, per-account rate and
    JSON errors (the extension point for further endpoints, e.g. a game's chat:
    ``add_router("/games", chat_router)`` beside the game endpoints, using
    ``hanseweb.api.games.readable_game`` for who may read what)."""
    api.add_router(prefix, router, **kwargs)
