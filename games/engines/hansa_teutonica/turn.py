"""The turn (HT-7.1, HT-7.2, HT-C3, HT-C4): the active player's menu, ending the turn,
the end-of-turn marker step and the end of the game (HT-11.2)."""
from __future__ import annotations

from . import assign, bonus, displace, establish, move, place
from .board import MARKER_NAMES
from .state import level, log


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
        if assign.available(s, seat):
            out.append("assign")
        if place.available(s, seat):
            out.append("place")
        if displace.available(s, seat):
            out.append("displace")
        if move.available(s, seat):
            out.append("move")
        out += ["establish " + r for r in establish.routes(s, seat)]
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
            log(s, seat, f"{{p{seat}}} moves the pawn from {s['pawn']} to {words[3]} (1 action)")
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
    log(s, seat, f"{{p{seat}}} ends the turn")
    if s["_drawn"]:
        s["phase"] = "markers"
        names = ", ".join(MARKER_NAMES[m] for m in s["_drawn"])
        # HT-D-2: revealed privately to the drawer, all at once
        log(s, seat, f"{{p{seat}}} looks at the drawn markers: {names}", only=[seat],
            redacted=f"{{p{seat}}} looks at the drawn markers")
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
    log(s, None, "The game is over")
