"""The Celery application. Workers: ``celery -A hanseweb worker``; beat: ``celery -A hanseweb beat``."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hanseweb.settings")

app = Celery("hanseweb")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
