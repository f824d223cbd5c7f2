"""Merchant ship movement (HANSE-7), storm and blockade placement geometry (HANSE-9.2, 9.6)."""
from __future__ import annotations

from collections import deque

from .board import BOARD
from .state import blocked_hexes, occupancy

KIND = BOARD.kind
NBRS = BOARD.nbrs


def wind_range(state: dict, at: str) -> int:
    """HANSE-7.2: the wind value of the sea where the move starts (harbours: HANSE-D-2)."""
    card = BOARD.cards[state["wind"]]
    h = BOARD.harbour_at.get(at)
    sea = BOARD.harbour_sea[h] if h else BOARD.sea[at]
    return card["north"] if sea == "north" else card["baltic"]


def destinations(state: dict, ship: int, occ: dict | None = None) -> dict:
    """Where ``ship`` may end a move. Returns {hex: kind} where kind is
    'sea' (open water), 'harbour' (entering a harbour: procedure runs), 'canal+' / 'canal-'
    (entering the canal at the Hamburg / Wismar end) or 'canal' (a step inside / out of the canal).
    Staying put is not included (see :func:`may_stay`)."""
    if occ is None:
        occ = occupancy(state)
    sh = state["ships"][ship]
    at = sh["at"]
    blocked = blocked_hexes(state)
    if KIND[at] == "canal":
        return canal_destinations(state, ship, occ, blocked)
    rng = wind_range(state, at)
    out = {}
    dist = {at: 0}
    frontier = [at]
    for step in range(1, rng + 1):
        nxt = []
        for x in frontier:
            for y in NBRS[x]:
                k = KIND[y]
                if y in blocked:
                    continue
                if k == "harbour":
                    out[y] = "harbour"  # HANSE-7.5 entering ends the move (also back into the start)
                elif k == "canal":
                    if BOARD.mouth_canal.get(x) == y:
                        out[y] = "canal+" if y == BOARD.canal[0] else "canal-"  # HANSE-7.7.1
                elif k in ("sea", "bay"):
                    if y not in dist:
                        dist[y] = step
                        nxt.append(y)
        frontier = nxt
    for y in dist:
        if y != at and y not in occ:  # HANSE-7.4.2 / D-9: never end on an occupied field
            out[y] = "sea"
    return out


def canal_destinations(state: dict, ship: int, occ: dict, blocked=frozenset()) -> dict:
    """HANSE-7.7.2/7.7.3 (D-10, C7): exactly one field in the direction of travel."""
    sh = state["ships"][ship]
    idx = BOARD.canal.index(sh["at"])
    nxt = idx + sh["dir"]
    if 0 <= nxt < len(BOARD.canal):
        return {BOARD.canal[nxt]: "canal"}
    mouth = BOARD.canal_mouth[sh["at"]]
    if mouth not in occ:
        return {mouth: "sea"}
    # C7: pass through the occupied mouth and end on the nearest free sea field beyond
    return {h: "sea" for h in nearest_free(state, [mouth], occ, blocked)}


def nearest_free(state: dict, starts: list, occ: dict, blocked=None, exclude=frozenset()) -> list:
    """Nearest free sea/bay fields from ``starts`` (not counting the starts themselves),
    stepping through sea and bay fields only (HANSE-D-17, C9)."""
    if blocked is None:
        blocked = blocked_hexes(state)
    seen = set(starts)
    frontier = list(starts)
    while frontier:
        found, nxt = [], []
        for x in frontier:
            for y in NBRS[x]:
                if y in seen or y in blocked or y in exclude or KIND[y] not in ("sea", "bay"):
                    continue
                seen.add(y)
                nxt.append(y)
                if y not in occ:
                    found.append(y)
        if found:
            return sorted(set(found), key=BOARD.order.__getitem__)
        frontier = nxt
    return []


