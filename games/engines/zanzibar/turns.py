"""Turn order, the final round and the end of the game (ZAN-8.1, ZAN-14)."""
from __future__ import annotations

from .state import P, log
from ..i18n import N_, msg


def start_turn(s: dict, seat: int) -> None:
    s["phase"] = "move"
    s["active"] = seat
    s["moved"] = []
    s["cur"] = None
    s["pending"] = None
    s["declared"] = 0
    log(s, msg(N_("{player}'s turn"), player=P(seat)), seat)


def end_turn(s: dict) -> None:
    """ZAN-14.2: after the first finisher's turn every other player plays exactly once more;
    later finishes (ZAN-14.3) do not change when the game ends."""
    seat = s["active"]
    if s["final_left"] is None:
        if s["finished"]:
            s["final_left"] = s["players"] - 1
            log(s, msg(N_("final round: everybody after {player} plays one more turn"), player=P(seat)))
    else:
        s["final_left"] -= 1
    if s["final_left"] == 0:
        s["phase"] = "over"
        s["active"] = None
        s["moved"] = []
        log(s, N_("the game is over"))
        return
    order = s["order"]
    start_turn(s, order[(order.index(seat) + 1) % len(order)])
