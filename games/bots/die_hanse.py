"""Die Hanse's heuristic (games.bots.heuristics, issue 30): every seat's storage points plus the
stones on their way into its empty storage slots, each rated by the sailing still ahead of it.

A stone's way is its route along the exchange tree (HANSE-8.5) to a storage slot: the harbours
that offer each type it still has to become (HANSE-8.4: the home harbour, or where New Goods lie),
then Lübeck (HANSE-8.8). Its cost is the sailing of that route in steps of open water, counting the
blockade on the board (a blockaded Sund leaves the canal, HANSE-9.2.4; a blockaded harbour is
reached only after the blockade is lifted, HANSE-9.2.3) and the canal (one field per move,
HANSE-7.7), plus a fixed cost per trade. Each empty slot is matched with at most one stone, the
cheapest first.

The two partners of a ship (HANSE-4.7) each move it once a round; rating only its own stones, each
would pull it towards its own harbour and the ship would go nowhere. So a ship's harbours are
visited in one order both partners compute alike from what is public (types, positions, pools):
nearest first, then the nearest from there, and a stone's cost runs along that tour.

Only public keys and the seat's sampled values are read: the bots apply it to states sampled from
a seat's view (games.engines.sampling).
"""
from __future__ import annotations

import heapq

from games.engines.die_hanse.board import BOARD

PARENT = {"fish": "salt", "grain": "salt", "ore": "fish", "fur": "fish", "cloth": "grain", "beer": "grain"}
EXPECTED = dict(BOARD.data["goods"]["expected_value"])
HARBOURS = ("bergen", "bremen", "danzig", "london", "luebeck", "nowgorod", "stockholm")

CANAL_MOVE = 4  # a move inside the canal (one field, HANSE-7.7.2) in steps of open water
CANAL_ENTRY = 3  # entering the canal ends the move (HANSE-7.7.1)
TRADE = 6  # a trade still to make on the way, in steps (a harbour visit yet to come)
REENTER = 2  # a ship lying in the harbour it needs must leave and come back (HANSE-7.5, 8.1)
BLOCKED = 10  # a blockaded harbour on the way: until a card lifts the blockade
REFILL = 2  # an empty place of a half becomes salt in Lübeck (HANSE-8.8.3)
HANSETAG = 10  # steps from Lübeck at which a Hansetag not yet met costs a whole storage stone
FAR = 200  # no way at all (an exhausted pool, a storage type nobody offers)
DECAY = 16.0  # a stone's cost at which its worth is halved
SHARE = 0.8  # a stone at the end of its way, not yet in the storage
FINISH = 4.0  # filling the storage first ends the game (HANSE-13.1): the others' goods at sea are lost
SPARE = 0.02  # every stone's value a little: of two equal ways, keep the better stone
TOUR = 0.3  # how much of the wait a ship's tour puts on a stone counts (the tour is a guess)
# How much a partner's stones on a shared ship count in a seat's margin. Each ship's two partners
# move it once a round each (HANSE-4.7, 6.2). ``PARTNER`` (basic's rating): in full, so that where a
# shared ship lies rates alike for both partners and they sail it the same way. At a quarter, two
# partners whose goods went different ways each pulled their ship back towards their own harbour
# every round, and no storage filled for 40 rounds (seeds 30001 and 105508 of three basic bots).
# ``RIVAL_PARTNER``: the strong level's rating (the one with the leader's goods at sea against it,
# ``rival_cargo``) keeps a quarter: its partners sail its goods home with it, and it rates the
# ship's way by its own goods first (in full it was first in 0 of 4 games against two basic bots,
# margin -13; at a quarter in 8 of 12).
PARTNER = 1.0
RIVAL_PARTNER = 0.25


