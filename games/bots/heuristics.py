"""The basic heuristic per title: an estimate of every seat's final score from a (sampled) state.

Immediate points plus what turns into points: goods, offices, income. The bots evaluate states
they sampled from their own seat's knowledge only (games.engines.sampling), so the estimate may
read any key of such a state.
"""
from __future__ import annotations

# Hansa Teutonica's heuristic rates every state of the strong level's playouts (some 150,000 a
# game): its engine's names are imported once here, not in each call.
from games.engines.hansa_teutonica.board import RANK, TRACKS, side_of
from games.engines.hansa_teutonica.rules import controller
from games.engines.hansa_teutonica.scoring import marker_points


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
    from games.engines.zanzibar.assignment import count_for, own_places
    from games.engines.zanzibar.state import board_of

    n = state["players"]
    board = board_of(state)
    # A card in hand counts half of what it would score now (ZAN-11.2, ZAN-11.3), so a merchant
    # moved onto its spice or province counts at once (issue 30: at a flat 0.5 a card, basic moved
    # its merchants without regard to its cards, kept every card whose count was low, and five
    # basic bots had no end in 30,000 moves, 0-4 of their 10 cards used). Cards still to play
    # (hand and deck, ZAN-14.1) cost more the longer the game has run: a card kept scores nothing
    # at the end (ZAN-14.4), and somebody must finish. The move count, not the score: a measure no
    # choice moves faster.
    tempo = state["n"] / ZZ_PATIENCE
    out = []
    for p in range(n):
        done = 3.0 if p in state["finished"] else 0.0
        hand = state["_hand"][p]
        mine = own_places(state, p)  # found once for all the seat's cards
        held = sum(0.5 + 0.5 * board.card_points(c, count_for(state, p, c, mine)) for c in hand)
        left = len(hand) + len(state["_deck"][p])
        out.append(state["score"][p] + done + held - tempo * left)
    return out


ZZ_PATIENCE = 2000  # moves per point a card still to play costs


def _ht_points(state: dict) -> list[int]:
    """Every seat's final score now (HT-12.1), as ``scoring.breakdown`` sums it, in one pass over
    the cities (the playouts of the strong level rate many states)."""
    return _ht_tally(state)[0]


def _ht_tally(state: dict, board: tuple | None = None, devs: list | None = None) -> tuple[list[int], list[int]]:
    """Every seat's final score now (``_ht_points``) and its offices (Kontors in houses, not the
    extra Kontors). ``board`` and ``devs``: ``_ht_board(state)`` and each seat's ``_ht_dev``, where
    the caller has them already."""
    cities, offices, largest, _free = board or _ht_board(state)
    points = cities[:]
    for p, pl in enumerate(state["p"]):
        _worth, fulls, _priv, clavis = devs[p] if devs else _ht_dev(pl["dev"])
        points[p] += pl["pp"] + marker_points(len(pl["markers"])) + 4 * fulls + largest[p] * clavis
    return points, offices


_HT_DEVS: dict = {}


def _ht_dev(dev: dict) -> tuple[float, int, int, int]:
    """What a seat's ability levels give, memoised by the levels: the worth of the steps taken
    (``HT_DEV``, before the phase), how many of Actiones, Privilegium, Liber Sophiae and Bursa
    are fully developed (4 PP each, HT-12.1 B), its Privilegium rank (HT-4.3) and its Clavis Urbis
    multiplier (HT-12.1 D)."""
    key = tuple(dev.items())
    hit = _HT_DEVS.get(key)
    if hit is None:
        hit = (sum(HT_DEV[a][i] for a, i in dev.items()),
               sum(1 for a in ("actiones", "privilegium", "liber", "bursa") if dev[a] >= len(TRACKS[a]) - 1),
               TRACKS["privilegium"][dev["privilegium"]], TRACKS["clavis"][dev["clavis"]])
        _HT_DEVS[key] = hit
    return hit


# What the cities give, memoised by the identity of the parts they are read from. The engine
# never changes a state's houses, extras or Coellen fields in place: apply copies them before a
# change (``hansa_teutonica.state.mutable``), so a state and the many states played on from it
# share these objects until an office is founded, and the strong level's playouts rate thousands
# of such states (the cities were some half of the heuristic's CPU). An entry holds the objects
# themselves, so their ids cannot be reused while it stands.
_HT_BOARDS: dict = {}
_HT_BOARDS_MAX = 512


