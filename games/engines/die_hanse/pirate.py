"""The pirate round (HANSE-11, C1–C3, C10)."""
from __future__ import annotations

from itertools import combinations_with_replacement

from ..rng import randbelow
from .board import BOARD, GOODS, the_ship
from .movement import pirate_distance, pirate_endpoints
from .state import P, log, occupancy, rand, return_stone, ship_name
from .cards import ship_name_index
from ..i18n import N_, lit, msg, say  # noqa: F401

HALVES = ("stern", "bow")
ORDER = {g: i for i, g in enumerate(GOODS)}


def any_target(state: dict) -> bool:
    """D-29: some merchant ship stands on a field the pirate may enter."""
    return any(sh["at"] in BOARD.pirate_ok for sh in state["ships"])


def forced(state: dict, frame: dict) -> bool:
    return frame["movers"] >= state["n"]  # D-30


def end_round(state: dict) -> None:
    state["pirate"] = None
    state["stack"].pop()


def move_options(state: dict, frame: dict) -> tuple[list, dict]:
    occ = occupancy(state)
    pos = state["pirate"]
    ships, other = pirate_endpoints(state, pos, frame["pts"], frame["exact"], occ)
    if forced(state, frame) and ships:
        other = set()
    ends = ships | other
    moves = []
    for h in sorted(ends, key=BOARD.order.__getitem__):
        moves.append("pirate " + BOARD.label[h] if h != pos else "pirate stay")
    if not moves:
        moves = ["pirate stay"]
    if BOARD.kind[pos] == "island" and "pirate stay" in moves and frame["exact"]:
        moves.remove("pirate stay")
    return moves or ["pirate stay"], occ


def may_time_out(state: dict, frame: dict) -> bool:
    """HANSE-14.4: a timeout leaves the pirate where it is unless the forced plunder applies."""
    return frame["stage"] == "move" and default(state, frame) == "timeout"


def legal(state: dict, frame: dict) -> list:
    if frame["stage"] == "move":
        return move_options(state, frame)[0]
    if frame["stage"] == "ship":
        occ = occupancy(state)
        return ["plunder %s" % ship_name(s) for s in sorted(occ[frame["at"]])]
    return take_options(state, frame["ship"])


def take_options(state: dict, ship: int) -> list:
    items = []
    for hi, hname in enumerate(HALVES):
        for g in sorted({s[0] for s in state["cargo"][ship][hi]}, key=ORDER.__getitem__):
            items.append((hi, g))
    total = len(state["cargo"][ship][0]) + len(state["cargo"][ship][1])
    k = min(2, total)  # C3
    out = []
    for combo in combinations_with_replacement(items, k):
        # enough stones of each (half, good)?
        ok = True
        for it in set(combo):
            have = sum(1 for s in state["cargo"][ship][it[0]] if s[0] == it[1])
            if combo.count(it) > have:
                ok = False
        if ok:
            out.append("take " + " ".join("%s %s" % (HALVES[h], g) for h, g in combo))
    return out or ["take nothing"]


def apply(state: dict, frame: dict, seat: int, move: str) -> None:
    words = move.split()
    if words == ["timeout"]:
        words = ["pirate", "stay"]  # HANSE-14.4: a mover who times out does not move the pirate
        log(state, seat, msg(N_("{player} lets the time run out"), player=P(seat)))
    if words[0] == "pirate":
        dest = state["pirate"] if words[1] == "stay" else BOARD.by_label[words[1]]
        occ = occupancy(state)
        state["pirate"] = dest
        log(state, seat, msg(N_("{player} moves the pirate to {field}"), player=P(seat), field=BOARD.field_words(dest)))
        if dest in occ and words[1] != "stay":
            frame["at"] = dest
            if len(occ[dest]) > 1:
                frame["stage"] = "ship"
            else:
                frame["ship"] = occ[dest][0]
                frame["stage"] = "take"
                auto_take(state, frame, seat)
        else:
            # HANSE-11.6: the round passes to the left neighbour with one more point
            frame["movers"] += 1
            frame["mover"] = (frame["mover"] + 1) % state["n"]
            frame["pts"] += 1
            if not any_target(state):
                log(state, None, N_("no ship within the pirate's reach: the pirate round ends"))
                end_round(state)
    elif words[0] == "plunder":
        frame["ship"] = ship_name_index(words[1])
        frame["stage"] = "take"
        auto_take(state, frame, seat)
    elif words[0] == "take":
        take(state, frame, seat, words[1:])


def auto_take(state: dict, frame: dict, seat: int) -> None:
    opts = take_options(state, frame["ship"])
    if len(opts) == 1:
        take(state, frame, seat, opts[0].split()[1:])


def take(state: dict, frame: dict, seat: int, words: list) -> None:
    ship = frame["ship"]
    taken = []
    if words != ["nothing"]:
        for i in range(0, len(words), 2):
            hi = HALVES.index(words[i])
            g = words[i + 1]
            cargo = state["cargo"][ship][hi]
            idx = [j for j, s in enumerate(cargo) if s[0] == g]
            j = idx[rand(state, len(idx))]  # chosen blind: any stone of that type
            stone = cargo.pop(j)
            return_stone(state, stone[0], stone[1])
            taken.append(msg(N_("{good} from the {half}"), good=g, half=words[i]))
    log(state, seat, msg(N_("{player} plunders {ship}: {goods}"), player=P(seat), ship=the_ship(ship_name(ship)),
                         goods=taken or msg(N_("nothing"))))
    end_round(state)


def default(state: dict, frame: dict) -> str:
    """HANSE-14.4: do not move; with forced plunder, the nearest ship (ties: lowest field id,
    then lowest stern-holder); 2 stones at random."""
    moves = legal(state, frame)
    if frame["stage"] == "move":
        occ = occupancy(state)
        pos = state["pirate"]
        ships = [m for m in moves if m != "pirate stay" and BOARD.by_label[m.split()[1]] in occ]
        if forced(state, frame) and ships:
            return min(ships, key=lambda m: (pirate_distance(state, pos, BOARD.by_label[m.split()[1]], occ),
                                             BOARD.order[BOARD.by_label[m.split()[1]]]))
        # the pirate does not move, so the round passes on; where a Pirate card's exact points
        # make staying unlisted, this is the deadline-only move "timeout"
        return "pirate stay" if "pirate stay" in moves else "timeout"
    if frame["stage"] == "ship":
        return moves[0]
    return random_take(state, frame["ship"], moves)


def random_take(state: dict, ship: int, moves: list) -> str:
    """HANSE-14.4: two stones of the ship uniformly at random (not a random listed move: the moves
    are grouped by type, and stones of a common type must weigh more)."""
    stones = [(hi, s[0]) for hi in (0, 1) for s in state["cargo"][ship][hi]]
    if len(stones) <= 2:
        return moves[0]
    rng, i = randbelow(state["_rng"], len(stones))
    _, j = randbelow(rng, len(stones) - 1)
    pair = [stones[i], stones[j + (j >= i)]]
    pair.sort(key=lambda it: (it[0], ORDER[it[1]]))
    move = "take " + " ".join("%s %s" % (HALVES[h], g) for h, g in pair)
    return move if move in moves else moves[0]
