"""Components, player counts and set-up (ZAN-2, ZAN-3, ZAN-5, ZAN-17.1)."""
import pytest

from games.engines import IllegalMove
from games.engines.zanzibar import ENGINE
from games.engines.zanzibar.board import get_board
from games.engines.zanzibar.movement import step_options

from .helpers import game, scenario

MERCHANTS = {2: [2, 3, 4, 5, 6, 7], 3: [2, 3, 4, 5, 6, 7], 4: [2, 3, 4, 5, 6], 5: [2, 3, 4, 5]}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_merchants_by_player_count(players):  # ZAN-2.2 ZAN-3.3 ZAN-5.1
    s = ENGINE.setup(players=players, seed=3, options={})
    assert s["unplaced"] == [MERCHANTS[players]] * players
    v = ENGINE.view(s, 0)
    assert v["colours"] == ["red", "brown", "olive", "green", "blue"][:players]  # unused colours unused


def test_player_count_two_to_five():  # ZAN-3.2 ZAN-D-01
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 5)
    for bad in (1, 6):
        with pytest.raises(IllegalMove):
            ENGINE.setup(players=bad, seed=1, options={})
    b = get_board()
    assert (b.scorings[2], b.quota[2]) == (b.scorings[3], b.quota[3]) == (9, 1)
    assert (b.scorings[4], b.quota[4]) == (b.scorings[5], b.quota[5]) == (8, 2)


def test_each_player_has_a_private_shuffled_deck_of_ten():  # ZAN-5.2 ZAN-2.4 ZAN-17.1
    s = ENGINE.setup(players=5, seed=11, options={})
    cards = sorted(get_board().cards)
    assert all(sorted(d) == cards for d in s["_deck"])
    assert len({tuple(d) for d in s["_deck"]}) > 1  # independent permutations
    assert ENGINE.setup(players=5, seed=11, options={}) == s  # replayable from the seed
    assert ENGINE.setup(players=5, seed=12, options={})["_deck"] != s["_deck"]
    spice = [c for c in cards if get_board().cards[c]["kind"] == "spice"]
    assert len(spice) == 5 and len(cards) - len(spice) == 5


def test_scores_start_at_ten():  # ZAN-5.3 ZAN-2.3
    for players in range(2, 6):
        s = ENGINE.setup(players=players, seed=1, options={})
        assert s["score"] == [10] * players
        assert ENGINE.view(s, None)["scores"] == [10] * players


def test_start_player_appointed_or_random():  # ZAN-5.4 ZAN-D-04 ZAN-8.1 ZAN-17.1
    s = game(4, start=2)
    assert s["start"] == 2 and s["active"] == 2 and s["order"] == [2, 3, 0, 1]
    starts = {ENGINE.setup(players=4, seed=k, options={})["start"] for k in range(30)}
    assert len(starts) > 1 and starts <= {0, 1, 2, 3}
    with pytest.raises(IllegalMove):
        ENGINE.setup(players=3, seed=1, options={"start_player": 4})


def test_placement_comes_before_the_cards():  # ZAN-5.5 ZAN-6.5
    s = game(3)
    assert s["phase"] == "place" and s["_hand"] == [[], [], []]
    assert ENGINE.view(s, 0)["hand"] == []


def test_strength_and_range():  # ZAN-T-19 ZAN-2.6 ZAN-2.7 ZAN-2.5
    # the number is the range: merchant 2 moves at most 2 steps, merchant 7 up to 7
    s = scenario({"green-2": "z1", "green-7": "z2"})
    board = get_board()
    assert step_options(s, board, 3, 2, ["z1", "z8", "z7"]) == []
    assert step_options(s, board, 3, 7, ["z2", "z3", "z4", "z5", "z6", "z7", "z8"])  # 6 steps: one more
    assert step_options(s, board, 3, 7, ["z2", "z3", "z4", "z5", "z6", "z7", "z8", "w2"]) == []
    # green-4 can push red-5 but not red-3; green-4 against red-4 is an equal encounter
    s = scenario({"green-4": "n1", "red-5": "n2", "red-3": "n4"})
    opts = step_options(s, board, 3, 4, ["n1"])
    assert "n2" in opts and "n4" not in opts
    s = scenario({"green-4": "n1", "red-4": "n2"})
    assert "n2" not in step_options(s, board, 3, 4, ["n1"])  # n2 has free neighbours: blocked
    s = scenario({"green-4": "n1", "red-4": "n2", "blue-2": "n3", "blue-3": "z2"})
    assert "n2" in step_options(s, board, 3, 4, ["n1"])  # no free neighbour: expel


def test_board_components():  # ZAN-2.1 ZAN-D-26
    b = get_board()
    assert len(b.places) == 37 and len(b.doc["roads"]) == 61
    assert sorted({b.province[p] for p in b.places}) == sorted(["north", "south", "east", "west", "central", "sea"])
