"""Movement and displacement rules beyond the rulebook diagrams (ZAN-9, ZAN-10)."""
from games.engines.zanzibar import ENGINE
from games.engines.zanzibar.board import get_board

from .helpers import SEAT, at, game, finish_placement, play, rejected, scenario

G = SEAT["green"]


def test_weaker_with_only_the_movers_place_free_is_expelled():  # ZAN-T-08 ZAN-10.1 ZAN-10.3
    s = scenario({"green-3": "a", "red-5": "p1", "blue-4": "b"}, board="fix-b")
    s = play(s, G, "move 3", "to p1")
    # F(P1) is empty (A holds the mover, B holds blue-4): expel to any free place
    assert sorted(ENGINE.legal_moves(s, G)) == ["expel d", "expel e"]
    rejected(s, G, "expel a")  # the place the mover comes from is not free
    s = play(s, G, "expel d")
    assert at(s, "red-5") == "d" and at(s, "green-3") == "p1"


def test_equal_with_only_the_movers_place_free_is_expelled():  # ZAN-T-09 ZAN-D-11
    s = scenario({"green-3": "a", "red-3": "p1", "blue-4": "b"}, board="fix-b")
    assert "move 3" in ENGINE.legal_moves(s, G)
    s = play(s, G, "move 3", "to p1")
    assert sorted(ENGINE.legal_moves(s, G)) == ["expel d", "expel e"]
    s = play(s, G, "expel e")
    assert at(s, "red-3") == "e" and at(s, "green-3") == "p1"


def test_came_from_means_previous_step_not_start():  # ZAN-D-11 ZAN-10.1
    # A is free again once the mover has left it, so it may receive a pushed merchant
    s = scenario({"green-3": "a", "red-5": "p2", "yellow-6": "b", "blue-6": "q"}, board="fix-a")
    s = play(s, G, "move 3", "to p1")
    s = play(s, G, "to p2")  # F(P2) = {} (p1 mover, b, q occupied): expel anywhere free
    assert "expel a" in ENGINE.legal_moves(s, G)
    assert "expel p1" not in ENGINE.legal_moves(s, G)


def test_three_different_merchants_each_once():  # ZAN-T-10 ZAN-9.1 ZAN-9.2
    # 3 players: the "green" player of the spec is seat 0 here, with 6 merchants
    s = finish_placement(game(3, seed=4))
    s = play(s, 0, *["keep"] * 0)
    while s["phase"] == "window":
        s = play(s, ENGINE.to_act(s)[0], "keep")
    assert s["active"] == 0 and s["phase"] == "move"
    moved = []
    for _ in range(3):
        legal = [m for m in ENGINE.legal_moves(s, 0) if m.startswith("move")]
        num = int(legal[-1].split()[1])
        s = play(s, 0, f"move {num}")
        s = play(s, 0, next(m for m in ENGINE.legal_moves(s, 0) if m.startswith("to")))
        while s["phase"] == "move" and s["cur"] is not None:
            s = play(s, 0, ENGINE.default_move(s, 0))
        moved.append(num)
        if s["phase"] == "move":
            assert f"move {num}" not in ENGINE.legal_moves(s, 0)
            assert "already moved" in rejected(s, 0, f"move {num}")  # ZAN-9.2
    # after the third move the movement step is over: a fourth move is refused
    assert s["phase"] == "assign" and sorted(s["moved"]) == sorted(moved)
    rejected(s, 0, "move 4")


def test_displaced_merchant_moves_normally_next_turn():  # ZAN-T-10 ZAN-9.2
    s = scenario({"green-3": "a", "red-5": "p2"}, board="fix-a", players=5, active=3)
    s = play(s, G, "move 3", "to p1", "to p2", "push q", "to b", "done", "done")
    # next seat is blue (4), then red (0): red-5 was displaced, not moved
    s = play(s, 4, "done", "done")
    assert s["active"] == 0 and "move 5" in ENGINE.legal_moves(s, 0)


def test_path_may_not_revisit():  # ZAN-T-11 ZAN-9.4 ZAN-D-08
    s = scenario({"green-4": "p1"}, board="fix-a")
    s = play(s, G, "move 4", "to p2", "to q")
    # Q is a dead end; P2 was visited, so the move ends there
    assert s["cur"] is None and at(s, "green-4") == "q"
    s = scenario({"green-4": "p1"}, board="fix-a")
    s = play(s, G, "move 4", "to p2")
    assert "to p1" not in ENGINE.legal_moves(s, G)  # never back to p0
    assert "twice" in rejected(s, G, "to p1")


def test_move_needs_at_least_one_step():  # ZAN-D-22 ZAN-9.3
    s = scenario({"green-3": "a"}, board="fix-a")
    s = play(s, G, "move 3")
    assert "stop" not in ENGINE.legal_moves(s, G)
    rejected(s, G, "stop")
    s = play(s, G, "cancel")  # choosing another merchant is fine; nothing has happened
    assert s["cur"] is None and s["moved"] == []


