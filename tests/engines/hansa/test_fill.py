"""Phase 1 income and phase 2 warehouses (§8, §9, HANSA-T-02, T-11..T-14)."""
from games.engines.hansa.board import BOARD

from .helpers import (ENGINE, empty_slot, playing, rejected, set_stacks, slot_index, start_turn)


def _turn_state(coins_before=0, players=3):
    s = playing(players=players, phase="actions", coins=[coins_before] * players)
    return s


def test_income_is_automatic_every_turn():  # HANSA-8.1 HANSA-7.1
    s = _turn_state(coins_before=2)
    s = start_turn(s, 1)
    assert s["coins"][1] == 5 and s["active"] == 1
    assert "+3 coins" in s["log"][-1]["text"]


def test_example2_stack_order_during_a_fill():  # HANSA-T-02 HANSA-9.4 HANSA-3.5 HANSA-9.3
    s = _turn_state(coins_before=0)
    a, bcd, *_ = set_stacks(s, [["orange/1"], ["brown/1", "brown/2", "brown/3"], 4, 4, 4])
    empty_slot(s, "aalborg")       # fill number 2
    empty_slot(s, "stockholm")     # fill number 5
    empty_slot(s, "danzig", 1)     # fill number 7
    s = start_turn(s, 0)
    assert s["phase"] == "fill" and s["coins"][0] == 3
    assert ENGINE.legal_moves(s, 0) == ["fill", "no fill"]
    s = ENGINE.apply(s, 0, "fill")
    assert s["slots"][slot_index("aalborg")] == a[0]
    assert s["slots"][slot_index("stockholm")] == bcd[0]
    assert s["slots"][slot_index("danzig", 1)] == bcd[1]
    assert s["_stacks"][0] == [] and s["_stacks"][1] == [bcd[2]]
    assert s["coins"][0] == 2
    assert s["end_triggered"] is False
    assert s["phase"] == "actions"


def test_compulsory_fill_when_every_slot_is_empty():  # HANSA-T-11 HANSA-9.2
    s = _turn_state(coins_before=0)
    for i in range(len(s["slots"])):
        s["slots"][i] = None
    set_stacks(s, [13, 13, 13, 13, 13])
    s = start_turn(s, 0)
    assert s["phase"] == "actions"           # no fill decision was offered
    assert None not in s["slots"] and s["coins"][0] == 2
    assert "must fill" in " ".join(e["text"] for e in s["log"][-3:])
    assert "phase 2" in rejected(s, 0, "no fill")  # the fill already happened


def test_optional_fill_can_be_declined_and_not_done_later():  # HANSA-T-12 HANSA-9.8 HANSA-9.1
    s = _turn_state(coins_before=0)
    empty_slot(s, "kalmar")
    s = start_turn(s, 0)
    assert ENGINE.legal_moves(s, 0) == ["fill", "no fill"]
    s = ENGINE.apply(s, 0, "no fill")
    assert s["coins"][0] == 3 and s["slots"][slot_index("kalmar")] is None
    assert "phase 2" in rejected(s, 0, "fill")
    assert "fill" not in ENGINE.legal_moves(s, 0)


def test_no_fill_offered_when_nothing_is_empty():  # HANSA-9.1
    s = _turn_state(coins_before=0)
    s = start_turn(s, 0)
    assert s["phase"] == "actions"


def test_fill_is_all_or_nothing():  # HANSA-9.5 HANSA-9.3
    s = _turn_state(coins_before=0)
    for city in ("tonsberg", "riga", "reval", "kalmar"):
        empty_slot(s, city)
    s = start_turn(s, 0)
    assert ENGINE.legal_moves(s, 0) == ["fill", "no fill"]   # no partial choice exists
    s = ENGINE.apply(s, 0, "fill")
    assert None not in s["slots"] and s["coins"][0] == 2     # one coin however many tiles


def test_shortage_and_exhaustion():  # HANSA-T-13 HANSA-D-06 HANSA-D-07 HANSA-9.6 HANSA-9.7
    s = _turn_state(coins_before=0)
    _, _, _, _, yz = set_stacks(s, [[], [], [], [], ["red/1", "red/2"]])
    s["end_triggered"] = True            # S5 was drawn from before
    s["trigger_seat"] = 2
    # empty slots with fill numbers 3, 4, 6, 8 (Lübeck b, Kopenhagen, Kalmar, Reval)
    for city, which in (("lubeck", 1), ("kopenhagen", 0), ("kalmar", 0), ("reval", 0)):
        empty_slot(s, city, which)
    s = start_turn(s, 0)
    s = ENGINE.apply(s, 0, "fill")
    assert s["slots"][slot_index("lubeck", 1)] == yz[0]
    assert s["slots"][slot_index("kopenhagen")] == yz[1]
    assert s["slots"][slot_index("kalmar")] is None and s["slots"][slot_index("reval")] is None
    assert s["coins"][0] == 2
    assert s["trigger_seat"] == 2        # not triggered a second time
    # next: every slot empty and all stacks empty: no fill offered, nothing paid
    s["phase"] = "actions"
    for i in range(len(s["slots"])):
        s["slots"][i] = None
    s = start_turn(s, 1)
    assert s["phase"] == "actions" and s["coins"][1] == 3


def test_trigger_precision():  # HANSA-T-14 HANSA-9.9 HANSA-D-18 HANSA-12.1
    s = _turn_state(coins_before=0)
    set_stacks(s, [[], [], [], ["orange/1", "orange/2"], 10])
    empty_slot(s, "aalborg")
    empty_slot(s, "kalmar")
    s = start_turn(s, 0)
    s = ENGINE.apply(s, 0, "fill")
    assert s["_stacks"][3] == [] and s["end_triggered"] is False
    # later: a fill that takes a tile from S5 triggers the end
    s = ENGINE.apply(s, 0, "end")
    assert s["active"] == 1
    s["phase"] = "actions"
    empty_slot(s, "riga", 1)
    s = start_turn(s, 1)
    s = ENGINE.apply(s, 1, "fill")
    assert s["end_triggered"] is True and s["trigger_seat"] == 1
    assert len(s["_stacks"][4]) == 9
    assert ENGINE.view(s, None)["end_triggered"] is True


def test_fill_that_empties_s4_and_continues_into_s5_triggers():  # HANSA-12.1 HANSA-D-18
    s = _turn_state(coins_before=0)
    set_stacks(s, [[], [], [], ["orange/1"], 5])
    empty_slot(s, "aalborg")
    empty_slot(s, "kalmar")
    s = start_turn(s, 2)
    s = ENGINE.apply(s, 2, "fill")
    assert s["end_triggered"] is True and s["trigger_seat"] == 2


def test_fill_reveals_tiles_in_the_log_only_once_placed():  # HANSA-9.4 HANSA-D-15
    s = _turn_state(coins_before=0)
    ids = set_stacks(s, [["white/3", "white/2"], 2, 2, 2, 2])
    empty_slot(s, "aalborg")
    s = start_turn(s, 0)
    s = ENGINE.apply(s, 0, "fill")
    text = s["log"][-1]["text"]
    assert "the white tile with 3 barrels to Aalborg" in text and "2 barrels" not in text
    assert BOARD.tile_text(ids[0][1]) == "white/2"
