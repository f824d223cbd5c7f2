"""A bot's search (``games.bots``) inside ``searching()``: the engines skip the work nobody in a
search uses.

- ``apply`` takes each move as one ``legal_moves`` has just listed for that state and seat, as it
  is: it does not list the seat's moves again to read and check it (``Engine.checked``). A search
  applies only listed moves, and the move a bot finally makes goes through the write path, which
  checks it as any player's.
- Log events carry no text (``events.event``): a bot decides from its seat's view, taken before
  the search, never from the events of a state it searched.

Together 18 to 36 % of a strong decision's CPU, measured per title (docs/bots.md), for the same
decisions. A context variable: another thread (a web request of the embedded server) is never in a
search.
"""
from __future__ import annotations

import contextlib
import contextvars

SEARCHING = contextvars.ContextVar("hanseweb_engine_searching", default=False)


@contextlib.contextmanager
def searching():
    token = SEARCHING.set(True)
    try:
        yield
    finally:
        SEARCHING.reset(token)
