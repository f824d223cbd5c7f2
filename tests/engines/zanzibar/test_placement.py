"""Initial placement (ZAN-6)."""
from collections import Counter

import pytest

from games.engines.zanzibar import ENGINE
from games.engines.zanzibar.board import get_board, register_board
from games.engines.zanzibar.placement import legal_places

from .helpers import finish_placement, game, play, rejected

RED, ORANGE, YELLOW = 0, 1, 2


def test_placement_limits():  # ZAN-T-12 ZAN-6.1 ZAN-6.2
    s = game(3, start=RED)
    s = play(s, RED, "place 2", "to n1")
    s = play(s, ORANGE, "place 2")
    assert "occupied" in rejected(s, ORANGE, "to n1")
    s = play(s, ORANGE, "to n2")  # orange in the north too: allowed
    s = play(s, YELLOW, "place 2", "to s1")
    s = play(s, RED, "place 7")
    assert "province" in rejected(s, RED, "to n3")
    s = play(s, RED, "to z1")  # a sea field: allowed
    s = play(s, ORANGE, "place 3", "to s2")
    s = play(s, YELLOW, "place 3", "to w1")
    s = play(s, RED, "place 3")
    assert "province" in rejected(s, RED, "to z2")  # second sea field
    assert "to z2" not in ENGINE.legal_moves(s, RED)


def test_placement_is_alternating_one_at_a_time():  # ZAN-6.1 ZAN-17.5
    s = game(3, start=1)
    assert ENGINE.to_act(s) == [1]
    s = play(s, 1, "place 5", "to n1")
    assert ENGINE.to_act(s) == [2]
    rejected(s, 1, "place 4")


@pytest.mark.parametrize("players,distinct", [(2, 6), (3, 6), (4, 5), (5, 4)])
def test_every_player_one_merchant_per_province(players, distinct):  # ZAN-T-12 ZAN-6.3 ZAN-4.3
    s = game(players)
    hands_seen = []
    while s["phase"] == "place":
        hands_seen.append(any(s["_hand"]))
        seat = ENGINE.to_act(s)[0]
        s = play(s, seat, ENGINE.default_move(s, seat))
    assert not any(hands_seen)  # ZAN-6.5: no card before the last placement
    board = get_board()
    for seat in range(players):
        provs = [board.province[p] for p, (o, _) in s["occ"].items() if o == seat]
        assert len(provs) == distinct and len(set(provs)) == distinct
    assert len(s["occ"]) == players * len(board.merchants[players])


def test_cards_drawn_only_after_placement():  # ZAN-6.5 ZAN-7.1
    s = finish_placement(game(3))
    assert s["phase"] == "window"
    assert all(len(h) == 2 for h in s["_hand"]) and all(len(d) == 8 for d in s["_deck"])


def test_no_legal_place_drops_the_province_limit():  # ZAN-6.6 ZAN-D-05
    register_board("tiny", [{"id": "a", "province": "north"}, {"id": "b", "province": "north"},
                            {"id": "c", "province": "sea"}], [["a", "b"], ["b", "c"]])
    s = game(2)
    s["map"] = "tiny"
    s["occ"] = {"a": [0, 2], "c": [1, 2]}
    s["unplaced"] = [[3], [3]]
    s["active"] = 0
    assert legal_places(s, 0) == ["b"]  # red already in the north, but nothing else is free
    s = play(s, 0, "place 3", "to b")
    assert s["occ"]["b"] == [0, 3]


def test_province_limit_does_not_restrict_movement():  # ZAN-6.4 ZAN-D-27
    s = finish_placement(game(3, seed=2))
    while s["phase"] == "window":
        s = play(s, ENGINE.to_act(s)[0], "keep")
    seat = s["active"]
    board = get_board()
    counts = Counter(board.province[p] for p, (o, _) in s["occ"].items() if o == seat)
    assert set(counts.values()) == {1}
    # any merchant may move into a province where the colour already stands
    moves = []
    for m in ENGINE.legal_moves(s, seat):
        if m.startswith("move"):
            t = play(s, seat, m)
            moves += [(m, x) for x in ENGINE.legal_moves(t, seat) if x.startswith("to")]
    assert moves  # there are steps, none filtered by the placement limit
    m, x = moves[0]
    t = play(s, seat, m, x)
    assert t["occ"][x.split()[1]][0] == seat
