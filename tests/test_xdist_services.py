"""Each pytest-xdist worker has its own Redis database (tests/xdist_services.py)."""
import os

from .xdist_services import worker_redis_url


def test_workers_count_down_from_the_configured_database():
    assert worker_redis_url("redis://127.0.0.1:6379/15", "gw0") == "redis://127.0.0.1:6379/15"
    assert worker_redis_url("redis://127.0.0.1:6379/15", "gw1") == "redis://127.0.0.1:6379/14"
    assert worker_redis_url("redis://:secret@10.0.0.1:6380/1", "gw2") == "redis://:secret@10.0.0.1:6380/15"
    assert worker_redis_url("redis://127.0.0.1:6379", "gw1") == "redis://127.0.0.1:6379/15"


def test_this_process_uses_its_workers_database(settings):
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    location = settings.CACHES["default"].get("LOCATION", "")
    if not location.startswith("redis://"):
        assert not os.environ.get("REDIS_URL")
        return
    assert location == os.environ["REDIS_URL"]
    if worker:
        assert location == worker_redis_url(os.environ["HANSEWEB_TEST_REDIS_BASE"], worker)
        assert settings.CELERY_BROKER_URL == location
