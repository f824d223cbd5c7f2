"""Review: step-by-step movement reaches exactly the outcomes of the spec's normative
reference algorithm (ZAN-10.8) - every path of 1..range steps, every push choice in F,
every expel choice among all free places - on random small boards and positions."""
import copy
import random

from games.engines.zanzibar import ENGINE
from games.engines.zanzibar.board import register_board
from games.engines.zanzibar.turns import start_turn

from .helpers import game

MOVER_SEAT = 3


def reference_outcomes(adj, occ, seat, num, p0):
    """ZAN-10.8 written out: all final positions of a legal move of merchant ``num``."""
    outs = set()

    def rec(occ, path):
        if len(path) > 1:  # ZAN-D-22: at least one step; the mover may stop anywhere
            outs.add(frozenset(occ.items()))
        if len(path) - 1 >= num:  # ZAN-9.3 range
            return
        here = path[-1]
        for q in adj[here]:
            if q in path:  # ZAN-D-08
                continue
            o = occ.get(q)
            dests = [None]
            if o is not None:
                if o[0] == seat or o[1] < num:  # own / stronger merchant blocks
                    continue
                free_nb = [r for r in adj[q] if r not in occ]  # the mover still stands on `here`
                anywhere = [r for r in adj if r not in occ]
                if o[1] > num:  # weaker: push into F, else expel anywhere
                    dests = free_nb or anywhere
                elif free_nb:  # equal with a free neighbour: blocked (ZAN-10.4)
                    continue
                else:
                    dests = anywhere
            for d in dests:
                nxt = dict(occ)
                if d is not None:
                    nxt[d] = o
                del nxt[here]
                nxt[q] = (seat, num)
                rec(nxt, path + [q])

    rec(dict(occ), [p0])
    return outs


def engine_outcomes(state, seat, num):
    outs = set()

    def rec(s):
        if s["phase"] != "move" or (s["cur"] is None and s["pending"] is None):
            outs.add(frozenset((k, tuple(v)) for k, v in s["occ"].items()))
            return
        for m in ENGINE.legal_moves(s, seat):
            if m != "cancel":
                rec(ENGINE.apply(s, seat, m))

    if f"move {num}" in ENGINE.legal_moves(state, seat):
        rec(ENGINE.apply(state, seat, f"move {num}"))
    return outs


def random_case(rnd, k):
    n = rnd.randint(5, 9)
    ids = [f"x{i}" for i in range(n)]
    roads = {(ids[rnd.randrange(i)], ids[i]) for i in range(1, n)}  # connected
    for _ in range(rnd.randint(0, n)):
        a, b = rnd.sample(ids, 2)
        if (b, a) not in roads:
            roads.add((a, b))
    register_board(f"review-rand-{k}", [{"id": x} for x in ids], [list(r) for r in roads])
    adj = {x: [] for x in ids}
    for a, b in roads:
        adj[a].append(b)
        adj[b].append(a)
    places = rnd.sample(ids, rnd.randint(2, n - 1))
    occ = {places[0]: (MOVER_SEAT, rnd.choice([2, 3, 4]))}
    used = set(occ.values())
    for p in places[1:]:
        piece = (rnd.choice([0, 1, MOVER_SEAT]), rnd.randint(2, 5))
        while piece in used:
            piece = (rnd.choice([0, 1, MOVER_SEAT]), rnd.randint(2, 5))
        used.add(piece)
        occ[p] = piece
    return f"review-rand-{k}", adj, occ, places[0]


def test_movement_matches_the_reference_algorithm():  # ZAN-10.8 ZAN-9.5 ZAN-10.1 ZAN-10.5
    rnd = random.Random(2026)
    base = game(5, start=MOVER_SEAT)
    compared = 0
    for k in range(120):
        name, adj, occ, p0 = random_case(rnd, k)
        s = copy.deepcopy(base)
        s["map"] = name
        s["occ"] = {p: list(v) for p, v in occ.items()}
        s["unplaced"] = [[] for _ in range(5)]
        start_turn(s, MOVER_SEAT)
        num = occ[p0][1]
        ref = reference_outcomes(adj, occ, MOVER_SEAT, num, p0)
        assert engine_outcomes(s, MOVER_SEAT, num) == ref, (name, occ, num)
        compared += bool(ref)
    assert compared > 60  # most random cases have at least one legal move
