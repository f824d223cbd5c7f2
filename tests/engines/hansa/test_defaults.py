"""Timeout defaults (HANSA-16.2, HANSA-D-17)."""
from .helpers import ENGINE, new, playing


def test_default_moves_per_decision():  # HANSA-16.2 HANSA-D-17
    s = new(players=3, start=0)
    assert ENGINE.default_move(s, 0) == "place tonsberg"        # lowest fill number
    s = ENGINE.apply(s, 0, "place tonsberg")
    s = ENGINE.apply(s, 1, "place aalborg")
    s = ENGINE.apply(s, 2, "place riga")
    assert ENGINE.default_move(s, 0) == "place aalborg"          # Tønsberg is taken by seat 0 itself
    assert ENGINE.default_move(s, 1) is None                    # not to act
    f = playing(coins=[3, 3, 3])
    f["phase"] = "fill"
    assert ENGINE.default_move(f, 0) == "no fill"
    a = playing(coins=[3, 3, 3])
    assert ENGINE.default_move(a, 0) == "end"


def test_defaults_are_always_legal():  # HANSA-D-17 HANSA-16.2 HANSA-D-11
    s = new(players=4, seed=3)
    for _ in range(3000):
        seats = ENGINE.to_act(s)
        if not seats:
            break
        seat = seats[0]
        move = ENGINE.default_move(s, seat)
        assert move in ENGINE.legal_moves(s, seat)
        s = ENGINE.apply(s, seat, move)
    # defaults never buy, so warehouses never empty and the supply is never drawn: the rules
    # have no other end condition (HANSA-D-11, an admin safety limit is outside the engine)
    assert s["phase"] != "over" and min(s["turns"]) > 100
    assert sum(len(x) for x in s["_stacks"]) == 65
