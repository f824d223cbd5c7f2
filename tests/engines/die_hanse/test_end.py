"""Game end and scoring (HANSE-13)."""
from games.engines.die_hanse.scoring import result

from .helpers import E, cargo, clear_sea, enter, game, idle_turn, play, storage, top, turn_of

GOODS = ["grain", "beer", "ore", "fish", "fur", "cloth"]


def _setup():
    s = game(4, seed=31)
    clear_sea(s)
    return s


def _finish_harbour(s):
    while top(s)["k"] == "harbour":
        seat = E.to_act(s)[0]
        f = top(s)
        s = play(s, seat, "done" if f["stage"] != "card" else E.default_move(s, seat))
    return s


def test_first_filler_and_completing_partner():  # HANSE-T-38 HANSE-13.1 HANSE-13.2 HANSE-13.3 HANSE-10.2.4 HANSE-10.3.4 HANSE-1.3 HANSE-13
    s = _setup()
    storage(s, 1, GOODS, [3, 3, 2, 4, 4, None])
    storage(s, 2, GOODS, [1, 2, 3, 4, None, None])
    cargo(s, 1, stern=[["cloth", 2], ["salt", 0], ["salt", 0]])
    s["special"][1]["privilege"] = False
    s["special"][2]["kaperbrief"] = False
    s = enter(s, 1, 1, "luebeck")
    s = play(s, 1, "unload cloth")
    assert s["final"] == {"f": 1, "partner": 2, "t": 1, "ship": 1}
    s = play(s, 1, "done")
    s = _finish_harbour(s)
    # the turn in progress is finished; seats 2, 3, 0 take one more turn each
    turns = []
    while not s["over"]:
        turns.append(s["turn"] % 4)
        s = idle_turn(s)
    assert turns == [1, 2, 3, 0]
    res = E.result(s)
    assert res["scores"][1] == 25 and res["breakdown"][1]["first full storage"] == 5
    assert res["scores"][2] == 14 and res["breakdown"][2]["completing partner"] == 3
    assert res["ranking"][1] == 1
    assert E.to_act(s) == [] and E.legal_moves(s, 1) == []


def test_partner_fills_while_other_active():  # HANSE-T-39 HANSE-D-38
    s = _setup()
    storage(s, 2, GOODS, [1, 1, 1, 1, 1, None])
    cargo(s, 1, bow=[["cloth", 3]])
    s = enter(s, 1, 1, "luebeck")
    s = play(s, 1, "done")
    s = play(s, 2, "unload cloth", "done")
    assert s["final"]["f"] == 2 and s["final"]["partner"] == 1
    s = _finish_harbour(s)
    turns = []
    while not s["over"]:
        turns.append(s["turn"] % 4)
        s = idle_turn(s)
    assert turns == [1, 3, 0, 1]  # seat 2 is skipped, seat 1 gets one more full turn


def test_tie_breaks():  # HANSE-T-40 HANSE-13.4 HANSE-D-40
    s = _setup()
    s["over"] = True
    for p in range(4):
        s["special"][p] = {"privilege": False, "kaperbrief": False}
    storage(s, 0, GOODS, [4, 4, 4, 4, 4, 4])
    storage(s, 2, GOODS, [4, 4, 4, 4, 4, 4])
    s["final"] = {"f": 0, "partner": None, "t": 0, "ship": 0}
    s["store"][0]["vals"] = [4, 4, 4, 4, 3, None]  # 19 + 5 = 24
    res = result(s)
    assert res["scores"][0] == res["scores"][2] == 24
    assert res["ranking"][0] == 1 and res["ranking"][2] == 2
    s["final"] = None
    storage(s, 0, GOODS, [4, 4, 4, 4, 4, 4])
    storage(s, 2, GOODS, [5, 5, 5, 5, 4, None])
    res = result(s)
    assert res["scores"][0] == res["scores"][2] == 24
    assert res["ranking"][0] == 1 and res["ranking"][2] == 2
    storage(s, 2, GOODS, [4, 4, 4, 4, 4, 4])
    assert result(s)["ranking"][0] == result(s)["ranking"][2] == 1  # shared


def test_both_partners_fill_in_one_visit():  # HANSE-D-37 HANSE-13.1
    s = _setup()
    storage(s, 0, GOODS, [1, 1, 1, 1, 1, None])
    storage(s, 1, GOODS, [2, 2, 2, 2, 2, None])
    cargo(s, 0, stern=[["cloth", 2]], bow=[["cloth", 4]])
    s = enter(s, 0, 0, "luebeck")
    s = play(s, 0, "unload cloth", "done")
    s = play(s, 1, "unload cloth", "done")
    assert s["final"]["f"] == 0 and s["final"]["partner"] == 1
    assert all(v is not None for v in s["store"][1]["vals"])


def test_storage_values_revealed_at_the_end():  # HANSE-5.3.6 HANSE-D-6
    s = _setup()
    storage(s, 2, GOODS, [1, 2, None, None, None, None])
    s["over"] = True
    v = E.view(s, 0)
    assert v["storages"][2]["slots"][1]["value"] == 2
    assert "values" in v["ships"][1]["bow"]  # cargo revealed for audit, does not score
    assert v["result"]["breakdown"][2]["storage"] == 3


def test_late_fillers_get_no_bonus():  # HANSE-13.2
    s = _setup()
    s["final"] = {"f": 3, "partner": 0, "t": 0, "ship": 3}
    storage(s, 1, GOODS, [1, 1, 1, 1, 1, None])
    cargo(s, 1, stern=[["cloth", 2]])
    s = enter(s, 1, 1, "luebeck")
    s = play(s, 1, "unload cloth")
    assert s["final"]["f"] == 3


def test_round_limit_safety_net():  # HANSE-13.2
    s = game(3, seed=2, round_limit=60)
    assert s["limit"] == 60
    s["turn"] = 60 * 3 - 1
    turn_of(s, 2, turn=60 * 3 - 1)
    s = idle_turn(s)
    assert s["over"] and E.result(s) is not None
    assert all(b["first full storage"] == 0 for b in E.result(s)["breakdown"])
