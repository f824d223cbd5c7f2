"""Establishing a route (HT-8, HT-7.7) and its rewards."""
from games.engines.hansa_teutonica.state import level

from .helpers import E, RED, BLUE, GREEN, fill, give, kontor, legal, new, put, run


def test_needs_every_space_own():  # HT-8.1 HT-7.7
    s = new()
    put(s, "hannover-minden", "0t", "0m", None)
    assert not any(m.startswith("establish") for m in legal(s, RED))
    put(s, "hannover-minden", "0t", "0m", "1t")
    assert not any(m.startswith("establish") for m in legal(s, RED))
    put(s, "hannover-minden", "0t", "0m", "0t")
    assert "establish hannover-minden" in legal(s, RED)
    assert s["step"] is None  # never automatic


def test_control_points_step_a():  # HT-T-11 HT-8.3 HT-8.2
    s = new()
    fill(s, "hannover-minden", "0t")
    kontor(s, "Hannover", BLUE)
    kontor(s, "Minden", RED)
    s = run(s, RED, "establish hannover-minden")
    assert s["p"][BLUE]["pp"] == 1 and s["p"][RED]["pp"] == 1
    # Red controlling both gets 2; a city without a Kontor gives nothing
    t = new()
    fill(t, "hannover-minden", "0t")
    kontor(t, "Hannover", RED)
    kontor(t, "Minden", RED)
    t = run(t, RED, "establish hannover-minden")
    assert t["p"][RED]["pp"] == 2
    u = new()
    fill(u, "hannover-minden", "0t")
    kontor(u, "Hannover", BLUE)
    u = run(u, RED, "establish hannover-minden")
    assert u["p"][BLUE]["pp"] == 1 and u["p"][RED]["pp"] == 0


def test_new_kontor_does_not_count_for_step_a():  # HT-8.3
    s = new()
    fill(s, "hannover-minden", "0t")
    s = run(s, RED, "establish hannover-minden", "kontor minden trader")
    assert s["p"][RED]["pp"] == 0 and s["houses"]["Minden"][0] == RED


def test_gold_coin_and_house_order():  # HT-T-14 HT-8.6 HT-8.6.1 HT-8.9
    s = new()
    fill(s, "emden-groningen", "0t")
    s = run(s, RED, "establish emden-groningen", "kontor groningen trader")
    assert s["houses"]["Groningen"] == [RED, None] and s["p"][RED]["pp"] == 1
    assert s["p"][RED]["stock"] == [2, 0]  # the rest of the route goes to stock (HT-8.9)
    # next Kontor in Groningen: house 2, round orange: needs a merchant and Privilegium orange
    s = run(s, RED, "end", )
    s = run(s, BLUE, "end")
    s = run(s, GREEN, "end")
    fill(s, "emden-groningen", "0t")
    s = run(s, RED, "establish emden-groningen")
    assert not any(m.startswith("kontor groningen") for m in legal(s, RED))
    assert "nothing" in legal(s, RED)  # may still establish for (a)/(b)
    t = new()
    kontor(t, "Groningen", BLUE)
    put(t, "emden-groningen", "0t", "0m", "0t")
    t = run(t, RED, "establish emden-groningen")
    assert not any(m.startswith("kontor groningen") for m in legal(t, RED))  # white privilege only
    u = new()
    kontor(u, "Groningen", BLUE)
    u["p"][RED]["dev"]["privilegium"] = 1
    put(u, "emden-groningen", "0t", "0m", "0t")
    u = run(u, RED, "establish emden-groningen")
    assert [m for m in legal(u, RED) if m.startswith("kontor groningen")] == ["kontor groningen merchant"]


def test_merchant_may_found_in_square_house():  # HT-D-12 HT-0.5
    s = new()
    fill(s, "dortmund-duisburg", "0m")
    s = run(s, RED, "establish dortmund-duisburg")
    assert "kontor duisburg merchant" in legal(s, RED)
    assert "kontor dortmund merchant" in legal(s, RED)  # round house: merchant
    t = new()
    fill(t, "dortmund-duisburg", "0t")
    t = run(t, RED, "establish dortmund-duisburg")
    assert "kontor dortmund trader" not in legal(t, RED)  # a trader never goes where a merchant is asked


def test_completing_a_city():  # HT-T-15 HT-8.6.2
    s = new(active=BLUE)
    fill(s, "dortmund-duisburg", "1t")
    s = run(s, BLUE, "establish dortmund-duisburg", "kontor duisburg trader")
    assert s["completed"] == 1


def test_tenth_city_ends_the_game():  # HT-T-15 HT-11.1
    s = new(active=BLUE)
    s["completed"] = 9
    fill(s, "dortmund-duisburg", "1t")
    s["acts"] = 3
    s = run(s, BLUE, "establish dortmund-duisburg", "kontor duisburg trader")
    assert s["completed"] == 10 and s["phase"] == "over" and E.to_act(s) == []
    assert E.result(s) is not None


def test_develop_bursa_in_lubeck():  # HT-T-16 HT-8.7
    s = new()
    fill(s, "hamburg-lubeck", "0t")
    s = run(s, RED, "establish hamburg-lubeck")
    assert "develop bursa" in legal(s, RED)
    s = run(s, RED, "develop bursa")
    p = s["p"][RED]
    assert level(p, "bursa") == 5 and p["stock"] == [3, 0] and p["supply"] == [1, 0]
    assert s["spaces"]["hamburg-lubeck"] == [None, None, None]


