"""The pirate round (HANSE-11, C1–C3, C10)."""
from games.engines.die_hanse.board import BOARD
from games.engines.die_hanse.movement import pirate_endpoints
from games.engines.die_hanse.state import occupancy

from .helpers import E, cargo, clear_sea, game, hx, illegal, play, play_card, put, top, turn_of
from .test_movement import _ball


def _setup(n=4):
    s = game(n, seed=5)
    clear_sea(s)
    turn_of(s, 0)
    return s


def _pirate_dist(start):
    dist = {start: 0}
    todo = [start]
    while todo:
        x = todo.pop(0)
        for y in BOARD.nbrs[x]:
            if y in BOARD.pirate_ok and y not in dist:
                dist[y] = dist[x] + 1
                if BOARD.kind[y] != "harbour":
                    todo.append(y)
    return dist


def _pirate(state, seat, island, pts, exact):
    from games.engines.die_hanse.cards import start_pirates
    start_pirates(state, seat, island, pts, exact)
    return state


def test_round_passes_left_with_one_more_point():  # HANSE-T-22 HANSE-11.6 HANSE-9.4 HANSE-D-28 HANSE-C10
    s = _setup()
    put(s, 0, "q1")  # far away near Nowgorod: nobody can reach it soon
    s = play_card(s, 2, "pirates helgoland 5")
    assert E.to_act(s) == [2] and top(s)["pts"] == 5 and top(s)["exact"]
    legal = E.legal_moves(s, 2)
    assert "pirate stay" not in legal  # exactly five steps (C10)
    dist = _pirate_dist(BOARD.islands["helgoland"])
    assert all(dist[BOARD.by_label[m.split()[1]]] <= 5 for m in legal)
    assert any(dist[BOARD.by_label[m.split()[1]]] == 5 for m in legal)
    target = legal[0]
    s = play(s, 2, target)
    assert E.to_act(s) == [3] and top(s)["pts"] == 6
    assert s["pirate"] == BOARD.by_label[target.split()[1]]  # continues from where it stopped
    s = play(s, 3, E.legal_moves(s, 3)[0])
    assert E.to_act(s) == [0] and top(s)["pts"] == 7


def test_pirate_cannot_jump_over_a_ship():  # HANSE-T-23 HANSE-11.4
    s = _setup()
    for x in BOARD.open_sea:
        s["ships"][0]["at"] = x
        occ = occupancy(s)
        for p in BOARD.nbrs[x]:
            if p not in BOARD.open_sea:
                continue
            ships, other = pirate_endpoints(s, p, 2, False, occ)
            free = {y for y in _ball(p, 2, blocked={x})}
            beyond = {y for y in _ball(p, 2) if y not in free and y != x}
            if beyond:
                assert x in ships
                assert not beyond & other  # nothing behind the ship without passing it
                return
    raise AssertionError("no configuration found")


def test_plunder_by_half_and_type():  # HANSE-T-24 HANSE-11.8 HANSE-11.5 HANSE-C3 HANSE-5.3.5
    s = _setup()
    put(s, 1, "e5")
    cargo(s, 1, stern=[["salt", 0], ["grain", 3], ["beer", 4]], bow=[["fish", 2], ["fish", 3], ["salt", 0]])
    s = _pirate(s, 0, "helgoland", 6, False)
    route = "pirate e5"
    assert route in E.legal_moves(s, 0)
    s = play(s, 0, route)
    opts = E.legal_moves(s, 0)
    assert "take stern grain stern beer" in opts and "take stern salt bow fish" in opts
    assert "take bow fish bow fish" in opts and all(len(o.split()) == 5 for o in opts)
    view = E.view(s, 0)
    assert "values" not in view["ships"][1]["stern"]
    beer = len(s["_pools"]["bremen"]["beer"])
    s = play(s, 0, "take stern beer bow fish")
    assert [g for g, _ in s["cargo"][1][0]] == ["salt", "grain"]
    assert len(s["_pools"]["bremen"]["beer"]) == beer + 1
    assert s["pirate"] is None and top(s)["k"] == "turn"  # HANSE-11.8
    assert "value" not in s["log"][-1]["text"] and "(" not in s["log"][-1]["text"]


def test_several_ships_one_is_chosen():  # HANSE-T-25 HANSE-11.5
    s = _setup()
    put(s, 1, "danzig")
    put(s, 2, "danzig")
    s = _pirate(s, 0, "ruegen", 6, False)
    s = play(s, 0, "pirate danzig")
    assert E.legal_moves(s, 0) == ["plunder blue", "plunder green"]
    s = play(s, 0, "plunder green")
    assert top(s)["ship"] == 2 and top(s)["stage"] == "take"


def test_blockaded_harbour_yes_luebeck_and_canal_never():  # HANSE-T-26 HANSE-11.3 HANSE-9.2.5 HANSE-BD-8
    s = _setup()
    put(s, 1, "stockholm")
    s["blockade"] = "stockholm"
    put(s, 2, "canal3", 1)
    s = _pirate(s, 0, "gotland", 6, False)
    legal = E.legal_moves(s, 0)
    assert "pirate stockholm" in legal
    assert not any(m.split()[1] in ("luebeck", "canal1", "canal2", "canal3", "canal4") for m in legal)
    s["blockade"] = "sund"
    ships, other = pirate_endpoints(s, hx("h5"), 2, False, occupancy(s))
    assert set(BOARD.sund) & other  # pirates cross a blockaded Sund (HANSE-T-19)


