"""Determinization for honest bots (issue 30; docs/bots.md).

A bot decides from what its seat may know. Each engine package has a module ``sample.py`` with two
pure functions:

- ``bot_view(state, seat) -> dict``: the seat's view in machine form: the state with everything the
  seat may not know taken out (other seats' hands, face-down stacks and their order, hidden stone
  values, other seats' sealed answers and private settings, the generator state, the log).
  Equal ``engine.view(state, seat)`` give equal ``bot_view`` (tests/engines/test_sampling.py).
- ``sample_state(bot_view, seat, rng) -> dict``: a full state consistent with it: every sample
  gives the seat the same ``engine.view`` (but the log) and the same ``bot_view``. ``rng`` is a
  ``games.engines.rng.Rng``; the same generator state gives the same sample.

The bots (``games.bots``) see only ``bot_view`` and the states they sample from it.
"""
from __future__ import annotations

import importlib

_MODULES = {
    "hansa": "games.engines.hansa.sample",
    "die-hanse": "games.engines.die_hanse.sample",
    "zanzibar": "games.engines.zanzibar.sample",
    "hansa-teutonica": "games.engines.hansa_teutonica.sample",
}


def sampler(slug: str):
    """The sample module of a game (``bot_view``, ``sample_state``)."""
    return importlib.import_module(_MODULES[slug])


def bot_view(slug: str, state: dict, seat: int) -> dict:
    return sampler(slug).bot_view(state, seat)


def sample_state(slug: str, view: dict, seat: int, rng) -> dict:
    return sampler(slug).sample_state(view, seat, rng)


def copy(obj):
    """A deep copy of a JSON-like structure."""
    if isinstance(obj, dict):
        return {k: copy(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [copy(v) for v in obj]
    return obj


def new_rng(rng) -> int:
    """A fresh engine generator state for a sample (the real one is hidden)."""
    return rng.below(1 << 62)
