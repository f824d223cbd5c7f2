"""Hansetag in Lübeck (HANSE-12)."""
from .helpers import E, game, idle_turn, play, play_card, put, sail, storage, top, turn_of


def _setup(n=4):
    s = game(n, seed=21)
    for i in range(n):  # everybody at sea, away from Lübeck
        put(s, i, ["c4", "d7", "e9", "l6", "n5", "c8"][i])
    return s


def test_round_definitions_for_the_active_caller():  # HANSE-T-28 HANSE-12.2 HANSE-12.1 HANSE-9.5
    s = _setup()
    turn_of(s, 1, turn=1)
    s = play_card(s, 1, "hansetag")
    ht = s["hansetage"][0]
    # round 1 = turns of seats 2, 3, 0 (turn numbers 2–4); round 2 = seats 1, 2, 3, 0, 1 (5–9)
    assert (ht["r2"], ht["end"]) == (5, 9)
    assert [t % 4 for t in range(ht["r2"], ht["end"] + 1)] == [1, 2, 3, 0, 1]


def test_out_of_turn_caller():  # HANSE-T-44 HANSE-D-31
    s = _setup()
    turn_of(s, 0, turn=0)
    s = play_card(s, 1, "hansetag")
    ht = s["hansetage"][0]
    assert [t % 4 for t in range(1, ht["r2"])] == [1, 2, 3, 0]
    assert [t % 4 for t in range(ht["r2"], ht["end"] + 1)] == [1, 2, 3, 0, 1]


def _run_until(s, t):
    while s["turn"] < t and not s["over"]:
        s = idle_turn(s)
    return s


def test_presence_only_in_round_two_counts():  # HANSE-T-29 HANSE-12.3 HANSE-D-32 HANSE-12.4 HANSE-14.7 HANSE-A-7
    s = _setup()
    turn_of(s, 1, turn=1)
    storage(s, 3, ["grain", "beer", "ore", "fish", "fur", "cloth"], [1, 2, 3, None, None, None])
    s = play_card(s, 1, "hansetag")
    ht = s["hansetage"][0]
    s = idle_turn(s)
    put(s, 3, "luebeck")  # seat 3 (ships 3 and 2) in Lübeck during round 1 only
    s = idle_turn(s)
    put(s, 3, "c3")
    s = _run_until(s, ht["r2"])
    s = _run_until(s, ht["end"])
    s = idle_turn(s)  # the last turn of round 2 ends: fines
    # fined clockwise from Q = 1 (all absent); only seat 3 has stones in storage
    assert top(s)["k"] == "fine" and top(s)["queue"] == [3] and E.to_act(s) == [0]
    assert any("fined: {p1}, {p2}, {p3}, {p0}" in ev["text"] for ev in s["log"])


def test_present_at_start_of_round_two_counts():  # HANSE-T-29 HANSE-D-32
    s = _setup()
    turn_of(s, 1, turn=1)
    s = play_card(s, 1, "hansetag")
    ht = s["hansetage"][0]
    s = _run_until(s, ht["r2"] - 1)
    put(s, 3, "luebeck")
    s = idle_turn(s)  # round 2 starts with the ship still in Lübeck
    assert ht["r2"] == s["turn"] and s["hansetage"][0]["sat"][3] and s["hansetage"][0]["sat"][0]
    assert not s["hansetage"][0]["sat"][1]


def test_fine_chosen_blind_by_left_neighbour():  # HANSE-T-30 HANSE-12.5 HANSE-D-35 HANSE-D-33 HANSE-14.7
    s = _setup()
    storage(s, 2, ["grain", "beer", "ore", "fish", "fur", "cloth"], [3, 4, 2, None, None, None])
    s["hansetage"] = [{"q": 2, "r2": 0, "end": 0, "sat": [True, True, False, True]}]
    turn_of(s, 0, turn=0)
    s = idle_turn(s)
    assert top(s)["k"] == "fine" and E.to_act(s) == [3]
    assert E.legal_moves(s, 3) == ["fine 1 grain", "fine 2 beer", "fine 3 ore"]
    assert "value" not in E.view(s, 3)["storages"][2]["slots"][0]
    assert E.default_move(s, 3) in E.legal_moves(s, 3)
    beer = len(s["_pools"]["bremen"]["beer"])
    s = play(s, 3, "fine 2 beer")
    assert s["store"][2]["vals"] == [3, None, 2, None, None, None]
    assert len(s["_pools"]["bremen"]["beer"]) == beer + 1
    assert E.to_act(s) == [1]  # the game goes on with seat 1's turn


def test_empty_storage_pays_nothing():  # HANSE-T-30 HANSE-12.5
    s = _setup()
    s["hansetage"] = [{"q": 2, "r2": 0, "end": 0, "sat": [True, True, False, True]}]
    turn_of(s, 0, turn=0)
    s = idle_turn(s)
    assert top(s)["k"] == "turn" and E.to_act(s) == [1]


def test_partner_move_satisfies_both_holders():  # HANSE-T-31 HANSE-12.3
    s = _setup()
    s["hansetage"] = [{"q": 1, "r2": 3, "end": 7, "sat": [False] * 4}]
    turn_of(s, 3, turn=3)
    put(s, 3, "i8")
    s = sail(s, 3, "orange", "luebeck")
    assert s["hansetage"][0]["sat"][0] and s["hansetage"][0]["sat"][3]


def test_no_fine_when_the_game_ends_first():  # HANSE-D-34
    s = _setup()
    s["hansetage"] = [{"q": 1, "r2": 3, "end": 7, "sat": [False] * 4}]
    s["final"] = {"f": 1, "partner": 2, "t": 0, "ship": 1}
    turn_of(s, 0, turn=0)
    while not s["over"]:
        s = idle_turn(s)
    assert s["turn"] < 7
    assert not any("fined" in ev["text"] for ev in s["log"])


def test_several_hansetage_are_independent():  # HANSE-D-36 HANSE-12.6
    s = _setup()
    turn_of(s, 1, turn=1)
    s = play_card(s, 1, "hansetag")
    s = play_card(s, 1, "hansetag")
    assert len(s["hansetage"]) == 2 and s["hansetage"][0] is not s["hansetage"][1]
    s["hansetage"][1]["end"] = 12
    s = _run_until(s, 10)
    assert len(s["hansetage"]) == 1 and s["hansetage"][0]["end"] == 12


def test_fine_does_not_undo_the_game_end():  # HANSE-12.7
    s = _setup()
    storage(s, 2, ["grain"] * 6, [1] * 6)
    s["final"] = {"f": 2, "partner": 3, "t": 0, "ship": 2}
    s["hansetage"] = [{"q": 1, "r2": 0, "end": 0, "sat": [True, True, False, True]}]
    turn_of(s, 0, turn=0)
    s = idle_turn(s)
    s = play(s, 3, "fine 1 grain")
    assert s["final"]["f"] == 2
    while not s["over"]:
        s = idle_turn(s)
    assert E.result(s)["breakdown"][2]["first full storage"] == 5
