"""Initial stall placement (§6, HANSA-T-03)."""
from .helpers import ENGINE, new, rejected


def test_example3_three_player_placement():  # HANSA-T-03 HANSA-6.1 HANSA-6.3 HANSA-6.5 HANSA-6.2
    s = new(players=3, start=0)
    s = ENGINE.apply(s, 0, "place danzig")
    s = ENGINE.apply(s, 1, "place danzig")   # other players' stalls do not matter
    s = ENGINE.apply(s, 2, "place riga")
    assert s["round"] == 2 and ENGINE.to_act(s) == [0]
    assert "already have stalls" in rejected(s, 0, "place danzig")
    assert "kopenhagen" in rejected(s, 0, "place kopenhagen").lower()
    s = ENGINE.apply(s, 0, "place lubeck")
    s = ENGINE.apply(s, 1, "place reval")
    s = ENGINE.apply(s, 2, "place kalmar")
    s = ENGINE.apply(s, 0, "place aalborg")
    s = ENGINE.apply(s, 1, "place riga")
    s = ENGINE.apply(s, 2, "place danzig")
    for p in range(3):
        cities = [c for c, v in s["stalls"].items() if v[p]]
        assert len(cities) == 3 and "kopenhagen" not in cities
        assert all(s["stalls"][c][p] == 2 for c in cities)
        assert s["supply"][p] == 9
    assert s["coins"] == [3 + 3, 3, 3]  # P1's first turn began: phase 1 income
    assert s["active"] == 0 and s["turns"] == [1, 0, 0]


def test_kopenhagen_never_offered_and_placement_compulsory():  # HANSA-6.2 HANSA-6.4
    s = new(players=4, start=2)
    legal = ENGINE.legal_moves(s, 2)
    assert "place kopenhagen" not in legal and len(legal) == 8
    assert "end" not in legal and "no fill" not in legal
    assert rejected(s, 2, "end")


def test_rounds_2_and_3_use_the_same_order():  # HANSA-6.6 HANSA-D-05
    s = new(players=3, start=1)
    order = []
    while s["phase"] == "place":
        seat = ENGINE.to_act(s)[0]
        order.append(seat)
        s = ENGINE.apply(s, seat, ENGINE.legal_moves(s, seat)[0])
    assert order == [1, 2, 0] * 3
    assert s["active"] == 1 and s["phase"] in ("fill", "actions")


def test_a_legal_city_always_exists():  # HANSA-6.4
    s = new(players=2, start=0)
    for _ in range(6):
        seat = ENGINE.to_act(s)[0]
        legal = ENGINE.legal_moves(s, seat)
        assert len(legal) >= 6
        s = ENGINE.apply(s, seat, legal[-1])


def test_kopenhagen_is_ordinary_after_placement():  # HANSA-6.2 HANSA-10.5d
    from .helpers import give, playing
    s = playing(ship="kopenhagen")
    give(s, 0, "orange/2")
    s = ENGINE.apply(s, 0, "build orange/2")
    assert s["stalls"]["kopenhagen"][0] == 2
