"""Move slots (HANSE-6, 7), end of turn, Hansetag tracking (HANSE-12) and the final turns (HANSE-13.2)."""
from __future__ import annotations

from .board import BOARD, SHIP_NAMES, the_ship
from .harbour import new_frame
from .movement import destinations, may_stay
from .special import open_window
from .state import P, log, occupancy, ship_name, ships_of
from ..i18n import N_, lit, msg, say  # noqa: F401


def slot_choices(state: dict, ships: list, extra: bool = False) -> list:
    """Ships (and forfeited slots) the player may pick for this move slot."""
    out = []
    for s in ships:
        if state["ships"][s]["skip"]:
            if not extra:
                out.append("wait %s" % ship_name(s))  # D-20: the slot is forfeited
        else:
            out.append("sail %s" % ship_name(s))
    return out


def slot_moves(state: dict, seat: int, ships: list, extra: bool = False, course=None) -> list:
    """The move slot menu in two small steps: pick a ship (``sail <ship>``), then its destination
    (``sail <ship> <field>``, ``stay <ship>``, ``sail <ship> toward <harbour>``; ``back``).
    With a single choice the first step is skipped (docs/die-hanse.md)."""
    choices = slot_choices(state, ships, extra)
    explicit = course is not None
    if course is None:
        if len(choices) != 1 or choices[0].startswith("wait"):
            return choices
        course = SHIP_NAMES.index(choices[0].split()[1])
    occ = occupancy(state)
    s = course
    name = ship_name(s)
    out = []
    if may_stay(state, s, occ):
        out.append("stay %s" % name)
    dests = destinations(state, s, occ)
    for h in sorted(dests, key=BOARD.order.__getitem__):
        out.append("sail %s %s" % (name, BOARD.label[h]))
    if BOARD.kind[state["ships"][s]["at"]] != "canal":
        # "toward <harbour>": as close to that harbour as this move gets
        for hname in suggested(state, seat, s):
            if BOARD.harbours[hname] in dests or toward(state, s, hname, dests) is None:
                continue
            out.append("sail %s toward %s" % (name, hname))
    if explicit and len(choices) > 1:
        out.append("back")
    return out


HARBOURS = ("bergen", "bremen", "danzig", "london", "luebeck", "nowgorod", "stockholm")


def suggested(state: dict, seat: int, ship: int) -> list:
    """Harbours offered as "toward" shortcuts: Lübeck, and every harbour where the mover's half of
    this ship could trade a stone one step up the exchange tree."""
    from .state import half
    out = ["luebeck"]
    types = {g for g, _ in half(state, seat, ship)}
    wants = {t for g in types for t in BOARD.tree.get(g, ())}
    if wants:
        for hname in HARBOURS:
            if hname != "luebeck" and any(state["_pools"][hname].get(t) for t in wants):
                out.append(hname)
    return out


def toward(state: dict, ship: int, hname: str, dests: dict):
    """The open-water destination nearest to ``hname`` if it is nearer than where the ship is."""
    dist = BOARD.dist_to[hname]
    here = dist.get(state["ships"][ship]["at"], 10 ** 6)
    best = None
    for h, kind in dests.items():
        if kind != "sea" or h not in dist:
            continue
        key = (dist[h], BOARD.order[h])
        if dist[h] < here and (best is None or key < best[0]):
            best = (key, h)
    return best[1] if best else None


def movable(state: dict, seat: int) -> bool:
    """A Privilege extra move needs a ship without a skip flag (HANSE-9.6.3)."""
    return any(not state["ships"][s]["skip"] for s in ships_of(state, seat))


def apply_slot(state: dict, seat: int, move: str) -> tuple[int, bool]:
    """Carry out a ship move. Returns (ship, entered_harbour)."""
    words = move.split()
    s = SHIP_NAMES.index(words[1])
    sh = state["ships"][s]
    if words[0] == "wait":
        sh["skip"] = False
        log(state, seat, msg(N_("{ship} sits out this move"), ship=the_ship(words[1])))
        return s, False
    if words[0] == "stay":
        log(state, seat, msg(N_("{player} leaves {ship} where it is"), player=P(seat), ship=the_ship(words[1])))
        return s, False
    if words[2] == "toward":
        dest = toward(state, s, words[3], destinations(state, s))
    else:
        dest = BOARD.by_label[words[2]]
    start = sh["at"]
    kind = BOARD.kind[dest]
    if BOARD.kind[start] == "canal":
        if kind != "canal":
            sh["dir"] = 0
    elif kind == "canal":
        sh["dir"] = 1 if dest == BOARD.canal[0] else -1
    sh["at"] = dest
    log(state, seat, msg(N_("{player} sails {ship} to {field}"), player=P(seat), ship=the_ship(words[1]),
                         field=BOARD.field_words(dest)))
    return s, kind == "harbour" and BOARD.kind[start] != "canal"


