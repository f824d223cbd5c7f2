"""Single-observer Information-Set MCTS (Cowling, Powley and Whitehouse 2012, "Information Set
Monte Carlo Tree Search", IEEE TCIAIG 4(2)).

Each iteration samples a full state from the bot's view (a determinization), walks the tree with
the moves that state allows (UCB1 with availability counts), adds one node, plays a short random
rollout and scores the end with the basic heuristic (or the result, when the game ended). Rewards
are per seat, so every seat in the tree chooses for itself. The move is the root's most visited.
"""
from __future__ import annotations

import math
import time

from games.engines.sampling import sample_state

from .heuristics import margins

EXPLORE = 0.7
ROLLOUT_STEPS = {"hansa": 8, "die-hanse": 10, "zanzibar": 8, "hansa-teutonica": 10}
SCALE = {"hansa": 4.0, "die-hanse": 6.0, "zanzibar": 6.0, "hansa-teutonica": 5.0}


class Node:
    __slots__ = ("children", "visits", "avail", "reward", "seat")

    def __init__(self, seat):
        self.children = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0  # summed reward of ``seat``, the seat that chose the move into this node
        self.seat = seat


def _rewards(slug: str, engine, state: dict) -> list[float]:
    """Per seat in [0, 1]: 1 for a clear lead, 0.5 level, towards 0 behind (a logistic of the
    margin over the best other seat)."""
    scale = SCALE.get(slug, 5.0)
    return [1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, m / scale)))) for m in margins(slug, state, engine)]


def search(slug: str, engine, view: dict, seat: int, root_moves: list[str], rng, budget: dict) -> str:
    iterations = int(budget.get("iterations", 400))
    limit = budget.get("seconds")
    start = time.process_time()
    depth = int(budget.get("rollout", ROLLOUT_STEPS.get(slug, 8)))
    root = Node(None)
    for it in range(iterations):
        if limit is not None and it and time.process_time() - start > limit:
            break
        state = sample_state(slug, view, seat, rng)
        node, path, first = root, [], True
        while True:
            acting = engine.to_act(state)
            if not acting:
                break
            mover = seat if first else acting[0]
            moves = root_moves if first else engine.legal_moves(state, mover)
            first = False
            untried = []
            for m in moves:
                child = node.children.get(m)
                if child is None:
                    untried.append(m)
                else:
                    child.avail += 1
            if untried:
                move = untried[rng.below(len(untried))]
                child = Node(mover)
                node.children[move] = child
                state = engine.apply(state, mover, move)
                path.append(child)
                break
            best, best_score = None, -1.0
            for m in moves:
                c = node.children[m]
                score = c.reward / c.visits + EXPLORE * math.sqrt(math.log(c.avail) / c.visits)
                if score > best_score:
                    best, best_score = m, score
            node = node.children[best]
            state = engine.apply(state, mover, best)
            path.append(node)
        for _step in range(depth):  # the truncated rollout
            acting = engine.to_act(state)
            if not acting:
                break
            mover = acting[0]
            moves = engine.legal_moves(state, mover)
            state = engine.apply(state, mover, moves[rng.below(len(moves))])
        rewards = _rewards(slug, engine, state)
        for n in path:
            n.visits += 1
            n.reward += rewards[n.seat]
    best = max(root_moves, key=lambda m: (root.children[m].visits if m in root.children else -1,
                                          root.children[m].reward if m in root.children else 0))
    return best
