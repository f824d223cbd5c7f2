"""The Celery application. Workers: ``celery -A hanseweb worker``; beat: ``celery -A hanseweb beat``."""
import os
import sys

from celery import Celery
from celery.signals import beat_init, worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hanseweb.settings")

app = Celery("hanseweb")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


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
