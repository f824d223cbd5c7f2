"""Move text: canonical form and the forgiving parser."""
import pytest

from games.engines.zanzibar import ENGINE

from .helpers import game, play, rejected, scenario


def test_canonical_forms_and_forgiving_input():  # ZAN-17.3
    s = game(3, start=0)
    assert ENGINE.canonical(s, 0, "  PLACE   Red-7 ") == "place 7"
    assert ENGINE.canonical(s, 0, "7") == "place 7"
    s = play(s, 0, "place 7")
    assert ENGINE.canonical(s, 0, "To N 1") == "to n1"
    assert ENGINE.canonical(s, 0, "n1") == "to n1"
    assert ENGINE.canonical(s, 0, "go n1") == "to n1"


@pytest.mark.parametrize("text,canonical", [
    ("Score Clo", "score clove"), ("score c", None), ("score cl", "score clove"), ("set-aside nor", "set aside north"),
    ("discard north", "set aside north"), ("SET ASIDE Nörth", "set aside north"), ("end", "done"),
])
def test_card_names_and_synonyms(text, canonical):  # ZAN-11.1 ZAN-12.2
    s = scenario({"green-3": "n1"}, hands={3: ["clove", "north"]})
    s = play(s, 3, "done")
    if canonical is None:
        assert "no card matches" in rejected(s, 3, text)  # cinnamon, clove, central
    else:
        assert ENGINE.canonical(s, 3, text) == canonical


def test_garbage_and_out_of_turn_are_refused():  # ZAN-8.3
    s = scenario({"green-3": "n1", "red-4": "s1"})
    for text in ("", "xyzzy", "move", "to nowhere", "push", "42 42", "\x00"):
        rejected(s, 3, text)
    assert "not your turn" in rejected(s, 0, "move 4")


def test_done_and_keep_are_interchangeable_where_one_is_legal():  # ZAN-13.4
    s = scenario({"red-2": "n2"}, players=4, active=0, hands={0: ["clove", "north"]},
                 decks={0: ["ginger", "vanilla"]})
    s = play(s, 0, "done", "score clove", "done")
    assert ENGINE.canonical(s, 0, "done") == "keep"


def test_no_undo_after_steps():  # ZAN-17.4
    s = scenario({"green-3": "a", "red-5": "p2"}, board="fix-a")
    t = play(s, 3, "move 3")
    assert play(t, 3, "cancel")["cur"] is None  # before the first step nothing has happened
    t = play(t, 3, "to p1")
    rejected(t, 3, "cancel")
    rejected(t, 3, "undo")


@pytest.mark.parametrize("players", [2, 5])
def test_a_listed_move_read_as_text_is_that_move(players):  # ZAN-17.3
    """apply takes a listed move as it is; the text reader (mail, the web form) must read every
    listed move as that same move, over positions of random play."""
    from games.engines.zanzibar.notation import parse
    from games.engines.zanzibar.state import board_of

    from ..test_sampling import positions

    read = 0
    for s in positions("zanzibar", players, seed=17, every=3, limit=1200):
        for seat in ENGINE.to_act(s):
            legal = ENGINE.legal_moves(s, seat)
            for move in legal:
                assert parse(board_of(s), move, legal) == move
                assert parse(board_of(s), move.upper(), legal) == move
                read += 1
    assert read > 200
