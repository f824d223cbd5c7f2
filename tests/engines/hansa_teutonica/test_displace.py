"""Displace (HT-7.5) and the victim's re-placement (HT-14.2, HT-C4, HT-C7)."""
import pytest

from games.engines import IllegalMove

from .helpers import E, RED, BLUE, fill, give, legal, new, put, run

R1 = "dortmund-duisburg"  # distance 1: arnheim-duisburg, dortmund-paderborn
D1 = ["arnheim-duisburg", "dortmund-paderborn"]
D2 = ["arnheim-kampen", "arnheim-munster", "hildesheim-paderborn", "minden-paderborn", "paderborn-warburg"]


def _displaced_trader():
    s = give(new(), RED, supply=(2, 0))
    give(s, BLUE, stock=(3, 0))
    put(s, R1, None, "1t")
    return run(s, RED, "displace", f"at {R1}")


def test_displace_trader_costs_one_and_victim_decides():  # HT-T-5 HT-7.5 HT-7.5.1 HT-7.5.2 HT-A-2 HT-14.2
    s = _displaced_trader()
    assert s["spaces"][R1] == [None, "0t"]
    assert s["p"][RED]["supply"] == [0, 0] and s["p"][RED]["stock"] == [1, 0]
    assert E.to_act(s) == [BLUE]
    assert legal(s, BLUE) == ["pick displaced", "pick trader"]
    s = run(s, BLUE, "pick displaced")
    assert sorted(m.split()[1] for m in legal(s, BLUE)) == sorted(D1)


def test_pieces_may_go_beyond_either_end_city():  # HT-T-6 HT-7.5.4
    s = _displaced_trader()
    s = run(s, BLUE, "pick displaced", "to dortmund-paderborn", "pick trader", "to arnheim-duisburg")
    assert s["spaces"]["dortmund-paderborn"][0] == "1t" and s["spaces"]["arnheim-duisburg"][0] == "1t"
    assert s["p"][BLUE]["stock"] == [2, 0]
    assert E.to_act(s) == [RED] and s["phase"] == "turn"


def test_distance_two_only_when_distance_one_is_full():  # HT-T-7 HT-7.5.4
    s = _displaced_trader()
    for r in D1:
        fill(s, r, "2t")
    s = run(s, BLUE, "pick displaced")
    assert sorted(m.split()[1] for m in legal(s, BLUE)) == sorted(D2)
    # exactly one free space at distance 1: the first piece must take it, the next may go further
    s = _displaced_trader()
    fill(s, D1[0], "2t")
    put(s, D1[1], "2t", "2t", None)
    s = run(s, BLUE, "pick trader")
    assert legal(s, BLUE) == [f"to {D1[1]}"]
    s = run(s, BLUE, f"to {D1[1]}", "pick displaced")
    assert sorted(m.split()[1] for m in legal(s, BLUE)) == sorted(D2)


def test_displace_merchant_costs_two_and_allows_two_extras():  # HT-T-8 HT-7.5.2 HT-7.5.3
    s = give(new(), RED, supply=(3, 0))
    give(s, BLUE, stock=(3, 0))
    put(s, R1, "1m", None)
    s = run(s, RED, "displace", f"at {R1}")
    assert s["spaces"][R1][0] == "0t"  # a trader may replace a merchant
    assert s["p"][RED]["stock"] == [2, 0] and s["p"][RED]["supply"] == [0, 0]
    s = run(s, BLUE, "pick displaced", "to arnheim-duisburg", "pick trader", "to arnheim-duisburg",
            "pick trader", "to arnheim-duisburg")
    assert s["spaces"]["arnheim-duisburg"] == ["1m", "1t", "1t"]
    assert s["phase"] == "turn"


def test_cannot_displace_without_enough_supply():  # HT-T-8 HT-7.5.2
    s = give(new(), RED, supply=(1, 0))
    put(s, R1, "1t", None)
    assert "displace" not in legal(s, RED)
    s = give(new(), RED, supply=(2, 0))
    put(s, R1, "1m", None)
    assert "displace" not in legal(s, RED)
    with pytest.raises(IllegalMove):
        E.apply(s, RED, "displace")


def test_payer_chooses_payment_types():  # HT-D-6 HT-7.5.2
    s = give(new(), RED, supply=(2, 1))
    put(s, R1, "1t", None)
    s = run(s, RED, "displace", f"at {R1}")
    opts = legal(s, RED)
    assert "with trader pay 1t 0m" in opts and "with trader pay 0t 1m" in opts and "with merchant pay 1t 0m" in opts
    s = run(s, RED, "with merchant pay 1t 0m")
    assert s["spaces"][R1][0] == "0m" and s["p"][RED]["stock"] == [1, 0] and s["p"][RED]["supply"] == [1, 0]


