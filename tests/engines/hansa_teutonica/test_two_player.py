"""The 2-player variant (HT-13, HT-C5, HT-D-22..24)."""
from collections import deque

import pytest

from games.engines import IllegalMove
from games.engines.hansa_teutonica.board import LAYOUT, SIDES
from games.engines.hansa_teutonica.rules import check_east_west

from .helpers import E, fill, give, legal, new, put, run

RED, BLUE = 0, 1
SIDE = SIDES["23"]


def _two(pawn="p01"):
    s = new(players=2)
    s["pawn"] = pawn
    return s


def test_free_pawn_move_before_first_action():  # HT-T-27 HT-13.3 HT-C5
    s = give(_two("p01"), RED, supply=(3, 0))
    s = run(s, RED, "pawn")
    free = sorted(m.split()[1] for m in legal(s, RED) if m.startswith("free"))
    assert free == sorted(SIDE.reach2["p01"])
    s = run(s, RED, "free p03")
    assert s["pawn"] == "p03" and s["used"] == 0 and s["free_used"]
    s = run(s, RED, "place")
    assert sorted(m.split()[1] for m in legal(s, RED) if m.startswith("on")) == sorted(SIDE.province_routes["p03"])


def test_free_move_reach_is_two_borders():  # HT-C5 HT-13.1
    adj = {k.lower(): [x.lower() for x in v] for k, v in LAYOUT["two_player"]["adjacency"].items()}
    for p in SIDE.provinces:
        dist = {p: 0}
        q = deque([p])
        while q:
            x = q.popleft()
            for y in adj[x]:
                if y not in dist:
                    dist[y] = dist[x] + 1
                    q.append(y)
        assert sorted(SIDE.reach2[p]) == sorted(k for k, d in dist.items() if 0 < d <= 2)


def test_paid_pawn_move_costs_an_action():  # HT-T-27 HT-13.4
    s = _two("p01")
    s = run(s, RED, "pawn", "to p18")
    assert s["pawn"] == "p18" and s["used"] == 1
    s = run(s, RED, "pawn", "to p05")
    assert s["used"] == 2 and s["pawn"] == "p05"


def test_free_move_after_last_action_ends_turn():  # HT-13.3 HT-D-23 HT-C4
    s = _two("p01")
    s = run(s, RED, "pawn", "to p18", "pawn")
    opts = legal(s, RED)
    assert any(m.endswith(" end") for m in opts)
    target = [m for m in opts if m.endswith(" end")][0]
    s = run(s, RED, target)
    assert E.to_act(s) == [BLUE]
    # once per turn: after the free move before the first action there is no second free move
    t = _two("p01")
    t = run(t, RED, "pawn", "free p02", "pawn")
    assert not any(m.startswith("free") for m in legal(t, RED))


def test_place_displace_establish_restricted_to_pawn_province():  # HT-T-27 HT-13.5
    s = give(_two("p01"), RED, supply=(3, 0))
    put(s, "arnheim-duisburg", "1t")
    assert "displace" not in legal(s, RED)
    fill(s, "dortmund-duisburg", "0t")
    assert "establish dortmund-duisburg" not in legal(s, RED)
    with pytest.raises(IllegalMove):
        E.apply(s, RED, "establish dortmund-duisburg")
    put(s, "hamburg-lubeck", "1t")
    assert "displace" in legal(s, RED)
    s2 = run(s, RED, "displace")
    assert legal(s2, RED)[:-1] == ["at hamburg-lubeck"]


def test_move_and_assign_not_restricted():  # HT-T-27 HT-13.5
    s = give(_two("p01"), RED, stock=(3, 0))
    put(s, "arnheim-duisburg", "0t")
    s = run(s, RED, "assign", "move", "to dortmund-duisburg", "from arnheim-duisburg trader")
    assert s["spaces"]["dortmund-duisburg"][0] == "0t" and s["used"] == 2


def test_establish_shortcut_with_paid_pawn_move():  # HT-13.4 HT-13.5
    s = _two("p01")
    fill(s, "dortmund-duisburg", "0t")
    opts = [m for m in legal(s, RED) if m.startswith("establish")]
    assert opts == [f"establish dortmund-duisburg via {p}" for p in SIDE.route_provinces["dortmund-duisburg"]]
    s = run(s, RED, opts[0], "kontor duisburg trader")
    assert s["pawn"] == SIDE.route_provinces["dortmund-duisburg"][0] and s["used"] == 2


def test_marker_effects_and_replacement_not_restricted():  # HT-D-24 HT-13.5
    s = _two("p01")
    s["p"][RED]["markers"] = [["remove", False, False]]
    put(s, "arnheim-duisburg", "1t")
    s = run(s, RED, "use remove")
    assert "at arnheim-duisburg" in legal(s, RED)
    t = give(_two("p01"), RED, supply=(2, 0))
    give(t, BLUE, stock=(1, 0))
    put(t, "hamburg-lubeck", "1t")
    t = run(t, RED, "displace", "at hamburg-lubeck")
    t = run(t, BLUE, "pick displaced")
    targets = [m.split()[1] for m in legal(t, BLUE)]
    assert any("p01" not in SIDE.route_provinces[r] for r in targets)


def test_two_player_east_west_awards():  # HT-13.6
    s = _two("p01")
    for c in ("Arnheim", "Munster", "Minden", "Brunswick", "Stendal"):
        s["houses"][c][0] = RED
    s["ew"] = [5, 6]  # two awards already given
    check_east_west(s, RED)
    assert s["p"][RED]["pp"] == 0
    s["ew"] = [BLUE]
    check_east_west(s, RED)
    assert s["p"][RED]["pp"] == 4


def test_two_player_game_can_be_played_through():  # HT-13 HT-13.2
    from tests.engines.playout import play_random
    state, moves = play_random(E, 2, 5)
    assert state["phase"] == "over" and moves[0][1].startswith("pawn to")
