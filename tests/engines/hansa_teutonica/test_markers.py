"""Bonus markers (HT-9): claiming, drawing, using, placing at the end of the turn."""
import pytest

from games.engines import IllegalMove
from games.engines.hansa_teutonica.state import level

from .helpers import E, RED, BLUE, GREEN, fill, give, kontor, legal, new, put, run


def _claim(marker="plus3", route="dortmund-paderborn", supply=None):
    s = new()
    s["markers"][route] = marker
    if supply is not None:
        s["_supply"] = list(supply)
    fill(s, route, "0t")
    return s


def test_claim_and_draw_then_place_at_end_of_turn():  # HT-T-13 HT-8.4 HT-9.2 HT-9.3 HT-9.4
    s = _claim("remove", "dortmund-paderborn", supply=["extra", "swap"])
    s = run(s, RED, "establish dortmund-paderborn")
    assert s["p"][RED]["markers"][0][:2] == ["remove", False]
    assert s["_drawn"] == ["extra"] and s["p"][RED]["drawn"] == 1 and s["_supply"] == ["swap"]
    s = run(s, RED, "nothing")
    assert not any(m.startswith("on ") for m in legal(s, RED))  # not before the end of the turn
    s = run(s, RED, "end")
    assert s["phase"] == "markers" and E.to_act(s) == [RED]
    opts = legal(s, RED)
    side_routes = [m.split()[1] for m in opts]
    assert "dortmund-paderborn" in side_routes  # empty again, no marker
    put(s, "arnheim-duisburg", "1t")
    assert "on arnheim-duisburg" not in legal(s, RED)  # pieces on it
    kontor(s, "Goslar", BLUE)
    kontor(s, "Magdeburg", BLUE, GREEN)
    assert "on goslar-magdeburg" not in legal(s, RED)  # no free house at either end
    s = run(s, RED, "on dortmund-paderborn")
    assert s["markers"]["dortmund-paderborn"] == "extra" and E.to_act(s) == [BLUE]
    assert s["p"][RED]["drawn"] == 0


def test_default_marker_placement_lowest_id():  # HT-A-3 HT-14.3
    s = _claim("plus3", supply=["extra"])
    s = run(s, RED, "establish dortmund-paderborn", "nothing", "end")
    assert E.default_move(s, RED) == legal(s, RED)[0] == "on arnheim-duisburg"


def test_placement_relaxes_conditions():  # HT-D-14
    s = _claim("plus3", supply=["extra"])
    s = run(s, RED, "establish dortmund-paderborn", "nothing")
    for r in s["spaces"]:
        if r != "goslar-magdeburg":
            fill(s, r, "1t")
    kontor(s, "Goslar", BLUE)
    kontor(s, "Magdeburg", BLUE, GREEN)
    s = run(s, RED, "end")
    assert legal(s, RED) == ["on goslar-magdeburg"]  # condition 3 relaxed
    fill(s, "goslar-magdeburg", "1t")
    assert len(legal(s, RED)) == len(s["spaces"]) - len(s["markers"])  # condition 2 relaxed too
    t = _claim("plus3", supply=["extra"])
    t = run(t, RED, "establish dortmund-paderborn", "nothing")
    t["markers"] = {r: "swap" for r in t["spaces"]}
    t = run(t, RED, "end")
    assert E.to_act(t) == [BLUE] and t["_supply"] == ["extra"]  # back under the supply


def test_marker_usable_only_after_claiming_action():  # HT-T-31 HT-9.5 HT-D-15 HT-9.6.1
    s = new()
    s["acts"] = 3
    kontor(s, "Hamburg", BLUE, GREEN, BLUE)  # Hamburg is full
    s["markers"]["hamburg-lubeck"] = "extra"
    fill(s, "hamburg-lubeck", "0t")
    s = run(s, RED, "establish hamburg-lubeck")
    assert s["step"] is not None and "develop bursa" in legal(s, RED)
    assert not any(m.startswith("extra") for m in legal(s, RED))  # not in the claiming action
    s = run(s, RED, "nothing")
    fill(s, "hamburg-stade", "0t")
    s = run(s, RED, "establish hamburg-stade")
    assert "extra hamburg trader" in legal(s, RED)  # a later action of the same turn
    s = run(s, RED, "extra hamburg trader")
    assert s["extras"]["Hamburg"] == [RED] and s["p"][RED]["markers"][0][1] is True


