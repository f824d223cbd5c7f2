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
    from games.engines.die_hanse.board import BOARD
    from games.engines.die_hanse.scoring import breakdown

    n = state["n"]
    to_luebeck = BOARD.dist_to["luebeck"]
    out = []
    for p, parts in enumerate(breakdown(state)):
        points = sum(parts.values())
        st = state["store"][p]
        filled = sum(1 for v in st["vals"] if v is not None)
        wanted = {}
        for g, v in zip(st["goods"], st["vals"]):
            if v is None:
                wanted[g] = wanted.get(g, 0) + 1
        # stones on board that fit an empty storage slot, more so on a ship near Lübeck (HANSE-9)
        cargo = 0.0
        for ship in range(n):
            for hi in range(2):
                if (ship + hi) % n != p:
                    continue
                at = state["ships"][ship]["at"]
                near = max(0, 20 - to_luebeck.get(at, 12)) / 20
                left = dict(wanted)
                salt = 0
                for g, v in sorted(state["cargo"][ship][hi], key=lambda s: -s[1]):
                    if left.get(g):
                        left[g] -= 1
                        cargo += 0.9 + 1.2 * near + 0.25 * v
                    elif g == "salt":
                        salt += 1
                    else:
                        cargo += 0.15
                # salt to trade and goods still wanted: a pull towards a harbour that has them
                if salt and any(left.values()):
                    d = min((BOARD.dist_to[h].get(at, 10) for h, g in BOARD.harbour_good.items()
                             if left.get(g)), default=10)
                    cargo += 0.7 * max(0, 10 - d) / 10
        # a full storage ends the game with a bonus (HANSE-13): every filled slot brings it nearer
        out.append(points + 2.5 * filled + 0.6 * filled * filled / 6 + cargo)
    return out


def _zanzibar(state: dict) -> list[float]:
    n = state["players"]
    out = []
    for p in range(n):
        done = 3.0 if p in state["finished"] else 0.0
        out.append(state["score"][p] + done + 0.5 * len(state["_hand"][p]))
    return out


def _hansa_teutonica(state: dict) -> list[float]:
    from games.engines.hansa_teutonica.scoring import breakdown

    n = state["np"]
    on_routes = [0.0] * n
    for spaces in state["spaces"].values():
        owners = [int(x[0]) if x else None for x in spaces]
        for p in range(n):
            mine = owners.count(p)
            if mine:  # a route of one's own becomes an office and prestige (HT-8)
                on_routes[p] += 0.35 * mine + (1.5 if mine == len(spaces) else 0.0)
    offices = [0] * n
    for houses in state["houses"].values():
        for h in houses:
            if isinstance(h, int) and 0 <= h < n:
                offices[h] += 1
    out = []
    for p in range(n):
        points = sum(breakdown(state, p).values())
        pl = state["p"][p]
        dev = sum(pl["dev"].values())
        out.append(points + 1.2 * dev + on_routes[p] + 0.8 * offices[p] + 0.15 * sum(pl["supply"]))
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
