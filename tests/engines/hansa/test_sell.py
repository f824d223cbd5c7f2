"""Selling goods and the losses it causes (HANSA-10.6, T-07, T-17, T-22)."""
from games.engines.hansa.scoring import breakdown

from .helpers import ENGINE, all_tiles_accounted, give, kinds, playing, rejected, set_stalls


def _example7():
    s = playing(ship="danzig", coins=[2, 3, 3])
    set_stalls(s, "danzig", [4, 0, 0])
    give(s, 0, "orange/1", "orange/2", "orange/3", "brown/2", "brown/3")
    s["yellow_ids"] = give(s, 1, "orange/1", "orange/3", "brown/2")
    s["lilac_ids"] = give(s, 2, "brown/1")
    return s


def test_example7_sale_and_losses():  # HANSA-T-07 HANSA-10.6b HANSA-10.6b.3 HANSA-D-10 HANSA-10.6
    s = _example7()
    s = ENGINE.apply(s, 0, "sell orange/1 orange/2 orange/3")
    s = ENGINE.apply(s, 0, "sell brown/2 brown/3")
    assert kinds(s["sold"][0]) == ["brown/2", "brown/3", "orange/1", "orange/2", "orange/3"]
    assert breakdown(s)[0]["sold tiles"] == 16
    assert s["tiles"][0] == [] and s["stalls"]["danzig"][0] == 3 and s["supply"][0] == 12
    assert s["coins"] == [2, 3, 3]                  # HANSA-10.6b step 4: no coins change hands
    assert kinds(s["tiles"][1]) == ["orange/3"]
    assert s["tiles"][2] == []
    y_orange1, y_orange3, y_brown2 = s["yellow_ids"]
    assert y_orange1 in s["removed"] and y_brown2 in s["removed"] and y_orange3 not in s["removed"]
    assert s["lilac_ids"][0] in s["removed"]
    assert all_tiles_accounted(s)


def test_example7_negative_variants():  # HANSA-T-07 HANSA-10.6a
    s = _example7()
    assert "one colour per step" in rejected(s, 0, "sell orange/1 orange/2 brown/2")
    s2 = ENGINE.apply(s, 0, "sell orange/1 orange/2")
    assert "at least 2 tiles" in rejected(s2, 0, "sell brown/2")
    # the same sale where Grey has no stall
    s["ship"] = "riga"
    assert "no stall in Riga" in rejected(s, 0, "sell orange/1 orange/2")
    assert not any(m.startswith("sell") for m in ENGINE.legal_moves(s, 0))


def test_sale_returns_exactly_one_stall_however_many_colours():  # HANSA-10.6b
    s = _example7()
    s = ENGINE.apply(s, 0, "sell brown/2 brown/3")
    assert s["stalls"]["danzig"][0] == 3
    s = ENGINE.apply(s, 0, "sell orange/1 orange/3")
    assert s["stalls"]["danzig"][0] == 3 and s["supply"][0] == 12
    give(s, 0, "brown/1", "brown/1")
    assert "already sold brown" in rejected(s, 0, "sell brown/1 brown/1")
    assert not any(m.startswith("sell") for m in ENGINE.legal_moves(s, 0))   # orange/2 alone
    # the sale is one action: no buy/build on this visit
    assert not any(m.startswith(("buy", "build")) for m in ENGINE.legal_moves(s, 0))


def test_sale_closes_when_the_ship_moves():  # HANSA-10.6a HANSA-10.1c
    s = playing(ship="danzig", coins=[3, 3, 3])
    set_stalls(s, "danzig", [1, 0, 0])
    set_stalls(s, "kalmar", [1, 0, 0])
    give(s, 0, "orange/1", "orange/2", "brown/1", "brown/2")
    s = ENGINE.apply(s, 0, "sell orange/1 orange/2")
    assert "sell brown/1 brown/2" in ENGINE.legal_moves(s, 0)   # still the same sale
    s = ENGINE.apply(s, 0, "move kalmar")
    s = ENGINE.apply(s, 0, "sell brown/1 brown/2")           # a new sale: another stall back
    assert s["stalls"]["kalmar"][0] == 0 and s["supply"][0] == 15


def test_seller_chooses_which_tiles_and_may_keep_some():  # HANSA-D-22 HANSA-10.6a HANSA-10.6c
    s = playing(ship="danzig", coins=[3, 3, 3])
    set_stalls(s, "danzig", [1, 0, 0])
    give(s, 0, "orange/1", "orange/2", "orange/3")
    sells = sorted(m for m in ENGINE.legal_moves(s, 0) if m.startswith("sell"))
    assert sells == ["sell orange/1 orange/2", "sell orange/1 orange/2 orange/3", "sell orange/1 orange/3",
                     "sell orange/2 orange/3"]
    s = ENGINE.apply(s, 0, "sell orange/3 orange/1")
    assert kinds(s["tiles"][0]) == ["orange/2"] and kinds(s["sold"][0]) == ["orange/1", "orange/3"]


def test_sale_removes_the_last_stall():  # HANSA-T-17 HANSA-10.6b
    s = playing(ship="danzig", coins=[3, 3, 3])
    set_stalls(s, "danzig", [1, 2, 0])
    give(s, 0, "red/1", "red/2", "white/1", "white/2")
    s = ENGINE.apply(s, 0, "sell red/1 red/2")
    assert s["stalls"]["danzig"][0] == 0
    for city in ("kalmar", "kopenhagen", "danzig"):
        s = ENGINE.apply(s, 0, "move " + city)
    assert "no stall in Danzig" in rejected(s, 0, "sell white/1 white/2")
    assert breakdown(s)[1]["cities"] == 4                   # seat 1 now has the monopoly there


def test_loss_edge_cases():  # HANSA-T-22 HANSA-10.6c HANSA-10.6b.3
    for ask in (False, True):
        s = playing(ship="danzig", coins=[3, 3, 3], ask=[ask] * 3)
        set_stalls(s, "danzig", [1, 0, 0])
        give(s, 0, "orange/1", "orange/2", "orange/3")
        give(s, 1, "brown/1")
        give(s, 2, "orange/2", "orange/2")
        s = ENGINE.apply(s, 0, "sell orange/1 orange/2")
        assert kinds(s["tiles"][0]) == ["orange/3"]
        assert kinds(s["tiles"][1]) == ["brown/1"]
        assert kinds(s["tiles"][2]) == ["orange/2"]
        assert ENGINE.to_act(s) == [0]                       # no real choice: resolved automatically


def test_one_loss_per_colour_however_many_sold():  # HANSA-10.6b.3
    s = playing(ship="danzig", coins=[3, 3, 3])
    set_stalls(s, "danzig", [1, 0, 0])
    give(s, 0, "green/1", "green/2", "green/3", "green/3")
    give(s, 1, "green/1", "green/2", "green/3")
    s = ENGINE.apply(s, 0, "sell green/1 green/2 green/3 green/3")
    assert kinds(s["tiles"][1]) == ["green/2", "green/3"]