def may_stay(state: dict, ship: int, occ: dict | None = None) -> bool:
    """A zero-field move (HANSE-6.3 b, D-8) is allowed except in the canal, unless its exit is blocked."""
    at = state["ships"][ship]["at"]
    if KIND[at] != "canal":
        return True
    if occ is None:
        occ = occupancy(state)
    return not canal_destinations(state, ship, occ, blocked_hexes(state))


def storm_harbours(state: dict, at: str) -> list:
    """HANSE-9.6.3 / D-19 / C8: nearest open harbours over sea, bay and harbour fields, never through
    the canal or a blockaded Sund; harbours end a path. Ties are returned in BD-3 order."""
    blocked = blocked_hexes(state)
    seen = {at}
    frontier = [at]
    while frontier:
        found, nxt = [], []
        for x in frontier:
            for y in NBRS[x]:
                if y in seen or y in blocked:
                    continue
                k = KIND[y]
                if k == "harbour":
                    found.append(BOARD.harbour_at[y])
                    seen.add(y)
                elif k in ("sea", "bay"):
                    seen.add(y)
                    nxt.append(y)
        if found:
            return [h for h in ("bergen", "bremen", "danzig", "london", "luebeck", "nowgorod", "stockholm")
                    if h in found]
        frontier = nxt
    return []


def displacement_targets(state: dict, location: str, occ: dict) -> list:
    """HANSE-9.2.2 / D-16 / D-17 / C9: free adjacent sea (or bay) fields of a newly blockaded
    location, else the nearest free ones."""
    fields = list(BOARD.sund) if location == "sund" else [BOARD.harbours[location]]
    excl = BOARD.sund_set if location == "sund" else frozenset()
    adj = []
    for f in fields:
        for y in NBRS[f]:
            if KIND[y] in ("sea", "bay") and y not in excl and y not in occ and y not in adj:
                adj.append(y)
    if adj:
        return sorted(adj, key=BOARD.order.__getitem__)
    return nearest_free(state, fields, occ, blocked_hexes(state) | excl, exclude=excl)


_PIRATE_ENDS: dict = {}


def pirate_endpoints(state: dict, pos: str, pts: int, exact: bool, occ: dict) -> tuple[set, set]:
    """HANSE-11.2–11.4, C1, C2, C10. Returns (ship fields reachable, other end fields).

    Only the fields ships occupy matter, so the walk is memoised on them (the bots' searches ask
    for the same pirate move again and again)."""
    key = (pos, pts, exact, frozenset(occ))
    got = _PIRATE_ENDS.get(key)
    if got is None:
        if len(_PIRATE_ENDS) > 4096:
            _PIRATE_ENDS.clear()
        got = _PIRATE_ENDS[key] = _pirate_walk(pos, pts, exact, key[3])
    return set(got[0]), set(got[1])


def _pirate_walk(pos: str, pts: int, exact: bool, occ: frozenset) -> tuple[frozenset, frozenset]:
    ok = BOARD.pirate_ok
    ends_ship, ends_other = set(), set()
    cur = {pos}
    if not exact:
        ends_other.add(pos)
    for _ in range(pts):
        nxt = set()
        for x in cur:
            for y in NBRS[x]:
                if y not in ok:
                    continue
                if y in occ:
                    ends_ship.add(y)
                elif KIND[y] == "harbour":
                    ends_other.add(y)  # C1: entering a harbour ends the pirate's move
                else:
                    nxt.add(y)
        cur = nxt
        if not exact:
            ends_other |= nxt
        if not cur:
            break
    if exact:
        ends_other |= cur
    return frozenset(ends_ship), frozenset(ends_other)


def pirate_distance(state: dict, pos: str, target: str, occ: dict) -> int:
    ok = BOARD.pirate_ok
    seen = {pos}
    q = deque([(pos, 0)])
    while q:
        x, d = q.popleft()
        if x == target:
            return d
        if x != pos and (x in occ or KIND[x] == "harbour"):
            continue
        for y in NBRS[x]:
            if y in ok and y not in seen:
                seen.add(y)
                q.append((y, d + 1))
    return 10 ** 6