def _ht_board(state: dict) -> tuple[list[int], list[int], list[int], dict]:
    """Per seat: the points of the cities (2 a city it controls, HT-10.1, and its Coellen
    fields), its offices (Kontors in houses) and its largest network's Kontors (HT-10.2, for
    Clavis Urbis); and each city's next free house as (rank, round), None where it is full."""
    houses, extras, coellen = state["houses"], state["extras"], state["coellen"]
    key = (id(houses), id(extras), id(coellen), state["side"], state["np"])
    hit = _HT_BOARDS.get(key)
    if hit is not None:
        return hit[3]
    side = side_of(state)
    n = state["np"]
    own = [{} for _ in range(n)]  # seat -> city -> Kontors (extra Kontors count)
    points = [0] * n
    offices = [0] * n
    free = {}
    for c in side.cities:
        hs = houses[c]
        if None in hs:
            shape, colour, _coin = side.houses[c][hs.index(None)]
            free[c] = (RANK[colour], shape == "round")
        else:
            free[c] = None
        more = extras.get(c, ())
        if hs.count(None) == len(hs) and not more:
            continue
        for o in hs:
            if o is not None:
                own[o][c] = own[o].get(c, 0) + 1
                offices[o] += 1
        for o in more:
            own[o][c] = own[o].get(c, 0) + 1
        ruler = controller(state, c)
        if ruler is not None:
            points[ruler] += 2
    for (_c, pts), o in zip(side.coellen_fields, coellen):
        if o is not None:
            points[o] += pts
    largest = [0] * n
    for p in range(n):
        mine, seen = own[p], set()
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
            largest[p] = max(largest[p], size)
    out = (points, offices, largest, free)
    if len(_HT_BOARDS) >= _HT_BOARDS_MAX:
        _HT_BOARDS.clear()
    _HT_BOARDS[key] = (houses, extras, coellen, out)
    return out


# What each step of an ability is worth to a seat, in points of the heuristic, by the steps it has
# already taken (HT-4.1; the 4 PP of a fully developed ability, HT-12.1 B, are in the points).
# Actiones is an action more in every turn to come where its level rises (2, 3, 3, 4, 4, 5);
# Privilegium opens the houses of the next colour (HT-4.3) and Coellen's fields; Bursa brings more
# pieces per Assign; Liber Sophiae moves more per Move; Clavis Urbis multiplies the largest network,
# which the points already count at its present level. Every step also puts a piece into the
# supply (HT-4.2), counted there. (Issue 30: at 1.2 a step against an office's 2, basic bots never
# developed: 0 steps in whole 2-player games, some 12 pieces in play, and a seat that ran short held
# full routes without an office rather than give their pieces back.)
HT_STEPS = {
    "actiones": (2.5, 1.0, 2.0, 0.8, 1.5),
    "privilegium": (2.2, 1.6, 1.0),
    "bursa": (1.4, 0.9, 0.6),
    "liber": (0.8, 0.6, 0.4),
    "clavis": (0.8, 0.3, 0.5, 0.5),
}
HT_DEV = {a: [sum(v[:i]) for i in range(len(v) + 1)] for a, v in HT_STEPS.items()}
HT_OFFICE = 2.0  # a Kontor (and what it adds to the points: control, networks, is in them)
HT_FILL = 0.5  # a full route of its owner's counts this share of what establishing it gives


def _ht_phase(state: dict) -> float:
    """How much of an ability's worth is still ahead: 2 at the start, falling with the moves made
    to 0.5 at about a game's length of basic play (``HT_LENGTH``). The moves, not the prestige
    track: a measure no choice of the seat moves faster."""
    left = max(0.0, 1.0 - state["n"] / HT_LENGTH.get(state["np"], 1200))
    return 0.5 + 1.5 * left


HT_LENGTH = {2: 1000, 3: 1000, 4: 1300, 5: 1400}


def _ht_short(mobile: int) -> float:
    """What having only ``mobile`` pieces outside the offices costs (on routes, in the supply and
    the stock): nothing from ``HT_FEW`` up, then more with every piece fewer. A seat needs as many
    as a route has spaces to establish anything, and only an ability step brings a piece back
    (HT-4.2); each office keeps one for good (HT-8.6)."""
    if mobile >= HT_FEW:
        return 0.0
    short = (HT_FEW - mobile) / HT_FEW
    return HT_SHORT * short * short


