"""Phase 4 tax and toll (§11, HANSA-T-18, HANSA-D-21, HANSA-C6)."""
from .helpers import ENGINE, first_legal, give, kinds, playing, rejected, set_stalls, start_turn


def test_tax_and_toll_at_the_end_of_phase_3():  # HANSA-T-18 HANSA-11.1 HANSA-11.5
    s = playing(ship="riga", coins=[5, 3, 3])
    give(s, 0, "orange/1", "brown/2", "red/3", "green/1", "blue/2")
    s = ENGINE.apply(s, 0, "end")
    assert s["coins"][0] == 3 and s["phase"] == "discard" and ENGINE.to_act(s) == [0]
    assert "2 coins tax" in s["log"][-1]["text"]
    assert ENGINE.legal_moves(s, 0) == ["discard orange/1", "discard brown/2", "discard red/3",
                                        "discard green/1", "discard blue/2"]
    assert "discard" in rejected(s, 0, "move kalmar")
    s = ENGINE.apply(s, 0, "discard red/3")              # the player chooses, not the lowest
    assert s["active"] == 0
    s = ENGINE.apply(s, 0, "discard blue/2")
    assert kinds(s["tiles"][0]) == ["brown/2", "green/1", "orange/1"]
    assert s["active"] == 1                              # the turn is over


def test_non_active_player_keeps_payments_until_own_phase_4():  # HANSA-T-18 HANSA-11.2 HANSA-D-21 HANSA-C6
    s = playing(ship="kalmar", coins=[3, 7, 3])
    set_stalls(s, "kalmar", [0, 2, 0])
    s = ENGINE.apply(s, 0, "end")
    assert s["coins"][1] == 10                           # 7 kept, + 3 income
    if s["phase"] == "fill":
        s = ENGINE.apply(s, 1, "no fill")
    s = ENGINE.apply(s, 1, "move kopenhagen")
    assert s["coins"][1] == 9
    s = ENGINE.apply(s, 1, "end")
    assert s["coins"][1] == 3


def test_more_than_three_tiles_during_phase_3_is_fine():  # HANSA-11.2 HANSA-D-21 HANSA-C6
    s = playing(ship="danzig", coins=[6, 3, 3])
    give(s, 0, "orange/1", "brown/2", "red/3")
    s = ENGINE.apply(s, 0, first_legal(s, 0, "buy"))
    assert len(s["tiles"][0]) == 4 and s["phase"] == "actions"
    s = ENGINE.apply(s, 0, "move kalmar")
    assert len(s["tiles"][0]) == 4


def test_sold_tiles_do_not_count_toward_the_limit():  # HANSA-11.3
    s = playing(ship="danzig", coins=[3, 3, 3])
    set_stalls(s, "danzig", [1, 0, 0])
    give(s, 0, "orange/1", "orange/2", "brown/2", "red/3", "green/1")
    s = ENGINE.apply(s, 0, "sell orange/1 orange/2")
    s = ENGINE.apply(s, 0, "end")
    assert s["active"] == 1 and len(s["tiles"][0]) == 3 and len(s["sold"][0]) == 2


def test_phase_4_applies_in_final_round_turns():  # HANSA-11.4
    s = playing(ship="riga", coins=[3, 3, 5])
    s["end_triggered"], s["trigger_seat"] = True, 1
    s["active"] = 2
    give(s, 2, "orange/1", "brown/2", "red/3", "green/1")
    s = ENGINE.apply(s, 2, "end")
    assert s["coins"][2] == 3 and s["phase"] == "discard"
    s = ENGINE.apply(s, 2, "discard orange/1")
    assert s["phase"] == "over"


def test_discard_default_is_lowest_barrels_then_lowest_colour():  # HANSA-16.2 HANSA-D-17
    s = playing(ship="riga", coins=[3, 3, 3])
    give(s, 0, "red/1", "orange/2", "brown/1", "green/3", "blue/2")
    s = ENGINE.apply(s, 0, "end")
    assert ENGINE.default_move(s, 0) == "discard brown/1"
    s = ENGINE.apply(s, 0, ENGINE.default_move(s, 0))
    assert ENGINE.default_move(s, 0) == "discard red/1"


def test_coins_are_trimmed_automatically():  # HANSA-11.1
    s = start_turn(playing(coins=[3, 3, 3]), 0)
    assert s["coins"][0] == 6
    if s["phase"] == "fill":
        s = ENGINE.apply(s, 0, "no fill")
    s = ENGINE.apply(s, 0, "end")
    assert s["coins"][0] == 3
