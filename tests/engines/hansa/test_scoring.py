"""Final scoring and ranking (§13, HANSA-T-10, HANSA-T-21)."""
from games.engines.hansa.scoring import breakdown

from .helpers import ENGINE, give, playing, set_stalls


def _over(s):
    s["phase"] = "over"
    return ENGINE.result(s)


def test_example10_city_points():  # HANSA-T-10 HANSA-13.1
    s = playing(players=3)
    set_stalls(s, "kopenhagen", [1, 2, 1])
    set_stalls(s, "kalmar", [0, 1, 0])
    b = breakdown(s)
    assert [x["cities"] for x in b] == [2, 2 + 4, 2]


def _t21():
    s = playing(players=2, coins=[0, 10])
    give(s, 0, "red/1", "green/3")
    s["sold"][0] = [t for t in give(s, 0, "blue/1", "blue/2", "blue/3")]
    s["tiles"][0] = [t for t in s["tiles"][0] if t not in s["sold"][0]]
    set_stalls(s, "danzig", [1, 1])
    set_stalls(s, "riga", [1, 1])
    set_stalls(s, "reval", [1, 0])
    give(s, 1, "white/1", "white/1", "white/1")
    s["sold"][1] = give(s, 1, "orange/3", "orange/3", "orange/3")
    s["tiles"][1] = [t for t in s["tiles"][1] if t not in s["sold"][1]]
    return s


def test_final_scoring_and_tie_break():  # HANSA-T-21 HANSA-13.1 HANSA-13.3 HANSA-D-24 HANSA-13.2 HANSA-D-12
    s = _t21()
    r = _over(s)
    assert r["breakdown"][0] == {"face-up tiles": 2, "sold tiles": 2 + 3 + 4, "cities": 2 + 2 + 4}
    assert r["scores"] == [19, 19]
    assert r["ranking"] == [1, 2]                   # A has more stalls on the board (3 vs 2)
    s = _t21()
    set_stalls(s, "danzig", [1, 2])                 # now 3 stalls each: shared win
    assert _over(s)["ranking"] == [1, 1]
    assert _over(s)["scores"] == [19, 19]           # B's 10 coins are worth nothing


def test_all_places_use_the_same_rule():  # HANSA-13.4 HANSA-D-13
    s = playing(players=4)
    set_stalls(s, "danzig", [1, 1, 2, 0])
    set_stalls(s, "riga", [0, 0, 0, 1])
    set_stalls(s, "reval", [0, 0, 0, 1])
    # scores: cities 2,2,2 and seat 3 gets 4+4 = 8 -> 8, 2, 2, 2; seat 2 has more stalls
    r = _over(s)
    assert r["scores"] == [2, 2, 2, 8]
    assert r["ranking"] == [3, 3, 2, 1]


def test_breakdown_adds_up_and_result_only_when_over():  # HANSA-13.1
    s = _t21()
    assert ENGINE.result(s) is None
    r = _over(s)
    assert [sum(b.values()) for b in r["breakdown"]] == r["scores"]
