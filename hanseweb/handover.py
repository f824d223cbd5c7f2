"""Handing a Celery task to the broker after a commit, for every app: the outbox's mails, received
mail, the bots of a practice game or a resigned seat (``enqueue``).

A refused hand-over never undoes or fails the change that was committed: it is logged, the broker
is left alone for ``HANSEWEB_BROKER_RETRY_SECONDS`` (``broker``), and the beat's sweep of the
app hands the work over later (``sweep_outbox``, ``sweep_inbound``, ``sweep_bots``). With tasks
run in-process (the embedded default) a web request's tasks run after its response has gone out
(``request_started``/``request_finished``, connected by the mail app's ``ready``)."""
from __future__ import annotations

import logging
import threading
import time

from django.conf import settings

log = logging.getLogger(__name__)


class _BrokerBreaker:
    """After the broker refused a task, publishing is skipped for ``HANSEWEB_BROKER_RETRY_SECONDS``
    (the rows stay pending for the sweep): while Redis is down, a request does not wait for
    kombu's connection attempts each time it commits a mail."""

    def __init__(self):
        self.skip_until = 0.0
        self.lock = threading.Lock()

    def open(self) -> bool:
        return time.monotonic() < self.skip_until

    def failed(self) -> None:
        self.skip_until = time.monotonic() + settings.HANSEWEB_BROKER_RETRY_SECONDS


broker = _BrokerBreaker()


def enqueue(task, *args, queue: str = "", countdown: float | None = None) -> None:
    """Hand a task to the broker now (call it on commit) (to ``queue``, else the default queue;
    to be run ``countdown`` seconds later, if given).

    Published at the commit, before a web request's response is written: a web worker killed
    after the commit but before its response went out has published already, so the next
    player's turn mail does not wait for the sweep. Every task is idempotent (a sent, rendered or
    in-flight row is skipped), so a task published twice (at the commit and by the sweep) costs
    one look-up. If the broker is down, the committed row stays pending and the beat's sweep
    hands it over later: the user's action has succeeded.

    With tasks run in-process (the embedded default: no broker, nothing to lose but the process
    itself) a web request's tasks run after its response has gone out (``request_finished``), so
    the player who moved does not wait for the next player's mail to be made and sent."""
    waiting = getattr(_request, "tasks", None)
    if waiting is not None and settings.CELERY_TASK_ALWAYS_EAGER:
        waiting.append((task, args, queue, countdown))
        return
    _publish(task, args, queue, countdown)


_request = threading.local()


def request_started(**_kwargs) -> None:
    request_finished()  # anything left by a request that was never closed goes now
    _request.tasks = []


def request_finished(**_kwargs) -> None:
    """The response has gone out: run the in-process tasks its request queued."""
    tasks, _request.tasks = getattr(_request, "tasks", None) or [], None
    for task, args, queue, countdown in tasks:
        _publish(task, args, queue, countdown)


def _publish(task, args, queue: str, countdown: float | None = None) -> None:
    if broker.open():
        log.info("broker recently unreachable: %s%r left for the sweep", task.name, args)
        return
    try:
        options = {"queue": queue} if queue else {}
        if countdown is not None:
            options["countdown"] = countdown
        if options:
            task.apply_async(args, **options)
        else:
            task.delay(*args)
    except Exception:  # noqa: BLE001 - kombu raises many kinds of connection errors
        if not settings.CELERY_TASK_ALWAYS_EAGER:  # in-process, the task itself failed: not the broker
            broker.failed()
        log.warning("could not enqueue %s%r; the sweep will retry", task.name, args, exc_info=True)
