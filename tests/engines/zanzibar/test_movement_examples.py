"""The six movement diagrams of the rulebook (ZAN-T-01 ... ZAN-T-06) on the spec's
fixture graphs."""
from games.engines.zanzibar import ENGINE

from .helpers import SEAT, at, play, rejected, scenario

G = SEAT["green"]


def test_allowed_1_plain_move_within_range():  # ZAN-T-01 ZAN-9.3
    s = scenario({"green-3": "a"}, board="fix-a")
    s = play(s, G, "move 3", "to p1", "to p2", "to b")
    assert at(s, "green-3") == "b"
    assert s["moved"] == [3] and s["cur"] is None  # range 3 used up: the move is over
    # variant: a fourth step A>P1>P2>B>C is refused
    msg = rejected(s, G, "to c")
    assert "merchant" in msg or "move" in msg


def test_allowed_2_pushing_the_same_merchant_twice():  # ZAN-T-02 ZAN-10.2 ZAN-10.5 ZAN-D-24
    s = scenario({"green-3": "a", "red-5": "p2"}, board="fix-a")
    s = play(s, G, "move 3", "to p1", "to p2")
    # F(P2) = {B, Q}: P1 holds the mover; the active player chooses
    assert ENGINE.to_act(s) == [G]
    assert sorted(ENGINE.legal_moves(s, G)) == ["push b", "push q"]
    s = play(s, G, "push b")
    assert at(s, "red-5") == "b"
    s = play(s, G, "to b")  # F(B) = {C}: pushed again, automatically
    assert at(s, "green-3") == "b" and at(s, "red-5") == "c"
    assert s["moved"] == [3]


def test_allowed_2_alternative_push_to_q():  # ZAN-T-02 ZAN-9.7
    s = scenario({"green-3": "a", "red-5": "p2"}, board="fix-a")
    s = play(s, G, "move 3", "to p1", "to p2", "push q", "to b")
    assert at(s, "green-3") == "b" and at(s, "red-5") == "q"
    # red's owner was never asked
    assert SEAT["red"] not in ENGINE.to_act(s)


def test_allowed_3_expel_equal_then_push_weaker():  # ZAN-T-03 ZAN-10.3 ZAN-10.4
    s = scenario({"green-3": "a", "red-3": "p1", "red-6": "p2"}, board="fix-a")
    s = play(s, G, "move 3", "to p1")
    # F(P1) is empty: A holds the mover, P2 holds red-6 -> expel anywhere free
    assert sorted(ENGINE.legal_moves(s, G)) == ["expel b", "expel c", "expel q", "expel y", "expel z"]
    rejected(s, G, "expel p2")  # occupied: refused
    s = play(s, G, "expel y", "to p2", "push q", "to b")
    assert at(s, "green-3") == "b" and at(s, "red-3") == "y" and at(s, "red-6") == "q"


def test_allowed_3_variant_weaker_pushed_twice():  # ZAN-T-03 ZAN-10.5
    s = scenario({"green-3": "a", "red-3": "p1", "red-6": "p2"}, board="fix-a")
    s = play(s, G, "move 3", "to p1", "expel y", "to p2", "push b", "to b")
    assert at(s, "green-3") == "b" and at(s, "red-6") == "c"


def test_not_possible_1_stronger_blocks():  # ZAN-T-04 ZAN-9.5 ZAN-9.6
    s = scenario({"green-3": "a", "red-2": "p1"}, board="fix-a")
    assert "move 3" not in ENGINE.legal_moves(s, G)
    assert "stronger" in rejected(s, G, "move 3") or "blocked" in rejected(s, G, "move 3")
    # also: green-4 may not enter a place holding red-3
    s = scenario({"green-4": "a", "red-3": "p1"}, board="fix-a")
    assert ENGINE.legal_moves(s, G) == ["done"]


def test_not_possible_1_stronger_blocks_mid_path():  # ZAN-T-04 ZAN-9.6
    s = scenario({"green-3": "a", "red-2": "b"}, board="fix-a")
    s = play(s, G, "move 3", "to p1", "to p2")
    assert "stronger" in rejected(s, G, "to b")
    assert ENGINE.legal_moves(s, G) == ["to q", "stop"]  # a shorter or different path instead


def test_not_possible_2_own_merchant_blocks():  # ZAN-T-05 ZAN-9.5
    s = scenario({"green-3": "a", "green-5": "p1"}, board="fix-a")
    assert "move 3" not in ENGINE.legal_moves(s, G)
    rejected(s, G, "move 3")
    s = scenario({"green-3": "b", "green-5": "p2"}, board="fix-a")
    s = play(s, G, "move 3", "to c")
    assert "own merchant" in rejected(s, G, "to b") or at(s, "green-3") == "c"


def test_not_possible_3_equal_with_free_neighbour():  # ZAN-T-06 ZAN-10.4 ZAN-C4
    s = scenario({"green-3": "a", "red-3": "p1"}, board="fix-b")
    # B is a free neighbour of P1: red-3 can be neither pushed nor expelled
    assert "move 3" not in ENGINE.legal_moves(s, G)
    rejected(s, G, "move 3")
