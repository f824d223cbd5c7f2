"""Movement (ZAN-9, ZAN-10), decomposed into small steps:

``move <n>``  choose an own merchant that has not moved this turn (ZAN-9.1, 9.2)
``to <p>``    step onto the adjacent place p (ZAN-9.3 - 9.5); ``stop`` ends the move early
``cancel``    undo the choice before the first step (nothing has happened yet)
``push <p>``  / ``expel <p>``: where a displaced merchant goes, chosen by the active player
              (ZAN-10.2 / ZAN-D-09, ZAN-10.3 / ZAN-D-10); asked only when there is a choice
``done``      end the movement step (ZAN-8.2)

A step is offered only if it is legal, so a path is never blocked half-way (ZAN-9.6):
a blocked place is simply not offered and the player stops or goes elsewhere.
"""
from __future__ import annotations

from .state import P, merchant_msg, place_msg, board_of, log, merchant_name, merchants_of
from ..i18n import N_, lit, moves, msg, say  # noqa: F401

MAX_MOVES = 3  # ZAN-9.1


def step_options(state: dict, board, seat: int, num: int, path: list[str]) -> list[str]:
    """Places the merchant may enter next (ZAN-9.3 - 9.5, ZAN-D-08, ZAN-10.4)."""
    if len(path) - 1 >= num:  # range used up (ZAN-9.3, ZAN-9.7)
        return []
    occ = state["occ"]
    adj = board.adj
    out = []
    for q in adj[path[-1]]:
        if q in path:  # ZAN-D-08: no revisits, never back to p0
            continue
        o = occ.get(q)
        if o is None:
            out.append(q)
            continue
        if o[0] == seat or o[1] < num:  # own merchant / stronger merchant blocks
            continue
        if o[1] == num:
            # equal: only expelled when it has no free neighbour; the mover still stands on
            # path[-1], so that place is never free (ZAN-10.1, ZAN-D-11)
            if any(r not in occ for r in adj[q]):
                continue
        out.append(q)
    return out


def movable(state: dict, seat: int) -> list[int]:
    board = board_of(state)
    moved = state["moved"]
    out = []
    for num, place in sorted(merchants_of(state, seat).items()):
        if num in moved:
            continue
        if step_options(state, board, seat, num, [place]):
            out.append(num)
    return out


def legal(state: dict, seat: int) -> list[str]:
    if seat != state["active"]:
        return []
    pending = state["pending"]
    if pending is not None:
        return [f"{pending['kind']} {p}" for p in pending["options"]]
    cur = state["cur"]
    if cur is not None:
        steps = step_options(state, board_of(state), seat, cur["num"], cur["path"])
        return [f"to {q}" for q in steps] + (["stop"] if len(cur["path"]) > 1 else ["cancel"])
    return [f"move {n}" for n in movable(state, seat)] + ["done"]


def explain(state: dict, seat: int, move: str) -> str:
    """A player-readable reason why ``move`` (canonical-looking text) is not legal now."""
    board = board_of(state)
    words = move.split()
    pending = state["pending"]
    cur = state["cur"]
    if pending is not None:
        what = merchant_msg(state, *pending["piece"])
        if pending["kind"] == "push":
            return say(N_("{merchant} must be pushed to a free neighbouring place of {at}, not where your merchant "
                          "comes from: {options}"), merchant=what, at=place_msg(state, pending["at"]),
                       options=moves(f"push {p}" for p in pending["options"]))
        return say(N_("choose any free place for the expelled {merchant}"), merchant=what)
    if cur is not None:
        num, path = cur["num"], cur["path"]
        if words[0] != "to" or len(words) != 2:
            return say(N_("your merchant {num} is moving: choose the next place, or stop here") if len(path) > 1
                       else N_("your merchant {num} is moving: choose the next place, or cancel the move"), num=num)
        q = words[1]
        if q not in board.info:
            return say(N_("there is no place called {place}"), place=lit(repr(q)))
        if len(path) - 1 >= num:
            return say(N_("merchant {num} has used its whole range of {num}"), num=num)
        if q not in board.adj[path[-1]]:
            return say(N_("{place} is not joined by a road to {other}"), place=place_msg(state, q),
                       other=place_msg(state, path[-1]))
        if q in path:
            return say(N_("a move may not visit {place} twice (ZAN-D-08)"), place=place_msg(state, q))
        o = state["occ"].get(q)
        if o is not None:
            if o[0] == seat:
                return say(N_("your own merchant {num} on {place} blocks the way"), num=o[1], place=place_msg(state, q))
            if o[1] < num:
                return say(N_("the stronger {merchant} on {place} blocks the way"), merchant=merchant_msg(state, *o),
                           place=place_msg(state, q))
            if o[1] == num:
                return say(N_("the equally strong {merchant} on {place} has a free neighbouring place, so it can "
                              "neither be pushed nor expelled"), merchant=merchant_msg(state, *o), place=place_msg(state, q))
        return say(N_("you cannot step onto {place} now"), place=place_msg(state, q))
    if words[0] == "move" and len(words) == 2:
        num = int(words[1]) if words[1].isdigit() else None
        mine = merchants_of(state, seat)
        if num not in mine:
            return say(N_("you have no merchant number {num} on the board"), num=lit(words[1]))
        if num in state["moved"]:
            return say(N_("merchant {num} has already moved this turn (ZAN-9.2)"), num=num)
        if len(state["moved"]) >= MAX_MOVES:
            return N_("you have already moved 3 merchants this turn")
        return say(N_("merchant {num} cannot move: every neighbouring place is blocked"), num=num)
    return N_("choose a merchant to move, or end your movement")


