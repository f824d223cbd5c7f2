"""The turn (HT-7.1, HT-7.2, HT-C3, HT-C4): the active player's menu, ending the turn,
the end-of-turn marker step and the end of the game (HT-11.2)."""
from __future__ import annotations

from . import assign, bonus, displace, establish, move, place
from .board import MARKER_NAMES, side_of
from .state import P, level, log, province
from ..i18n import N_, lit, msg, say  # noqa: F401


def start_turn(s: dict, seat: int) -> None:
    s["phase"] = "turn"
    s["active"] = seat
    s["acts"] = level(s["p"][seat], "actiones")  # HT-C3
    s["used"] = 0
    s["free_used"] = False
    s["step"] = None


def menu(s: dict, seat: int) -> list[str]:
    out = []
    left = s["acts"] - s["used"]
    if left > 0:
        p = s["p"][seat]
        sup = p["supply"][0] + p["supply"][1]
        if p["stock"][0] + p["stock"][1]:  # HT-D-5
            out.append("assign")
        # one scan of the routes for place / displace / move / establish
        side = side_of(s)
        pre = str(seat)
        t_own, m_own = pre + "t", pre + "m"
        two = s["two"]
        pawn = s["pawn"]
        place_ok = False
        disp_ok = False
        own_routes = 0
        empty_routes = 0
        own_with_empty = 0
        complete = []
        spaces = s["spaces"]
        for r in side.routes:  # the board's order, not the state's keys' (menus must not change with it)
            sp = spaces[r]
            allowed = not two or pawn in side.route_provinces[r]
            empty = None in sp
            own = t_own in sp or m_own in sp
            if empty:
                empty_routes += 1
                if allowed:
                    place_ok = True
            if own:
                own_routes += 1
                if empty:
                    own_with_empty += 1
                elif allowed and all(o[0] == pre for o in sp):
                    complete.append(r)
            if allowed and sup >= 2 and not disp_ok:
                for o in sp:
                    if o is not None and o[0] != pre and sup >= (2 if o[1] == "t" else 3):
                        disp_ok = True
                        break
        if sup and place_ok:
            out.append("place")
        if disp_ok:
            out.append("displace")
        if own_routes and (empty_routes > own_with_empty or (own_routes >= 2 and empty_routes)
                           or move.available(s, seat)):
            out.append("move")
        out += ["establish " + r for r in complete]
        out += establish.via_pawn(s, seat)
    if s["two"] and (left > 0 or not s["free_used"]):
        out.append("pawn")
    out += bonus.menu(s, seat)
    out.append("end")
    return out


def apply_menu(s: dict, seat: int, words: list[str]) -> None:
    w = words[0]
    if w == "assign":
        assign.start(s, seat)
    elif w == "place":
        place.start(s, seat)
    elif w == "displace":
        displace.start(s, seat)
    elif w == "move":
        move.start(s, seat)
    elif w == "establish":
        if len(words) == 4:  # "establish <route> via <province>"
            log(s, seat, msg(N_("{player} moves the pawn from {frm} to {to} (1 action)"), player=P(seat), frm=province(s["pawn"]), to=province(words[3])))
            s["pawn"] = words[3]
            s["used"] += 1
        establish.start(s, seat, words[1])
    elif w == "pawn":
        s["step"] = {"a": "pawn"}
    elif w == "use":
        bonus.use(s, seat, words)
    elif w == "end":
        end_turn(s, seat)


def end_turn(s: dict, seat: int) -> None:
    s["step"] = None
    log(s, seat, msg(N_("{player} ends the turn"), player=P(seat)))
    if s["_drawn"]:
        s["phase"] = "markers"
        names = [MARKER_NAMES[m] for m in s["_drawn"]]
        # HT-D-2: revealed privately to the drawer, all at once
        log(s, seat, msg(N_("{player} looks at the drawn markers: {markers}"), player=P(seat), markers=names), only=[seat],
            redacted=msg(N_("{player} looks at the drawn markers"), player=P(seat)))
        if not bonus.settle_placement(s):
            return
    next_turn(s)


def next_turn(s: dict) -> None:
    start_turn(s, (s["active"] + 1) % s["np"])


def after_marker(s: dict) -> None:
    if bonus.settle_placement(s):
        next_turn(s)


def game_over(s: dict) -> None:
    s["phase"] = "over"
    s["step"] = None
    log(s, None, N_("The game is over"))
