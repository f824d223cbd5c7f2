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
                max_moves: int = 20000, check=None, weights: dict[str, float] | None = None):
    """Play one random game. Returns (final_state, moves) where moves is [(seat, text)].

    ``check(state, seat, legal)`` is called before every move when given. ``weights``: a legal move
    is drawn with the weight of its first word (unlisted words weigh 1; e.g. ``BUILDING``).
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
        if weights is None:
            move = chooser.choice(legal)
        else:
            move = chooser.choices(legal, [weights.get(m.split(" ", 1)[0], 1) for m in legal])[0]
        state = engine.apply(state, seat, move)
        moves.append((seat, move))
    raise AssertionError(f"game did not end within {max_moves} moves (players={players}, seed={seed})")


def play_bots(engine, state: dict, pick, max_moves: int) -> dict:
    """Play on from ``state``, the first seat to act moving ``pick(state, seat)``, until no seat
    is to act or ``max_moves`` are made. Returns the last state."""
    for _ in range(max_moves):
        acting = engine.to_act(state)
        if not acting:
            break
        seat = acting[0]
        state = engine.apply(state, seat, pick(state, seat))
    return state


def basic_decisions(engine, players: int, seed: int, wanted, count: int, every: int) -> list:
    """Decisions of a game of basic bots (bot seed ``seed * 8 + seat``): every ``every``-th
    position where ``wanted(state, seat, legal)`` holds for the seat to act, as (state, seat),
    until ``count`` are found or the game ends."""
    from games.bots import choose_move

    state, out, k = engine.setup(players, seed, {}), [], 0
    while engine.to_act(state) and len(out) < count:
        seat = engine.to_act(state)[0]
        if wanted(state, seat, engine.legal_moves(state, seat)):
            if k % every == 0:
                out.append((state, seat))
            k += 1
        state = engine.apply(state, seat, choose_move(engine, state, seat, "basic", seed=seed * 8 + seat))
    return out


def assert_illegal_changes_nothing(engine, state: dict, seat: int, text: str) -> None:
    before = canonical_json(state)
    try:
        engine.apply(state, seat, text)
    except IllegalMove as exc:
        assert str(exc), "IllegalMove must carry a message"
    else:
        raise AssertionError(f"{text!r} was accepted for seat {seat}")
    assert canonical_json(state) == before, "a rejected move changed the state"


# Random play of Hansa Teutonica runs to 2,500 steps and more (pieces moved back and forth, actions
# started and cancelled). Players who aim to build (establish an office, a Kontor, develop an ability)
# and rarely cancel or end a turn early finish a game in about 1,100 steps: these weights make a move's
# kind (its first word) more or less likely; unlisted kinds weigh 1.
BUILDING = {"establish": 200, "kontor": 50, "develop": 50, "lift": 10, "place": 5, "assign": 3,
            "move": 0.2, "displace": 0.2, "elsewhere": 0.2, "cancel": 0.02, "end": 0.05}

