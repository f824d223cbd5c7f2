"""Review: the timeout default of a plunder takes two stones uniformly at random (HANSE-14.4)."""
from games.engines.die_hanse.cards import start_pirates
from games.engines.rng import seed_state

from .helpers import E, cargo, clear_sea, game, play, put, top, turn_of


def test_default_plunder_takes_two_stones_uniformly_at_random():  # HANSE-14.4 HANSE-A-4 HANSE-C3
    s = game(4, seed=5)
    clear_sea(s)
    turn_of(s, 0)
    put(s, 1, "e5")
    # five salt and one beer: two random stones of six include the beer with probability 1/3
    cargo(s, 1, stern=[["salt", 0]] * 3, bow=[["salt", 0], ["salt", 0], ["beer", 3]])
    start_pirates(s, 0, "helgoland", 6, False)
    s = play(s, 0, "pirate e5")
    assert top(s)["stage"] == "take"
    legal = E.legal_moves(s, 0)
    samples = 3000
    beer = 0
    for i in range(samples):
        s["_rng"] = seed_state(1000 + i)
        move = E.default_move(s, 0)
        assert move in legal
        beer += "beer" in move
    # uniform over stones: 1/3 (5 of 15 pairs); uniform over the listed moves would give 2/5
    assert abs(beer / samples - 1 / 3) < 0.03


def test_timeout_of_a_pirate_card_mover_does_not_move_the_pirate():  # HANSE-14.4 HANSE-A-4 HANSE-C10
    from games.engines.die_hanse.board import BOARD
    s = game(4, seed=5)
    clear_sea(s)
    turn_of(s, 0)
    put(s, 1, "q1")  # far from Helgoland: nobody is reached
    start_pirates(s, 2, "helgoland", 5, True)  # a Pirate card: exactly 5 points when moved
    assert "pirate stay" not in E.legal_moves(s, 2)
    s = E.apply(s, 2, E.default_move(s, 2))
    # the default is "the pirate does not move, so the round passes on"
    assert s["pirate"] == BOARD.islands["helgoland"]
    assert E.to_act(s) == [3] and top(s)["pts"] == 6