def test_extra_kontor_left_of_full_city_ignoring_privilege():  # HT-T-22 HT-9.6.1
    s = new()
    s["p"][RED]["markers"] = [["extra", False, False], ["extra", False, False]]
    kontor(s, "Duisburg", BLUE)
    fill(s, "dortmund-duisburg", "0t")
    s = run(s, RED, "establish dortmund-duisburg", "extra duisburg trader")
    assert s["extras"]["Duisburg"] == [RED] and s["p"][RED]["pp"] == 0 and s["completed"] == 0
    fill(s, "dortmund-duisburg", "0t")
    s = run(s, RED, "establish dortmund-duisburg", "extra duisburg trader")
    assert s["extras"]["Duisburg"] == [RED, RED]  # the second further left
    t = new()
    t["p"][RED]["markers"] = [["extra", False, False]]
    fill(t, "dortmund-duisburg", "0t")
    t = run(t, RED, "establish dortmund-duisburg")
    assert not any(m.startswith("extra") for m in legal(t, RED))  # no occupied house yet


def test_extra_kontor_not_swappable():  # HT-T-22 HT-9.6.2
    s = new()
    s["p"][RED]["markers"] = [["swap", False, False]]
    kontor(s, "Duisburg", BLUE)
    s["extras"]["Duisburg"] = [RED]
    assert not any(m.startswith("use swap duisburg") for m in legal(s, RED))


def test_swap_kontor():  # HT-T-23 HT-9.6.2 HT-C2
    s = new()
    s["p"][RED]["dev"]["privilegium"] = 1
    s["p"][RED]["markers"] = [["swap", False, False]]
    kontor(s, "Minden", GREEN, RED, BLUE)
    assert "use swap minden 2" in legal(s, RED)
    assert "use swap minden 1" in legal(s, RED)
    s = run(s, RED, "use swap minden 2")
    assert s["houses"]["Minden"][:3] == [GREEN, BLUE, RED]
    assert s["p"][RED]["pp"] == 0 and s["used"] == 0  # not an action


def test_swap_needs_own_kontor_and_different_owners():  # HT-C2 HT-D-16
    s = new()
    s["p"][RED]["markers"] = [["swap", False, False]]
    kontor(s, "Minden", GREEN, BLUE, BLUE)
    assert not any(m.startswith("use swap") for m in legal(s, RED))
    kontor(s, "Minden", RED, RED, BLUE)
    assert legal(s, RED).count("use swap minden 2") == 1 and "use swap minden 1" not in legal(s, RED)


def test_swap_onto_coin_scores_nothing_and_no_east_west():  # HT-C2
    s = new()
    s["p"][RED]["markers"] = [["swap", False, False]]
    kontor(s, "Stendal", BLUE, RED)
    s = run(s, RED, "use swap stendal 1")
    assert s["houses"]["Stendal"][:2] == [RED, BLUE] and s["ew"] == [] and s["p"][RED]["pp"] == 0


def test_plus_four_actions():  # HT-T-24 HT-9.6 HT-9.6.3 HT-C3
    s = give(new(), RED, supply=(5, 0))
    s["p"][RED]["markers"] = [["plus4", False, False]]
    s = run(s, RED, "place", "on arnheim-duisburg", "use plus4")
    assert s["acts"] - s["used"] == 5


def test_upgrade_marker():  # HT-9.6.4
    s = new()
    s["p"][RED]["markers"] = [["upgrade", False, False]]
    s = run(s, RED, "use upgrade privilegium")
    assert level(s["p"][RED], "privilegium") == 2 and s["p"][RED]["supply"] == [1, 0]
    assert s["p"][RED]["markers"][0][1] is True
    t = new()
    t["p"][RED]["markers"] = [["upgrade", False, False]]
    t["p"][RED]["dev"]["bursa"] = 3
    assert "use upgrade bursa" not in legal(t, RED)


