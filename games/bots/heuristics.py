"""The basic heuristic per title: an estimate of every seat's final score from a (sampled) state.

Immediate points plus what turns into points: goods, offices, income. The bots evaluate states
they sampled from their own seat's knowledge only (games.engines.sampling), so the estimate may
read any key of such a state.
"""
from __future__ import annotations


def _hansa(state: dict) -> list[float]:
    from games.engines.hansa.board import BOARD
    from games.engines.hansa.scoring import breakdown

    out = []
    for p, parts in enumerate(breakdown(state)):
        points = sum(parts.values())
        # coins buy goods and stalls; stalls not yet built are offices to come; majorities matter
        stalls = sum(c[p] for c in state["stalls"].values())
        majority = sum(1 for c in state["stalls"].values() if c[p] and c[p] > max(c[q] for q in range(len(c)) if q != p))
        goods = sum(BOARD.tile_value(t) for t in state["tiles"][p])
        out.append(points + 0.45 * min(state["coins"][p], 8) + 0.15 * stalls + 0.5 * majority + 0.3 * goods)
    return out


# Die Hanse's exchange tree (HANSE-8.5): what a stone of a type can become, one and two trades on
_PARENT = {"fish": "salt", "grain": "salt", "ore": "fish", "fur": "fish", "cloth": "grain", "beer": "grain"}


def _die_hanse(state: dict) -> list[float]:
    """Storage points, plus every stone on the way into an empty storage slot (HANSE-8.5, 8.8):
    a stone of a wanted type is worth more the nearer its ship is to Lübeck; a stone one trade
    short of a wanted type (salt for wanted grain or stockfish, stockfish for wanted ore or fur,
    grain for wanted cloth or beer) more the nearer its ship is to the harbour offering that
    trade; salt two trades short a little towards Bergen or Danzig. Each empty slot is matched by
    at most one stone, the most advanced first. A full storage ends the game with a bonus
    (HANSE-13): every filled slot brings it nearer."""
    from games.engines.die_hanse.board import BOARD
    from games.engines.die_hanse.scoring import breakdown

    n = state["n"]
    dist = BOARD.dist_to
    home = {g: h for h, g in BOARD.harbour_good.items()}

    def near(harbour: str, at: str) -> float:
        d = dist[harbour].get(at)
        if d is None:  # a harbour or canal field: one step beyond its nearest open-water neighbour
            d = 1 + min((dist[harbour].get(y, 17) for y in BOARD.nbrs.get(at, ())), default=17)
        return max(0.0, 18 - d) / 18

    out = []
    for p, parts in enumerate(breakdown(state)):
        points = sum(parts.values())
        st = state["store"][p]
        filled = sum(1 for v in st["vals"] if v is not None)
        wanted = {}
        for g, v in zip(st["goods"], st["vals"]):
            if v is None:
                wanted[g] = wanted.get(g, 0) + 1
        stones = []  # (stage, value, ship position) of p's stones in its two halves
        for ship in range(n):
            for hi in range(2):
                if (ship + hi) % n == p:
                    at = state["ships"][ship]["at"]
                    stones += [(g, v, at) for g, v in state["cargo"][ship][hi]]
        cargo, left, used = 0.0, dict(wanted), set()
        # 1. stones of a wanted type, best first: towards Lübeck
        for i in sorted(range(len(stones)), key=lambda i: -stones[i][1]):
            g, v, at = stones[i]
            if left.get(g):
                left[g] -= 1
                used.add(i)
                cargo += 1.2 + 1.6 * near("luebeck", at) + 0.3 * v
        # 2. one trade short of a wanted type: towards the harbour of that type
        short = {}
        for g, k in left.items():
            if k and g in _PARENT:
                short.setdefault(_PARENT[g], []).extend([g] * k)
        for i, (g, v, at) in enumerate(stones):
            if i not in used and short.get(g):
                target = short[g].pop(0)
                left[target] -= 1
                used.add(i)
                cargo += 0.6 + 0.9 * near(home[target], at)
        # 3. salt two trades short (for wanted ore, fur, cloth or beer): towards Bergen or Danzig
        for i, (g, v, at) in enumerate(stones):
            if i not in used and g == "salt":
                two = [t for t, k in sorted(left.items()) if k and _PARENT.get(t) in ("fish", "grain")]
                if two:
                    left[two[0]] -= 1
                    cargo += 0.25 + 0.45 * near(home[_PARENT[two[0]]], at)
        # a Hansetag not yet met costs a storage stone (HANSE-12.5): be near Lübeck for it
        if filled and any(not h["sat"][p] for h in state["hansetage"]):
            ships = [state["ships"][p]["at"], state["ships"][(p - 1) % n]["at"]]
            cargo -= 3.0 * (1 - max(near("luebeck", at) for at in ships))
        out.append(points + 2.5 * filled + 0.6 * filled * filled / 6 + cargo)
    return out


