"""apply never mutates its input and is deterministic; states are plain JSON."""
import copy
import json
import random

from games.engines.zanzibar import ENGINE


def test_apply_does_not_mutate_input():  # ZAN-17.1
    rnd = random.Random(3)
    for players in (2, 5):
        s = ENGINE.setup(players=players, seed=players, options={})
        for _ in range(600):
            seats = ENGINE.to_act(s)
            if not seats:
                break
            seat = rnd.choice(seats)
            move = rnd.choice(ENGINE.legal_moves(s, seat))
            before = copy.deepcopy(s)
            new = ENGINE.apply(s, seat, move)
            assert s == before, f"apply({move!r}) mutated its input"
            assert ENGINE.apply(before, seat, move) == new  # deterministic
            assert json.loads(json.dumps(new)) == new
            s = new
