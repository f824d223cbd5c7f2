"""The basic level (docs/bots.md): the listed move whose resulting state the title's heuristic
rates best, with a short look at the bot's own next decisions where a title's turn is a menu.
Pure Python, no Django; used by ``games.bots.decide`` and by the strong level's playouts
(``games.bots.ismcts``), which is why it is a module of its own (no import cycle)."""
from __future__ import annotations

from .heuristics import margins

# The basic level looks this many of its own further decisions ahead when its move leaves it to
# decide again (Die Hanse's harbour step is a small menu: "trade", then what for what, then which
# drawn stone to keep; a single step of it changes nothing the heuristic sees).
LOOKAHEAD = {"die-hanse": 2, "hansa-teutonica": 2}
LOOKAHEAD_NODES = 600
# Menu steps that only take back a choice of the same turn (Hansa Teutonica's "cancel" and the
# move action's "elsewhere", Die Hanse's "back" out of a harbour-step or sailing sub-menu): basic
# already compared the choices when it made them, and taking them back leads round in circles
# (issue 30: "back" looks ahead to the same best trade as the trade itself, and the tie, broken
# by a generator seeded from the same view, chose it again and again); it uses them only when
# nothing else is listed.
UNDO = {"hansa-teutonica": ("cancel", "elsewhere"), "die-hanse": ("back",)}


# What a gain one decision later is worth less than the same gain now, in points of the heuristic:
# Die Hanse's harbour step lets a bot unload now or after a refill or a look into the trade menu,
# and a tie between them sent it round the menus (it must take the gain when it is there).
DELAY = {"die-hanse": 1e-3}


# What ending a turn with actions left costs the basic level, in points of the heuristic (Hansa
# Teutonica: establishing a full route whose reward is "nothing" rates a little below leaving it
# standing, yet only establishing moves the game towards its end, HT-11).
END_COST = {"hansa-teutonica": 0.6}


def _gamble(slug: str, move: str) -> bool:
    """Die Hanse: a trade with a same-type part ("trade 2 fish fish", HANSE-8.5) only bets on the
    hidden values of a pool. Rated on one sampled state it reads that sample's draw, which looks
    better than the pool the bot cannot see as often as not: a bot traded fish for fish in Bergen
    thousands of times in one harbour step (issue 30). Basic leaves such trades alone."""
    if slug != "die-hanse" or not move.startswith("trade "):
        return False
    words = move.split()[1:]
    return any(words[i + 1] == words[i + 2] for i in range(0, len(words) - 2, 3))


def _candidates(slug: str, moves: list[str], state: dict) -> list[str]:
    undo = UNDO.get(slug, ())
    kept = [m for m in moves if m not in undo and not _gamble(slug, m)]
    step = state.get("step") if slug == "hansa-teutonica" else None
    if step and step.get("a") == "move" and not step.get("moved"):
        kept = [m for m in kept if m != "done"]  # a move action that moved nothing: an "end" in disguise
    return kept or moves


def rate(slug: str, engine, state: dict, seat: int, moves: list[str], nodes: int = LOOKAHEAD_NODES,
         rival_cargo: float = 0.0) -> list[tuple[float, str]]:
    """``(value, move)`` for each of ``moves`` in their order: the heuristic's value for ``seat``
    after it (with the best of its own next decisions where the title looks ahead, ``LOOKAHEAD``,
    within ``nodes`` applied moves shared by all, in that order), ending a turn costing ``END_COST``;
    ``rival_cargo``: see ``heuristics.margins`` (0: basic's own rating)."""
    depth = LOOKAHEAD.get(slug, 0) if nodes > 0 else 0
    budget = [nodes]
    rated = []
    for move in moves:
        value = _value_after(slug, engine, engine.apply(state, seat, move), seat, depth, budget, rival_cargo)
        if move == "end":
            value -= END_COST.get(slug, 0.0)
        rated.append((value, move))
    return rated


def best_step(slug: str, engine, state: dict, seat: int, moves: list[str], rng,
              nodes: int = LOOKAHEAD_NODES, rival_cargo: float = 0.0) -> str:
    """The basic level: the listed move whose resulting state rates best for ``seat`` (with the
    best of its own next decisions, where the title looks ahead: ``LOOKAHEAD``)."""
    best, best_value = [], None
    for value, move in rate(slug, engine, state, seat, _candidates(slug, moves, state), nodes, rival_cargo):
        if best_value is None or value > best_value + 1e-9:
            best, best_value = [move], value
        elif abs(value - best_value) <= 1e-9:
            best.append(move)
    return rng.choice(best)


def _chance(slug: str, state: dict) -> bool:
    """Whether ``state`` waits on a draw whose values a sampled state already fixed (Die Hanse: a
    trade's drawn stones, HANSE-8.6.3): looking past it would read the sample's pool order, a
    future no seat knows, so basic rates it as it stands (the heuristic counts a pending draw at
    its expected value)."""
    if slug != "die-hanse" or not state["stack"]:
        return False
    top = state["stack"][-1]
    return top["k"] == "harbour" and top["draw"] is not None


def _value_after(slug: str, engine, state: dict, seat: int, depth: int, budget: list, rival_cargo: float = 0.0) -> float:
    value = margins(slug, state, engine, rival_cargo)[seat]
    if depth <= 0 or budget[0] <= 0 or engine.to_act(state) != [seat] or _chance(slug, state):
        return value
    follow = _candidates(slug, engine.legal_moves(state, seat), state)
    if len(follow) < 2:
        return value
    budget[0] -= len(follow)
    later = max(_value_after(slug, engine, engine.apply(state, seat, m), seat, depth - 1, budget, rival_cargo)
                for m in follow)
    return max(value, later - DELAY.get(slug, 0.0))
