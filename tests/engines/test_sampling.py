"""Determinization for the bots (games/engines/sampling.py, issue 30): every state sampled from a
seat's machine view gives that seat the same view, the same machine view and the same legal
moves, plays on under the rules, and differs from the real state where the seat cannot see."""
from __future__ import annotations

import json

import pytest

from games.engines import get_engine
from games.engines.rng import Rng
from games.engines.sampling import bot_view, sample_state

GAMES = ["hansa", "die-hanse", "zanzibar", "hansa-teutonica"]


def positions(slug, players, seed, every=29, limit=2500):
    engine = get_engine(slug)
    state, rng, k = engine.setup(players, seed, {}), Rng(seed), 0
    while engine.to_act(state) and k < limit:
        if k % every == 0:
            yield state
        seat = engine.to_act(state)[0]
        state = engine.apply(state, seat, rng.choice(engine.legal_moves(state, seat)))
        k += 1


def _without_log(view):
    return {k: v for k, v in view.items() if k != "log"}


def _hidden(state):
    return {k: v for k, v in state.items() if k.startswith("_") and k != "_rng"}


@pytest.mark.parametrize("slug", GAMES)
def test_every_sample_gives_the_seat_the_same_view(slug):  # HANSA-D-15 ZAN-C3 HT-D-4 HANSE-5.3.3
    engine = get_engine(slug)
    checked = differs = 0
    for players in sorted({engine.min_players, 3, engine.max_players}):
        for state in positions(slug, players, seed=players * 11):
            for seat in range(players):
                known = bot_view(slug, state, seat)
                assert not any(k.startswith("_") for k in known)
                for j in range(2):
                    sample = sample_state(slug, json.loads(json.dumps(known)), seat, Rng(j))
                    assert _without_log(engine.view(sample, seat)) == _without_log(engine.view(state, seat))
                    assert bot_view(slug, sample, seat) == known
                    assert engine.legal_moves(sample, seat) == engine.legal_moves(state, seat)
                    differs += _hidden(sample) != _hidden(state)
                    checked += 1
                    rng, t = Rng(j), sample
                    for _ in range(20):  # a sample plays on under the rules
                        if not engine.to_act(t):
                            break
                        mover = engine.to_act(t)[0]
                        t = engine.apply(t, mover, rng.choice(engine.legal_moves(t, mover)))
    assert checked > 50
    assert differs > checked // 2  # the hidden part is really drawn anew, not copied


@pytest.mark.parametrize("slug", GAMES)
def test_the_same_generator_gives_the_same_sample(slug):
    engine = get_engine(slug)
    state = list(positions(slug, 3, seed=5, every=40, limit=200))[-1]
    known = bot_view(slug, state, 1)
    assert sample_state(slug, known, 1, Rng(7)) == sample_state(slug, known, 1, Rng(7))
    assert engine.view(state, 1)  # the position is a real one


def test_a_machine_view_hides_other_hands_and_values():  # HANSE-5.3.3 HANSE-5.3.2
    engine = get_engine("die-hanse")
    state = list(positions("die-hanse", 4, seed=3, every=50, limit=400))[-1]
    known = bot_view("die-hanse", state, 0)
    text = json.dumps(known)
    assert "_hands" not in text and "_pools" not in text
    assert known["own_hand"] == state["_hands"][0]
    # the stern of ship 1 is seat 1's half: its values are blanked for seat 0
    assert all(v == 0 for _g, v in known["cargo"][1][0])
    # seat 0's own half keeps its values
    assert known["cargo"][0][0] == state["cargo"][0][0]
