"""Single-observer Information-Set MCTS (Cowling, Powley and Whitehouse 2012, "Information Set
Monte Carlo Tree Search", IEEE TCIAIG 4(2)).

Each iteration samples a full state from the bot's view (a determinization), walks the tree with
the moves that state allows (UCB1 with availability counts), adds one node, plays a short random
rollout and scores the end with the basic heuristic (or the result, when the game ended). Rewards
are per seat, so every seat in the tree chooses for itself. The move is the root's most visited.
Selected by ``budget={"method": "ismcts"}`` in any title; the strong level's own searches
(``SEARCH``) are ``playout_search`` in Hansa and Zanzibar and ``turn_search`` in Die Hanse and
Hansa Teutonica (below).
"""
from __future__ import annotations

import math
import time

from games.engines.rng import Rng, seed_state
from games.engines.sampling import sample_state

from .basic import _candidates, best_step, rate
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


class OutOfTime(Exception):
    """A playout passed its decision's CPU cap (``Cap.check``): that iteration is dropped."""


class Cap:
    """The CPU cap of one decision (``budget["seconds"]``; None: no cap). ``another()`` before each
    iteration: it is started only when the CPU time spent so far plus the longest iteration yet
    stays within the cap; the first only when at most half the cap is spent (its cost is not known
    yet). ``check()`` at every step of a playout raises ``OutOfTime`` once the cap is passed, and the
    search drops that iteration: a decision passes its cap by one engine step at most (issue 30: a
    decision stays under 2 s of CPU; when only the mean cost of the iterations before was the
    estimate, one 6-player Die Hanse decision took 2.06 s)."""

    def __init__(self, limit: float | None, timer=time.process_time):
        self.limit, self.timer = limit, timer
        self.start = self.mark = timer()
        self.longest, self.count = 0.0, 0

    def another(self) -> bool:
        now = self.timer()
        if self.count:
            self.longest = max(self.longest, now - self.mark)
        self.mark = now
        if self.limit is not None:
            spent = now - self.start
            if spent + self.longest > self.limit or (not self.count and spent > self.limit / 2):
                return False
        self.count += 1
        return True

    def check(self) -> None:
        if self.limit is not None and self.timer() - self.start > self.limit:
            raise OutOfTime


def paired_choice(basic: str, diffs: dict[str, list[float]]) -> str:
    """Basic's move unless another candidate's mean paired difference (its playout's score minus
    basic's on the same sample and generator) over at least ``MIN_PAIRS`` iterations is above zero
    by ``Z`` standard errors; of those, the one with the largest such lead."""
    best, best_lead = basic, 0.0
    for move, d in diffs.items():
        if len(d) < MIN_PAIRS:
            continue
        mean = sum(d) / len(d)
        sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1))
        lead = mean - Z * sd / math.sqrt(len(d))
        if lead > best_lead:
            best, best_lead = move, lead
    return best


def search(slug: str, engine, view: dict, seat: int, root_moves: list[str], rng, budget: dict) -> str:
    iterations = int(budget.get("iterations", 400))
    cap = Cap(budget.get("seconds"))
    depth = int(budget.get("rollout", ROLLOUT_STEPS.get(slug, 8)))
    root = Node(None)
    for _it in range(iterations):
        if not cap.another():
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


# --- Flat Monte Carlo over basic's best candidates, played on by a cheap basic -----------------
#
# Random rollouts are noise in titles whose turns are menus of several steps (Hansa Teutonica,
# Die Hanse's harbour): there the tree search above chose worse than basic's greedy step.
# ``playout_search`` starts from basic: it rates every listed move as basic does (one sampled
# state, the title's lookahead) and keeps the best few (``TOP``; basic's own choice always among
# them, none more than ``GAP`` points of the heuristic below it). It then plays each of them on in
# determinizations drawn from the view, the same sample and the same generator for every candidate
# (common random numbers), every seat moved by a cheap basic (its one-step heuristic without the
# lookahead, which costs some 0.1 s a move; ``EPSILON`` of its moves at random), to the end of the round (every other seat has
# moved and the bot is to move again), the end of the game or ``HORIZON`` moves, and scores the
# end like a rollout above. It leaves basic's choice only for a candidate whose mean paired
# difference over at least ``MIN_PAIRS`` iterations is above zero by ``Z`` standard errors.

# Die Hanse: 1 (its strong level is ``turn_search``, below; these playouts only with
# ``budget={"method": "playouts"}``): the cheap basic does not see the harbour menu (no lookahead),
# and its playouts sent ships away from Lübeck (a first game of strong against two basic: strong
# scored 0, issue 30). Hansa Teutonica's entries too are for ``budget={"method": "playouts"}`` only
# (its strong level is ``turn_search`` as well).
TOP = {"hansa": 4, "die-hanse": 1, "zanzibar": 4, "hansa-teutonica": 3}
GAP = {"hansa": 3.0, "die-hanse": 2.5, "zanzibar": 3.0, "hansa-teutonica": 2.0}
HORIZON = {"hansa": 24, "die-hanse": 40, "zanzibar": 24, "hansa-teutonica": 40}
EPSILON = 0.1
POLICY_NODES: dict[str, int] = {}  # the playout policy's lookahead (applied moves), none by default
Z = 1.0
MIN_PAIRS = 4  # fewer paired playouts than this are no evidence (a standard error of two is noise)