def _ht_reward(state: dict, side, route: str, seat: tuple, merchant: bool, free: dict) -> float:
    """What establishing ``route`` would give a seat (HT-8.5): the best of an office it may found
    at either end (HT-8.6, HT-4.3: the next free house's colour within its Privilegium, a round
    house only for a merchant; it keeps a piece), the next step of an ability city's ability
    (HT-8.7; it brings a piece) and a Coellen field (HT-8.8; it keeps a piece); 0 where it gives
    nothing (HT-8.10). ``seat``: its Privilegium rank, ability steps, what keeping a piece costs and
    what a step's piece is worth, the phase (``_hansa_teutonica``); ``free``: each city's next free
    house as (rank, round), None where it is full (``_ht_board``)."""
    priv, dev, keep, gain, phase = seat
    best = 0.0
    for c in side.ends[route]:
        house = free[c]
        if house is not None and priv >= house[0] and (merchant or not house[1]):
            best = max(best, HT_OFFICE - keep)
        a = side.ability.get(c)
        if a:
            steps, done = HT_STEPS[a], dev[a]
            if done < len(steps):
                best = max(best, phase * steps[done] + gain)
    if merchant and route == side.coellen_route:
        for (colour, pts), o in zip(side.coellen_fields, state["coellen"]):
            if o is None and priv >= RANK[colour]:
                best = max(best, float(pts) / 3 - keep)
                break
    return best



def _hansa_teutonica(state: dict) -> list[float]:
    n = state["np"]
    side = side_of(state)
    # Pieces count where they can still become an office or an ability: on a route only the owner
    # holds they count more the fuller the route, by what establishing it would give the owner
    # (``_ht_reward``; HT-8); on a route another player shares a little less than in the supply;
    # in the supply more than in the stock (an Assign action away, HT-7.3). What a full route
    # counts stays below what establishing it gives, so a bot establishes (issue 30: bots that
    # never established ran out of pieces and ended their turns without acting, round after round).
    phase = _ht_phase(state)
    players = state["p"]
    devs = [_ht_dev(pl["dev"]) for pl in players]
    supply = [sum(pl["supply"]) for pl in players]
    stock = [sum(pl["stock"]) for pl in players]
    mobile = [a + b for a, b in zip(supply, stock)]  # pieces not in an office
    held = []  # (route, spaces, owner -> its pieces there) of every route with a piece
    owner = _HT_OWNER
    for route, spaces in state["spaces"].items():
        if not any(spaces):
            continue
        mine = {}  # owner -> pieces on this route
        for x in spaces:
            if x:
                o = owner[x]
                mine[o] = mine.get(o, 0) + 1
                mobile[o] += 1
        held.append((route, spaces, mine))
    on_routes = [0.0] * n
    board = _ht_board(state)
    seats, free = [None] * n, board[3]
    for route, spaces, mine in held:
        if len(mine) == 1:  # a route only its owner holds
            for p, k in mine.items():
                size = len(spaces)
                if seats[p] is None:
                    m = mobile[p]
                    seats[p] = (devs[p][2], players[p]["dev"],
                                _ht_short(m - 1) - _ht_short(m), _ht_short(m) - _ht_short(m + 1), phase)
                reward = _ht_reward(state, side, route, seats[p], f"{p}m" in spaces, free)
                on_routes[p] += 0.12 * k + HT_FILL * reward * k * k / (size * size)
        else:
            for p, k in mine.items():
                on_routes[p] += 0.1 * k
    points, offices = _ht_tally(state, board, devs)
    out = []
    for p in range(n):
        dev = phase * devs[p][0]
        out.append(points[p] + dev + on_routes[p] + HT_OFFICE * offices[p]
                   + 0.15 * supply[p] + 0.1 * stock[p] - (HT_STARVED if not (supply[p] + stock[p]) else 0.0)
                   - _ht_short(mobile[p]))
    return out


_HT_OWNER = {f"{p}{kind}": p for p in range(5) for kind in "tm"}  # a route space's piece -> its seat


# A seat with no piece in its supply or stock can only move pieces it has on the board (HT-7).
# Its full routes that would found no office (the cities full, the houses of another colour or
# shape) rate above the pieces they would return to the stock (HT-8.9), so two basic bots at 2
# players held them and moved pieces about for ever (4 of 6 games, seeds 94000-94005, no end in
# 5,000 moves). Being out of pieces costs this much: more than the prestige an establishment
# gives the controllers of the route's cities (HT-8.3), so the seat establishes to get pieces back.
HT_STARVED = 3.0
# Fewer than HT_FEW pieces outside the offices cost HT_SHORT times the square of the shortfall's
# share (``_ht_short``: 0.5 at 5 pieces, 2 at 4, 4.5 at 3); a charge from 3 pieces alone, tried
# before the ability steps had their worth, left a 2-player game without an end after 9,600 moves.
HT_FEW, HT_SHORT = 6, 18.0


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
    # the best other seat of every seat: the best seat's is the second best, everyone else's the best
    top = max(range(len(est)), key=est.__getitem__)
    best, second = est[top], max(x for q, x in enumerate(est) if q != top)
    return [x - (second if p == top else best) for p, x in enumerate(est)]
