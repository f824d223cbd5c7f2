"""Movement (HANSE-7)."""
from collections import deque

from games.engines.die_hanse.board import BOARD
from games.engines.die_hanse.movement import destinations

from .helpers import (E, clear_sea, finish_windows, game, hx, illegal, play, put, sail, sea_targets, ship_moves, top,
                      turn_of, wind)


def _ball(start, r, blocked=()):
    """Open-water fields within r steps (harbours end a path, canal excluded)."""
    dist = {start: 0}
    todo = deque([start])
    while todo:
        x = todo.popleft()
        if dist[x] == r:
            continue
        for y in BOARD.nbrs[x]:
            if y not in dist and BOARD.kind[y] in ("sea", "bay") and y not in blocked:
                dist[y] = dist[x] + 1
                todo.append(y)
    return dist


def _scenario():
    s = game(4)
    clear_sea(s)
    turn_of(s, 0)
    return s


def test_range_by_starting_sea():  # HANSE-T-5 HANSE-7.2 HANSE-9.1
    s = _scenario()
    wind(s, 3, 6)
    put(s, 0, "f4")  # North Sea, two steps from the Kattegat
    reach = set(destinations(s, 0))
    ball = _ball(hx("f4"), 3)
    assert reach - {BOARD.harbours[h] for h in BOARD.harbours} <= set(ball)
    assert any(BOARD.sea[h] == "baltic" for h in reach)  # may end in the Baltic
    assert max(ball[h] for h in reach if h in ball) == 3
    put(s, 0, "i6")  # a Baltic ship gets 6, also into the North Sea
    far = [h for h in destinations(s, 0) if BOARD.sea.get(h) == "north" and _ball(hx("i6"), 6).get(h) == 6]
    assert far


def test_harbour_start_uses_harbour_sea():  # HANSE-7.2 HANSE-D-2
    s = _scenario()
    wind(s, 2, 5)
    put(s, 0, "bergen")
    assert max(_ball(hx("bergen"), 9).get(h, 0) for h in destinations(s, 0) if h in BOARD.open_sea) <= 2


def _corridor():
    """A field X and a start B two steps away such that some field is reachable only through X."""
    for x in BOARD.open_sea:
        for b, d in _ball(x, 2).items():
            if d != 2 or b not in BOARD.open_sea:
                continue
            with_x = set(_ball(b, 3))
            without = set(_ball(b, 3, blocked={x}))
            if with_x - without - {x}:
                return x, b, (with_x - without - {x})
    raise AssertionError("no corridor on this map")


def test_overtaking_counts_the_field_but_cannot_end_there():  # HANSE-T-6 HANSE-7.4 HANSE-7.4.2 HANSE-7.4.1
    s = _scenario()
    wind(s, 3, 3)
    x, b, beyond = _corridor()
    s["ships"][1]["at"] = x
    s["ships"][0]["at"] = b
    reach = destinations(s, 0)
    assert x not in reach
    assert beyond & set(reach)


def test_harbour_entry_ends_the_move():  # HANSE-T-7 HANSE-7.5 HANSE-8.1
    s = _scenario()
    wind(s, 5, 5)
    put(s, 0, "d1")
    assert "bergen" in sea_targets(s, 0, "red")
    s2 = sail(s, 0, "red", "bergen")
    assert s2["ships"][0]["at"] == hx("bergen") and top(s2)["k"] == "harbour"
    # start in Bergen: out one field and back in = harbour procedure; staying = none
    put(s, 0, "bergen")
    s3 = play(s, 0, "sail red bergen")
    assert top(s3)["k"] == "harbour" and top(s3)["h"] == "bergen"
    s4 = play(s, 0, "stay red")
    assert top(s4)["k"] in ("window", "turn")
    assert not any(f["k"] == "harbour" for f in s4["stack"])


def test_no_passing_through_a_harbour():  # HANSE-7.5 HANSE-7.3
    s = _scenario()
    wind(s, 5, 6)
    put(s, 0, "h8")
    for h in destinations(s, 0):
        if h in BOARD.open_sea:
            assert h in _ball(hx("h8"), 6)


