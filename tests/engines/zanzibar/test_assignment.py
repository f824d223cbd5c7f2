"""The assignment step: scoring limit, compulsory set-asides, drawing (ZAN-11.7, ZAN-12,
ZAN-13)."""
from games.engines.zanzibar import ENGINE

from .helpers import play, rejected, scenario


def three_player(scored=0, aside=None, hand=("clove", "north"), deck=()):
    return scenario({"red-2": "n2"}, players=3, active=0, hands={0: list(hand)}, decks={0: list(deck)},
                    scored={0: scored}, aside={0: aside or []})


def test_scoring_limit_and_forced_set_aside():  # ZAN-T-14 ZAN-11.7 ZAN-12.1 ZAN-14.1
    s = play(three_player(scored=8), 0, "done", "score clove")
    assert "score north" not in ENGINE.legal_moves(s, 0)
    assert "most allowed" in rejected(s, 0, "score north")  # that would be 10 scorings
    s = play(s, 0, "set aside north")
    assert s["_hand"][0] == [] and s["_deck"][0] == []
    assert s["finished"] == [0] and s["final_left"] == 2  # final round triggered


def test_quota_used_means_score_everything():  # ZAN-T-14 ZAN-12.1
    s = play(three_player(scored=7, aside=["west"]), 0, "done")
    assert not any(m.startswith("set aside") for m in ENGINE.legal_moves(s, 0))
    assert "exactly 1 allowed" in rejected(s, 0, "set aside clove")
    s = play(s, 0, "score clove", "score north")
    assert len(s["scored"][0]) == 9 and s["finished"] == [0]


def test_set_aside_right_after_drawing_four_players():  # ZAN-T-15 ZAN-12.2 ZAN-12.4 ZAN-D-13 ZAN-13.4
    s = scenario({"red-2": "n2"}, players=4, active=0, hands={0: ["clove", "north"]},
                 decks={0: ["ginger", "vanilla", "pepper", "south"]})
    s = play(s, 0, "done", "score clove", "done")
    assert s["phase"] == "a5" and s["_hand"][0] == ["north", "ginger"]
    s = play(s, 0, "set aside ginger")  # 1/2, draws vanilla
    assert s["_hand"][0] == ["north", "vanilla"] and s["phase"] == "a5"
    s = play(s, 0, "set aside vanilla")  # 2/2, draws pepper; the turn ends
    assert s["_hand"][0] == ["north", "pepper"] and s["aside_n"][0] == 2
    assert s["active"] != 0
    rejected(s, 0, "set aside pepper")  # a third set-aside: refused
    # from now on every remaining card can only be scored
    s = play(s, s["active"], "done", "done")
    s = play(s, s["active"], "done", "done")
    s = play(s, s["active"], "done", "done")
    s = play(s, 0, "done")
    assert not any(m.startswith("set aside") for m in ENGINE.legal_moves(s, 0))


def test_set_aside_instead_of_scoring():  # ZAN-12.2 ZAN-12.5 ZAN-D-13
    s = scenario({"red-2": "n2"}, players=4, active=0, hands={0: ["clove", "north"]},
                 decks={0: ["ginger", "vanilla"]})
    s = play(s, 0, "done", "score clove", "set aside north")  # score one, set aside the other
    assert s["score"][0] == 10 - 5 and s["aside_n"][0] == 1  # the set-aside has no effect on score
    assert s["_hand"][0] == ["ginger", "vanilla"]  # two replacements drawn


def test_any_hand_card_may_be_set_aside_after_drawing():  # ZAN-12.3 ZAN-D-12
    s = scenario({"red-2": "n2"}, players=4, active=0, hands={0: ["clove", "north"]},
                 decks={0: ["ginger", "vanilla"]})
    s = play(s, 0, "done", "score clove", "done")
    assert "set aside north" in ENGINE.legal_moves(s, 0)  # the older card, not just the new one
    s = play(s, 0, "set aside north")
    assert s["_hand"][0] == ["ginger", "vanilla"] and s["_aside"][0] == ["north"]


def test_no_set_aside_window_without_a_draw():  # ZAN-13.4 ZAN-12.2
    s = scenario({"red-2": "n2"}, players=4, active=0, hands={0: ["clove", "north"]},
                 decks={0: ["ginger"]})
    s = play(s, 0, "done", "done")  # nothing left the hand: no draw, no A5
    assert s["active"] != 0


def test_set_aside_cards_are_hidden():  # ZAN-12.6 ZAN-D-14
    s = scenario({"red-2": "n2"}, players=4, active=0, hands={0: ["clove", "north"]},
                 decks={0: ["ginger", "vanilla"]})
    s = play(s, 0, "done", "set aside north", "done")
    other = ENGINE.view(s, 1)
    assert other["aside_counts"][0] == 1
    assert "north" not in str(other["log"]) and other["set_aside"] == []
    mine = ENGINE.view(s, 0)
    assert mine["set_aside"] == ["north"]


def test_draw_is_automatic_and_hand_never_exceeds_two():  # ZAN-13.1 ZAN-13.2 ZAN-D-16
    s = scenario({"red-2": "n2"}, players=3, active=0, hands={0: ["clove", "north"]},
                 decks={0: ["ginger", "vanilla", "pepper"]})
    s = play(s, 0, "done", "score clove", "score north")
    # both cards scored: the step ends by itself and exactly two cards are drawn
    assert s["_hand"][0] == ["ginger", "vanilla"] and s["_deck"][0] == ["pepper"]
    assert s["phase"] == "a5"  # quota still open: may set one aside
    s = play(s, 0, "keep")
    assert len(s["_hand"][0]) == 2


def test_draw_limited_by_deck():  # ZAN-13.3
    s = scenario({"red-2": "n2"}, players=3, active=0, hands={0: ["clove", "north"]},
                 decks={0: ["ginger"]})
    s = play(s, 0, "done", "score clove", "score north")
    assert s["_hand"][0] == ["ginger"] and s["_deck"][0] == []


def test_ten_cards_split_into_scorings_and_set_asides():  # ZAN-3.1
    from games.engines.zanzibar.board import get_board
    b = get_board()
    for players in range(2, 6):
        assert b.scorings[players] + b.quota[players] == 10
