"""Random play: purity of apply along whole games, the automatic re-placement setting,
legal moves all apply (HT-14.1, HT-C4)."""
import json
import random

import pytest

from .helpers import E


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_apply_never_mutates_its_input_in_random_games(players):  # HT-14.1
    rnd = random.Random(players)
    opts = {"seats": [{"auto_replace": i % 2 == 1} for i in range(players)]}
    s = E.setup(players, 40 + players, opts)
    for _ in range(20000):
        seats = E.to_act(s)
        if not seats:
            break
        seat = rnd.choice(seats)
        legal = E.legal_moves(s, seat)
        assert legal and len(set(legal)) == len(legal)
        move = rnd.choice(legal)
        if rnd.random() < 0.3:
            before = json.dumps(s, sort_keys=True)
            nxt = E.apply(s, seat, move)
            assert json.dumps(s, sort_keys=True) == before
        else:
            nxt = E.apply(s, seat, move)
        s = nxt
    assert E.result(s) is not None


def test_every_listed_move_applies_and_defaults_are_legal():  # HT-C4 HT-14.2
    rnd = random.Random(9)
    s = E.setup(3, 9, {})
    for _ in range(600):
        seats = E.to_act(s)
        if not seats:
            break
        seat = seats[0]
        legal = E.legal_moves(s, seat)
        if rnd.random() < 0.2:
            for m in legal:
                E.apply(s, seat, m)
        d = E.default_move(s, seat)
        assert d in legal
        s = E.apply(s, seat, rnd.choice(legal))
