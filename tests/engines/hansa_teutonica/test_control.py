"""Control (HT-10.1), networks (HT-10.2) and the East-West connection (HT-10.3)."""
from games.engines.hansa_teutonica.rules import controller, largest_network, networks

from .helpers import RED, BLUE, GREEN, fill, kontor, new, run
from games.engines.hansa_teutonica.turn import start_turn


def test_control_ties_go_to_rightmost():  # HT-T-12 HT-10.1
    s = new()
    kontor(s, "Arnheim", BLUE, GREEN)
    assert controller(s, "Arnheim") == GREEN
    s["extras"]["Arnheim"] = [BLUE]
    assert controller(s, "Arnheim") == BLUE  # 2 Kontors against 1
    assert controller(s, "Duisburg") is None


def test_extra_kontors_rank_below_houses_and_later_lower():  # HT-10.1 HT-9.6.1
    s = new()
    kontor(s, "Duisburg", GREEN)
    s["extras"]["Duisburg"] = [BLUE, RED]
    # three players with one Kontor each: the house beats both extras
    assert controller(s, "Duisburg") == GREEN
    s["houses"]["Duisburg"] = [None]
    assert controller(s, "Duisburg") == BLUE  # the earlier extra stands further right


def test_network_counts_kontors_without_control():  # HT-10.2 HT-D-21
    s = new()
    kontor(s, "Arnheim", RED, BLUE, BLUE)
    kontor(s, "Duisburg", RED)
    kontor(s, "Hamburg", RED, RED, RED)
    nets = sorted(networks(s, RED), key=lambda x: x[1])
    assert nets[0] == ({"Arnheim", "Duisburg"}, 2) and nets[1] == ({"Hamburg"}, 3)
    assert largest_network(s, RED) == 3  # most Kontors, not most cities


def _link(s, seat, events=None):
    for c in ("Arnheim", "Munster", "Minden", "Brunswick"):
        hs = s["houses"][c]
        if None in hs:
            hs[hs.index(None)] = seat
        else:
            s["extras"].setdefault(c, []).append(seat)
    s["p"][seat]["dev"]["privilegium"] = 3
    fill(s, "brunswick-stendal", f"{seat}m")
    start_turn(s, seat)
    return run(s, seat, "establish brunswick-stendal", "kontor stendal merchant", events=events)


def test_east_west_awards_in_order():  # HT-T-18 HT-10.3 HT-3.6 HT-8.6.3 HT-D-18
    s = new(players=4, active=0)
    for r in s["spaces"]:
        s["spaces"][r] = [None] * len(s["spaces"][r])
    events = []
    for seat in range(4):
        s = _link(s, seat, events)
    ew = [ev["text"] for ev in events if "East-West" in ev["text"] or "Arnheim and Stendal" in ev["text"]]
    assert ew[0].startswith("{p0} gains 7 PP") and ew[1].startswith("{p1} gains 4 PP")
    assert ew[2].startswith("{p2} gains 2 PP") and "awards are gone" in ew[3] and ew[3].startswith("{p3}")
    assert s["ew"] == [0, 1, 2, 3]
    # control of the chain is not needed (seat 3 controls neither Brunswick nor Munster)
    assert controller(s, "Brunswick") != 3 and controller(s, "Munster") != 3
    # and a player scores it at most once
    from games.engines.hansa_teutonica.rules import check_east_west
    before = s["p"][0]["pp"]
    check_east_west(s, 0)
    assert s["ew"] == [0, 1, 2, 3] and s["p"][0]["pp"] == before


def test_east_west_by_extra_kontor():  # HT-8.6.3 HT-10.3
    s = new()
    for c in ("Arnheim", "Munster", "Minden", "Brunswick"):
        kontor(s, c, RED)
    kontor(s, "Stendal", BLUE, BLUE, BLUE, BLUE)
    s["p"][RED]["markers"] = [["extra", False, False]]
    fill(s, "brunswick-stendal", "0t")
    s = run(s, RED, "establish brunswick-stendal", "extra stendal trader")
    assert s["ew"] == [RED] and s["p"][RED]["pp"] >= 7
