"""The Celery application. Workers: ``celery -A hanseweb worker``; beat: ``celery -A hanseweb beat``."""
import os
import sys

from celery import Celery, signals
from celery.signals import beat_init, worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hanseweb.settings")

app = Celery("hanseweb")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


from celery import Celery, signals
from celery.signals import beat_init, worker_init
