"""A real Celery worker as its own process, for the tests that need one (the turn mail through
Redis, whole games by mail, a league season run by the beat's tasks)."""
import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.db import connection


@contextlib.contextmanager
def published_to(queue: str):
    """Tasks this test process queues go through Redis to ``queue`` (for a real worker to run), not
    in-process as in the other tests; as it was again on exit."""
    from hanseweb.celery import app

    old = (app.conf.task_always_eager, app.conf.task_default_queue)
    app.conf.task_always_eager, app.conf.task_default_queue = False, queue
    try:
        yield queue
    finally:
        app.conf.task_always_eager, app.conf.task_default_queue = old


@contextlib.contextmanager
def celery_worker(tmp_path, *, consume: str, default_queue: str, loglevel: str = "info", pool: str = "solo",
                  log_name: str = "worker.log", ready: bool = False, **env):
    """Start ``celery worker --pool solo`` (or ``pool`` with one process or thread) on this test's database, consuming queue ``consume``;
    what its tasks enqueue goes to ``default_queue``. Mail goes to files under ``tmp_path/mail``;
    its log is ``tmp_path/worker.log``. ``env``: more environment for the worker. Stopped on exit.
    ``ready``: return only once the worker says it is ready (needs ``loglevel`` info), for a test
    that races two workers and must not count a worker's start-up as its work."""
    db = connection.settings_dict
    environment = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "CELERY_QUEUE": default_queue,
        "HANSEWEB_EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "HANSEWEB_EMAIL_FILE_PATH": str(tmp_path / "mail"),
        # a worker refuses to start without a real key; signed reply addresses and feeds need the same
        "HANSEWEB_SECRET_KEY": settings.SECRET_KEY,
        **env,
    }
    log = open(tmp_path / log_name, "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "hanseweb", "worker", "--pool", pool, *(["--concurrency", "1"] if pool != "solo" else []), "-Q", consume,
         "--without-heartbeat", "--without-gossip", "--without-mingle", "-l", loglevel],
        cwd=Path(settings.BASE_DIR), env=environment, stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        if ready:
            _wait_ready(proc, tmp_path / log_name)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _wait_ready(proc, log_path: Path, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if " ready." in log_path.read_text(errors="replace"):
            return
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    raise AssertionError(f"the worker was not ready within {timeout} s:\n" + log_path.read_text(errors="replace")[-3000:])
