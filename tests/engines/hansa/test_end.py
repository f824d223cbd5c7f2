"""End of the game (§12, HANSA-T-09)."""
from .helpers import ENGINE, first_legal, empty_slot, playing, set_stacks, start_turn


def _t09(trigger_seat):
    s = playing(players=3, start=0, coins=[0, 0, 0])
    ids = set_stacks(s, [[], [], [], ["white/2"], 10])
    for city in ("aalborg", "kalmar", "reval"):
        empty_slot(s, city)
    s = start_turn(s, trigger_seat)
    s = ENGINE.apply(s, trigger_seat, "fill")
    return s, ids


def _finish_turn(s, seat):
    assert s["active"] == seat and s["phase"] != "over"
    if s["phase"] == "fill":
        s = ENGINE.apply(s, seat, "no fill")
    return ENGINE.apply(s, seat, "end")


def test_example9_end_with_three_players():  # HANSA-T-09 HANSA-12.2 HANSA-12.1
    s, ids = _t09(1)
    s["turns"] = [2, 2, 1]                          # P1 already played this round, P2 is playing
    x, s5 = ids[3][0], ids[4]
    assert [s["slots"][i] for i in (2, 7, 10)] == [x, s5[0], s5[1]]
    assert s["end_triggered"] and s["trigger_seat"] == 1
    s = ENGINE.apply(s, 1, "end")                   # P2 completes phases 3-4
    s = _finish_turn(s, 2)                           # P3 plays a complete turn
    assert s["phase"] == "over" and ENGINE.to_act(s) == []
    assert s["turns"] == [2, 2, 2]                  # everyone had the same number of turns
    assert ENGINE.result(s) is not None


def test_equal_turns_for_everyone():  # HANSA-12.2
    s = playing(players=3, start=1, coins=[3, 3, 3])
    s["turns"] = [0, 0, 0]
    s = start_turn(s, 1)
    seen = []
    while s["phase"] != "over":
        seat = s["active"]
        seen.append(seat)
        if len(seen) == 5:
            s["end_triggered"], s["trigger_seat"] = True, seat
        s = _finish_turn(s, seat)
    assert seen == [1, 2, 0, 1, 2, 0]               # the last player in turn order is seat 0
    assert s["turns"] == [2, 2, 2]


def test_variant_last_player_triggers():  # HANSA-T-09 HANSA-12.2
    s, _ = _t09(2)
    s = ENGINE.apply(s, 2, "end")
    assert s["phase"] == "over"


def test_variant_start_player_triggers():  # HANSA-T-09 HANSA-12.2 HANSA-12.3
    s, _ = _t09(0)
    s = ENGINE.apply(s, 0, "end")
    s = _finish_turn(s, 1)
    s = _finish_turn(s, 2)
    assert s["phase"] == "over"


def test_final_round_fills_still_allowed():  # HANSA-12.3
    s, _ = _t09(0)
    s = ENGINE.apply(s, 0, first_legal(s, 0, "buy"))
    s = ENGINE.apply(s, 0, "end")
    assert s["active"] == 1 and s["phase"] == "fill"
    s = ENGINE.apply(s, 1, "fill")
    assert None not in s["slots"] and s["trigger_seat"] == 0


def test_no_other_end_condition():  # HANSA-12.4 HANSA-D-11
    s = playing(players=2, start=0, coins=[3, 3])
    s["turns"] = [500, 500]
    s = ENGINE.apply(s, 0, "end")
    s = _finish_turn(s, 1)
    assert s["phase"] != "over" and s["active"] == 0
