"""Random playouts through the engine contract, shared by the contract tests and the
benchmark script. Pure Python: no Django."""
from __future__ import annotations

import json
import random

from games.engines import IllegalMove

GARBAGE = ["", "   ", "xyzzy", "buy", "move nowhere", "sell sell sell", "42", "end end", "\x00", "pass please"]


def canonical_json(state: dict) -> str:
    return json.dumps(state, sort_keys=True, separators=(",", ":"))


def reordered(value, order: str):
    """``value`` with every object's keys in another order, as a database may hand it back:
    "jsonb" is PostgreSQL's (shorter keys first, then bytewise), "reversed" the insertion order
    backwards. Equal to ``value``; only the order of iteration differs."""
    if isinstance(value, dict):
        if order == "jsonb":
            keys = sorted(value, key=lambda k: (len(k.encode()), k.encode()))
        else:
            keys = list(reversed(value))
        return {k: reordered(value[k], order) for k in keys}
    if isinstance(value, list):
        return [reordered(v, order) for v in value]
    return value


def play_random(engine, players: int, seed: int, *, choice_seed: int | None = None,
                max_moves: int = 20000, check=None):
    """Play one random game. Returns (final_state, moves) where moves is [(seat, text)].

    ``check(state, seat, legal)`` is called before every move when given.
    """
    chooser = random.Random(seed if choice_seed is None else choice_seed)
    state = engine.setup(players=players, seed=seed, options={})
    moves: list[tuple[int, str]] = []
    for _ in range(max_moves):
        seats = engine.to_act(state)
        if not seats:
            return state, moves
        seat = chooser.choice(seats)
        legal = engine.legal_moves(state, seat)
        if check is not None:
            check(state, seat, legal)
        move = chooser.choice(legal)
        state = engine.apply(state, seat, move)
        moves.append((seat, move))
    raise AssertionError(f"game did not end within {max_moves} moves (players={players}, seed={seed})")


def assert_illegal_changes_nothing(engine, state: dict, seat: int, text: str) -> None:
    before = canonical_json(state)
    try:
        engine.apply(state, seat, text)
    except IllegalMove as exc:
        assert str(exc), "IllegalMove must carry a message"
    else:
        raise AssertionError(f"{text!r} was accepted for seat {seat}")
    assert canonical_json(state) == before, "a rejected move changed the state"
