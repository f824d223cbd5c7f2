"""``/healthz``: is this web process serving and its database reachable?

For load balancers, container health checks and deploy scripts, and the floor of the web
benchmark (``scripts/bench_web.py``): the least a page costs here — the middleware, one
session-authenticated look-up and a tiny template. A logged-in request resolves ``request.user``
(the session row and the user row); an anonymous one runs ``SELECT 1``. 200 "ok" when the database
answered, 503 when it did not.
"""
import logging

from django.db import DatabaseError, connection
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

log = logging.getLogger(__name__)


@never_cache
def healthz(request):
    try:
        if not request.user.is_authenticated:  # loads the session (and the user, if logged in)
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
    except DatabaseError as exc:
        log.warning("health check: database unreachable: %s", exc)
        return HttpResponse("database unreachable\n", status=503, content_type="text/plain; charset=utf-8")
    return render(request, "hanseweb/healthz.txt", {"user": request.user},
                  content_type="text/plain; charset=utf-8")
