"""Timeout defaults (ZAN-17.2, ZAN-D-21)."""
from games.engines.zanzibar import ENGINE

from .helpers import game, play, scenario


def test_placement_default_highest_merchant_lowest_place():  # ZAN-D-21 ZAN-17.2
    s = game(3, start=0)
    assert ENGINE.default_move(s, 0) == "place 7"
    s = play(s, 0, "place 7")
    assert ENGINE.default_move(s, 0) == "to c1"  # lowest id in sort order
    assert ENGINE.default_move(s, 1) is None  # not seat 1's decision


def test_movement_and_assignment_defaults():  # ZAN-D-21 ZAN-17.2
    s = scenario({"green-3": "a", "red-5": "p2"}, board="fix-a")
    assert ENGINE.default_move(s, 3) == "done"  # END_MOVEMENT with no moves
    t = play(s, 3, "move 3")
    assert ENGINE.default_move(t, 3) == "cancel"
    t = play(t, 3, "to p1", "to p2")
    assert ENGINE.default_move(t, 3) == "push b"  # the lowest-id legal place
    t = play(t, 3, "push b")
    assert ENGINE.default_move(t, 3) == "stop"
    a = play(s, 3, "done")
    assert ENGINE.default_move(a, 3) == "done"  # KEEP all cards
    s = scenario({"red-2": "n2"}, players=4, active=0, hands={0: ["clove", "north"]},
                 decks={0: ["ginger", "vanilla"]})
    s = play(s, 0, "done", "score clove", "done")
    assert s["phase"] == "a5" and ENGINE.default_move(s, 0) == "keep"


def test_defaults_are_always_legal():  # ZAN-D-21
    import random
    rnd = random.Random(5)
    s = game(4, seed=9)
    for _ in range(400):
        seats = ENGINE.to_act(s)
        if not seats:
            break
        seat = rnd.choice(seats)
        d = ENGINE.default_move(s, seat)
        assert d in ENGINE.legal_moves(s, seat)
        s = play(s, seat, rnd.choice(ENGINE.legal_moves(s, seat)) if rnd.random() < 0.7 else d)
