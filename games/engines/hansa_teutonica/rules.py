"""Rule helpers shared by the actions: control (HT-10.1), networks (HT-10.2), the
East-West connection (HT-10.3), prestige and end triggers (HT-11), developing (HT-4.2),
the 2-player pawn restriction (HT-13.5) and re-placement distances (HT-7.5.4)."""
from __future__ import annotations

from .board import ABILITY_NAMES, EW_POINTS, TRACKS, side_of
from .state import P, full, level, log, wspace
from ..i18n import N_, lit, msg, render, say  # noqa: F401

WIN_PP = 20
CITIES_TO_END = 10


def controller(s: dict, city: str):
    """HT-10.1: most Kontors (extra Kontors count); ties to the rightmost Kontor."""
    best = None
    best_key = None
    counts = {}
    rank = {}
    for i, occ in enumerate(s["houses"][city]):
        if occ is not None:
            counts[occ] = counts.get(occ, 0) + 1
            rank[occ] = max(rank.get(occ, -99), i)
    for j, occ in enumerate(s["extras"].get(city, ())):
        counts[occ] = counts.get(occ, 0) + 1
        rank[occ] = max(rank.get(occ, -99), -1 - j)
    for seat, c in counts.items():
        key = (c, rank[seat])
        if best_key is None or key > best_key:
            best, best_key = seat, key
    return best


def kontors_in(s: dict, city: str, seat: int) -> int:
    n = sum(1 for o in s["houses"][city] if o == seat)
    return n + sum(1 for o in s["extras"].get(city, ()) if o == seat)


def networks(s: dict, seat: int) -> list[tuple[set, int]]:
    """HT-10.2: the player's networks as (cities, number of own Kontors)."""
    side = side_of(s)
    own = {}
    for c in side.cities:
        k = kontors_in(s, c, seat)
        if k:
            own[c] = k
    out = []
    seen = set()
    for c in own:
        if c in seen:
            continue
        comp = {c}
        stack = [c]
        seen.add(c)
        while stack:
            x = stack.pop()
            for y in side.neigh[x]:
                if y in own and y not in seen:
                    seen.add(y)
                    comp.add(y)
                    stack.append(y)
        out.append((comp, sum(own[x] for x in comp)))
    return out


def largest_network(s: dict, seat: int) -> int:
    """HT-D-21: the most own Kontors in one network."""
    return max((k for _, k in networks(s, seat)), default=0)


def gain_pp(s: dict, seat: int, pp: int, why: str) -> None:
    if pp <= 0:
        return
    p = s["p"][seat]
    p["pp"] += pp
    log(s, seat, msg(N_("{player} gains {pp} PP ({why}), now {total}"), player=P(seat), pp=pp, why=why, total=p["pp"]))
    if p["pp"] >= WIN_PP and not s["end"]:  # HT-11.1 (1)
        trigger_end(s, msg(N_("{player} reached {n} prestige points"), player=P(seat), n=WIN_PP))


def trigger_end(s: dict, why: str) -> None:
    s["end"] = True
    s["ended_by"].append(render(why))  # English, as stored before (docs/i18n.md)
    log(s, None, msg(N_("Game end triggered: {why}; the current action is completed"), why=why))


def check_east_west(s: dict, seat: int) -> None:
    """HT-10.3 / HT-D-18, checked after every Kontor founded (HT-8.6.3)."""
    if seat in s["ew"]:
        return
    side = side_of(s)
    a, b = side.east_west
    for comp, _ in networks(s, seat):
        if a in comp and b in comp:
            order = len(s["ew"])
            s["ew"].append(seat)
            awards = EW_POINTS[:2] if s["two"] else EW_POINTS  # HT-13.6
            pts = awards[order] if order < len(awards) else 0
            if pts:
                gain_pp(s, seat, pts, msg(N_("East-West connection, number {n}"), n=order + 1))
            else:
                log(s, seat, msg(N_("{player} links Arnheim and Stendal, but the awards are gone"), player=P(seat)))
            return


def develop(s: dict, seat: int, ability: str, why: str) -> None:
    """HT-4.2: uncover the leftmost field; the piece goes to the personal supply."""
    p = s["p"][seat]
    old = level(p, ability)
    dev = dict(p["dev"])  # copy-on-write
    dev[ability] += 1
    p["dev"] = dev
    p["supply"][1 if ability == "liber" else 0] += 1
    new = level(p, ability)
    if ability == "actiones" and seat == s["active"]:
        s["acts"] += new - old  # HT-C3
    shown = "C" if new == 99 else str(new)
    if ability == "privilegium":
        shown = ["white", "orange", "pink", "black"][new - 1]
    log(s, seat, msg(N_("{player} develops {ability} to {level} ({why})"), player=P(seat), ability=ABILITY_NAMES[ability],
                     level=shown, why=why))


def developable(p: dict) -> list[str]:
    return [a for a in TRACKS if not full(p, a)]


def allowed_route(s: dict, route: str) -> bool:
    """HT-13.5: in the 2-player game Place/Displace/Establish need the pawn's province."""
    if not s["two"]:
        return True
    return s["pawn"] in side_of(s).route_provinces[route]


def replace_targets(s: dict, origin: str) -> list[str]:
    """HT-7.5.4 / HT-D-8 / HT-C7: routes at the smallest distance from ``origin`` that
    have an empty space; never ``origin`` itself."""
    side = side_of(s)
    dist = side.dist[origin]
    best = None
    out = []
    spaces = s["spaces"]
    for r in side.routes:
        if r == origin or None not in spaces[r]:
            continue
        d = dist.get(r, 999)
        if best is None or d < best:
            best, out = d, [r]
        elif d == best:
            out.append(r)
    return out


def marker_routes(s: dict) -> list[str]:
    """HT-9.4 conditions, relaxed per HT-D-14 when nothing qualifies."""
    side = side_of(s)
    free = [r for r in side.routes if r not in s["markers"]]
    if not free:
        return []
    empty = [r for r in free if all(x is None for x in s["spaces"][r])]
    good = [r for r in empty if any(None in s["houses"][c] for c in side.ends[r])]
    if good:
        return good
    if empty:
        return empty
    return free


def place_on(s: dict, route: str, piece: str) -> int:
    sp = wspace(s, route)
    i = sp.index(None)
    sp[i] = piece
    return i
