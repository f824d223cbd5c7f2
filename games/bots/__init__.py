"""Honest bots (issue 30; docs/bots.md). Pure Python, no Django.

A bot decides from its seat's machine view (``games.engines.sampling.bot_view``) only: where it
needs a full state it samples one consistent with that view (``sample_state``). Levels:

- ``random``: a uniformly random listed move.
- ``basic``: a one-step heuristic: every listed move applied to a sampled state, the one whose
  result the title's heuristic (``games.bots.heuristics``: points, goods, offices, income) rates
  best, ties broken at random.
- ``strong`` (``games.bots.ismcts``), within an iteration budget (by default the one its title's
  strength was measured at, ``ITERATIONS``) and a CPU-time cap: in Hansa
  and Zanzibar basic's best few moves, each played on by a cheap basic in determinizations drawn
  from the view to the end of the round (``playout_search``); in Die Hanse and Hansa Teutonica
  its best three played on to the end of the bot's own turn (in Hansa Teutonica at 2 players
  through the other seat's turn as well, ``THROUGH``), the bot by basic with its lookahead,
  in determinizations drawn from the view (``turn_search``), in Die Hanse every position rated
  with half of the leader's goods at sea against it (``ismcts.RIVAL_CARGO``). Information-Set
  Monte Carlo Tree Search (single observer; Cowling, Powley and Whitehouse 2012) with truncated
  random rollouts and the basic heuristic as the evaluation (``search``) is there for any title
  with ``budget={"method": "ismcts"}``.

Every level is deterministic for a seed: its generator is seeded from the seed and the view.
"""
from __future__ import annotations

import hashlib
import json

from games.engines import get_engine
from games.engines.rng import Rng, seed_state
from games.engines.sampling import bot_view, sample_state
from games.engines.searching import searching

from .basic import best_step

LEVELS = ("random", "basic", "strong")
DEFAULT_BUDGET = {"iterations": 400, "seconds": 1.5}
# The iterations of each title's own strong search when a decision's budget names none: the
# budget its strength was measured at (docs/bots.md, "Measured"), so the bot a player meets is the
# one measured. The full budget (400, which always runs to the CPU cap) was no stronger where it
# was compared on the same seeds (Die Hanse at 3 players, issue 30), and its decisions cost the
# worker up to the cap each and depend on the machine's speed; the cap stays as the bound.
ITERATIONS = {"hansa": 16, "zanzibar": 16, "die-hanse": 24, "hansa-teutonica": 4}


def rng_for(view: dict, seed: int) -> Rng:
    """The bot's generator for one decision: from its seed and what it sees, nothing else."""
    digest = hashlib.blake2b(json.dumps(view, sort_keys=True, separators=(",", ":")).encode(), digest_size=8)
    return Rng(seed_state(int(seed) ^ int.from_bytes(digest.digest(), "big")))


def decide(slug: str, view: dict, seat: int, level: str = "basic", seed: int = 0,
           budget: dict | None = None) -> str:
    """The move of the bot of ``level`` for ``seat`` from its machine ``view`` (``bot_view``).
    The engine searches without the checks and log texts nobody in a search uses (``searching``)."""
    with searching():
        return _decide(slug, view, seat, level, seed, budget)


def _decide(slug: str, view: dict, seat: int, level: str, seed: int, budget: dict | None) -> str:
    engine = get_engine(slug)
    rng = rng_for(view, seed)
    first = sample_state(slug, view, seat, rng)
    moves = engine.legal_moves(first, seat)  # the same in every sample: it is part of the view
    if not moves:
        raise ValueError(f"seat {seat} has nothing to decide")
    if len(moves) == 1:
        return moves[0]
    if level == "random":
        return rng.choice(moves)
    if level == "basic":
        return best_step(slug, engine, first, seat, moves, rng)
    if level == "strong":
        from .ismcts import SEARCH, playout_search, search, turn_search

        budget = strong_budget(slug, budget)
        method = budget.get("method", SEARCH.get(slug))
        if method == "ismcts":
            return search(slug, engine, view, seat, moves, rng, budget)
        if method == "turn":
            return turn_search(slug, engine, view, seat, moves, rng, budget, first=first)
        return playout_search(slug, engine, view, seat, moves, rng, budget, first=first)
    raise ValueError(f"unknown bot level {level!r}")


def strong_budget(slug: str, budget: dict | None = None) -> dict:
    """The strong level's budget for a decision in ``slug``: ``budget`` over the defaults, the
    iterations the title's own search was measured at (``ITERATIONS``) where ``budget`` names
    neither iterations nor another method."""
    from .ismcts import SEARCH

    given = budget or {}
    out = {**DEFAULT_BUDGET, **given}
    if "iterations" not in given and out.get("method", SEARCH.get(slug)) == SEARCH.get(slug) and slug in ITERATIONS:
        out["iterations"] = ITERATIONS[slug]
    return out


def choose_move(engine, state: dict, seat: int, level: str = "basic", seed: int = 0,
                budget: dict | None = None) -> str:
    """What the harness (the worker, the tournament) calls: the bot sees ``bot_view`` only."""
    return decide(engine.slug, bot_view(engine.slug, state, seat), seat, level, seed, budget)
