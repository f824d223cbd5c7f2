"""Buying goods (HANSA-10.4, HANSA-T-15, HANSA-D-23)."""
from .helpers import ENGINE, empty_slot, kinds, playing, put_slot, rejected, set_stalls, slot_index


def _buy_state(counts, coins, players=3, city="kalmar"):
    s = playing(players=players, ship=city, coins=coins)
    set_stalls(s, city, counts)
    put_slot(s, city, "orange/2")
    return s


def test_a_nobody_has_stalls_pays_the_bank():  # HANSA-T-15 HANSA-10.4c
    s = _buy_state([0, 0, 0], [3, 3, 3])
    s = ENGINE.apply(s, 0, "buy orange/2")
    assert s["coins"] == [2, 3, 3]
    assert "to the bank" in s["log"][-1]["text"]


def test_b_two_others_tie_pays_the_bank():  # HANSA-T-15 HANSA-10.4c
    s = _buy_state([2, 2, 0], [3, 3, 3])
    s["active"] = 2
    s = ENGINE.apply(s, 2, "buy orange/2")
    assert s["coins"] == [3, 3, 2]


def test_c_buyer_tied_for_most_pays_the_bank():  # HANSA-T-15 HANSA-10.4c
    s = _buy_state([2, 2, 0], [3, 3, 3])
    s = ENGINE.apply(s, 0, "buy orange/2")
    assert s["coins"] == [2, 3, 3]


def test_d_sole_majority_buys_free_even_with_no_coins():  # HANSA-T-15 HANSA-10.4c HANSA-10.4d
    s = _buy_state([3, 2, 0], [0, 3, 3])
    s = ENGINE.apply(s, 0, "buy orange/2")
    assert s["coins"] == [0, 3, 3] and kinds(s["tiles"][0]) == ["orange/2"]


def test_e_paying_without_coins_is_rejected():  # HANSA-T-15 HANSA-10.4d HANSA-14.2
    s = _buy_state([1, 3, 0], [0, 3, 3])
    assert "costs 1 coin" in rejected(s, 0, "buy orange/2")
    assert not any(m.startswith("buy") for m in ENGINE.legal_moves(s, 0))


def test_payment_goes_to_the_sole_majority_holder():  # HANSA-10.4c
    s = _buy_state([1, 3, 0], [2, 3, 3])
    s = ENGINE.apply(s, 0, "buy orange/2")
    assert s["coins"] == [1, 4, 3]


def test_f_empty_city_is_rejected():  # HANSA-T-15 HANSA-10.4a
    s = playing(ship="kalmar", coins=[3, 3, 3])
    empty_slot(s, "kalmar")
    assert "empty" in rejected(s, 0, "buy orange/2")


def test_g_second_tile_needs_a_new_visit():  # HANSA-T-15 HANSA-10.4b HANSA-10.4e
    s = playing(ship="danzig", coins=[5, 3, 3])
    put_slot(s, "danzig", "orange/1", 0)
    put_slot(s, "danzig", "brown/3", 1)
    s = ENGINE.apply(s, 0, "buy brown/3")
    assert s["slots"][slot_index("danzig", 1)] is None        # stays empty until a fill
    assert "already took an action" in rejected(s, 0, "buy orange/1")
    for city in ("kalmar", "kopenhagen", "danzig"):            # move away and come back
        s = ENGINE.apply(s, 0, "move " + city)
    s = ENGINE.apply(s, 0, "buy orange/1")
    assert kinds(s["tiles"][0]) == ["brown/3", "orange/1"]


def test_buyer_chooses_between_two_tiles():  # HANSA-D-23 HANSA-10.4b HANSA-10.4
    s = playing(ship="riga", coins=[3, 3, 3])
    put_slot(s, "riga", "orange/1", 0)
    put_slot(s, "riga", "brown/3", 1)
    buys = [m for m in ENGINE.legal_moves(s, 0) if m.startswith("buy")]
    assert buys == ["buy orange/1", "buy brown/3"]
    s = ENGINE.apply(s, 0, "buy brown/3")
    assert s["slots"][slot_index("riga", 0)] is not None and s["slots"][slot_index("riga", 1)] is None


def test_identical_tiles_offer_one_move():  # HANSA-D-23
    s = playing(ship="riga", coins=[3, 3, 3])
    put_slot(s, "riga", "orange/1", 0)
    put_slot(s, "riga", "orange/1", 1)
    assert [m for m in ENGINE.legal_moves(s, 0) if m.startswith("buy")] == ["buy orange/1"]


def test_buying_a_tile_that_is_not_there():  # HANSA-10.4a
    s = playing(ship="riga", coins=[3, 3, 3])
    put_slot(s, "riga", "orange/1", 0)
    put_slot(s, "riga", "orange/1", 1)
    assert "no white tile with 3 barrels in Riga" in rejected(s, 0, "buy white/3")
