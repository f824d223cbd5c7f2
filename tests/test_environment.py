"""The suite runs against the real services of the machine, never a silent SQLite fallback."""
import os

import pytest
import redis
from django.conf import settings
from django.db import connection

pytestmark = pytest.mark.skipif(not os.environ.get("HANSEWEB_REQUIRE_SERVICES"), reason="services not required in this run")


@pytest.mark.django_db
def test_database_is_postgresql():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("select 1")
        assert cursor.fetchone() == (1,)


def test_redis_answers():
    client = redis.Redis.from_url(settings.REDIS_URL)
    assert client.ping() is True


def test_mail_goes_to_the_anymail_test_backend(settings):
    assert settings.EMAIL_BACKEND == "anymail.backends.test.EmailBackend"
