"""Building stalls (HANSA-10.5, HANSA-T-06, HANSA-T-16, HANSA-C3, HANSA-D-08, HANSA-D-09)."""
from .helpers import ENGINE, give, kinds, playing, put_slot, rejected, set_stalls


def test_example6_build_to_equalise_no_second_build():  # HANSA-T-06 HANSA-10.5c HANSA-10.1c HANSA-10.5
    s = playing(ship="danzig", seat=1, coins=[3, 3, 3])
    set_stalls(s, "danzig", [4, 2, 0])
    set_stalls(s, "riga", [0, 4, 0])
    assert s["supply"][1] == 9
    give(s, 1, "red/1", "green/2")
    s = ENGINE.apply(s, 1, "build green/2")
    assert "already took an action" in rejected(s, 1, "build red/1")
    assert s["stalls"]["danzig"] == [4, 4, 0]
    assert s["supply"][1] == 7 and kinds(s["tiles"][1]) == ["red/1"]
    # a later buy in Danzig by a third player pays the bank (tie for most stalls)
    s["active"], s["acted"] = 2, False
    put_slot(s, "danzig", "white/1")
    s = ENGINE.apply(s, 2, "buy white/1")
    assert s["coins"] == [3, 3, 2]


def test_short_supply_corrected_example():  # HANSA-T-16 HANSA-C3 HANSA-D-09 HANSA-D-08
    s = playing(ship="lubeck", coins=[3, 0, 0])
    set_stalls(s, "danzig", [1, 0, 0])
    set_stalls(s, "riga", [6, 0, 0])
    set_stalls(s, "reval", [6, 0, 0])
    assert s["supply"][0] == 2
    ids = give(s, 0, "red/3", "green/1", "blue/1", "blue/2")
    s = ENGINE.apply(s, 0, "build red/3")
    assert s["stalls"]["lubeck"][0] == 2 and s["supply"][0] == 0 and ids[0] in s["removed"]
    s = ENGINE.apply(s, 0, "move danzig")
    assert "no stalls left" in rejected(s, 0, "build green/1")
    assert not any(m.startswith("build") for m in ENGINE.legal_moves(s, 0))
    s = ENGINE.apply(s, 0, "sell blue/1 blue/2")
    assert s["supply"][0] == 1 and s["stalls"]["danzig"][0] == 0
    s = ENGINE.apply(s, 0, "move kalmar")
    s = ENGINE.apply(s, 0, "build green/1")
    assert s["stalls"]["kalmar"][0] == 1 and s["supply"][0] == 0


def test_build_places_exactly_the_barrels():  # HANSA-D-09 HANSA-10.5c
    s = playing(ship="reval", coins=[3, 0, 0])
    give(s, 0, "green/3")
    assert [m for m in ENGINE.legal_moves(s, 0) if m.startswith("build")] == ["build green/3"]
    s = ENGINE.apply(s, 0, "build green/3")
    assert s["stalls"]["reval"][0] == 3 and s["supply"][0] == 12


def test_build_costs_a_tile_not_coins():  # HANSA-10.5b HANSA-10.5a
    s = playing(ship="reval", coins=[3, 0, 0])
    assert "no face-up" in rejected(s, 0, "build green/3")
    t = give(s, 0, "green/3")[0]
    s = ENGINE.apply(s, 0, "build green/3")
    assert s["coins"][0] == 3 and t in s["removed"] and s["tiles"][0] == []


def test_any_number_of_stalls_in_any_city_including_kopenhagen():  # HANSA-10.5d
    s = playing(ship="kopenhagen", coins=[6, 0, 0])
    give(s, 0, "green/3", "orange/3")
    s = ENGINE.apply(s, 0, "build green/3")
    for city in ("lubeck", "aalborg", "kopenhagen"):
        s = ENGINE.apply(s, 0, "move " + city)
    s = ENGINE.apply(s, 0, "build orange/3")
    assert s["stalls"]["kopenhagen"][0] == 6
