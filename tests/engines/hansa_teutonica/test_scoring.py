"""Final scoring (HT-12)."""
from games.engines.hansa_teutonica.scoring import breakdown, marker_points, result

from .helpers import E, RED, BLUE, GREEN, kontor, new


def test_final_scoring_example():  # HT-T-21 HT-12.1 HT-D-20
    s = new()
    p = s["p"][RED]
    p["pp"] = 14
    p["dev"].update({"actiones": 5, "bursa": 3, "clavis": 4})
    p["markers"] = [["plus3", True, False]] * 5
    s["coellen"][1] = RED
    kontor(s, "Arnheim", RED, RED)
    kontor(s, "Duisburg", RED)
    kontor(s, "Dortmund", RED, RED)
    b = breakdown(s, RED)
    assert b == {"prestige track": 14, "abilities": 8, "bonus markers": 6, "coellen": 8,
                 "cities controlled": 6, "network": 20}
    assert sum(b.values()) == 62


def test_all_four_abilities_give_sixteen():  # HT-12.1 HT-D-20
    s = new()
    s["p"][RED]["dev"].update({"actiones": 5, "bursa": 3, "clavis": 4, "privilegium": 3, "liber": 3})
    assert breakdown(s, RED)["abilities"] == 16


def test_marker_table():  # HT-T-26 HT-12.1
    assert [marker_points(n) for n in (0, 1, 3, 5, 7, 9, 12)] == [0, 1, 3, 6, 10, 15, 21]
    assert [marker_points(n) for n in (2, 4, 6, 8, 10)] == [3, 6, 10, 15, 21]


def test_drawn_but_unclaimed_markers_do_not_count():  # HT-12.1
    s = new()
    s["_drawn"] = ["plus3"]
    s["p"][RED]["drawn"] = 1
    assert breakdown(s, RED)["bonus markers"] == 0


def test_shared_victory():  # HT-T-28 HT-12.2
    s = new()
    s["phase"] = "over"
    s["p"][RED]["pp"] = 71
    s["p"][BLUE]["pp"] = 71
    s["p"][GREEN]["pp"] = 3
    r = result(s)
    assert r["scores"][:2] == [71, 71] and r["ranking"] == [1, 1, 3]
    assert E.result(new()) is None