def _graph():
    """Forward edges (node -> [(node, steps)]); a canal node is (field, direction)."""
    kind, nbrs, canal = BOARD.kind, BOARD.nbrs, BOARD.canal
    out = {}
    for u, k in kind.items():
        if k not in ("sea", "bay", "harbour"):
            continue
        edges = []
        for v in nbrs[u]:
            if kind[v] in ("sea", "bay", "harbour"):
                edges.append((v, 1))
            elif kind[v] == "canal" and BOARD.mouth_canal.get(u) == v and k != "harbour":
                edges.append(((v, 1 if v == canal[0] else -1), CANAL_ENTRY))
        out[u] = edges
    for d in (1, -1):
        for i, c in enumerate(canal):
            j = i + d
            nxt = (canal[j], d) if 0 <= j < len(canal) else BOARD.canal_mouth[c]
            out[(c, d)] = [(nxt, CANAL_MOVE)]
    return out


_EDGES = _graph()
_PRED = {}
for _u, _es in _EDGES.items():
    for _v, _c in _es:
        _PRED.setdefault(_v, []).append((_u, _c))
_DIST: dict = {}


def _blocked(blockade) -> frozenset:
    if blockade is None:
        return frozenset()
    if blockade == "sund":
        return BOARD.sund_set
    return frozenset([BOARD.harbours[blockade]])


def distances(target: str, blockade) -> dict:
    """Steps from every node to harbour ``target`` with ``blockade`` on the board (None, "sund" or
    a harbour other than the target): a path never passes through a harbour (HANSE-7.5) nor a
    blockaded field (HANSE-7.1)."""
    key = (target, blockade)
    got = _DIST.get(key)
    if got is not None:
        return got
    goal = BOARD.harbours[target]
    blocked = _blocked(blockade)
    dist = {goal: 0}
    heap = [(0, 0, goal)]
    tie = 0
    while heap:
        d, _t, v = heapq.heappop(heap)
        if d > dist.get(v, FAR):
            continue
        if v != goal and not isinstance(v, tuple) and BOARD.kind[v] == "harbour":
            continue  # a harbour starts a path, it is never passed through
        for u, c in _PRED.get(v, ()):
            if u in blocked:
                continue
            nd = d + c
            if nd < dist.get(u, FAR):
                dist[u] = nd
                tie += 1
                heapq.heappush(heap, (nd, tie, u))
    _DIST[key] = dist
    return dist


def _offers(state: dict) -> tuple:
    """Harbours offering each type now (HANSE-8.4), as a sorted tuple of (type, harbours); Lübeck's
    salt only by a refill."""
    drawn = {(f["h"], f["draw"]["good"]) for f in state["stack"]
             if f["k"] == "harbour" and f["draw"] is not None and len(f["draw"]["vals"]) > 1}
    out = {}
    for h in HARBOURS:
        for g, stones in state["_pools"][h].items():
            if g != "salt" and (stones or (h, g) in drawn):  # a draw's other stones go back (HANSE-8.6.3)
                out.setdefault(g, []).append(h)
    return tuple(sorted((g, tuple(hs)) for g, hs in out.items()))


def _chain(good: str, want: str):
    """The types a stone of ``good`` still has to become to fill a ``want`` slot (HANSE-8.5)."""
    if good == want:
        return ()
    if PARENT.get(want) == good:
        return (want,)
    up = PARENT.get(want)
    if good == "salt" and up and PARENT.get(up) == "salt":
        return (up, want)
    return None


CHAIN = {(g, w): _chain(g, w) for g in PARENT.keys() | {"salt"} for w in PARENT}
_WAYS: dict = {}
# Memoised matchings and tours (``_Routes.match``, ``_Routes.tour``) in all routes objects together:
# past this many every routes object is dropped (a bots' worker lives for many games; an entry
# is about a kilobyte).
MATCHES = 20_000
_ENTRIES = [0]


