"""Garbage collection runs after a response has gone out, not inside the request (web processes)."""
import gc
import sys
import weakref

import pytest
from django.core.signals import request_finished

from hanseweb import gc_between_requests
from hanseweb.gc_between_requests import BACKSTOP, OLDER, YOUNG, collect_due

from .test_startup import GOOD_KEY, run


class Node:
    def __init__(self):
        self.me = self  # a reference cycle: only the collector frees it


@pytest.fixture
def quiet_gc():
    """No automatic collection during the test (it would move the counts under it); the
    thresholds and the signal as they were afterwards."""
    was_enabled, thresholds = gc.isenabled(), gc.get_threshold()
    gc.collect()
    gc.disable()
    yield
    request_finished.disconnect(dispatch_uid="hanseweb.gc_between_requests")
    gc.set_threshold(*thresholds)
    if was_enabled:
        gc.enable()


def test_nothing_is_collected_before_it_is_due(quiet_gc):
    cycle = weakref.ref(Node())
    assert collect_due() is None
    assert cycle() is not None


def test_the_oldest_generation_due_is_collected(quiet_gc):
    kept = [[] for _ in range(YOUNG + 100)]  # tracked objects allocated since the last collection
    cycle = weakref.ref(Node())
    assert collect_due() == 0
    assert cycle() is None and gc.get_count()[0] < YOUNG
    for _ in range(OLDER):
        gc.collect(0)
    assert collect_due() == 1
    assert gc.get_count()[1] == 0
    for _ in range(OLDER):
        gc.collect(1)
    assert collect_due() == 2
    assert gc.get_count()[2] == 0
    del kept


@pytest.mark.django_db
def test_a_request_leaves_its_garbage_to_after_the_response(quiet_gc, client):
    events = []

    def collecting(phase, _info):
        if phase == "start":
            events.append("collection")

    request_finished.connect(lambda **_: events.append("response done"), weak=False, dispatch_uid="test-done")
    gc.callbacks.append(collecting)
    try:
        gc_between_requests.install()  # its receiver runs after the one above
        gc.enable()
        assert gc.get_threshold()[0] == BACKSTOP
        cycle = weakref.ref(Node())
        kept = [[] for _ in range(YOUNG + 100)]  # past the young threshold, far below the backstop
        assert cycle() is not None and events == []  # no collection ran on the way
        assert client.get("/healthz").status_code == 200
        assert events == ["response done", "collection"]  # none inside the request
        assert cycle() is None and gc.get_count()[0] < YOUNG
        del kept
    finally:
        gc.callbacks.remove(collecting)
        request_finished.disconnect(dispatch_uid="test-done")


def test_the_web_server_process_collects_between_requests(tmp_path):
    done = run([sys.executable, "-c", "import gc, hanseweb.wsgi; print(gc.get_threshold()[0], gc.get_freeze_count() > 0)"],
               tmp_path, HANSEWEB_SECRET_KEY=GOOD_KEY)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(BACKSTOP), "True"]

