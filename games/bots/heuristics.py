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


def _die_hanse(state: dict) -> list[float]:
    """Storage points plus every stone on its way into an empty storage slot, rated by the sailing
    still ahead of it (games.bots.die_hanse)."""
    from .die_hanse import estimate as hanse_estimate

    return hanse_estimate(state)


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
    return _ht_tally(state)[0]


def _ht_tally(state: dict) -> tuple[list[int], list[int]]:
    """Every seat's final score now (``_ht_points``) and its offices (Kontors in houses, not the
    extra Kontors)."""
    from games.engines.hansa_teutonica.board import side_of
    from games.engines.hansa_teutonica.rules import controller
    from games.engines.hansa_teutonica.scoring import marker_points
    from games.engines.hansa_teutonica.state import full, level

    side = side_of(state)
    n = state["np"]
    own = [{} for _ in range(n)]  # seat -> city -> Kontors (extra Kontors count)
    points = [0] * n
    offices = [0] * n
    all_houses, extras = state["houses"], state["extras"]
    for c in side.cities:
        houses = all_houses[c]
        more = extras.get(c, ())
        if houses.count(None) == len(houses) and not more:
            continue
        for o in houses:
            if o is not None:
                own[o][c] = own[o].get(c, 0) + 1
                offices[o] += 1
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
    return points, offices


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
        mine = {}  # owner -> pieces on this route
        for x in spaces:
            if x:
                o = int(x[0])
                mine[o] = mine.get(o, 0) + 1
        if len(mine) == 1:  # a route only its owner holds
            for p, k in mine.items():
                size = len(spaces)
                on_routes[p] += 0.12 * k + (0.4 if k == size else 0.2 * k * k / size)
        else:
            for p, k in mine.items():
                on_routes[p] += 0.1 * k
    points, offices = _ht_tally(state)
    out = []
    for p in range(n):
        pl = state["p"][p]
        dev = sum(pl["dev"].values())
        pieces = sum(pl["supply"]) + sum(pl["stock"])
        out.append(points[p] + 1.2 * dev + on_routes[p] + 2.0 * offices[p]
                   + 0.15 * sum(pl["supply"]) + 0.1 * sum(pl["stock"]) - (HT_STARVED if not pieces else 0.0))
    return out


# A seat with no piece in its supply or stock can only move pieces it has on the board (HT-7).
# Its full routes that would found no office (the cities full, the houses of another colour or
# shape) rate above the pieces they would return to the stock (HT-8.9), so two basic bots at 2
# players held them and moved pieces about for ever (4 of 6 games, seeds 94000-94005, no end in
# 5,000 moves). Being out of pieces costs this much: more than the prestige an establishment
# gives the controllers of the route's cities (HT-8.3), so the seat establishes to get pieces back.
HT_STARVED = 3.0


ESTIMATES = {"hansa": _hansa, "die-hanse": _die_hanse, "zanzibar": _zanzibar,
             "hansa-teutonica": _hansa_teutonica}


def estimate(slug: str, state: dict) -> list[float]:
    """Each seat's estimated final score."""
    return ESTIMATES[slug](state)


def margins(slug: str, state: dict, engine, rival_cargo: float = 0.0) -> list[float]:
    """Each seat's estimate minus the best other seat's (the final scores once the game is over).
    ``rival_cargo``: Die Hanse only (``games.bots.die_hanse.margins``)."""
    result = engine.result(state)
    if result is None and slug == "die-hanse":
        from .die_hanse import margins as hanse_margins

        return hanse_margins(state, rival_cargo)
    est = [float(x) for x in result["scores"]] if result else estimate(slug, state)
    n = len(est)
    return [est[p] - max(est[q] for q in range(n) if q != p) for p in range(n)]