class _Routes:
    """Route costs for a blockade and the harbours' offers, memoised across states:
    (first harbour, steps to it, steps after it)."""

    def __init__(self, blockade, offers: tuple):
        self.blockade = blockade
        self.offers = dict(offers)
        self.memo = {}
        self.matches = {}
        self.tours = {}

    @classmethod
    def of(cls, state: dict) -> "_Routes":
        key = (state["blockade"], _offers(state))
        got = _WAYS.get(key)
        if got is None:
            if len(_WAYS) > 256:
                _WAYS.clear()
            got = _WAYS[key] = cls(*key)
        return got

    def steps(self, node, target: str) -> int:
        if self.blockade == target:
            return distances(target, None).get(node, FAR) + BLOCKED
        if self.blockade is not None and node == BOARD.harbours.get(self.blockade):
            return distances(target, None).get(node, FAR)  # a leg from a blockaded harbour: once it is open
        return distances(target, self.blockade).get(node, FAR)

    def leg(self, harbour: str, target: str) -> int:
        if harbour == target:
            return 0
        return self.steps(BOARD.harbours[harbour], target)

    def best(self, node, chain: tuple):
        """The cheapest way along ``chain`` from ``node`` and then to Lübeck: (first harbour, steps
        to it, steps after it, the next harbour after it, steps after that one); None when a type
        of the chain is offered nowhere."""
        key = (node, chain)
        try:
            return self.memo[key]
        except KeyError:
            pass
        best = None
        if not chain:
            best = ("luebeck", 0 if node == BOARD.luebeck else self.steps(node, "luebeck"), 0, None, 0)
        else:
            options = [self.offers.get(t, ()) for t in chain]
            if all(options):
                for h1 in options[0]:
                    if len(chain) == 2:
                        h2 = min((self.leg(h1, h) + self.leg(h, "luebeck"), h) for h in options[1])[1]
                        after = TRADE + self.leg(h2, "luebeck")
                    else:
                        h2, after = "luebeck", 0
                    rest = TRADE + self.leg(h1, h2) + after
                    first = 0 if node == BOARD.harbours[h1] else self.steps(node, h1)
                    if best is None or first + rest < best[1] + best[2]:
                        best = (h1, first, rest, h2, after)
        self.memo[key] = best
        return best

    def tour(self, node, wants: frozenset) -> dict:
        """A ship's tour from ``node`` through the harbours ``wants``: nearest first, then the
        nearest from there; the steps at which it arrives at each (memoised)."""
        key = (node, wants)
        got = self.tours.get(key)
        if got is not None:
            return got
        arrive, here, cum, left = {}, node, 0, set(wants)
        while left:
            d, h = min((0 if here == BOARD.harbours[h] else self.steps(here, h), h) for h in left)
            cum += d
            arrive[h] = cum
            left.discard(h)
            here = BOARD.harbours[h]
        _count_entry()
        self.tours[key] = arrive
        return arrive

    def match(self, stones: tuple, wanted: tuple, ships: tuple, salt: bool) -> tuple:
        """A seat's empty storage slots (``wanted``: (type, count) pairs) matched with its stones
        (``_stones``) cheapest first, at most one stone a slot: (ship, first harbour, steps to it,
        steps after it, value) each. ``ships``: (ship, node, its harbour procedure under way) of
        the seat's two ships; ``salt``: Lübeck still has salt. Memoised: a playout rates many
        states in which a seat's stones and ships did not move."""
        key = (stones, wanted, ships, salt)
        try:
            return self.matches[key]
        except KeyError:
            pass
        best, rsteps, luebeck = self.best, self.steps, BOARD.luebeck
        at = {ship: (node, busy) for ship, node, busy in ships}
        pairs = []
        for i, (g, v, ship) in enumerate(stones):
            node, busy = at[ship]
            # a ship lying in a harbour has to leave and come back before it trades there again,
            # unless its harbour procedure is under way
            here = isinstance(node, str) and BOARD.kind[node] == "harbour" and not busy
            for w, _count in wanted:
                if g is None:  # an empty place: salt from Lübeck
                    chain = CHAIN[("salt", w)]
                    if not salt or chain is None:
                        continue
                    way = best(luebeck, chain)
                    if way is None:
                        continue
                    if node == luebeck and not here:  # refilled in this harbour step
                        first, d1, rest = way[0], way[1], way[2] + REFILL
                    else:
                        first, d1 = "luebeck", REENTER if node == luebeck else rsteps(node, "luebeck")
                        rest = REFILL + way[1] + way[2]
                    pairs.append((d1 + rest, -EXPECTED[w], i, w, ship, first, d1, rest, EXPECTED[w]))
                    continue
                chain = CHAIN.get((g, w))
                if chain is None:
                    continue
                way = best(node, chain)
                if way is None:
                    continue
                first, d1, rest, second, after = way
                if d1 == 0 and second is not None:
                    if here:
                        d1 = REENTER
                    else:  # trading here now: its next harbour is where the ship has to go
                        first, d1, rest = second, rest - after - TRADE, after + TRADE
                elif here and d1 == 0:
                    d1 = REENTER
                quality = v if g == w else EXPECTED[w]
                pairs.append((d1 + rest, -quality, i, w, ship, first, d1, rest, quality))
        pairs.sort()
        used, left, matched = set(), dict(wanted), []
        for _c, _q, i, w, ship, first, d1, rest, quality in pairs:
            if i in used or not left[w]:
                continue
            used.add(i)
            left[w] -= 1
            matched.append((ship, first, d1, rest, quality))
        _count_entry()
        got = self.matches[key] = tuple(matched)
        return got


