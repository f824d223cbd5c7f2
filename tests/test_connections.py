"""Persistent database connections (hanseweb/settings.py): kept 60 s and health-checked on
PostgreSQL, closed after every request on SQLite; HANSEWEB_DB_CONN_MAX_AGE overrides. Workers are
told not to close theirs around every task (CELERY_DB_REUSE_MAX) unless the age is 0."""
import json
import os
import subprocess
import sys

import pytest
from django.conf import settings

PRINT = ("import json, django; django.setup(); from django.conf import settings as s; "
         "d = s.DATABASES['default']; "
         "print(json.dumps([d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'], s.CELERY_DB_REUSE_MAX]))")


def _settings(**env):
    clean = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "HANSEWEB_DB_CONN_MAX_AGE",
                                                                 "HANSEWEB_REQUIRE_SERVICES")}
    env = {**clean, "DJANGO_SETTINGS_MODULE": "hanseweb.settings", **env}
    out = subprocess.run([sys.executable, "-c", PRINT], env=env, cwd=settings.BASE_DIR,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.parametrize("env, expected", [
    ({"DATABASE_URL": "postgres://u@db:5432/x"}, [60, True, 1_000_000]),
    ({"DATABASE_URL": "postgres://u@db:5432/x", "HANSEWEB_DB_CONN_MAX_AGE": "300"}, [300, True, 1_000_000]),
    ({"DATABASE_URL": "postgres://u@db:5432/x", "HANSEWEB_DB_CONN_MAX_AGE": "0"}, [0, False, None]),
    ({}, [0, False, None]),  # embedded SQLite
])
def test_connection_age_defaults_and_override(env, expected):
    assert _settings(**env) == expected


def test_eager_tasks_leave_the_callers_connection_alone(monkeypatch):
    """Eager tasks run inside the caller's transaction: the per-task connection rule skips them."""
    from hanseweb import celery as celery_module

    calls = []
    monkeypatch.setattr("django.db.close_old_connections", lambda: calls.append(1))

    class Sender:
        class request:
            is_eager = True

    celery_module._task_like_a_request(sender=Sender)
    assert calls == []
    Sender.request.is_eager = False
    celery_module._task_like_a_request(sender=Sender)
    assert calls == [1]
