"""The quick legality check used by apply never accepts a move that legal_moves does not
list (HT-14.1: anything else is rejected)."""
import random

from games.engines.hansa_teutonica.fast import quick_ok

from .helpers import E


def test_quick_check_agrees_with_legal_moves():  # HT-14.1
    pool = set()
    for players in (2, 3, 5):
        rnd = random.Random(100 + players)
        s = E.setup(players, 100 + players, {})
        for _ in range(2500):
            seats = E.to_act(s)
            if not seats:
                break
            seat = rnd.choice(seats)
            legal = E.legal_moves(s, seat)
            pool.update(legal)
            sample = rnd.sample(sorted(pool), min(40, len(pool)))
            for seat_try in range(players):
                allowed = set(E.legal_moves(s, seat_try))
                for text in sample + legal:
                    if quick_ok(s, seat_try, text):
                        assert text in allowed, (text, seat_try)
            s = E.apply(s, seat, rnd.choice(legal))
    assert len(pool) > 100
