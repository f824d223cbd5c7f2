"""Django's Redis cache that degrades to "no cache" while Redis does not answer.

Redis holds nothing here that cannot be lost (deploy/README.md, "What Redis holds"): rendered page
bodies and whole pages, chat versions, derived replay snapshots, board PNGs, player records,
rate-limit counts and short locks. So when Redis is down or hangs, a page is rendered as on a cache
miss and a rate limit counts nothing (``RATELIMIT_FAIL_OPEN``): pages and moves go on. The first
failure is logged as a warning and ``status()`` says so (``/healthz``); for
``HANSEWEB_CACHE_RETRY_SECONDS`` afterwards the cache is not asked at all (no connect timeout per
request while Redis hangs), then asked again; the first answer is logged as recovery.

A read that fails answers its default (``get``: None, ``get_many``: {}), a write does nothing,
``add`` answers False (a lock is not taken), ``incr`` None.
"""
from __future__ import annotations

import logging
import socket
import threading
import time

from django.conf import settings
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

FAILURES = (RedisConnectionError, RedisTimeoutError, socket.timeout, ConnectionError, OSError)


class _Breaker:
    """Per process: when the cache last failed, and why."""

    def __init__(self):
        self.down_since: float | None = None
        self.skip_until = 0.0
        self.error = ""
        self._lock = threading.Lock()

    def open(self) -> bool:
        return time.monotonic() < self.skip_until

    def failed(self, exc: BaseException) -> None:
        with self._lock:
            first = self.down_since is None
            self.down_since = self.down_since or time.time()
            self.error = f"{type(exc).__name__}: {exc}"[:300]
            self.skip_until = time.monotonic() + getattr(settings, "HANSEWEB_CACHE_RETRY_SECONDS", 5)
        if first:
            log.warning("cache (Redis) unreachable, serving without it (no page cache, no rate-limit counts): %s",
                        self.error)

    def answered(self) -> None:
        if self.down_since is not None:
            with self._lock:
                if self.down_since is not None:
                    log.warning("cache (Redis) answers again after %.0f s", time.time() - self.down_since)
                self.down_since, self.error = None, ""


breaker = _Breaker()


def status() -> str:
    """"" while the cache answers; otherwise what is degraded and why."""
    if breaker.down_since is None:
        return ""
    return f"cache unreachable since {time.strftime('%H:%M:%S', time.gmtime(breaker.down_since))} UTC ({breaker.error})"


def _resilient(name: str, fallback):
    method = getattr(RedisCache, name)

    def call(self, *args, **kwargs):
        if breaker.open():
            return fallback(*args, **kwargs) if callable(fallback) else fallback
        try:
            result = method(self, *args, **kwargs)
        except FAILURES as exc:
            breaker.failed(exc)
            return fallback(*args, **kwargs) if callable(fallback) else fallback
        breaker.answered()
        return result

    call.__name__ = name
    call.__doc__ = method.__doc__
    return call


def _default(key, default=None, version=None):
    return default


class ResilientRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` that degrades instead of raising (above)."""

    get = _resilient("get", _default)
    get_many = _resilient("get_many", lambda *args, **kwargs: {})
    set = _resilient("set", None)
    set_many = _resilient("set_many", lambda *args, **kwargs: [])
    add = _resilient("add", False)
    touch = _resilient("touch", False)
    delete = _resilient("delete", False)
    delete_many = _resilient("delete_many", None)
    has_key = _resilient("has_key", False)
    incr = _resilient("incr", None)
    clear = _resilient("clear", None)

    def ping(self) -> bool:
        """Ask Redis now (the health check), whatever the breaker says."""
        try:
            self._cache.get_client(write=True).ping()
        except FAILURES as exc:
            breaker.failed(exc)
            return False
        breaker.answered()
        return True
