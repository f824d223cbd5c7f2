"""A real Celery worker, started as its own process, consumes the mail task from Redis and sends
the turn mail that a committed move queued in the outbox."""
import os
import time
import uuid

import pytest
from django.db import connection

from games import services
from hanseweb.mail.models import OutboundEmail

from .celery_process import celery_worker, published_to
from .conftest import user_of

pytestmark = [
    pytest.mark.worker,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs the Redis broker (REDIS_URL)"),
]


@pytest.fixture
def worker(tmp_path, transactional_db):
    queue = f"test-{uuid.uuid4().hex[:8]}"
    with published_to(queue), celery_worker(tmp_path, consume=queue, default_queue=queue):
        yield tmp_path


def test_worker_sends_the_turn_mail_of_a_committed_move(worker, started_game):
    assert connection.vendor == "postgresql"
    game, users = started_game("hansa", 2)  # start mail: sent by the worker too
    seat = game.to_act[0]
    move = game.engine_obj.legal_moves(game.state_cache, seat)[0]
    services.submit_move(game.pk, user_of(game, seat), move, expected_seq=0)
    game.refresh_from_db()
    nxt = user_of(game, game.to_act[0])
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        pending = OutboundEmail.objects.filter(sent_at__isnull=True).count()
        if pending == 0 and OutboundEmail.objects.count() >= 2:
            break
        time.sleep(0.5)
    log = (worker / "worker.log").read_text()
    assert OutboundEmail.objects.filter(sent_at__isnull=True).count() == 0, log[-3000:]
    files = list((worker / "mail").glob("*.log"))
    text = "".join(f.read_text() for f in files)
    assert f"To: {nxt.email}" in text
    assert "Your turn in Test hansa" in text
    assert "succeeded" in log and "send_email" in log


def _wait_until_sent(count: int, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if OutboundEmail.objects.filter(sent_at__isnull=False).count() >= count:
            return
        time.sleep(0.2)
    raise AssertionError(f"fewer than {count} mails sent in {timeout} s")


def _other_backends() -> set:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid, backend_start FROM pg_stat_activity "
                       "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        return set(cursor.fetchall())


def test_the_worker_keeps_its_database_connection_between_tasks(worker, started_game):
    """Celery's Django fixup would close the connection around every task; with CONN_MAX_AGE
    (hanseweb/settings.py) the worker keeps one, health-checked, from task to task."""
    game, _ = started_game("hansa", 2)
    _wait_until_sent(1)
    time.sleep(1)  # after the task: the fixup would have closed the connection by now
    after_first = _other_backends()
    assert after_first, "the worker closed its database connection after the task"
    seat = game.to_act[0]
    services.submit_move(game.pk, user_of(game, seat), game.engine_obj.legal_moves(game.state_cache, seat)[0])
    _wait_until_sent(2)
    time.sleep(1)
    assert _other_backends() == after_first  # the same backend process: no reconnect


def test_with_a_render_queue_one_worker_makes_the_turn_mail_and_another_sends_it(tmp_path, transactional_db,
                                                                                started_game, settings):
    """deploy/: HANSEWEB_RENDER_QUEUE set in every process; a prefork-style worker on the render
    queue makes the mail (text and the board's PNG), the sending worker only sends it."""
    send_queue, render_queue = (f"test-{uuid.uuid4().hex[:8]}" for _ in range(2))
    settings.HANSEWEB_RENDER_QUEUE = render_queue
    (tmp_path / "r").mkdir()
    (tmp_path / "s").mkdir()
    with published_to(send_queue), \
            celery_worker(tmp_path / "r", consume=render_queue, default_queue=send_queue,
                          HANSEWEB_RENDER_QUEUE=render_queue), \
            celery_worker(tmp_path / "s", consume=send_queue, default_queue=send_queue,
                          HANSEWEB_RENDER_QUEUE=render_queue):
        game, users = started_game("hansa", 2)
        _wait_until_sent(OutboundEmail.objects.count())
        seat = game.to_act[0]
        move = game.engine_obj.legal_moves(game.state_cache, seat)[0]
        services.submit_move(game.pk, user_of(game, seat), move, expected_seq=0)
        game.refresh_from_db()
        turn = OutboundEmail.objects.filter(kind="your_turn").latest("pk")
        _wait_until_sent(OutboundEmail.objects.count())
    render_log, send_log = ((tmp_path / d / "worker.log").read_text() for d in ("r", "s"))
    turn.refresh_from_db()
    assert turn.sent_at is not None and turn.render is None and turn.attempts == 1
    assert f"render_email[" in render_log and "'rendered'" in render_log, render_log[-3000:]
    assert "render_email[" not in send_log and "'sent'" in send_log, send_log[-3000:]
    mailed = "".join(f.read_text() for f in (tmp_path / "s" / "mail").glob("*.log"))
    assert f"To: {user_of(game, game.to_act[0]).email}" in mailed and "Content-ID: <board@hanseweb>" in mailed
