"""Final round, end of the game, winner and tie-break (ZAN-14, ZAN-15)."""
from games.engines.zanzibar import ENGINE

from .helpers import play, rejected, scenario


def final_round_game():
    # turn order P1..P4 = seats 0..3, start player seat 0; it is P3's (seat 2) turn
    return scenario({"green-2": "z1"}, players=4, active=2,
                    hands={2: ["clove"], 0: ["north"], 1: ["east", "south"], 3: ["west"]},
                    decks={0: [], 1: ["pepper"], 2: [], 3: []},
                    scored={2: 7, 0: 7}, aside={2: ["west", "east"], 0: ["west", "east"]},
                    scores={0: 11, 1: 0, 2: 10, 3: 0})


def test_final_round_and_tie_break():  # ZAN-T-17 ZAN-14.2 ZAN-14.3 ZAN-15.2 ZAN-15.3 ZAN-D-20
    s = play(final_round_game(), 2, "done", "score clove")  # P3 scores the last card: 10 - 6 = 4
    assert s["finished"] == [2] and s["final_left"] == 3
    assert s["active"] == 3
    s = play(s, 3, "done", "done")  # P4: nobody is forced to score
    s = play(s, 0, "done", "score north")  # P1 also finishes: 11 - 7 = 4
    assert s["finished"] == [2, 0]
    assert s["active"] == 1 and not s["phase"] == "over"
    s = play(s, 1, "done", "done")  # P2's turn is the last one
    assert s["phase"] == "over" and ENGINE.to_act(s) == []
    res = ENGINE.result(s)
    assert res["scores"] == [4, 0, 4, 0]
    # P3 and P1 level: P3 finished first and wins; P2 and P4 level, unfinished: they share
    assert res["ranking"] == [2, 3, 1, 3]
    rejected(s, 2, "done")  # P3 does not play again


def test_cards_left_score_nothing():  # ZAN-T-17 ZAN-14.4 ZAN-D-17
    s = play(final_round_game(), 2, "done", "score clove")
    s = play(s, 3, "done", "done")
    s = play(s, 0, "done", "done")
    s = play(s, 1, "done", "done")
    res = ENGINE.result(s)
    assert s["_hand"][1] == ["east", "south"] and res["scores"][1] == 0
    assert not any(k.startswith(("east", "south")) for k in res["breakdown"][1])
    # unused quota (P2 set nothing aside) has no penalty
    assert s["aside_n"][1] == 0 and res["scores"][1] == s["score"][1]


def test_finishing_happens_only_with_empty_hand_and_deck():  # ZAN-14.1 ZAN-13.3
    s = scenario({"green-2": "z1"}, players=4, active=0, hands={0: ["north", "east"]}, decks={0: []})
    s = play(s, 0, "done", "score north")
    s = play(s, 0, "done")
    assert s["finished"] == [] and s["_hand"][0] == ["east"]


def test_finishing_by_set_aside_counts_for_tie_break():  # ZAN-15.2 ZAN-D-19 ZAN-15.1
    s = scenario({"green-2": "z1"}, players=2, active=0, hands={0: ["north"], 1: ["east"]},
                 decks={0: [], 1: ["west"]}, scored={0: 9}, scores={0: 7, 1: 7})
    s = play(s, 0, "done", "set aside north")  # finished by a set-aside
    assert s["finished"] == [0]
    s = play(s, 1, "done", "done")
    res = ENGINE.result(s)
    assert res["scores"] == [7, 7] and res["ranking"] == [1, 2]


def test_highest_score_wins():  # ZAN-15.1 ZAN-15.3
    s = scenario({"green-2": "z1"}, players=3, active=0, hands={0: ["north"]}, decks={0: []},
                 scored={0: 8}, aside={0: ["east"]}, scores={0: 5, 1: 9, 2: 2})
    s = play(s, 0, "done", "score north")  # 5 - 7 = -2
    s = play(s, 1, "done", "done")
    s = play(s, 2, "done", "done")
    res = ENGINE.result(s)
    assert res["ranking"] == [3, 1, 2]
    assert res["breakdown"][0]["north (0)"] == -7


def test_no_round_limit_in_the_rules():  # ZAN-14.5 ZAN-D-18
    s = scenario({"green-2": "z1"}, players=2, active=0)
    for _ in range(100):
        s = play(s, s["active"], "done", "done")
    assert s["phase"] == "move" and ENGINE.result(s) is None


def test_two_players_final_round():  # ZAN-14.2 ZAN-D-01
    s = scenario({"green-2": "z1"}, players=2, active=1, hands={1: ["north"]}, decks={1: []},
                 scored={1: 8}, aside={1: ["east"]})
    s = play(s, 1, "done", "score north")
    assert s["final_left"] == 1 and s["active"] == 0
    s = play(s, 0, "done", "done")
    assert s["phase"] == "over"