def _count_entry() -> None:
    """One more memoised matching or tour; past ``MATCHES`` of them every routes object is dropped."""
    _ENTRIES[0] += 1
    if _ENTRIES[0] > MATCHES:
        _WAYS.clear()  # the routes object in use lives on until its state is rated
        _ENTRIES[0] = 0


def _stones(state: dict, p: int) -> list:
    """(good, value, ship) of p's stones in its two halves; an announced exchange counts as the
    type it is for, a draw not yet kept as a stone of the expected value (HANSE-8.6); an empty
    place is None."""
    n = state["n"]
    out = []
    for ship in (p, (p - 1) % n):
        hi = 0 if ship == p else 1
        stones = [[g, v] for g, v in state["cargo"][ship][hi]]
        for f in state["stack"]:
            if f["k"] != "harbour" or f["ship"] != ship:
                continue
            trader = f["mover"] if f["stage"] == "mover" else f["partner"]
            if trader != p or f["stage"] == "card":
                continue
            for item in f["queue"]:
                for s in stones:
                    if s[0] == item[0] and (len(item) < 3 or item[2] is None or s[1] == item[2]):
                        s[0], s[1] = item[1], EXPECTED.get(item[1], 0.0)
                        break
            if f["draw"] is not None and f["draw"]["vals"]:  # its values are the trader's choice
                stones.append([f["draw"]["good"], EXPECTED.get(f["draw"]["good"], 0.0)])
        out += [(g, v, ship) for g, v in stones]
        if len(stones) < 3:
            out += [(None, 0.0, ship)] * (3 - len(stones))  # empty places: salt from Lübeck
    return out


def _node(state: dict, ship: int):
    sh = state["ships"][ship]
    at = sh["at"]
    return (at, sh["dir"]) if BOARD.kind[at] == "canal" else at


def _slot_worth(filled: int, final) -> tuple:
    """What filling each further slot adds to the storage terms (in order); the sixth ends the
    game with the first filler's bonus (HANSE-13.1, 13.3)."""
    return _SLOT_WORTH[filled, final is None]


def _slot_worths(filled: int, final) -> tuple:
    out = []
    for f in range(filled, 6):
        w = 2.5 + 0.6 * ((f + 1) ** 2 - f ** 2) / 6
        if f == 5 and final is None:
            w += 5
        out.append(w)
    return tuple(out)


_SLOT_WORTH = {(f, open_): _slot_worths(f, None if open_ else {}) for f in range(7) for open_ in (True, False)}


