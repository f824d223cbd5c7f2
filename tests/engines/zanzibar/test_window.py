"""The set-aside window after the initial draw (ZAN-7.2, ZAN-7.3, ZAN-C3)."""
from games.engines.zanzibar import ENGINE

from .helpers import finish_placement, game, play, rejected


def window(players=3, seed=1):
    return finish_placement(game(players, seed=seed, start=0))


def test_setup_set_aside_window():  # ZAN-T-16 ZAN-7.2 ZAN-7.3 ZAN-D-07
    s = window(3)
    assert sorted(ENGINE.to_act(s)) == [0, 1, 2]  # simultaneous
    card = s["_hand"][1][0]
    s = play(s, 1, f"set aside {card}")
    assert card not in s["_hand"][1] and len(s["_hand"][1]) == 2 and s["aside_n"][1] == 1
    assert sorted(ENGINE.to_act(s)) == [0, 2]  # quota 1/1 used: done
    s = play(s, 2, "keep")
    assert s["phase"] == "window"  # the first turn waits for everybody
    s = play(s, 0, "keep")
    assert s["phase"] == "move" and ENGINE.to_act(s) == [0]
    # the quota is used: from now on P2 can only score
    s = play(s, 0, "done", "done")
    s = play(s, 1, "done")
    assert not any(m.startswith("set aside") for m in ENGINE.legal_moves(s, 1))
    # opponents see one set-aside card, not which
    v = ENGINE.view(s, 0)
    assert v["aside_counts"][1] == 1 and card not in str([e["text"] for e in v["log"] if e["seat"] == 1])


def test_answers_sealed_until_window_closes():  # ZAN-C3 ZAN-7.3
    s = window(3)
    before = ENGINE.view(s, 0)
    s = play(s, 1, f"set aside {s['_hand'][1][0]}")
    v = ENGINE.view(s, 0)
    assert v["aside_counts"][1] is None and v["deck_counts"][1] is None
    assert v["log"] == []  # nothing about P2's answer reaches the others
    assert ENGINE.view(s, 1)["log"]  # P2 reads its own answer
    assert v["hand_counts"] == before["hand_counts"]
    assert ENGINE.view(s, 1)["aside_counts"][1] == 1
    s = play(s, 0, "keep")
    s = play(s, 2, "keep")
    v = ENGINE.view(s, 0)
    assert v["aside_counts"][1] == 1 and v["deck_counts"][1] == 7


def test_unanswered_player_keeps_by_default():  # ZAN-C3 ZAN-17.2
    s = window(3)
    assert ENGINE.default_move(s, 2) == "keep"
    for seat in (0, 1, 2):
        s = play(s, seat, ENGINE.default_move(s, seat))
    assert s["phase"] == "move" and all(len(h) == 2 for h in s["_hand"]) and s["aside_n"] == [0, 0, 0]


def test_four_players_may_set_aside_twice():  # ZAN-7.2 ZAN-12.2
    s = window(4)
    first = s["_hand"][3][0]
    s = play(s, 3, f"set aside {first}")
    assert 3 in ENGINE.to_act(s)
    second = s["_hand"][3][1]  # the replacement just drawn
    s = play(s, 3, f"set aside {second}")
    assert 3 not in ENGINE.to_act(s) and s["aside_n"][3] == 2 and len(s["_hand"][3]) == 2
    rejected(s, 3, "keep")
