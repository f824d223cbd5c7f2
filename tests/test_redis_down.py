"""Issue 29.2: a site that survives Redis. With the cache (and rate-limit store) not answering,
pages and moves go on without it ("no cache", "no count"), the failure is logged, and the health
checks say what is degraded; with the broker down, a move still succeeds and its mail waits in
the outbox for the sweep. The fault is real: Redis URLs pointing at a closed local port."""
import contextlib
import logging
import socket
import time

import pytest
from django.core.cache import caches
from django.test import Client

from hanseweb import cache as resilient
from hanseweb import handover
from hanseweb.mail.models import OutboundEmail

from .conftest import act, user_of


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def redis_down(settings):
    """The site's own cache configuration (hanseweb/settings.py), pointed at a port nobody listens on."""
    url = f"redis://127.0.0.1:{_closed_port()}/0"
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": url}}
    _reset()
    yield url
    _reset()


def _reset():
    resilient.breaker.down_since, resilient.breaker.skip_until, resilient.breaker.error = None, 0.0, ""
    handover.broker.skip_until = 0.0
    from hanseweb import health

    health._last_ping[0] = 0.0


@contextlib.contextmanager
def broker_down(settings):
    """Tasks published through the broker (not in-process), to a Redis URL on a closed port; the
    connection and producer pools made before are dropped, and again when it is back."""
    from hanseweb import celery_app

    old = (celery_app.conf.broker_url, celery_app.conf.task_always_eager, settings.CELERY_TASK_ALWAYS_EAGER)

    def drop_pools():
        celery_app._pool = None
        celery_app.amqp._producer_pool = None
        _reset()

    settings.CELERY_TASK_ALWAYS_EAGER = celery_app.conf.task_always_eager = False
    celery_app.conf.broker_url = f"redis://127.0.0.1:{_closed_port()}/0"
    drop_pools()
    try:
        yield
    finally:
        celery_app.conf.broker_url, celery_app.conf.task_always_eager, settings.CELERY_TASK_ALWAYS_EAGER = old
        drop_pools()


def _player(game, seat):
    client = Client()
    client.force_login(user_of(game, seat))
    return client


@pytest.mark.django_db
def test_game_pages_moves_and_refusals_go_on_without_the_cache(started_game, redis_down, caplog):
    game, users = started_game("hansa", 3)
    seat = game.to_act[0]
    client = _player(game, seat)
    with caplog.at_level(logging.WARNING, logger="hanseweb.cache"):
        page = client.get(f"/games/{game.pk}/")
    assert page.status_code == 200 and b"<svg" in page.content
    assert any("cache (Redis) unreachable" in r.getMessage() for r in caplog.records)  # logged
    assert resilient.status().startswith("cache unreachable")
    # a refused POST is counted in the rate-limit store: "no count", no error
    refused = client.post(f"/games/{game.pk}/move/", {"move": "no such move", "seq": game.move_count})
    assert refused.status_code == 302
    move = game.engine_obj.legal_moves(game.state_cache, seat)[0]
    accepted = client.post(f"/games/{game.pk}/move/", {"move": move, "seq": game.move_count})
    assert accepted.status_code == 302
    game.refresh_from_db()
    assert game.move_count == 1
    assert client.get(f"/games/{game.pk}/").status_code == 200
    assert Client().get(f"/games/{game.pk}/").status_code == 200  # a spectator
    for path in ["/", f"/games/{game.pk}/log/", f"/games/{game.pk}/replay/?at=1"]:
        assert client.get(path).status_code == 200, path


@pytest.mark.django_db
def test_health_says_degraded_while_the_cache_is_down_and_ok_once_it_answers(redis_down, settings):
    response = Client().get("/healthz")
    assert response.status_code == 200  # the site serves: a load balancer keeps it
    assert response.content.startswith(b"degraded: cache unreachable")
    full = Client().get("/healthz/full")
    assert full.status_code == 503
    body = full.json()
    assert body["status"] == "degraded" and "cache" in body["problems"] and body["database"] == "ok"
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": settings.REDIS_URL}}  # back
    resilient.breaker.skip_until = 0.0
    from hanseweb import health

    health._last_ping[0] = 0.0
    assert Client().get("/healthz").content == b"ok\n"


@pytest.mark.django_db
def test_a_hanging_cache_costs_one_timeout_then_is_left_alone(settings, started_game):
    """A Redis that accepts connections but never answers (a stopped process): each call waits at
    most the socket timeout, and for HANSEWEB_CACHE_RETRY_SECONDS after a failure the cache is
    not asked at all."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    try:
        settings.CACHES = {"default": {**settings.CACHES["default"],
                                       "LOCATION": f"redis://127.0.0.1:{listener.getsockname()[1]}/0",
                                       "OPTIONS": {"socket_connect_timeout": 0.3, "socket_timeout": 0.3}}}
        _reset()
        game, users = started_game("hansa", 3)
        client = _player(game, game.to_act[0])
        started = time.monotonic()
        assert client.get(f"/games/{game.pk}/").status_code == 200
        first = time.monotonic() - started
        started = time.monotonic()
        for _ in range(3):
            assert client.get(f"/games/{game.pk}/").status_code == 200
        later = (time.monotonic() - started) / 3
        assert first < 3 and later < 0.3, (first, later)
    finally:
        listener.close()
        _reset()


@pytest.mark.django_db
def test_a_move_with_the_broker_down_succeeds_and_its_mail_waits_for_the_sweep(started_game, settings):
    game, users = started_game("hansa", 3)
    with broker_down(settings):
        seat = game.to_act[0]
        started = time.monotonic()
        act(game, seat, game.engine_obj.legal_moves(game.state_cache, seat)[0])
        first = time.monotonic() - started
        game.refresh_from_db()
        seat = game.to_act[0]
        started = time.monotonic()
        act(game, seat, game.engine_obj.legal_moves(game.state_cache, seat)[0])
        second = time.monotonic() - started
        game.refresh_from_db()
        assert game.move_count == 2
        assert first < 5 and second < 0.5, (first, second)  # then publishing is skipped for a while
        assert OutboundEmail.objects.filter(kind="your_turn", sent_at__isnull=True).exists()
        body = Client().get("/healthz/full").json()
        assert "broker" in body["problems"] and body["broker"].startswith("broker unreachable")
