"""The Celery application. Workers: ``celery -A hanseweb worker``; beat: ``celery -A hanseweb beat``."""
import os
import sys

from celery import Celery, signals
from celery.signals import beat_init, worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hanseweb.settings")

app = Celery("hanseweb")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.task_prerun.connect
@signals.task_postrun.connect
def _task_like_a_request(sender=None, **kwargs):
    """Treat each task as Django treats a request: before and after it, drop a database connection
    that is broken or older than CONN_MAX_AGE, and have the next query check a kept one first
    (CONN_HEALTH_CHECKS). With CONN_MAX_AGE 0 this closes it, as Celery's Django fixup does when
    CELERY_DB_REUSE_MAX is unset (see hanseweb/settings.py). Eager tasks run inside the caller's
    request or transaction and are left alone."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()


@worker_init.connect
@beat_init.connect
def _refuse_without_secret_key(**kwargs):
    """No worker or beat on a missing or public secret key (mails carry signed links).

    Celery logs and swallows exceptions of signal handlers, so this exits the process itself."""
    from django.core.exceptions import ImproperlyConfigured

    from hanseweb.secret_key import refuse_without_secret_key

    try:
        refuse_without_secret_key()
    except ImproperlyConfigured as exc:
        print(f"Hanseweb refuses to start: {exc}", file=sys.stderr, flush=True)
        raise SystemExit(1) from None