def _zanzibar(state: dict) -> list[float]:
    n = state["players"]
    out = []
    for p in range(n):
        done = 3.0 if p in state["finished"] else 0.0
        out.append(state["score"][p] + done + 0.5 * len(state["_hand"][p]))
    return out


def _ht_points(state: dict) -> list[int]:
    """Every seat's final score now (HT-12.1), as ``scoring.breakdown`` sums it, in one pass over
    the cities (the playouts of the strong level rate many states)."""
    from games.engines.hansa_teutonica.board import side_of
    from games.engines.hansa_teutonica.rules import controller
    from games.engines.hansa_teutonica.scoring import marker_points
    from games.engines.hansa_teutonica.state import full, level

    side = side_of(state)
    n = state["np"]
    own = [{} for _ in range(n)]  # seat -> city -> Kontors (extra Kontors count)
    points = [0] * n
    extras = state["extras"]
    for c in side.cities:
        houses = state["houses"][c]
        more = extras.get(c, ())
        if not any(o is not None for o in houses) and not more:
            continue
        for o in houses:
            if o is not None:
                own[o][c] = own[o].get(c, 0) + 1
        for o in more:
            own[o][c] = own[o].get(c, 0) + 1
        ruler = controller(state, c)
        if ruler is not None:
            points[ruler] += 2
    for (_c, pts), o in zip(side.coellen_fields, state["coellen"]):
        if o is not None:
            points[o] += pts
    for p in range(n):
        pl = state["p"][p]
        points[p] += pl["pp"] + marker_points(len(pl["markers"]))
        points[p] += 4 * sum(1 for a in ("actiones", "privilegium", "liber", "bursa") if full(pl, a))
        mine, seen, largest = own[p], set(), 0
        for c in mine:
            if c in seen:
                continue
            seen.add(c)
            stack, size = [c], 0
            while stack:
                x = stack.pop()
                size += mine[x]
                for y in side.neigh[x]:
                    if y in mine and y not in seen:
                        seen.add(y)
                        stack.append(y)
            largest = max(largest, size)
        points[p] += largest * level(pl, "clavis")
    return points


def _hansa_teutonica(state: dict) -> list[float]:
    n = state["np"]
    # Pieces count where they can still become an office: on a route only the owner holds they
    # count more the fuller the route (a full one is to be established, HT-8); on a route another
    # player shares a little less than in the supply; in the supply more than in the stock (an
    # Assign action away, HT-7.3). An office counts more than the full route it comes from, so
    # establishing rates above leaving the pieces standing (issue 30: bots that never established
    # ran out of pieces and ended their turns without acting, round after round).
    on_routes = [0.0] * n
    for spaces in state["spaces"].values():
        owners = [int(x[0]) if x else None for x in spaces]
        for p in range(n):
            mine = owners.count(p)
            if not mine:
                continue
            if all(o is None or o == p for o in owners):
                size = len(spaces)
                on_routes[p] += 0.12 * mine + (0.4 if mine == size else 0.2 * mine * mine / size)
            else:
                on_routes[p] += 0.1 * mine
    offices = [0] * n
    for houses in state["houses"].values():
        for h in houses:
            if isinstance(h, int) and 0 <= h < n:
                offices[h] += 1
    points = _ht_points(state)
    out = []
    for p in range(n):
        pl = state["p"][p]
        dev = sum(pl["dev"].values())
        out.append(points[p] + 1.2 * dev + on_routes[p] + 2.0 * offices[p]
                   + 0.15 * sum(pl["supply"]) + 0.1 * sum(pl["stock"]))
    return out


ESTIMATES = {"hansa": _hansa, "die-hanse": _die_hanse, "zanzibar": _zanzibar,
             "hansa-teutonica": _hansa_teutonica}


def estimate(slug: str, state: dict) -> list[float]:
    """Each seat's estimated final score."""
    return ESTIMATES[slug](state)


def margins(slug: str, state: dict, engine) -> list[float]:
    """Each seat's estimate minus the best other seat's (the final scores once the game is over)."""
    result = engine.result(state)
    est = [float(x) for x in result["scores"]] if result else estimate(slug, state)
    n = len(est)
    return [est[p] - max(est[q] for q in range(n) if q != p) for p in range(n)]