def _policy(slug: str, engine, state: dict, mover: int, rng) -> str:

    moves = engine.legal_moves(state, mover)
    if len(moves) == 1:
        return moves[0]
    if rng.below(1000) < EPSILON * 1000:
        kept = _candidates(slug, moves, state)
        return kept[rng.below(len(kept))]
    return best_step(slug, engine, state, mover, moves, rng, nodes=POLICY_NODES.get(slug, 0))


def playout(slug: str, engine, state: dict, seat: int, seats: int, rng, horizon: int, cap: Cap | None = None) -> dict:
    """Play on from ``state`` with the cheap basic until the round is over (every other seat has
    moved and ``seat`` is to move again), the game ends or ``horizon`` moves are made."""
    others = set()
    for _step in range(horizon):
        if cap is not None:
            cap.check()
        acting = engine.to_act(state)
        if not acting or (seat in acting and len(others) >= seats - 1):
            break
        mover = acting[0]
        if mover != seat:
            others.add(mover)
        state = engine.apply(state, mover, _policy(slug, engine, state, mover, rng))
    return state


def rated_candidates(slug: str, engine, state: dict, seat: int, moves: list[str], rng,
                     rival_cargo: float = 0.0) -> list[tuple[float, str]]:
    """Basic's rating of the listed moves on one sampled state, best first (ties in random order):
    the moves the search plays on."""
    rated = rate(slug, engine, state, seat, rng.shuffle(_candidates(slug, moves, state)), rival_cargo=rival_cargo)
    rated.sort(key=lambda vm: -vm[0])  # stable: ties keep the shuffled order
    return rated


def playout_search(slug: str, engine, view: dict, seat: int, root_moves: list[str], rng, budget: dict,
                   first: dict | None = None, stats: dict | None = None) -> str:
    cap = Cap(budget.get("seconds"))
    state = first if first is not None else sample_state(slug, view, seat, rng)
    seats = len(margins(slug, state, engine))
    rated = rated_candidates(slug, engine, state, seat, root_moves, rng)
    top_value = rated[0][0]
    cands = [m for v, m in rated[:int(budget.get("top", TOP.get(slug, 3)))] if v >= top_value - GAP.get(slug, 2.5)]
    basic = cands[0]
    if stats is not None:
        stats.update(candidates=len(cands), playouts=0, changed=False)
    if len(cands) == 1:
        return basic
    horizon = int(budget.get("horizon", HORIZON.get(slug, 30)))
    diffs = {m: [] for m in cands[1:]}
    for _it in range(int(budget.get("iterations", 400))):
        if not cap.another():
            break
        sample = sample_state(slug, view, seat, rng)
        salt = rng.below(1 << 62)
        scores = {}
        try:
            for m in cands:
                r = Rng(seed_state(salt))
                end = playout(slug, engine, engine.apply(sample, seat, m), seat, seats, r, horizon, cap)
                scores[m] = _rewards(slug, engine, end)[seat]
        except OutOfTime:
            break
        for m in cands[1:]:
            diffs[m].append(scores[m] - scores[basic])
    best = paired_choice(basic, diffs)
    if stats is not None:
        stats.update(playouts=len(diffs[cands[1]]) * len(cands), changed=best != basic)
    return best


SEARCH = {"hansa": "playouts", "die-hanse": "turn", "zanzibar": "playouts", "hansa-teutonica": "turn"}


# --- Die Hanse, Hansa Teutonica: basic's best moves played to the end of the bot's turn ---------
#
# Die Hanse's playouts above need a policy that sees the harbour menu, and basic with its
# lookahead costs too much to play whole rounds on; in Hansa Teutonica the cheap basic plays the
# rest of the bot's turn without seeing the action menus ("place", then the piece, then the
# space), so its playouts were noise at 4 players (strong first in 3 of 12 games against basic, a
# fair share). ``turn_search`` plays basic's best few moves
# (``TOP_TURN``, within ``GAP``, basic's own choice first) on only to the end of the bot's own
# turn (both ship moves, the harbour procedures, the reaction windows, HANSE-6.2-6.5): the bot's
# own decisions by basic with its lookahead, another seat's (a partner's trades, its answer in a
# window) by the cheap basic; each end rated by the heuristic's margin. Every iteration draws a
# state from the view and plays each candidate on from it with the same generator (common random
# numbers), so a trade's draw is read from many samples of the hidden pool, not from one. It
# leaves basic's move only for a candidate whose mean paired difference is above zero by ``Z``
# standard errors over at least ``MIN_PAIRS`` iterations.
TOP_TURN = {"die-hanse": 3, "hansa-teutonica": 3}
TURN_HORIZON = 60
# The share of the best other seat's goods on their way that counts against the strong bot in
# Die Hanse (``die_hanse.margins``; basic counts none). Rated so, the choices of a turn that cost
# the leader (a blockade of the harbour its goods sail to, a storm, a pirate, where a shared ship
# goes) are worth something; its partners, basic or human, still sail its goods home.
RIVAL_CARGO = {"die-hanse": 0.5}


