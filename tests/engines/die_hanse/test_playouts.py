"""Random playouts end (the shared contract test covers more seeds)."""
import pytest

from tests.engines.playout import play_random

from .helpers import E


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_game_ends(players):  # HANSE-13.2 HANSE-6.4
    state, moves = play_random(E, players, seed=900 + players)
    assert E.to_act(state) == [] and state["over"]
    assert len(moves) < 20000
    res = E.result(state)
    assert len(res["scores"]) == players


def test_opted_in_seats_playout():  # HANSE-10.4.2
    import random
    s = E.setup(4, 3, {"seats": [{"offer_special_cards": True}] * 4})
    r = random.Random(3)
    n = 0
    while not s["over"] and n < 20000:
        seat = r.choice(E.to_act(s))
        s = E.apply(s, seat, r.choice(E.legal_moves(s, seat)))
        n += 1
    assert s["over"]