def test_hamburg_and_wismar_are_not_harbours():  # HANSE-T-8 HANSE-3.4 HANSE-7.6
    s = _scenario()
    wind(s, 3, 3)
    put(s, 0, "f11")
    s = sail(s, 0, "red", "g11")
    assert not any(f["k"] == "harbour" for f in s["stack"])
    assert s["_hands"][0] == game(4)["_hands"][0]  # no card played


def test_canal_one_field_per_move_no_turning():  # HANSE-T-9 HANSE-7.7 HANSE-7.7.1 HANSE-7.7.2 HANSE-7.7.3 HANSE-7.7.4 HANSE-3.5 HANSE-D-10
    s = _scenario()
    wind(s, 4, 4)
    put(s, 0, "f11")
    assert "sail red canal1" in ship_moves(s, 0, "red")
    s = play(s, 0, "sail red canal1")
    assert s["ships"][0]["at"] == BOARD.canal[0] and s["ships"][0]["dir"] == 1
    for nxt in ("canal2", "canal3", "canal4", "j8"):
        turn_of(s, 0)
        moves = ship_moves(s, 0, "red")
        assert moves == ["sail red %s" % nxt]  # exactly one field, no stay, never back
        s = play(s, 0, moves[0])
    assert s["ships"][0]["at"] == hx("j8") and s["ships"][0]["dir"] == 0
    # the partner (seat 1) must also advance a canal ship
    put(s, 0, "canal2", 1)
    turn_of(s, 1)
    assert ship_moves(s, 1, "red") == ["sail red canal3"]
    illegal(play(s, 1, "sail red"), 1, "stay red")


def test_canal_exit_passes_an_occupied_mouth():  # HANSE-C7 HANSE-7.7.3 HANSE-D-10
    s = _scenario()
    put(s, 0, "canal4", 1)
    put(s, 1, "j8")
    moves = ship_moves(s, 0, "red")
    assert moves and "stay red" not in moves
    targets = {BOARD.by_label[m.split()[2]] for m in moves}
    assert hx("j8") not in targets
    assert all(t in BOARD.nbrs[hx("j8")] for t in targets)


def test_entering_the_canal_from_wismar_runs_backwards():  # HANSE-7.7.1 HANSE-7.7.2
    s = _scenario()
    put(s, 0, "j8")
    s = play(s, 0, "sail red canal4")
    assert s["ships"][0]["dir"] == -1
    turn_of(s, 0)
    assert ship_moves(s, 0, "red") == ["sail red canal3"]


def test_bays_hold_several_ships_only_after_a_storm():  # HANSE-7.4.3 HANSE-D-9
    s = _scenario()
    wind(s, 4, 4)
    put(s, 1, "h8")  # Lübecker Bucht
    put(s, 2, "h8")
    put(s, 0, "i8")
    assert hx("h8") not in destinations(s, 0)
    turn_of(s, 1)
    assert "stay blue" in ship_moves(s, 1, "blue")


def test_blockaded_fields_cannot_be_entered():  # HANSE-7.1 HANSE-9.2.3 HANSE-9.2.4
    s = _scenario()
    wind(s, 5, 6)
    put(s, 0, "l7")
    s["blockade"] = "danzig"
    assert BOARD.harbours["danzig"] not in destinations(s, 0)
    s["blockade"] = "sund"
    put(s, 0, "h5")
    assert not set(BOARD.sund) & set(destinations(s, 0))


def test_stay_and_loops_are_allowed():  # HANSE-7.3 HANSE-D-8 HANSE-6.3
    s = _scenario()
    put(s, 0, "e5")
    s2 = play(s, 0, "stay red")
    assert s2["ships"][0]["at"] == hx("e5")
    assert top(finish_windows(s2))["k"] == "turn"


def test_pirate_does_not_block_merchants():  # HANSE-7.4.4
    s = _scenario()
    wind(s, 3, 3)
    put(s, 0, "e5")
    before = set(destinations(s, 0))
    s["pirate"] = hx("e6")
    assert set(destinations(s, 0)) == before


def test_two_slots_in_any_order():  # HANSE-6.2 HANSE-6.4 HANSE-6.5
    s = _scenario()
    s = play(s, 0, "stay orange")
    s = finish_windows(s)
    assert not any("orange" in m for m in E.legal_moves(s, 0))
    s = play(s, 0, "stay red")
    s = finish_windows(s)
    assert E.to_act(s) == [1] and s["turn"] == 1
