"""Visits, the one-action rule and ship movement (HANSA-10.1..10.3, T-04, T-05, T-19, T-20)."""
from .helpers import ENGINE, give, kinds, playing, put_slot, rejected, set_stalls


def test_example4_one_action_per_visit():  # HANSA-T-04 HANSA-10.1c HANSA-10.1e HANSA-10.1 HANSA-10.2a
    s = playing(ship="lubeck", coins=[6, 0, 0])
    for city in ("riga", "reval", "kalmar"):
        set_stalls(s, city, [2, 0, 0])
    assert s["supply"][0] == 9
    ids = give(s, 0, "red/1", "green/2", "blue/1")
    s = ENGINE.apply(s, 0, "build red/1")
    assert "already took an action" in rejected(s, 0, "build blue/1")
    assert not any(m.startswith("build") for m in ENGINE.legal_moves(s, 0))
    s = ENGINE.apply(s, 0, "move aalborg")
    s = ENGINE.apply(s, 0, "build green/2")
    s = ENGINE.apply(s, 0, "move kopenhagen")       # passes through without acting
    s = ENGINE.apply(s, 0, "move danzig")
    s = ENGINE.apply(s, 0, "build blue/1")
    s = ENGINE.apply(s, 0, "end")
    assert s["coins"][0] == 3 and s["tiles"][0] == []
    assert "tax" not in " ".join(e["text"] for e in s["log"][-4:])
    assert (s["stalls"]["lubeck"][0], s["stalls"]["aalborg"][0], s["stalls"]["danzig"][0]) == (1, 2, 1)
    assert s["supply"][0] == 5 and s["ship"] == "danzig"
    assert set(ids) <= set(s["removed"])


def test_example5_directed_routes():  # HANSA-T-05 HANSA-3.4 HANSA-10.3a HANSA-10.3b
    s = playing(ship="kopenhagen", coins=[3, 0, 0])
    moves = sorted(m for m in ENGINE.legal_moves(s, 0) if m.startswith("move"))
    assert moves == ["move danzig", "move lubeck", "move tonsberg"]
    assert "direction of the arrows" in rejected(s, 0, "move aalborg")
    assert "direction of the arrows" in rejected(s, 0, "move kalmar")
    s = ENGINE.apply(s, 0, "move tonsberg")
    assert s["coins"][0] == 2 and s["ship"] == "tonsberg"


def test_revisiting_a_city_allows_a_new_action():  # HANSA-T-19 HANSA-10.1d HANSA-10.1b HANSA-10.3c
    s = playing(ship="kopenhagen", coins=[4, 0, 0])
    give(s, 0, "orange/2")
    put_slot(s, "kopenhagen", "white/3")
    s = ENGINE.apply(s, 0, "build orange/2")
    assert "already took an action" in rejected(s, 0, "buy white/3")
    for city in ("lubeck", "aalborg", "kopenhagen"):
        s = ENGINE.apply(s, 0, "move " + city)
    assert s["coins"][0] == 1
    s = ENGINE.apply(s, 0, "buy white/3")
    assert s["coins"][0] == 1 and kinds(s["tiles"][0]) == ["white/3"]
    assert "for free" in s["log"][-1]["text"]


def test_a_route_may_be_used_repeatedly():  # HANSA-10.3c
    s = playing(ship="kopenhagen", coins=[6, 0, 0])
    for city in ("lubeck", "aalborg", "kopenhagen") * 2:
        s = ENGINE.apply(s, 0, "move " + city)
    assert s["coins"][0] == 0 and s["ship"] == "kopenhagen"


def test_no_money_no_movement():  # HANSA-T-20 HANSA-14.2 HANSA-10.3a
    s = playing(ship="kopenhagen", coins=[0, 0, 0])
    for city in ("danzig", "lubeck", "tonsberg"):
        assert "costs 1 coin" in rejected(s, 0, "move " + city)
    assert not any(m.startswith("move") for m in ENGINE.legal_moves(s, 0))


def test_start_city_is_a_fresh_visit_even_after_the_previous_player_acted():  # HANSA-10.1a HANSA-D-19
    s = playing(ship="danzig", coins=[3, 3, 3])
    put_slot(s, "danzig", "orange/1", 0)
    put_slot(s, "danzig", "brown/2", 1)
    s = ENGINE.apply(s, 0, "buy orange/1")
    s = ENGINE.apply(s, 0, "end")
    assert s["active"] == 1 and s["ship"] == "danzig"     # HANSA-10.3d: the ship stays
    if s["phase"] == "fill":
        s = ENGINE.apply(s, 1, "no fill")
    assert "buy brown/2" in ENGINE.legal_moves(s, 1)
    s = ENGINE.apply(s, 1, "buy brown/2")
    assert kinds(s["tiles"][1]) == ["brown/2"]


def test_ship_stays_where_left():  # HANSA-10.3d
    s = playing(ship="kopenhagen", coins=[3, 3, 3])
    s = ENGINE.apply(s, 0, "move danzig")
    s = ENGINE.apply(s, 0, "end")
    assert s["ship"] == "danzig" and s["active"] == 1


def test_acted_flag_resets_on_every_move_and_turn():  # HANSA-10.1f HANSA-16.6
    s = playing(ship="kopenhagen", coins=[3, 3, 3])
    give(s, 0, "orange/1", "orange/2")
    s = ENGINE.apply(s, 0, "build orange/1")
    assert s["acted"] is True
    s = ENGINE.apply(s, 0, "move danzig")
    assert s["acted"] is False
    s = ENGINE.apply(s, 0, "build orange/2")
    s = ENGINE.apply(s, 0, "end")
    assert s["acted"] is False
    # validation order: out-of-turn comes before any action check
    assert "not your turn" in rejected(s, 0, "build orange/2")


def test_phase_3_may_be_left_empty_and_is_ended_by_declaration():  # HANSA-10.2b HANSA-10.2a HANSA-0.2
    s = playing(ship="riga", coins=[3, 3, 3])
    assert "end" in ENGINE.legal_moves(s, 0)
    s = ENGINE.apply(s, 0, "end")
    assert s["active"] == 1 and s["turns"][1] == 2


def test_bought_tile_can_be_used_in_the_same_turn():  # HANSA-D-20 HANSA-10.2a
    s = playing(ship="kopenhagen", coins=[3, 0, 0])
    put_slot(s, "kopenhagen", "green/3")
    s = ENGINE.apply(s, 0, "buy green/3")
    s = ENGINE.apply(s, 0, "move danzig")
    s = ENGINE.apply(s, 0, "build green/3")
    assert s["stalls"]["danzig"][0] == 3
