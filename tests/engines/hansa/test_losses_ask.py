"""Ask mode for tile losses (HANSA-C1, HANSA-16.3, HANSA-D-10)."""
from games.engines.hansa.turn import finish

from .helpers import ENGINE, give, kinds, playing, rejected, set_stalls


def _sale(ask=(False, True, False)):
    s = playing(ship="danzig", coins=[3, 3, 3], ask=list(ask))
    set_stalls(s, "danzig", [1, 0, 0])
    give(s, 0, "orange/1", "orange/2", "brown/1", "brown/2")
    give(s, 1, "orange/1", "orange/3")
    return ENGINE.apply(s, 0, "sell orange/1 orange/2")


def test_ask_mode_creates_a_non_blocking_pending_decision():  # HANSA-C1 HANSA-16.3 HANSA-7.2
    s = _sale()
    assert ENGINE.to_act(s) == [0, 1]
    assert ENGINE.legal_moves(s, 1) == ["lose orange/1", "lose orange/3"]
    assert "choose which face-up tile to lose" in ENGINE.view(s, 1)["prompt"]
    # the active player is not held up: still free to continue the sale, move or end
    assert "end" in ENGINE.legal_moves(s, 0) and "sell brown/1 brown/2" in ENGINE.legal_moves(s, 0)
    s2 = ENGINE.apply(s, 0, "move kalmar")
    assert 1 in ENGINE.to_act(s2)
    s3 = ENGINE.apply(s, 1, "lose orange/3")                 # the owner's real choice
    assert kinds(s3["tiles"][1]) == ["orange/1"] and ENGINE.to_act(s3) == [0]


def test_automatic_mode_loses_the_lowest_barrel_tile():  # HANSA-D-10 HANSA-16.3
    s = _sale(ask=(False, False, False))
    assert kinds(s["tiles"][1]) == ["orange/3"] and ENGINE.to_act(s) == [0]


def test_default_move_answers_with_the_automatic_rule():  # HANSA-C1 HANSA-D-17
    s = _sale()
    assert ENGINE.default_move(s, 1) == "lose orange/1"


def test_pending_loss_must_be_answered_before_the_seats_next_turn():  # HANSA-C1 HANSA-16.3
    s = _sale()
    s = ENGINE.apply(s, 0, "end")
    assert s["active"] == 1 and s["phase"] == "start"
    assert ENGINE.to_act(s) == [1] and s["coins"][1] == 3      # phase 1 has not happened yet
    assert "choose which tile to lose" in rejected(s, 1, "end")
    s = ENGINE.apply(s, 1, "lose orange/1")
    assert s["coins"][1] == 6 and s["phase"] in ("fill", "actions")


def test_pending_loss_must_be_answered_before_final_scoring():  # HANSA-C1 HANSA-16.3
    s = _sale()
    finish(s)
    assert s["phase"] == "final" and ENGINE.to_act(s) == [1]
    assert ENGINE.result(s) is None
    s = ENGINE.apply(s, 1, "lose orange/3")
    assert s["phase"] == "over" and ENGINE.result(s) is not None and ENGINE.to_act(s) == []


def test_obligation_only_while_more_tiles_held_than_owed():  # HANSA-16.3
    s = playing(ship="danzig", coins=[3, 3, 3], ask=[False, True, False])
    set_stalls(s, "danzig", [1, 0, 0])
    set_stalls(s, "kalmar", [1, 0, 0])
    give(s, 0, "orange/1", "orange/2", "orange/1", "orange/2")
    give(s, 1, "orange/1", "orange/3")
    s = ENGINE.apply(s, 0, "sell orange/1 orange/2")
    assert s["owe"][1] == {"0": 1}
    s = ENGINE.apply(s, 0, "move kalmar")
    s = ENGINE.apply(s, 0, "sell orange/1 orange/2")
    # now owes 2 of the 2 held: no choice left, resolved automatically
    assert s["owe"][1] == {} and s["tiles"][1] == [] and ENGINE.to_act(s) == [0]


def test_a_seat_without_a_pending_decision_cannot_lose():  # HANSA-C1 HANSA-7.2
    s = _sale()
    assert "not your turn" in rejected(s, 2, "lose orange/1")
    assert ENGINE.legal_moves(s, 2) == []


def test_only_one_seat_decides_outside_ask_mode():  # HANSA-16.5
    from tests.engines.playout import play_random

    def check(state, seat, legal):
        assert len(ENGINE.to_act(state)) == 1

    play_random(ENGINE, 4, seed=5, check=check)