def _turn_value(slug: str, engine, state: dict, seat: int, rival_cargo: float = 0.0) -> float:
    """A turn playout's end as the heuristic's margin of ``seat`` (not squashed: a turn moves it
    by a few points)."""
    return margins(slug, state, engine, rival_cargo)[seat]


# What in a title's state changes when a seat's turn ends: Die Hanse counts turns; in Hansa
# Teutonica the active seat passes on (HT-7.2) once its drawn markers are placed, while a
# displaced seat's answer (HT-14.2) is part of the turn.
TURN_KEY = {"die-hanse": "turn", "hansa-teutonica": "active"}
# Turns a playout plays, by title and player count (1: the bot's own): in Hansa Teutonica at 2
# players the other seat's turn too, where the pawn the bot leaves (HT-13.5) limits where that
# seat may place, displace and establish.
THROUGH = {("hansa-teutonica", 2): 2}


def _turn_playout(slug: str, engine, state: dict, seat: int, rng, horizon: int, cap: Cap | None = None,
                  rival_cargo: float = 0.0, *, turn, turns: int = 1) -> dict:
    """Play on from ``state`` (after a candidate) to the end of the turn ``turn`` (``TURN_KEY``, the
    turn the bot decided in): a candidate that ends the turn itself is rated as it leaves it, never
    after the next seat's turn. With ``turns`` 2 the next seat's whole turn is played too, each of
    its decisions by basic with its lookahead (``THROUGH``)."""
    key = TURN_KEY[slug]
    passed = 0
    for _step in range(horizon):
        if cap is not None:
            cap.check()
        acting = engine.to_act(state)
        if not acting:
            break
        if state[key] != turn:
            passed += 1
            turn = state[key]
            if passed >= turns:
                break
        mover = acting[0]
        moves = engine.legal_moves(state, mover)
        if len(moves) == 1:
            move = moves[0]
        elif mover == seat:
            move = best_step(slug, engine, state, mover, moves, rng, rival_cargo=rival_cargo)
        elif passed:
            move = best_step(slug, engine, state, mover, moves, rng)
        else:
            move = best_step(slug, engine, state, mover, moves, rng, nodes=0)
        state = engine.apply(state, mover, move)
    return state


def turn_search(slug: str, engine, view: dict, seat: int, root_moves: list[str], rng, budget: dict,
                first: dict | None = None, stats: dict | None = None) -> str:
    cap = Cap(budget.get("seconds"))
    state = first if first is not None else sample_state(slug, view, seat, rng)
    rc = float(budget.get("rival_cargo", RIVAL_CARGO.get(slug, 0.0)))
    basic = best_step(slug, engine, state, seat, root_moves, rng, rival_cargo=rc)  # the one-step choice
    rated = rated_candidates(slug, engine, state, seat, root_moves, rng, rc)
    top_value = rated[0][0]
    cands = [basic] + [m for v, m in rated[:int(budget.get("top", TOP_TURN.get(slug, 3)))]
                       if v >= top_value - GAP.get(slug, 2.5) and m != basic]
    if stats is not None:
        stats.update(candidates=len(cands), playouts=0, changed=False, means={})
    if len(cands) == 1:
        return basic
    turns = int(budget.get("turns", THROUGH.get((slug, len(margins(slug, state, engine))), 1)))
    horizon = int(budget.get("horizon", TURN_HORIZON * turns))
    turn = state[TURN_KEY[slug]]  # the turn the bot decides in (public: the same in every sample)
    diffs = {m: [] for m in cands[1:]}
    base = []
    for it in range(int(budget.get("iterations", 400))):
        if not cap.another():
            break
        sample = state if it == 0 else sample_state(slug, view, seat, rng)
        salt = rng.below(1 << 62)
        scores = {}
        try:
            for m in cands:
                r = Rng(seed_state(salt))
                end = _turn_playout(slug, engine, engine.apply(sample, seat, m), seat, r, horizon, cap, rc, turn=turn,
                                    turns=turns)
                scores[m] = _turn_value(slug, engine, end, seat, rc)
        except OutOfTime:
            break
        base.append(scores[basic])
        for m in cands[1:]:
            diffs[m].append(scores[m] - scores[basic])
    best = paired_choice(basic, diffs)
    if stats is not None and base:
        mean0 = sum(base) / len(base)
        stats.update(playouts=len(base) * len(cands), changed=best != basic,
                     means={basic: mean0, **{m: mean0 + sum(d) / len(d) for m, d in diffs.items()}})
    return best
