"""Health checks.

``/healthz``: is this web process serving and its database reachable? For load balancers,
container health checks and deploy scripts, and the floor of the web benchmark
(``scripts/bench_web.py``): the least a page costs here — the middleware, one
session-authenticated look-up and a tiny template. A logged-in request resolves ``request.user``
(the session row and the user row); an anonymous one runs ``SELECT 1``. 200 "ok" when the database
answered, 503 when it did not. When the cache (Redis) does not answer, the site still serves
(``hanseweb/cache.py``): 200 with "degraded: ..." saying what (Redis is pinged at most every
``PING_SECONDS`` per process; a failure seen by any request counts at once).

``/healthz/full``: for monitoring, JSON with each part — database, cache, task broker — and the
outbox: mail waiting, delayed by failed attempts, given up as failed or obsolete, possible
duplicates. 200 when everything is well, 503 (still with the JSON) when a part is down or
mail is late (the oldest mail due for longer than ``HANSEWEB_HEALTH_MAIL_LATE_MINUTES``).
"""
import logging
import time
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache

from . import cache as resilient_cache

log = logging.getLogger(__name__)

PING_SECONDS = 5.0
_last_ping = [0.0]


def cache_problem() -> str:
    """"" while the cache answers (or there is no Redis), else what is wrong."""
    ping = getattr(cache, "ping", None)
    if ping is None:  # the embedded default's local memory: always there
        return ""
    if not resilient_cache.breaker.open() and time.monotonic() - _last_ping[0] >= PING_SECONDS:
        _last_ping[0] = time.monotonic()
        ping()
    return resilient_cache.status()


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
    problem = cache_problem()
    if problem:
        return HttpResponse(f"degraded: {problem}; pages and moves are served without it\n",
                            content_type="text/plain; charset=utf-8")
    return render(request, "hanseweb/healthz.txt", {"user": request.user},
                  content_type="text/plain; charset=utf-8")


def broker_problem() -> str:
    """"" when the Celery broker accepts a connection (or tasks run in-process), else why not."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return ""
    from hanseweb.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:  # noqa: BLE001 - kombu raises many kinds
        return f"broker unreachable ({type(exc).__name__}: {exc})"[:300]
    return ""


def mail_backlog(now=None) -> dict:
    """The outbox in figures (also ``manage.py mail_status``)."""
    from django.db.models import Count, Min, Q, Sum

    from hanseweb.mail.models import OutboundEmail
    from hanseweb.mail.tasks import retry_delay

    now = now or timezone.now()
    unsent = OutboundEmail.objects.filter(sent_at__isnull=True, given_up_at__isnull=True)
    figures = unsent.aggregate(waiting=Count("pk"), delayed=Count("pk", filter=Q(attempts__gt=0)),
                               sending=Count("pk", filter=Q(sending_since__isnull=False)),
                               oldest=Min("created_at"))
    day = now - timedelta(days=1)
    gone = OutboundEmail.objects.filter(given_up_at__isnull=False).aggregate(
        failed=Count("pk", filter=Q(given_up_reason=OutboundEmail.FAILED)),
        failed_last_day=Count("pk", filter=Q(given_up_reason=OutboundEmail.FAILED, given_up_at__gte=day)),
        obsolete=Count("pk", filter=Q(given_up_reason=OutboundEmail.OBSOLETE)))
    duplicates = OutboundEmail.objects.filter(possible_duplicates__gt=0).aggregate(
        rows=Count("pk"), attempts=Sum("possible_duplicates"))
    oldest = figures.pop("oldest")
    # a mail waits a minute for its first task, then its backoff: late is longer than that
    late_after = timedelta(minutes=settings.HANSEWEB_HEALTH_MAIL_LATE_MINUTES)
    return {
        **figures, "oldest_waiting_seconds": int((now - oldest).total_seconds()) if oldest else 0,
        "late": bool(oldest) and unsent.filter(created_at__lt=now - late_after).exists(),
        **gone,
        "possible_duplicates": duplicates["rows"], "possible_duplicate_attempts": duplicates["attempts"] or 0,
        "retry_hours": settings.HANSEWEB_MAIL_RETRY_HOURS,
        "longest_wait_between_attempts_seconds": int(retry_delay(10**6).total_seconds()),
    }


@never_cache
def healthz_full(request):
    parts, problems = {}, []
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        parts["database"] = "ok"
    except DatabaseError as exc:
        parts["database"] = f"unreachable ({exc})"[:300]
        problems.append("database")
    parts["cache"] = cache_problem() or "ok"
    if parts["cache"] != "ok":
        problems.append("cache")
    parts["broker"] = broker_problem() or "ok"
    if parts["broker"] != "ok":
        problems.append("broker")
    if "database" not in problems:
        try:
            parts["mail"] = mail_backlog()
        except DatabaseError as exc:
            parts["mail"] = f"unknown ({exc})"[:300]
            problems.append("database")
        else:
            if parts["mail"]["late"]:
                problems.append("mail late")
            if parts["mail"]["failed_last_day"]:
                problems.append("mail failed")
    status = "ok" if not problems else ("down" if "database" in problems else "degraded")
    return JsonResponse({"status": status, "problems": problems, **parts}, status=200 if not problems else 503)
