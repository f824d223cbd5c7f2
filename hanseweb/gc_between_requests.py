"""Garbage collection between requests rather than inside them (web server processes).

CPython starts a collection whenever the tracked objects allocated since the last one, less those
freed, pass a threshold (700 by default): in the middle of whichever request happens to cross it.
A request that loads a game crosses it more often than a light one (its snapshot alone is several
hundred lists and dicts), and each page made from a game leaves cyclic garbage (the game and its
seats point at each other), so young collections of about a millisecond, and every hundredth or
so a full one of several ms, landed inside moves and pages, where the player waits.

``install`` (called by ``hanseweb.wsgi`` once the process has settled) raises the threshold well
above what one request allocates, so that inside a request a collection runs only as a backstop,
and runs the same generational schedule CPython would run after each response has gone out
(``request_finished``: a sync gunicorn worker has written the whole response by then). The work
is the same, and the same objects are collected; it moves to where no one waits for it.
"""
from __future__ import annotations

import gc

from django.core.signals import request_finished

YOUNG = 700  # CPython's first threshold: a young collection is due after this many net allocations
OLDER = 10  # collections of one generation before the next generation's (CPython's default, both)
BACKSTOP = 50_000  # the first threshold while a request runs: only an unusually big request reaches it


def install() -> None:
    gc.set_threshold(BACKSTOP, OLDER, OLDER)
    request_finished.connect(collect_due, dispatch_uid="hanseweb.gc_between_requests")


def collect_due(**_kwargs) -> int | None:
    """The collection CPython's default thresholds would have run by now, if any: the oldest
    generation that is due. Returns the generation collected (None: none was due)."""
    young, young_runs, middle_runs = gc.get_count()
    if middle_runs >= OLDER:
        generation = 2
    elif young_runs >= OLDER:
        generation = 1
    elif young >= YOUNG:
        generation = 0
    else:
        return None
    gc.collect(generation)
    return generation
