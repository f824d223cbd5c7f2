"""Rulebook example 8: a full turn, then a saving turn (HANSA-T-08 with HANSA-C4)."""
from .helpers import (ENGINE, clear_hands, empty_slot, kinds, playing, put_slot, set_stacks, set_stalls,
                      slot_index, start_turn)


def _given():
    s = playing(players=3, start=0, ship="kopenhagen", coins=[3, 0, 3])
    clear_hands(s)
    set_stalls(s, "kopenhagen", [1, 0, 2])
    set_stalls(s, "tonsberg", [2, 1, 0])
    set_stalls(s, "danzig", [3, 0, 0])               # HANSA-C4: board + supply = 15
    assert s["supply"][0] == 9
    put_slot(s, "kopenhagen", "red/3")
    put_slot(s, "tonsberg", "orange/1", 0)
    empty_slot(s, "kalmar")                           # exactly one other slot is empty
    set_stacks(s, [["brown/2", "white/1"], 8, 8, 8, 8])
    return s


def test_example8_full_turn_then_saving_turn():  # HANSA-T-08 HANSA-C4 HANSA-7.1 HANSA-D-20 HANSA-10.2a
    s = _given()
    lilac = s["coins"][2]
    s = start_turn(s, 0)
    assert s["coins"][0] == 6 and s["phase"] == "fill"
    s = ENGINE.apply(s, 0, "fill")
    assert s["coins"][0] == 5 and kinds([s["slots"][slot_index("kalmar")]]) == ["brown/2"]
    s = ENGINE.apply(s, 0, "buy red/3")
    assert s["coins"][0] == 4 and s["coins"][2] == lilac + 1
    s = ENGINE.apply(s, 0, "move tonsberg")
    s = ENGINE.apply(s, 0, "buy orange/1")
    assert s["coins"][0] == 3                         # free: Grey alone has the most stalls
    s = ENGINE.apply(s, 0, "move stockholm")
    s = ENGINE.apply(s, 0, "move reval")
    s = ENGINE.apply(s, 0, "build red/3")
    s = ENGINE.apply(s, 0, "end")
    assert s["coins"][0] == 1 and kinds(s["tiles"][0]) == ["orange/1"]
    assert s["stalls"]["reval"][0] == 3 and s["supply"][0] == 6
    assert s["ship"] == "reval" and s["coins"][2] == lilac + 1
    assert s["slots"][slot_index("kopenhagen")] is None and s["slots"][slot_index("tonsberg")] is None
    assert s["slots"].count(None) == 2
    # Yellow's turn
    assert s["active"] == 1 and s["coins"][1] == 3
    assert s["phase"] == "fill" and "no fill" in ENGINE.legal_moves(s, 1)   # offered, not compulsory
    s = ENGINE.apply(s, 1, "no fill")
    s = ENGINE.apply(s, 1, "end")
    assert s["coins"][1] == 3 and s["ship"] == "reval"
