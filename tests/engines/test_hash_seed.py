"""Engines and bots give the same states, views and decisions in every process.

Python salts the hashes of strings per process (``PYTHONHASHSEED``), so the order in which a set
of names is iterated differs from one process to the next. A game's state is replayed from its
moves in the web process, the worker and the mail worker, and a bot's decision is taken in
whichever worker picks up its task: an engine or a bot that iterated such a set where the order
matters would make those processes disagree. The same fingerprint is computed here and in two
processes with other hash seeds."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from games.bots import choose_move
from games.engines import get_engine
from games.engines.rng import Rng

from .playout import canonical_json
from .test_sampling import GAMES

ROOT = Path(__file__).resolve().parents[2]
STEPS = 400  # random moves a title's fingerprint plays (a few rounds of each title at 3 players)
EVERY = 40  # a state, the views and the bots' decisions every this many moves
SMALL = {"iterations": 2, "seconds": None}


def _digest(value) -> str:
    return hashlib.sha256(canonical_json(value).encode()).hexdigest()[:16]


def fingerprint() -> dict:
    """Per title: digests of the states and of every seat's view of a random 3-player game, every
    ``EVERY`` moves, and the basic and strong bots' decisions there."""
    out = {}
    for slug in GAMES:
        engine = get_engine(slug)
        state, rng = engine.setup(3, 20261129, {}), Rng(7)
        states, views, decisions = [], [], []
        for k in range(STEPS):
            acting = engine.to_act(state)
            if not acting:
                break
            seat = acting[0]
            legal = engine.legal_moves(state, seat)
            if k % EVERY == 0:
                states.append(_digest(state))
                views.append([_digest(engine.view(state, s)) for s in range(3)])
                if len(legal) > 1:
                    decisions.append([choose_move(engine, state, seat, level, seed=k, budget=SMALL)
                                      for level in ("basic", "strong")])
            state = engine.apply(state, seat, rng.choice(legal))
        out[slug] = {"states": states, "views": views, "decisions": decisions}
    return out


def test_states_views_and_bot_decisions_do_not_depend_on_the_hash_seed():
    code = "import json; from tests.engines.test_hash_seed import fingerprint; print(json.dumps(fingerprint()))"
    runs = [subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONHASHSEED": salt}) for salt in ("1", "2")]
    here = fingerprint()
    there = []
    for run in runs:
        stdout, _ = run.communicate(timeout=600)
        assert run.returncode == 0
        there.append(json.loads(stdout))
    for slug in GAMES:
        assert len(here[slug]["states"]) >= 5, slug
        assert len(here[slug]["decisions"]) >= 3, slug
    assert there[0] == here
    assert there[1] == here