def test_stop_early_and_places_left_are_free():  # ZAN-9.3 ZAN-9.8
    s = scenario({"green-7": "a"}, board="fix-a")
    s = play(s, G, "move 7", "to p1", "to p2", "stop")
    assert at(s, "green-7") == "p2" and "a" not in s["occ"] and "p1" not in s["occ"]


def test_pushing_does_not_use_range():  # ZAN-9.7 ZAN-D-23
    s = scenario({"green-3": "a", "red-5": "p1", "red-6": "p2"}, board="fix-a")
    s = play(s, G, "move 3", "to p1")
    # red-5 at P1: F(P1) = {} (A mover, P2 red-6): expelled
    s = play(s, G, "expel y", "to p2", "push q", "to b")
    # three displacements-and-steps, still exactly three steps: the mover reached B
    assert at(s, "green-3") == "b" and s["moved"] == [3]


def test_displacement_never_chains():  # ZAN-10.6 ZAN-10.8
    s = scenario({"green-3": "a", "red-5": "p2", "blue-6": "b", "yellow-7": "c"}, board="fix-a")
    s = play(s, G, "move 3", "to p1", "to p2")
    # F(P2) = {Q}: automatic push; nobody else is touched
    before = {k: v for k, v in s["occ"].items()}
    assert at(s, "red-5") == "q" and before["b"] == [4, 6] and before["c"] == [2, 7]


def test_push_choice_is_the_active_players():  # ZAN-D-09 ZAN-8.3 ZAN-17.5
    s = scenario({"green-3": "a", "red-5": "p2"}, board="fix-a")
    s = play(s, G, "move 3", "to p1", "to p2")
    assert ENGINE.to_act(s) == [G]
    rejected(s, SEAT["red"], "push b")


def test_expel_goes_anywhere_chosen_not_random():  # ZAN-D-10 ZAN-17.1
    s = scenario({"green-3": "a", "red-3": "p1", "red-6": "p2"}, board="fix-a")
    s = play(s, G, "move 3", "to p1")
    for dest in ("b", "c", "q", "y", "z"):
        t = play(s, G, f"expel {dest}")
        assert at(t, "red-3") == dest
    assert s["_rng"] == play(s, G, "expel z")["_rng"]  # no randomness used


def test_push_with_single_free_neighbour_is_automatic():  # ZAN-17.3 ZAN-10.2
    s = scenario({"green-3": "a", "red-5": "p1", "blue-2": "b"}, board="fix-b")
    s = scenario({"green-3": "b", "red-5": "p1"}, board="fix-b")
    s = play(s, G, "move 3", "to p1")  # F(P1) = {A}: no question
    assert at(s, "red-5") == "a" and s["pending"] is None


def test_expel_with_single_free_place_is_automatic():  # ZAN-17.3 ZAN-10.3
    s = scenario({"green-3": "a", "red-5": "p1", "blue-4": "b", "yellow-6": "d"}, board="fix-b")
    s = play(s, G, "move 3", "to p1")
    assert at(s, "red-5") == "e" and s["pending"] is None


def test_adjacency_is_the_road_graph():  # ZAN-D-06 ZAN-4.1
    board = get_board()
    s = scenario({"green-5": "n1"}, players=5)
    s = play(s, G, "move 5")
    assert sorted(m.split()[1] for m in ENGINE.legal_moves(s, G) if m.startswith("to")) == sorted(board.adj["n1"])
    assert "not joined by a road" in rejected(s, G, "to s6")


def test_displaced_merchant_ignores_province_limit():  # ZAN-10.7 ZAN-D-27 ZAN-6.4
    # red already has red-2 in the west (w3); red-5 is pushed from n4 into w1 (west)
    s = scenario({"green-3": "z1", "red-5": "n4", "red-2": "w3", "blue-2": "n1"}, players=5)
    s = play(s, G, "move 3", "to n4")
    assert at(s, "red-5") == "w1"  # only free neighbour of n4 besides the mover's z1
    assert s["occ"]["w3"] == [0, 2]


def test_movement_is_optional():  # ZAN-8.2
    s = scenario({"green-3": "a"}, board="fix-a")
    s = play(s, G, "done")
    assert s["phase"] == "assign" and s["moved"] == []


def test_reference_algorithm_rejects_and_keeps_state():  # ZAN-10.8 ZAN-9.6
    s = scenario({"green-7": "p2", "green-5": "q", "red-2": "b"}, board="fix-a")
    s = play(s, G, "move 7")
    assert "own merchant" in rejected(s, G, "to q")
    assert "stronger" in rejected(s, G, "to b")
    rejected(s, G, "to c")  # not adjacent
