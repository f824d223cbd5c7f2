"""Review: a seat number that is not a seat of the game (negative, or past the player count) must
not read another seat's private facts through Python's negative indexing, and must not crash."""
from .helpers import ENGINE, give, playing, rejected, set_stalls


def test_view_of_a_non_seat_shows_no_private_setting():  # HANSA-C1 HANSA-15.1
    s = playing(players=3, ask=[False, False, True])   # seat 2's setting is private
    for bad in (-1, -3, 3, 7):
        v = ENGINE.view(s, bad)
        assert "settings" not in v
        assert v["you"] is None and v["prompt"] == ""
    assert ENGINE.view(s, 2)["settings"] == {"ask_losses": True}


def test_default_move_of_a_non_seat_is_none():  # HANSA-D-17 HANSA-C1
    s = playing(players=3, ship="danzig", ask=[False, False, True])
    set_stalls(s, "danzig", [1, 0, 0])
    give(s, 0, "orange/1", "orange/2")
    give(s, 2, "orange/1", "orange/3")
    s = ENGINE.apply(s, 0, "sell orange/1 orange/2")
    assert ENGINE.to_act(s) == [0, 2]
    assert ENGINE.default_move(s, 2) == "lose orange/1"
    for bad in (-1, 3, 9):
        assert ENGINE.default_move(s, bad) is None     # seat -1 is not seat 2


def test_a_non_seat_can_neither_list_nor_make_moves():  # HANSA-7.2
    s = playing(players=3)
    assert ENGINE.to_act(s) == [0] and "end" in ENGINE.legal_moves(s, 0)
    for bad in (-3, 3, True, False, "0"):
        assert ENGINE.legal_moves(s, bad) == []
        assert "no such seat" in rejected(s, bad, "end")
