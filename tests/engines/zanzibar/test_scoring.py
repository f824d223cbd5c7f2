"""Scoring an assignment (ZAN-11) with the per-card tables of the board data (ZAN-C1)."""
from games.engines.zanzibar import ENGINE
from games.engines.zanzibar.assignment import count_for
from games.engines.zanzibar.board import get_board

from .helpers import SEAT, play, rejected, scenario

G, B = SEAT["green"], SEAT["blue"]
DECK = ["ginger", "vanilla", "pepper", "south"]


def clove_game(n_on_clove: int, score: int = 10, deck=DECK):
    places = ["n2", "w1", "c1"][:n_on_clove]
    pieces = {f"green-{2 + i}": p for i, p in enumerate(places)}
    pieces.update({"green-5": "z3"})
    return scenario(pieces, active=G, hands={G: ["clove", "north"]}, decks={G: list(deck)},
                    scores={G: score})


def test_rulebook_scoring_example_three_cloves():  # ZAN-T-07 ZAN-11.3 ZAN-11.5 ZAN-13.1
    s = play(clove_game(3), G, "done", "score clove", "done")
    assert s["score"][G] == 11
    assert s["scored"][G] == [{"card": "clove", "count": 3, "points": 1}]
    assert len(s["_hand"][G]) == 2 and s["_hand"][G] == ["north", "ginger"]
    assert s["_deck"][G] == DECK[1:]


def test_rulebook_scoring_example_one_clove():  # ZAN-T-07 ZAN-11.3
    s = play(clove_game(1), G, "done", "score clove", "done")
    assert s["score"][G] == 5


def test_two_cards_same_board_with_overlap():  # ZAN-T-13 ZAN-C2 ZAN-11.4
    s = scenario({"blue-2": "n2", "blue-4": "n5", "blue-5": "n4"}, active=B,
                 hands={B: ["north", "clove"]}, decks={B: ["ginger", "vanilla", "pepper"]})
    s = play(s, B, "done", "score north", "score clove")
    assert [(e["card"], e["count"], e["points"]) for e in s["scored"][B]] == [("north", 3, -1), ("clove", 1, -5)]
    assert s["score"][B] == 4
    # both cards left the hand, so two are drawn (automatically, ZAN-D-16)
    assert s["_hand"][B] == ["ginger", "vanilla"] and s["_deck"][B] == ["pepper"]


def test_negative_score_and_empty_deck():  # ZAN-T-18 ZAN-D-15 ZAN-15.4 ZAN-13.3
    s = clove_game(1, score=3, deck=[])
    s = play(s, G, "done", "score clove", "done")
    assert s["score"][G] == -2
    assert s["_hand"][G] == ["north"] and s["_deck"][G] == []
    assert G not in s["finished"]


def test_count_only_own_merchants_on_targets():  # ZAN-11.2
    s = scenario({"green-2": "n2", "red-3": "w1", "orange-3": "c1", "green-3": "n4", "green-4": "n5"},
                 active=G)
    assert count_for(s, G, "clove") == 1  # spice card: any province, opponents never count
    assert count_for(s, G, "north") == 3  # province card: neutral (n4) and spice villages alike
    assert count_for(s, SEAT["red"], "clove") == 1


def test_sea_counts_for_no_card():  # ZAN-4.4 ZAN-D-03 ZAN-D-02
    s = scenario({"green-2": "z1", "green-3": "z2", "green-4": "z3", "green-5": "z4"}, active=G)
    board = get_board()
    assert all(count_for(s, G, card) == 0 for card in board.cards)
    assert "sea" not in board.cards


def test_tables_come_from_the_board_data():  # ZAN-C1 ZAN-D-25 ZAN-11.3
    board = get_board()
    assert board.cards["clove"]["table"] == [-6, -5, -2, 1, 5, 9, 9]
    assert board.cards["cinnamon"]["table"] == [-5, -4, -1, 3, 8, 8, 8]
    assert board.cards["west"]["table"] == [-6, -5, -3, 0, 4, 8, 8]
    assert board.cards["north"]["table"][6] == 11
    # a count above the table scores as the last entry; independent of player count
    assert board.card_points("cinnamon", 9) == 8
    assert board.card_points("clove", 3) == 1 and board.card_points("clove", 1) == -5
    for players in (3, 5):
        s = scenario({"green-2": "n3", "green-3": "w2", "green-4": "c5"}, players=5 if players == 5 else 4,
                     active=G, hands={G: ["cinnamon", "north"]})
        s = play(s, G, "done", "score cinnamon")
        assert s["score"][G] == 13


def test_scoring_only_in_own_assignment_step():  # ZAN-11.1
    s = clove_game(3)
    assert "score clove" not in ENGINE.legal_moves(s, G)
    rejected(s, G, "score clove")  # still in the movement step
    s = play(s, G, "done")
    rejected(s, SEAT["red"], "score clove")  # not red's turn
    assert "score clove" in ENGINE.legal_moves(s, G)


def test_scoring_is_never_compulsory():  # ZAN-11.1 ZAN-11.6
    s = play(clove_game(3), G, "done", "done")
    assert s["_hand"][G] == ["clove", "north"] and s["score"][G] == 10
    assert s["active"] != G  # turn passed with both cards kept


def test_scored_cards_are_public():  # ZAN-11.5
    s = play(clove_game(3), G, "done", "score clove", "done")
    v = ENGINE.view(s, SEAT["red"])
    assert v["scored"][G] == [{"card": "clove", "count": 3, "points": 1}]


def test_cards_drawn_after_scoring_cannot_be_scored_this_turn():  # ZAN-13.4 ZAN-11.6
    s = play(clove_game(3), G, "done", "score clove", "done")
    # in the A5 window (a card was drawn, quota left) only set-aside or keep are offered
    assert s["phase"] == "a5"
    assert all(not m.startswith("score") for m in ENGINE.legal_moves(s, G))
    assert "set-aside" in rejected(s, G, "score north") or "scor" in rejected(s, G, "score north")
