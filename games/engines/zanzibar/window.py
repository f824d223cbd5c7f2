"""The set-aside window after the initial draw (ZAN-7.2, ZAN-7.3 / ZAN-D-07, ZAN-C3):
every player at the same time and in private answers ``keep`` or ``set aside <card>``
(then draws a replacement; with 4-5 players a second set-aside may follow). The first
turn starts once all have answered. Answers stay sealed until the window closes."""
from __future__ import annotations

from .state import P, draw, log, quota, set_seat_item
from .turns import start_turn
from ..i18n import N_, lit, msg, say  # noqa: F401


def legal(state: dict, seat: int) -> list[str]:
    if not state["window"][seat]:
        return []
    moves = ["keep"]
    if state["aside_n"][seat] < quota(state):
        moves += [f"set aside {c}" for c in state["_hand"][seat]]
    return moves


def explain(state: dict, seat: int, move: str) -> str:
    if not state["window"][seat]:
        return N_("you have already answered; waiting for the other players")
    if move.startswith("set aside"):
        return say(N_("you do not hold the card {card}"), card=lit(repr(move[10:])))
    return N_("keep your hand or set a card aside")


def apply(s: dict, seat: int, move: str) -> None:
    if move == "keep":
        set_seat_item(s, "window", seat, False)
        log(s, N_("you keep your cards"), seat, only=[seat])
    else:
        card = move[len("set aside "):]
        set_aside(s, seat, card)
        draw(s, seat, 1, sealed=True)  # ZAN-12.5: a replacement is drawn
        if s["aside_n"][seat] >= quota(s):
            set_seat_item(s, "window", seat, False)
    if not any(s["window"]):
        close(s)


def set_aside(s: dict, seat: int, card: str, sealed: bool = True) -> None:
    """Move a hand card to the private set-aside pile (ZAN-12, ZAN-D-14)."""
    set_seat_item(s, "_hand", seat, [c for c in s["_hand"][seat] if c != card])
    set_seat_item(s, "_aside", seat, s["_aside"][seat] + [card])
    set_seat_item(s, "aside_n", seat, s["aside_n"][seat] + 1)
    if sealed:
        log(s, msg(N_("you set {card} aside"), card=card), seat, only=[seat])
    else:
        log(s, msg(N_("you set {card} aside"), card=card), seat, only=[seat],
            redacted=msg(N_("{player} set a card aside without scoring it"), player=P(seat)))


def close(s: dict) -> None:
    parts = []
    for p in s["order"]:
        k = s["aside_n"][p]
        parts.append(msg(N_("{player} set aside 1 card") if k == 1 else N_("{player} set aside {n} cards"),
                         player=P(p), n=k) if k else msg(N_("{player} kept"), player=P(p)))
    log(s, msg(N_("set-aside window closed: {parts}"), parts=parts))
    start_turn(s, s["start"])