def test_kaperbrief_raid_points():  # HANSE-T-27 HANSE-10.3.1 HANSE-D-25
    s = _setup()
    put(s, 0, "q1")
    s["stack"].append({"k": "window", "last": 1, "stage": "resolve", "asked": [1], "ans": {"1": ["kaperbrief"]},
                       "queue": [1], "extra": None})
    s = play(s, 1, "kaperbrief raid gotland")
    assert s["pirate"] == BOARD.islands["gotland"] and top(s)["pts"] == 6 and not top(s)["exact"]
    assert "pirate stay" in E.legal_moves(s, 1)  # up to six: zero is allowed
    s = play(s, 1, E.legal_moves(s, 1)[1])
    assert E.to_act(s) == [2] and top(s)["pts"] == 7
    s = play(s, 2, "pirate stay")
    assert E.to_act(s) == [3] and top(s)["pts"] == 8


def test_no_target_ends_the_round():  # HANSE-T-42 HANSE-11.7 HANSE-D-29
    s = _setup()
    put(s, 1, "canal2", 1)
    s = play_card(s, 0, "pirates ruegen 3")
    assert s["pirate"] is None and top(s)["k"] == "turn"
    assert any("pirate round ends" in ev["text"] for ev in s["log"])
    assert any(BOARD.cards[c]["type"] == "pirates" for c in s["discard"])


def test_forced_plunder_after_a_full_circle():  # HANSE-T-43 HANSE-11.7 HANSE-D-30 HANSE-14.4 HANSE-A-4
    s = game(3, seed=4)
    clear_sea(s)
    turn_of(s, 1)
    put(s, 0, "e5")
    s = _pirate(s, 1, "helgoland", 5, False)
    top(s)["movers"] = 3
    top(s)["pts"] = 8
    s["pirate"] = next(h for h, d in _ball(hx("e5"), 6).items() if d == 6)
    legal = E.legal_moves(s, 1)
    assert legal == ["pirate e5"]
    assert E.default_move(s, 1) == "pirate e5"


def test_harbour_ends_the_pirate_move():  # HANSE-C1 HANSE-D-26
    s = _setup()
    put(s, 1, "q1")
    s = _pirate(s, 0, "gotland", 6, False)
    legal = E.legal_moves(s, 0)
    assert "pirate stockholm" in legal
    # from a field next to Stockholm with 2 points: Stockholm is an end, never a way through
    s["pirate"] = hx("m3")
    ships, other = pirate_endpoints(s, hx("m3"), 1, False, occupancy(s))
    assert BOARD.harbours["stockholm"] in other
    s["pirate"] = BOARD.islands["gotland"]
    s = play(s, 0, "pirate stockholm")
    assert E.to_act(s) == [1] and s["pirate"] == BOARD.harbours["stockholm"]


def test_pirate_starts_on_the_island():  # HANSE-C2 HANSE-D-24 HANSE-11.1 HANSE-3.8
    s = _setup()
    put(s, 1, "q1")
    s = _pirate(s, 0, "helgoland", 1, True)
    assert s["pirate"] == BOARD.islands["helgoland"]
    firsts = {BOARD.by_label[m.split()[1]] for m in E.legal_moves(s, 0)}
    assert firsts == set(BOARD.nbrs[BOARD.islands["helgoland"]])
    s = play(s, 0, E.legal_moves(s, 0)[0])
    assert BOARD.islands["helgoland"] not in {BOARD.by_label.get(m.split()[1]) for m in E.legal_moves(s, 1)}


def test_exact_points_for_the_pirate_card():  # HANSE-C10 HANSE-11.2
    s = _setup()
    put(s, 1, "q1")
    s = _pirate(s, 0, "helgoland", 2, True)
    legal = E.legal_moves(s, 0)
    assert "pirate stay" not in legal
    for m in legal:
        d = _ball(BOARD.islands["helgoland"], 3).get(BOARD.by_label[m.split()[1]])
        assert d is None or d <= 2


def test_small_cargo_loses_what_it_has():  # HANSE-D-27 HANSE-C3
    s = _setup()
    put(s, 1, "e5")
    cargo(s, 1, stern=[["grain", 2]], bow=[])
    s = _pirate(s, 0, "helgoland", 6, False)
    s = play(s, 0, "pirate e5")
    assert s["cargo"][1] == [[], []] and s["pirate"] is None
    put(s, 1, "e5")
    s = _pirate(s, 0, "helgoland", 6, False)
    s = play(s, 0, "pirate e5")
    assert s["pirate"] is None  # an empty ship is still reached: the round ends


def test_pirate_timeout_default_does_not_move():  # HANSE-14.4 HANSE-A-4
    s = _setup()
    put(s, 1, "q1")
    s = _pirate(s, 0, "gotland", 6, False)
    assert E.default_move(s, 0) == "pirate stay"
    s2 = play(s, 0, "pirate stay")
    assert E.to_act(s2) == [1]
    illegal(s, 2, "pirate stay")
