"""End of the game (HT-11, HT-1.2, HT-C6, HT-C1)."""
from .helpers import E, RED, BLUE, fill, kontor, legal, new, run


def test_twenty_pp_in_step_a_finishes_the_action():  # HT-T-19 HT-11 HT-11.1 HT-11.2 HT-1.2
    s = new()
    s["p"][BLUE]["pp"] = 19
    kontor(s, "Emden", BLUE)
    s["markers"]["emden-groningen"] = "plus3"
    s["_supply"] = ["swap"]
    fill(s, "emden-groningen", "0t")
    s = run(s, RED, "establish emden-groningen")
    assert s["p"][BLUE]["pp"] == 20 and s["end"] and s["phase"] == "turn"
    assert not any(m.startswith("use") for m in legal(s, RED))
    s = run(s, RED, "kontor groningen trader")
    assert s["p"][RED]["pp"] == 1  # the coin PP in step (c) still counts
    assert s["phase"] == "over" and E.to_act(s) == [] and s["used"] == 1  # remaining action lost
    assert s["markers"] == {}  # no end-of-turn placement
    assert E.view(s, BLUE)["revealed_unplaced_markers"] == ["swap"]  # HT-D-3
    assert E.result(s)["breakdown"][RED]["bonus markers"] == 1


def test_empty_supply_at_draw_ends_the_game():  # HT-T-20 HT-11.1 HT-C6 HT-9.3
    s = new()
    s["_supply"] = []
    s["markers"]["hamburg-lubeck"] = "plus4"
    fill(s, "hamburg-lubeck", "0t")
    s = run(s, RED, "establish hamburg-lubeck")
    assert s["end"] and "develop bursa" in legal(s, RED)
    assert "use plus4" not in legal(s, RED)
    s = run(s, RED, "develop bursa")
    assert s["phase"] == "over"
    assert E.result(s)["breakdown"][RED]["bonus markers"] == 1


def test_last_marker_drawn_does_not_end():  # HT-C6
    s = new()
    s["_supply"] = ["swap"]
    s["markers"]["dortmund-duisburg"] = "plus4"
    fill(s, "dortmund-duisburg", "0t")
    s = run(s, RED, "establish dortmund-duisburg", "nothing")
    assert not s["end"] and s["_supply"] == []


def test_extra_kontor_still_usable_in_final_action():  # HT-C1
    s = new()
    s["p"][RED]["markers"] = [["extra", False, False], ["plus3", False, False]]
    s["p"][BLUE]["pp"] = 19
    kontor(s, "Duisburg", BLUE)
    fill(s, "dortmund-duisburg", "0t")
    s = run(s, RED, "establish dortmund-duisburg")
    assert s["end"]
    assert "extra duisburg trader" in legal(s, RED)
    s = run(s, RED, "extra duisburg trader")
    assert s["extras"]["Duisburg"] == [RED] and s["phase"] == "over"


def test_only_play_pp_count_towards_twenty():  # HT-11.3
    s = new()
    s["p"][RED]["pp"] = 18
    s["p"][RED]["dev"]["privilegium"] = 3
    put_merchant = ["0m", "0t", "0t", "0t"]
    for i, x in enumerate(put_merchant):
        s["spaces"]["coellen-warburg"][i] = x
    s = run(s, RED, "establish coellen-warburg", "coellen black")
    assert s["p"][RED]["pp"] == 18 and not s["end"] and s["phase"] == "turn"


def test_triggers_only_happen_in_establish():  # HT-11.4
    s = new()
    s["p"][RED]["pp"] = 19
    s["p"][RED]["markers"] = [["upgrade", False, False], ["swap", False, False]]
    kontor(s, "Stendal", BLUE, RED)
    s = run(s, RED, "use upgrade actiones", "use swap stendal 1")
    assert not s["end"] and s["p"][RED]["pp"] == 19
