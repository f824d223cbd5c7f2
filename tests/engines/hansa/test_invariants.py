"""Invariants after every step, in random playouts (HANSA-14.3, HANSA-14.2)."""
import random

import pytest

from games.engines.hansa.board import BOARD

from .helpers import ENGINE, all_tiles_accounted, playing, rejected


def _check(s):
    n = s["players"]
    allt = ([t for t in s["slots"] if t is not None] + [t for st in s["_stacks"] for t in st]
            + [t for x in s["tiles"] for t in x] + [t for x in s["sold"] for t in x] + s["removed"])
    assert sorted(allt) == sorted(c * 13 + k for c in s["colours"] for k in range(13))      # 14.3.1
    for p in range(n):
        assert s["supply"][p] + sum(s["stalls"][c][p] for c in s["stalls"]) == 15            # 14.3.2
        assert s["coins"][p] >= 0                                                             # 14.2
        if p != s["active"] or s["phase"] not in ("actions", "discard"):
            assert len(s["tiles"][p]) <= 3                                                    # 14.3.4
    assert len(s["slots"]) == len(BOARD.slot_city)                                            # 14.3.3
    assert s["ship"] in BOARD.city_ids                                                        # 14.3.5


@pytest.mark.parametrize("players,ask", [(2, False), (3, True), (4, False), (4, True)])
def test_invariants_hold_in_random_play(players, ask):  # HANSA-14.3 HANSA-14.2 HANSA-16.5
    rnd = random.Random(players * 10 + ask)
    s = ENGINE.setup(players=players, seed=players + 40 * ask,
                     options={"seats": [{"ask_losses": ask}] * players})
    for _ in range(20000):
        _check(s)
        seats = ENGINE.to_act(s)
        if not seats:
            break
        seat = rnd.choice(seats)
        s = ENGINE.apply(s, seat, rnd.choice(ENGINE.legal_moves(s, seat)))
    assert ENGINE.result(s) is not None and all_tiles_accounted(s)


def test_undo_is_not_offered():  # HANSA-16.4
    s = playing(coins=[3, 3, 3])
    s["phase"] = "fill"
    s = ENGINE.apply(s, 0, "fill")
    assert "undo" not in ENGINE.legal_moves(s, 0)
    assert rejected(s, 0, "undo")


def test_apply_never_mutates_its_input():  # HANSA-14.3
    import json
    s = ENGINE.setup(players=3, seed=2, options={})
    rnd = random.Random(4)
    for _ in range(300):
        seats = ENGINE.to_act(s)
        if not seats:
            break
        seat = rnd.choice(seats)
        before = json.dumps(s, sort_keys=True)
        new = ENGINE.apply(s, seat, rnd.choice(ENGINE.legal_moves(s, seat)))
        assert json.dumps(s, sort_keys=True) == before
        s = new
