"""Assign (HT-7.3, HT-D-5) and Place (HT-7.4)."""
import pytest

from games.engines import IllegalMove

from .helpers import E, RED, give, legal, new, put, run


def test_assign_takes_all_when_stock_is_short():  # HT-T-3 HT-7.3
    s = give(new(), RED, stock=(2, 0))
    s = run(s, RED, "assign")
    assert s["p"][RED]["supply"] == [2, 0] and s["p"][RED]["stock"] == [0, 0] and s["used"] == 1


def test_assign_with_bursa_c_takes_everything():  # HT-T-3 HT-7.3
    s = give(new(), RED, stock=(9, 0))
    s["p"][RED]["dev"]["bursa"] = 3  # "C"
    s = run(s, RED, "assign")
    assert s["p"][RED]["supply"] == [9, 0] and s["p"][RED]["stock"] == [0, 0]


def test_assign_player_chooses_the_mix():  # HT-7.3
    s = give(new(), RED, stock=(5, 1))
    s = run(s, RED, "assign")
    assert legal(s, RED) == ["take 3t 0m", "take 2t 1m", "cancel"]
    s = run(s, RED, "take 2t 1m")
    assert s["p"][RED]["supply"] == [2, 1] and s["p"][RED]["stock"] == [3, 0]


def test_assign_not_allowed_with_empty_stock():  # HT-D-5
    s = give(new(), RED, supply=(1, 0))
    assert "assign" not in legal(s, RED)
    with pytest.raises(IllegalMove):
        E.apply(s, RED, "assign")


def test_place_next_to_other_pieces_but_not_on_occupied_or_city():  # HT-T-4 HT-7.4
    s = give(new(), RED, supply=(1, 0))
    put(s, "arnheim-duisburg", "1t")
    s = run(s, RED, "place")
    assert "on arnheim-duisburg" in legal(s, RED)
    s2 = run(s, RED, "on arnheim-duisburg")
    assert s2["spaces"]["arnheim-duisburg"] == ["1t", "0t", None]
    # a full route is no target, and cities are never targets
    t = give(new(), RED, supply=(1, 0))
    put(t, "dortmund-duisburg", "1t", "2t")
    t = run(t, RED, "place")
    assert "on dortmund-duisburg" not in legal(t, RED)
    assert not any("duisburg" == m.split()[-1] for m in legal(t, RED))


def test_place_with_merchant():  # HT-7.4 HT-0.5
    s = give(new(), RED, supply=(1, 1))
    s = run(s, RED, "place", "with merchant", "on dortmund-duisburg")
    assert s["spaces"]["dortmund-duisburg"][0] == "0m" and s["p"][RED]["supply"] == [1, 0]