def parts(state: dict) -> list:
    """Per seat: (points and storage terms, stones on their way)."""
    from games.engines.die_hanse.scoring import breakdown

    n = state["n"]
    routes = _Routes.of(state)
    rsteps = routes.steps
    luebeck = BOARD.luebeck
    salt = bool(state["_pools"]["luebeck"].get("salt"))
    pending = [0.0] * n  # declared special cards are spent (HANSE-10.1, C4): no bonus at the end
    for f in state["stack"]:
        if f["k"] == "window":
            for s, cards in f["ans"].items():
                for c in cards:
                    if state["special"][int(s)].get(c):
                        pending[int(s)] += BOARD.privilege_points if c == "privilege" else BOARD.kaperbrief_points
    nodes = [_node(state, s) for s in range(n)]
    # ships whose harbour procedure is under way: a ship lying in a harbour otherwise has to
    # leave and come back before it trades there again
    visiting = {f["ship"] for f in state["stack"] if f["k"] == "harbour"}
    # each seat's matched stones: (ship, first harbour, steps to it, steps after it, value)
    plans = []
    for p, bd in enumerate(breakdown(state)):
        st = state["store"][p]
        filled = 0
        wanted = {}
        for g, v in zip(st["goods"], st["vals"]):
            if v is None:
                wanted[g] = wanted.get(g, 0) + 1
            else:
                filled += 1
        stones = tuple(_stones(state, p))
        spare = SPARE * sum(v for g, v, _s in stones if g is not None)
        matched = ()
        if wanted:
            ships = tuple((ship, nodes[ship], ship in visiting) for ship in (p, (p - 1) % n))
            matched = routes.match(stones, tuple(wanted.items()), ships, salt)
        points = sum(bd.values()) - pending[p]
        if (state["final"] or {}).get("f") == p:
            points += FINISH
        plans.append((points + 2.5 * filled + 0.6 * filled * filled / 6, filled, matched, spare))
    # each ship's tour: nearest harbour first (both partners compute it alike)
    tours = {}
    for ship in range(n):
        wants = set()
        for p in (ship, (ship + 1) % n):
            for s, first, _d, _r, _q in plans[p][2]:
                if s == ship:
                    wants.add(first)
        tours[ship] = routes.tour(nodes[ship], frozenset(wants))
    out = []
    for p, (secure, filled, matched, spare) in enumerate(plans):
        costs = sorted((d1 + TOUR * max(0, tours[ship].get(first, d1) - d1) + rest, quality, ship)
                       for ship, first, d1, rest, quality in matched)
        worth = _slot_worth(filled, state["final"])
        by_ship = {}
        for (c, q, ship), w in zip(costs, worth):
            by_ship[ship] = by_ship.get(ship, 0.0) + SHARE * (w + q) / (1 + c / DECAY)
        cargo = spare + sum(by_ship.values())
        # a Hansetag not yet met costs a storage stone (HANSE-12.5): be near Lübeck for it
        if filled and any(not h["sat"][p] for h in state["hansetage"]):
            d = min(0 if nodes[s] == luebeck else rsteps(nodes[s], "luebeck") for s in (p, (p - 1) % n))
            cargo -= (2.5 + 0.6 * (2 * filled - 1) / 6 + 2.5) * min(1.0, d / HANSETAG)
        out.append((secure, cargo, by_ship))
    return out


def estimate(state: dict) -> list:
    return [a + b for a, b, _s in parts(state)]


def margins(state: dict, rival_cargo: float = 0.0) -> list:
    """Each seat's estimate plus ``PARTNER`` of its partners' stones on the ships it shares with
    them, minus the best other seat's points and storage terms. Where a shared ship lies then
    rates alike for both its partners (the best other seat's terms do not depend on it), so they
    sail it the same way. Another seat's stones on their way do not count against a seat: a seat
    that rated its partner's progress against itself would sail their ship away from where the
    partner's goods go, round after round, and no storage would fill (basic bots all did so).

    ``rival_cargo``: the share of the best other seat's stones on their way that counts against
    the seat too (0: basic). The strong level's evaluation counts a share (``games.bots.ismcts``):
    one seat that does so among basic bots still has partners that sail its goods home, and it
    now sees what a blockade, a storm or a pirate costs the leader. That rating counts its
    partners' stones at ``RIVAL_PARTNER``."""
    ps = parts(state)
    n = len(ps)
    partner = RIVAL_PARTNER if rival_cargo else PARTNER
    out = []
    for p in range(n):
        # its own ship p, whose bow p + 1 holds; the ship p - 1, whose bow it holds (HANSE-4.7)
        help_ = partner * (ps[(p + 1) % n][2].get(p, 0.0) + ps[(p - 1) % n][2].get((p - 1) % n, 0.0))
        rival = max(ps[q][0] + rival_cargo * ps[q][1] for q in range(n) if q != p)
        out.append(ps[p][0] + ps[p][1] + help_ - rival)
    return out
