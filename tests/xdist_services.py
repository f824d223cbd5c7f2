"""One Redis database per pytest-xdist worker (loaded with ``-p tests.xdist_services``).

Each test empties the cache it uses (``conftest.no_throttle_state``) and the Celery tests start
workers on the broker of ``REDIS_URL``: two test processes on one Redis database would empty
each other's counts and take each other's tasks. pytest-django already gives every worker its own
test database (``test_<name>_gw0``, ``_gw1``…); this gives each its own Redis database, counting
down from the one in ``REDIS_URL`` (``/15`` → ``gw0`` 15, ``gw1`` 14). xdist sets
``PYTEST_XDIST_WORKER`` before the worker reads its configuration, so the settings (imported
later, by pytest-django) see the worker's URL. Outside xdist nothing changes."""
import os
from urllib.parse import urlsplit, urlunsplit


def worker_redis_url(url: str, worker: str) -> str:
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    index = int(worker.removeprefix("gw"))
    return urlunsplit(parts._replace(path=f"/{(base - index) % 16}"))


_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker and os.environ.get("REDIS_URL"):
    os.environ.setdefault("HANSEWEB_TEST_REDIS_BASE", os.environ["REDIS_URL"])
    os.environ["REDIS_URL"] = worker_redis_url(os.environ["HANSEWEB_TEST_REDIS_BASE"], _worker)
