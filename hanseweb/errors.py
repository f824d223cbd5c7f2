"""The site's 500 handler: a database that does not answer (PostgreSQL restarting or stopped) is
not our bug but a moment's outage, so it answers 503 with a "back in a moment" page (no database
needed to make it: no session, no user, no base template) and ``Retry-After``; anything else is
Django's 500 page (``templates/500.html``)."""
import logging
import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.views.defaults import server_error as django_server_error

log = logging.getLogger(__name__)

RETRY_AFTER = 30


def database_unavailable(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what caused it) says the database could not be reached or was lost."""
    seen = 0
    while exc is not None and seen < 5:
        if isinstance(exc, (OperationalError, InterfaceError)):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


def server_error(request, *args, **kwargs):
    exc = sys.exc_info()[1]
    if database_unavailable(exc):
        log.warning("database unavailable, answered 503: %s", exc)
        if request.path.startswith("/healthz"):  # a middleware met the outage before the health check
            return HttpResponse("database unreachable\n", status=503, content_type="text/plain; charset=utf-8")
        html = render_to_string("503.html", {"retry_after": RETRY_AFTER})
        response = HttpResponse(html, status=503)
        response["Retry-After"] = str(RETRY_AFTER)
        response["Cache-Control"] = "no-store"
        return response
    return django_server_error(request, *args, **kwargs)
