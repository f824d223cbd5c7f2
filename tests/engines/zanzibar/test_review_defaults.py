"""Review: the timeout default of the initial placement (ZAN-17.2 item 1, ZAN-D-21)."""
from games.engines.zanzibar import ENGINE
from games.engines.zanzibar.placement import legal_places

from .helpers import game, play


def _play_defaults(s, seat):
    while seat in ENGINE.to_act(s):
        s = play(s, seat, ENGINE.default_move(s, seat))
    return s


def test_placement_default_places_highest_merchant_even_after_a_choice():  # ZAN-17.2 ZAN-D-21
    # the player chose merchant 3 and then let the deadline pass: the spec's default is
    # "that player's highest-numbered unplaced merchant on the legal place with the lowest id"
    s = play(game(3, start=0), 0, "place 3")
    lowest = min(legal_places(s, 0))
    s = _play_defaults(s, 0)
    assert s["occ"][lowest] == [0, 7]
    assert 3 in s["unplaced"][0] and 7 not in s["unplaced"][0]


def test_placement_default_keeps_a_choice_of_the_highest_merchant():  # ZAN-17.2 ZAN-D-21
    s = play(game(3, start=0), 0, "place 7")
    assert ENGINE.default_move(s, 0) == "to " + min(legal_places(s, 0))
    s = _play_defaults(s, 0)
    assert s["unplaced"][0] == [2, 3, 4, 5, 6] and ENGINE.to_act(s) == [1]
