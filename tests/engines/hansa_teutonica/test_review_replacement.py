"""Review: the displaced piece itself must be re-placed whenever a space exists (HT-7.5.3);
extras may never take the last free space away from it."""
from .helpers import E, RED, BLUE, fill, give, legal, new, put, run

R1 = "dortmund-duisburg"  # distance 1: arnheim-duisburg, dortmund-paderborn
LAST = "dortmund-paderborn"


def _one_free_space(displaced="1t", blue_stock=(2, 0), blue_supply=(0, 0)):
    s = give(new(), RED, supply=(3, 0))
    give(s, BLUE, stock=blue_stock, supply=blue_supply)
    for r in s["spaces"]:
        fill(s, r, "2t")
    put(s, R1, displaced, "2t")
    put(s, LAST, "2t", None)  # the only empty space on the board apart from the origin
    return run(s, RED, "displace", f"at {R1}", "space 1")


def test_extra_cannot_take_the_last_space_of_the_displaced_piece():  # HT-7.5.3 HT-D-9
    s = _one_free_space()
    assert E.to_act(s) == [BLUE]
    assert legal(s, BLUE) == ["pick displaced"]  # no extra before the displaced piece
    s = run(s, BLUE, "pick displaced", f"to {LAST}")
    assert s["spaces"][LAST] == ["2t", "1t", "2t"]
    assert s["p"][BLUE]["stock"] == [2, 0]  # no room left for extras: they stay in stock
    assert s["phase"] == "turn" and E.to_act(s) == [RED]


def test_merchant_cannot_be_swapped_for_an_extra_trader():  # HT-7.5.3 HT-7.5.2
    s = _one_free_space(displaced="1m", blue_stock=(3, 0))
    assert "pick trader" not in legal(s, BLUE)
    s = run(s, BLUE, "pick displaced", f"to {LAST}")
    assert s["spaces"][LAST] == ["2t", "1m", "2t"] and s["p"][BLUE]["stock"] == [3, 0]


def test_extra_first_still_allowed_with_two_free_spaces():  # HT-14.2 HT-7.5.4
    s = _one_free_space()
    s["spaces"]["arnheim-duisburg"][0] = None  # a second free space at distance 1
    assert legal(s, BLUE) == ["pick displaced", "pick trader"]
    s = run(s, BLUE, "pick trader", "to arnheim-duisburg", "pick displaced", f"to {LAST}")
    assert s["spaces"][LAST] == ["2t", "1t", "2t"] and s["spaces"]["arnheim-duisburg"][0] == "1t"
    assert s["p"][BLUE]["stock"] == [1, 0] and s["phase"] == "turn"


def test_lift_from_origin_cannot_strand_the_displaced_piece():  # HT-7.5.3 HT-C7 HT-D-7
    s = give(new(), RED, supply=(3, 0))
    for r in s["spaces"]:
        fill(s, r, "2t")
    put(s, R1, "1m", "1t")  # Blue's stock and supply are empty; a Blue trader also on the origin
    put(s, LAST, "2t", None)
    s = run(s, RED, "displace", f"at {R1}", "space 1")
    assert legal(s, BLUE) == ["pick displaced"]  # lifting from the origin frees no legal space
    s = run(s, BLUE, "pick displaced", f"to {LAST}")
    assert s["spaces"][LAST] == ["2t", "1m", "2t"] and s["phase"] == "turn"