def test_develop_actiones_gives_an_action_this_turn():  # HT-T-16 HT-4.2 HT-C3
    s = new()
    fill(s, "gottingen-quedlinburg", "0t")
    s = run(s, RED, "end", )
    s = run(s, BLUE, "end")
    s = run(s, GREEN, "end")
    give(s, RED, supply=(1, 0))
    s = run(s, RED, "place", "on arnheim-duisburg")
    s = run(s, RED, "establish gottingen-quedlinburg", "develop actiones")
    assert level(s["p"][RED], "actiones") == 3 and s["acts"] == 3 and s["used"] == 2
    assert "assign" in legal(s, RED)  # a 3rd action now


def test_develop_liber_frees_a_merchant_and_full_track_blocks():  # HT-8.7 HT-4.2
    s = new()
    fill(s, "emden-groningen", "0t")
    s = run(s, RED, "establish emden-groningen", "develop liber")
    assert s["p"][RED]["supply"] == [0, 1] and level(s["p"][RED], "liber") == 3
    t = new()
    t["p"][RED]["dev"]["liber"] = 3
    fill(t, "emden-groningen", "0t")
    t = run(t, RED, "establish emden-groningen")
    assert "develop liber" not in legal(t, RED)


def test_clavis_can_stay_equal():  # HT-4.2
    s = new()
    s["p"][RED]["dev"]["clavis"] = 1
    fill(s, "halle-quedlinburg", "0t")
    s = run(s, RED, "establish halle-quedlinburg", "develop clavis")
    assert level(s["p"][RED], "clavis") == 2 and s["p"][RED]["dev"]["clavis"] == 2


def test_coellen_field_skipping_and_privilege():  # HT-T-17 HT-8.8 HT-4.3
    s = new()
    s["p"][RED]["dev"]["privilegium"] = 2  # maius (pink)
    put(s, "coellen-warburg", "0t", "0m", "0t", "0t")
    s = run(s, RED, "establish coellen-warburg")
    assert {"coellen white", "coellen orange", "coellen pink"} <= set(legal(s, RED))
    assert "coellen black" not in legal(s, RED)
    s = run(s, RED, "coellen pink")
    assert s["coellen"] == [None, None, RED, None] and s["p"][RED]["pp"] == 0
    assert s["p"][RED]["stock"] == [3, 0]
    t = new()
    t["p"][RED]["dev"]["privilegium"] = 1  # minus
    put(t, "coellen-warburg", "0m", "0t", "0t", "0t")
    t = run(t, RED, "establish coellen-warburg")
    assert [m for m in legal(t, RED) if m.startswith("coellen")] == ["coellen white", "coellen orange"]


def test_coellen_needs_a_merchant():  # HT-8.8
    s = new()
    fill(s, "coellen-warburg", "0t")
    s = run(s, RED, "establish coellen-warburg")
    assert not any(m.startswith("coellen") for m in legal(s, RED))


def test_coellen_piece_is_no_kontor():  # HT-D-13
    from games.engines.hansa_teutonica.rules import controller, largest_network
    s = new()
    s["coellen"] = [RED, None, None, None]
    assert controller(s, "Coellen") is None and largest_network(s, RED) == 0


def test_no_reward_available():  # HT-T-32 HT-8.5 HT-8.10 HT-D-11
    s = new()
    kontor(s, "Goslar", BLUE)
    kontor(s, "Magdeburg", BLUE, GREEN)
    fill(s, "goslar-magdeburg", "0t")
    s = run(s, RED, "establish goslar-magdeburg")
    assert s["step"] is None and s["p"][RED]["stock"] == [2, 0]
    assert s["p"][BLUE]["pp"] == 1 and s["p"][GREEN]["pp"] == 1
    assert s["spaces"]["goslar-magdeburg"] == [None, None]


def test_nothing_is_always_allowed():  # HT-D-11 HT-8.5
    s = new()
    fill(s, "dortmund-duisburg", "0t")
    s = run(s, RED, "establish dortmund-duisburg")
    assert legal(s, RED)[-1] == "nothing"
    s = run(s, RED, "nothing")
    assert s["p"][RED]["stock"] == [2, 0] and s["houses"]["Duisburg"] == [None]


def test_stock_and_supply_kept_apart():  # HT-0.2 HT-0.5
    # MUST: pieces coming back from an established route go to the stock, never the supply
    s = give(new(), RED, supply=(1, 0))
    fill(s, "goslar-magdeburg", "0t")
    s = run(s, RED, "establish goslar-magdeburg", "nothing")
    assert s["p"][RED]["stock"] == [2, 0] and s["p"][RED]["supply"] == [1, 0]
    assert "assign" in legal(s, RED)


def test_overview_flow_place_fill_establish():  # HT-1.1
    s = give(new(), RED, supply=(2, 0))
    s["markers"]["dortmund-duisburg"] = "plus3"
    s["_supply"] = ["swap"]
    s["houses"]["Dortmund"][0] = BLUE
    s = run(s, RED, "place", "on dortmund-duisburg", "place", "on dortmund-duisburg", "end")
    s = run(s, BLUE, "end")
    s = run(s, GREEN, "end")
    s = run(s, RED, "establish dortmund-duisburg")
    assert s["p"][BLUE]["pp"] == 1  # PP to the controller of an end city
    assert s["p"][RED]["markers"][0][0] == "plus3"  # the marker
    s = run(s, RED, "kontor duisburg trader")  # and a Kontor
    assert s["houses"]["Duisburg"] == [RED]