def apply(s: dict, seat: int, move: str) -> None:
    words = move.split()
    verb = words[0]
    if verb == "done":
        log(s, msg(N_("{player} ends the movement"), player=P(seat)), seat)
        s["phase"] = "assign"
        return
    if verb == "move":
        num = int(words[1])
        place = next(p for p, (o, n) in s["occ"].items() if o == seat and n == num)
        s["cur"] = {"num": num, "path": [place]}
        return
    if verb == "cancel":
        s["cur"] = None
        return
    if verb == "stop":
        _finish(s, seat)
        return
    if verb in ("push", "expel"):
        pending = s["pending"]
        s["pending"] = None
        occ = dict(s["occ"])
        _displace(s, occ, pending["piece"], pending["at"], words[1], verb)
        _enter(s, seat, occ, pending["at"])
        return
    # "to <q>"
    _step(s, seat, words[1])


def _displace(s: dict, occ: dict, piece, frm: str, to: str, verb: str) -> None:
    occ[to] = piece
    del occ[frm]
    text = N_("{player} pushed {merchant} from {frm} to {to}") if verb == "push" \
        else N_("{player} expelled {merchant} from {frm} to {to}")
    log(s, msg(text, player=P(s["active"]), merchant=msg(N_("merchant {num} of {owner}"), num=piece[1], owner=P(piece[0])), frm=place_msg(s, frm),
               to=place_msg(s, to)), s["active"])


def _step(s: dict, seat: int, q: str) -> None:
    board = board_of(s)
    occ = dict(s["occ"])
    o = occ.get(q)
    num = s["cur"]["num"]
    if o is not None:
        free_nb = [r for r in board.adj[q] if r not in occ]  # F (ZAN-10.1)
        if o[1] > num and free_nb:  # weaker: push (ZAN-10.2)
            if len(free_nb) == 1:  # ZAN-17.3: no real choice
                _displace(s, occ, o, q, free_nb[0], "push")
            else:
                s["occ"] = occ
                s["pending"] = {"kind": "push", "at": q, "piece": o, "options": free_nb}
                return
        else:  # weaker or equal, no free neighbour: expel anywhere (ZAN-10.3, 10.4)
            free = [p for p in board.places if p not in occ]
            if len(free) == 1:
                _displace(s, occ, o, q, free[0], "expel")
            else:
                s["occ"] = occ
                s["pending"] = {"kind": "expel", "at": q, "piece": o, "options": free}
                return
    _enter(s, seat, occ, q)


def _enter(s: dict, seat: int, occ: dict, q: str) -> None:
    cur = s["cur"]
    num, path = cur["num"], cur["path"]
    del occ[path[-1]]  # ZAN-9.8: places left behind are free
    occ[q] = [seat, num]
    s["occ"] = occ
    path = path + [q]
    s["cur"] = {"num": num, "path": path}
    if not step_options(s, board_of(s), seat, num, path):
        _finish(s, seat)


def _path(s: dict, path: list[str]):
    """The places of a move in words, joined by arrows (a nested message, translated when shown)."""
    said = place_msg(s, path[0])
    for p in path[1:]:
        said = msg("{a} → {b}", a=said, b=place_msg(s, p))
    return said


def _finish(s: dict, seat: int) -> None:
    cur = s["cur"]
    s["cur"] = None
    s["moved"] = s["moved"] + [cur["num"]]
    log(s, msg(N_("{player} moved merchant {num}: {path}"), player=P(seat), num=cur["num"],
               path=_path(s, cur["path"])), seat)
    if len(s["moved"]) >= MAX_MOVES:
        s["phase"] = "assign"
