"""Issue 29.4 and 29.5: a sending worker killed mid-send, against a real Celery worker, Redis and
an SMTP server. The attempt was recorded before the mail was handed over, so the row keeps the
trace; the task is given back and runs again at once (a prefork child lost: reject on worker
lost) or once the visibility timeout has passed (the whole worker process killed), without
waiting for the beat's sweep; the second attempt carries the same Message-ID and is counted as a
possible duplicate."""
import os
import signal
import subprocess
import time
import uuid

import pytest

from hanseweb.mail.models import OutboundEmail
from hanseweb.mail.outbox import queue_mail

from .celery_process import celery_worker, published_to
from .conftest import committed
from .factories import UserFactory
from .smtp_server import smtp_server

pytestmark = [
    pytest.mark.worker,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs the Redis broker (REDIS_URL)"),
]


@pytest.fixture
def queue(transactional_db):
    with published_to(f"test-{uuid.uuid4().hex[:8]}") as name:
        yield name


def _smtp_env(port: int, visibility: int = 300) -> dict:
    return {"HANSEWEB_EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "HANSEWEB_SMTP_HOST": "127.0.0.1", "HANSEWEB_SMTP_PORT": str(port), "HANSEWEB_SMTP_SECURITY": "none",
            "HANSEWEB_BROKER_VISIBILITY_TIMEOUT": str(visibility)}


def _queue_one(settings) -> OutboundEmail:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    user = UserFactory()
    with committed():
        return queue_mail(to=user.email, user=user, template="accounts/mail/confirm",
                          context={"user": user, "confirm_url": "http://x/"}, kind="confirm")


def _children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def _wait_sent(row, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        row.refresh_from_db()
        if row.sent_at is not None:
            return time.monotonic()
        time.sleep(0.2)
    raise AssertionError(f"not sent within {timeout} s: {row.attempts} attempts, {row.last_error!r}")


def test_a_render_worker_child_killed_mid_send_gives_its_task_back_at_once(queue, tmp_path, settings):
    with smtp_server(hold=60, hold_first=1) as (sink, port):
        with celery_worker(tmp_path, consume=queue, default_queue=queue, pool="prefork", **_smtp_env(port)) as worker:
            row = _queue_one(settings)
            assert sink.wait_for(1, 60), (tmp_path / "worker.log").read_text()[-3000:]
            row.refresh_from_db()
            assert row.attempts == 1 and row.sending_since is not None  # the trace, committed before sending
            (child,) = _children(worker.pid)
            os.kill(child, signal.SIGKILL)
            killed = time.monotonic()
            sent = _wait_sent(row, 30)
    assert sent - killed < 20  # given back at once: no sweep (none runs here), no visibility timeout
    assert row.attempts == 2 and row.possible_duplicates == 1
    first, second = sink.messages
    assert first["Message-ID"] == second["Message-ID"] == row.message_id


def test_a_sending_worker_killed_whole_leaves_its_task_to_the_next_after_the_visibility_timeout(
        queue, tmp_path, settings):
    with smtp_server(hold=60, hold_first=1) as (sink, port):
        env = _smtp_env(port, visibility=6)
        with celery_worker(tmp_path, consume=queue, default_queue=queue, pool="threads", **env) as worker:
            row = _queue_one(settings)
            assert sink.wait_for(1, 60), (tmp_path / "worker.log").read_text()[-3000:]
            os.kill(worker.pid, signal.SIGKILL)
            killed = time.monotonic()
            worker.wait(10)
        with celery_worker(tmp_path, consume=queue, default_queue=queue, pool="threads", log_name="second.log", **env):
            sent = _wait_sent(row, 60)
    assert 6 <= sent - killed < 30, sent - killed
    assert row.attempts == 2 and row.possible_duplicates == 1
    assert sink.messages[0]["Message-ID"] == sink.messages[1]["Message-ID"] == row.message_id