def after_move(state: dict, seat: int, ship: int, harbour: bool, window: bool) -> None:
    if window:
        state["stack"].append(open_window(state, seat, ship))
    if harbour:
        state["stack"].append(new_frame(state, ship, state["ships"][ship]["at"], seat))


def check_presence(state: dict) -> None:
    """D-32: presence in Lübeck at any moment of round 2."""
    if not state["hansetage"]:
        return
    t = state["turn"]
    n = state["n"]
    lub = [s for s, sh in enumerate(state["ships"]) if sh["at"] == BOARD.luebeck]
    if not lub:
        return
    present = set()
    for s in lub:
        present.add(s)
        present.add((s + 1) % n)
    for ht in state["hansetage"]:
        if ht["r2"] <= t <= ht["end"]:
            for p in present:
                ht["sat"][p] = True


def evaluate_hansetage(state: dict, t: int) -> None:
    """HANSE-12.4/12.5, D-33: fines clockwise from Q, chosen by the left neighbour."""
    n = state["n"]
    keep = []
    for ht in state["hansetage"]:
        if ht["end"] != t:
            keep.append(ht)
            continue
        order = [(ht["q"] + i) % n for i in range(n)]
        fined = [p for p in order if not ht["sat"][p]]
        if fined:
            log(state, None, msg(N_("Hansetag: fined: {players}"), players=[P(p) for p in fined]))
        else:
            log(state, None, N_("Hansetag: every merchant was in Lübeck"))
        todo = [p for p in fined if any(v is not None for v in state["store"][p]["vals"])]
        if todo:
            state["stack"].append({"k": "fine", "queue": todo})
    state["hansetage"] = keep


def fine_moves(state: dict, frame: dict) -> list:
    p = frame["queue"][0]
    st = state["store"][p]
    return ["fine %d %s" % (i + 1, g) for i, (g, v) in enumerate(zip(st["goods"], st["vals"])) if v is not None]


def apply_fine(state: dict, frame: dict, seat: int, move: str) -> None:
    from .state import return_stone
    p = frame["queue"].pop(0)
    i = int(move.split()[1]) - 1
    st = state["store"][p]
    v = st["vals"][i]
    st["vals"][i] = None
    return_stone(state, st["goods"][i], v)
    log(state, seat, msg(N_("{player} removes a {good} from {other}'s storage"), player=P(seat), good=st["goods"][i], other=P(p)))
    if not frame["queue"]:
        state["stack"].pop()


def fine_default(state: dict, frame: dict) -> str:
    from ..rng import randbelow
    moves = fine_moves(state, frame)
    _, v = randbelow(state["_rng"], len(moves))
    return moves[v]


def end_turn(state: dict) -> None:
    """HANSE-6.4: Hansetag tracking, final-round tracking, pass to the left."""
    n = state["n"]
    state["stack"].pop()
    fin = state["final"]
    t = state["turn"] + 1
    limit = state.get("limit", 0)
    while True:
        if fin is None and limit and t >= limit * n:
            state["over"] = True
            state["turn"] = t
            log(state, None, msg(N_("no storage is full after {n} rounds: the game ends (round limit)"), n=limit))
            return
        if fin is not None and t > fin["t"] + n:
            state["over"] = True
            state["turn"] = t
            log(state, None, N_("the game is over"))
            return
        if fin is not None and t % n == fin["f"]:
            log(state, None, msg(N_("{player} filled the storage first and does not play again"), player=P(fin["f"])))
            # a Hansetag ending on a skipped turn is evaluated there
            state["turn"] = t
            check_presence(state)
            evaluate_hansetage(state, t)
            if state["stack"]:
                state["stack"].insert(0, {"k": "turn", "seat": t % n, "done": [], "stage": "skipped"})
                return
            t += 1
            continue
        break
    state["turn"] = t
    state["stack"].append({"k": "turn", "seat": t % n, "done": [], "stage": "move"})
    check_presence(state)


def turn_ships(state: dict, frame: dict) -> list:
    return [s for s in ships_of(state, frame["seat"]) if s not in frame["done"]]