def test_remove_three():  # HT-T-25 HT-9.6.5 HT-D-17
    s = new()
    s["p"][RED]["markers"] = [["remove", False, False]]
    put(s, "arnheim-duisburg", "1t", "1t", "0t")
    put(s, "goslar-magdeburg", "2m")
    s["houses"]["Duisburg"][0] = BLUE
    s = run(s, RED, "use remove")
    assert "at arnheim-duisburg" in legal(s, RED) and "at goslar-magdeburg" in legal(s, RED)
    s = run(s, RED, "at arnheim-duisburg")
    assert s["spaces"]["arnheim-duisburg"] == [None, "1t", "0t"]  # own pieces are never chosen
    s = run(s, RED, "at arnheim-duisburg", "at goslar-magdeburg")
    assert s["step"] is None
    assert s["p"][BLUE]["supply"] == [2, 0] and s["p"][GREEN]["supply"] == [0, 1]
    assert s["houses"]["Duisburg"] == [BLUE] and s["used"] == 0
    t = new()
    t["p"][RED]["markers"] = [["remove", False, False]]
    put(t, "arnheim-duisburg", "1t", "1t")
    t = run(t, RED, "use remove", "at arnheim-duisburg", "done")  # "up to" three
    assert t["spaces"]["arnheim-duisburg"] == [None, "1t", None] and t["p"][RED]["markers"][0][1]


def test_markers_only_on_own_turn_outside_actions():  # HT-D-15 HT-9.5
    s = give(new(), RED, supply=(2, 0))
    s["p"][BLUE]["markers"] = [["plus3", False, False]]
    s["p"][RED]["markers"] = [["plus3", False, False]]
    with pytest.raises(IllegalMove):
        E.apply(s, BLUE, "use plus3")
    s = run(s, RED, "place")
    assert "use plus3" not in legal(s, RED)
    s = run(s, RED, "on arnheim-duisburg")
    assert "use plus3" in legal(s, RED)


def test_used_markers_are_kept_and_shown():  # HT-D-1 HT-9.5
    s = new()
    s["p"][RED]["markers"] = [["plus3", False, False]]
    s = run(s, RED, "use plus3")
    v = E.view(s, BLUE)
    assert v["desks"][RED]["markers"] == [{"type": "plus3", "used": True}]


def test_drawn_marker_cannot_be_claimed_same_turn():  # HT-T-29 HT-9.4
    s = _claim("plus3", supply=["plus4"])
    s = run(s, RED, "establish dortmund-paderborn", "nothing")
    s = run(s, RED, "use plus3")
    assert s["markers"].get("dortmund-paderborn") is None
    v = E.view(s, RED)
    assert v["your_drawn_markers"] is None and v["desks"][RED]["drawn"] == 1
    assert not any("plus4" in str(ev["text"]).lower() or "+4" in ev["text"] for ev in v["log"])


def test_upgrade_actiones_in_last_action_gives_one_more():  # HT-T-16 HT-9.6.4 HT-C3
    s = give(new(), RED, supply=(3, 0))
    s["p"][RED]["markers"] = [["upgrade", False, False]]
    s = run(s, RED, "place", "on arnheim-duisburg", "place", "on arnheim-duisburg")
    assert s["acts"] - s["used"] == 0
    s = run(s, RED, "use upgrade actiones")
    assert s["acts"] == 3 and "place" in legal(s, RED)
    s = run(s, RED, "place", "on arnheim-duisburg")
    assert s["spaces"]["arnheim-duisburg"] == ["0t", "0t", "0t"]


def test_redacted_log_for_others():  # HT-6.2.2 HT-D-2
    s = new()
    s["markers"]["dortmund-paderborn"] = "plus3"
    s["_supply"] = ["upgrade"]
    fill(s, "dortmund-paderborn", "0t")
    s = run(s, RED, "establish dortmund-paderborn", "nothing", "end")
    texts = [ev["text"] for ev in E.view(s, BLUE)["log"]]
    assert "{p0} looks at the drawn markers" in texts
    assert "{p0} looks at the drawn markers: Upgrade ability" in [ev["text"] for ev in E.view(s, RED)["log"]]


def test_marker_uses_and_claims_leave_the_input_untouched():  # HT-9.5 HT-9.6
    from .helpers import frozen
    s = give(new(), RED, supply=(2, 0))
    s["p"][RED]["markers"] = [["upgrade", False, False], ["plus3", False, False], ["swap", False, False],
                              ["remove", False, False], ["extra", False, False]]
    kontor(s, "Minden", RED, BLUE)
    kontor(s, "Duisburg", BLUE)
    put(s, "arnheim-kampen", "1t")
    fill(s, "dortmund-duisburg", "0t")
    s["markers"]["dortmund-duisburg"] = "plus4"
    for seq in (["use upgrade actiones"], ["use plus3"], ["use swap minden 1"], ["use remove", "at arnheim-kampen"],
                ["establish dortmund-duisburg", "extra duisburg trader"]):
        before = frozen(s)
        t = run(s, RED, *seq)
        assert frozen(s) == before and frozen(t) != before
