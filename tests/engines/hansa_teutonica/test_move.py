"""Move / Liber Sophiae (HT-7.6, HT-D-10)."""
from .helpers import RED, give, legal, new, put, run


def test_move_two_pieces_anywhere():  # HT-T-10 HT-7.6
    s = new()
    put(s, "arnheim-duisburg", "0t", "0m")
    put(s, "goslar-magdeburg", "1t")
    s = run(s, RED, "move", "to goslar-magdeburg")
    assert "from arnheim-duisburg trader" in legal(s, RED)
    assert not any("goslar-magdeburg" in m for m in legal(s, RED) if m.startswith("from"))  # only own pieces
    s = run(s, RED, "from arnheim-duisburg trader")
    assert s["spaces"]["goslar-magdeburg"] == ["1t", "0t"]
    s = run(s, RED, "to hamburg-stade", "from arnheim-duisburg merchant")
    assert s["spaces"]["hamburg-stade"][0] == "0m"
    assert s["step"] is None and s["used"] == 1  # 2 moves used up, one action


def test_swap_uses_both_moves():  # HT-T-10 HT-D-10
    s = new()
    put(s, "arnheim-duisburg", "0t")
    put(s, "goslar-magdeburg", "0m")
    s = run(s, RED, "move", "swap arnheim-duisburg goslar-magdeburg")
    assert s["spaces"]["arnheim-duisburg"][0] == "0m" and s["spaces"]["goslar-magdeburg"][0] == "0t"
    assert s["step"] is None and s["used"] == 1


def test_liber_three_allows_swap_plus_one_move():  # HT-T-10 HT-7.6
    s = new()
    s["p"][RED]["dev"]["liber"] = 1
    put(s, "arnheim-duisburg", "0t", "0t")
    put(s, "goslar-magdeburg", "0m")
    s = run(s, RED, "move", "swap arnheim-duisburg goslar-magdeburg")
    assert s["step"] is not None and s["step"]["left"] == 1
    assert not any(m.startswith("swap") for m in legal(s, RED))
    s = run(s, RED, "to hamburg-stade", "from arnheim-duisburg trader")
    assert s["step"] is None and s["spaces"]["hamburg-stade"][0] == "0t"


def test_move_never_uses_supply_or_cities_or_displaces():  # HT-7.6
    s = give(new(), RED, supply=(5, 1))
    assert "move" not in legal(s, RED)  # nothing on the board to move
    put(s, "dortmund-duisburg", "0t", "1t")
    s = run(s, RED, "move")
    assert all(m.split()[0] in ("to", "swap", "cancel") for m in legal(s, RED))
    assert "to dortmund-duisburg" not in legal(s, RED)  # no empty space: nobody is displaced


def test_move_may_stop_early():  # HT-7.6
    s = new()
    put(s, "arnheim-duisburg", "0t", "0t")
    s = run(s, RED, "move", "to hamburg-stade", "from arnheim-duisburg trader", "done")
    assert s["step"] is None and s["used"] == 1 and s["spaces"]["arnheim-duisburg"] == [None, "0t", None]