def test_only_other_players_pieces_on_routes_are_targets():  # HT-7.5.1
    s = give(new(), RED, supply=(3, 0))
    put(s, R1, "0t", None)
    assert "displace" not in legal(s, RED)
    s["houses"]["Duisburg"][0] = BLUE  # a Kontor is never a target
    assert "displace" not in legal(s, RED)


def test_extras_from_supply_then_board_when_stock_empty():  # HT-T-9 HT-7.5.3 HT-D-7 HT-C7
    s = give(new(), RED, supply=(3, 0))
    give(s, BLUE, supply=(1, 0))
    put(s, R1, "1m", None)
    put(s, "goslar-magdeburg", "1t", "1t")  # Blue's pieces elsewhere ("R5")
    s = run(s, RED, "displace", f"at {R1}")
    assert "done" not in legal(s, BLUE)  # the displaced merchant may not be kept back
    s = run(s, BLUE, "pick displaced", "to arnheim-duisburg")
    assert legal(s, BLUE) == ["pick trader", "done"]  # supply, since the stock is empty
    s = run(s, BLUE, "pick trader", "to arnheim-duisburg")
    assert s["p"][BLUE]["supply"] == [0, 0]
    opts = legal(s, BLUE)
    assert "lift goslar-magdeburg trader" in opts and "done" in opts
    s = run(s, BLUE, "lift goslar-magdeburg trader")
    assert s["spaces"]["goslar-magdeburg"] == [None, "1t"]  # lifted first: its space is empty now
    s = run(s, BLUE, "to arnheim-duisburg")
    assert s["spaces"]["arnheim-duisburg"] == ["1m", "1t", "1t"]
    assert s["phase"] == "turn"


def test_victim_may_take_no_extras():  # HT-T-9 HT-7.5.3
    s = give(new(), RED, supply=(3, 0))
    give(s, BLUE, stock=(5, 0))
    put(s, R1, "1m", None)
    s = run(s, RED, "displace", f"at {R1}", )
    s = run(s, BLUE, "pick displaced", "to dortmund-paderborn", "done")
    assert s["p"][BLUE]["stock"] == [5, 0] and s["phase"] == "turn"


def test_origin_route_is_never_a_target():  # HT-D-8
    s = _displaced_trader()
    s = run(s, BLUE, "pick displaced")
    assert f"to {R1}" not in legal(s, BLUE)


def test_no_space_anywhere_sends_displaced_piece_to_stock():  # HT-D-9
    s = give(new(), RED, supply=(2, 0))
    for r in s["spaces"]:
        fill(s, r, "2t")
    put(s, R1, "1t", "2t")
    s = run(s, RED, "displace", f"at {R1}")
    assert legal(s, RED) == ["space 1", "space 2", "cancel"]
    s = run(s, RED, "space 1")
    assert s["phase"] == "turn" and s["p"][BLUE]["stock"] == [1, 0]


def test_replacement_never_establishes():  # HT-7.5.5
    s = _displaced_trader()
    put(s, "arnheim-duisburg", "1t", "1t", None)
    s = run(s, BLUE, "pick displaced", "to arnheim-duisburg", "done")
    assert s["spaces"]["arnheim-duisburg"] == ["1t", "1t", "1t"]
    assert s["p"][BLUE]["pp"] == 0 and E.to_act(s) == [RED]
    assert "establish arnheim-duisburg" not in legal(s, RED)


def test_default_replacement_uses_stock_only():  # HT-14.2 HT-C4
    s = give(new(), RED, supply=(3, 0))
    give(s, BLUE, stock=(1, 1), supply=(4, 0))
    put(s, R1, "1m", None)
    s = run(s, RED, "displace", f"at {R1}")
    seq = []
    while E.to_act(s) == [BLUE]:
        m = E.default_move(s, BLUE)
        seq.append(m)
        s = E.apply(s, BLUE, m)
    assert seq == ["pick displaced", "to arnheim-duisburg", "pick trader", "to arnheim-duisburg",
                   "pick merchant", "to arnheim-duisburg"]
    assert s["p"][BLUE]["supply"] == [4, 0]


def test_automatic_replacement_setting():  # HT-C4 HT-14.2
    opts = {"seats": [{}, {"auto_replace": True}, {}]}
    s = give(new(options=opts), RED, supply=(2, 0))
    give(s, BLUE, stock=(2, 0))
    put(s, R1, "1t", None)
    s = run(s, RED, "displace", f"at {R1}")
    assert E.to_act(s) == [RED]
    assert s["spaces"]["arnheim-duisburg"][:2] == ["1t", "1t"]
    assert E.seat_option_specs[0]["default"] is False
