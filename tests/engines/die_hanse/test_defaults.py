"""Timeout defaults and the pending-decision model (HANSE-14)."""
from .helpers import E, clear_sea, enter, game, hand, play, put, top, turn_of


def _setup():
    s = game(4, seed=51)
    clear_sea(s)
    turn_of(s, 0)
    return s


def test_turn_defaults():  # HANSE-14.1 HANSE-A-1
    s = _setup()
    assert E.default_move(s, 0) == "timeout"  # one step: the first ship stays where it is
    assert E.default_move(s, 1) is None
    s2 = play(s, 0, "timeout")
    assert s2["stack"][0]["done"] == [0] and s2["ships"][0]["at"] == s["ships"][0]["at"]
    s3 = play(s, 0, "sail red")
    assert E.default_move(s3, 0) == "stay red"
    put(s, 0, "canal2", 1)
    s = play(s, 0, "stay orange", "pass")
    assert E.legal_moves(s, 0) == ["sail red canal3"]
    assert E.default_move(s, 0) == "sail red canal3"
    put(s, 0, "canal2", 1)
    s4 = play(game(4, seed=51), 0, "stay red", "pass")
    assert E.default_move(s4, 0) == "stay orange"


def test_harbour_defaults():  # HANSE-14.1 HANSE-A-1 HANSE-14.8
    s = _setup()
    hand(s, 0, "hansetag", "wind 3 3", "blockade sund")
    s["_pools"]["bergen"]["fish"] = [1, 2, 3, 3]
    s = enter(s, 0, 0, "bergen")
    assert E.default_move(s, 0) == "done"
    s = play(s, 0, "trade", "trade 1 salt fish")
    assert E.default_move(s, 0) == "keep %d" % max(top(s)["draw"]["vals"])
    s = play(s, 0, E.default_move(s, 0))
    s = play(s, 0, "done")
    if top(s)["stage"] == "partner":
        s = play(s, 1, E.default_move(s, 1))
    assert E.default_move(s, 0) == "play hansetag"  # the card held longest


def test_one_decision_at_a_time_and_resume():  # HANSE-14.9 HANSE-6.3
    s = _setup()
    put(s, 3, "d1")
    s = play(s, 0, "sail orange bergen")
    assert E.to_act(s) == [0] and [f["k"] for f in s["stack"]] == ["turn", "window", "harbour"]
    while top(s)["k"] != "turn":
        seat = E.to_act(s)[0]
        assert len(E.to_act(s)) == 1
        s = play(s, seat, E.default_move(s, seat))
    assert top(s)["done"] == [3] and E.to_act(s) == [0]


def test_every_default_applies():  # HANSE-14.1 HANSE-14.3 HANSE-14.4 HANSE-14.5 HANSE-14.6 HANSE-14.7
    import random
    for n in (3, 5):
        s = game(n, seed=7)
        r = random.Random(n)
        for _ in range(600):
            if s["over"]:
                break
            seat = r.choice(E.to_act(s))
            d = E.default_move(s, seat)
            assert d is not None
            s = E.apply(s, seat, d if r.random() < 0.5 else r.choice(E.legal_moves(s, seat)))


def test_a_game_of_timeouts_ends():  # HANSE-14.1 HANSE-14.9
    s = game(3, seed=3)
    n = 0
    while not s["over"]:
        seat = E.to_act(s)[0]
        s = E.apply(s, seat, E.default_move(s, seat))
        n += 1
        assert n < 5000
    assert E.result(s)["scores"] == [3, 3, 3]  # nobody moved: only the unused special cards
