"""Initial placement of merchants (ZAN-6), decomposed into two small steps:
``place <number>`` (choose an unplaced merchant), then ``to <place>`` (or ``cancel``)."""
from __future__ import annotations

from .state import P, merchant_msg, place_msg, board_of, draw, log, merchant_name, set_seat_item
from ..i18n import N_, lit, msg, say  # noqa: F401


def legal_places(state: dict, seat: int) -> list[str]:
    """ZAN-6.2: a free place in a province (sea counted as the sixth) without a merchant
    of the seat's colour. ZAN-D-05: if there is none, condition 2 is dropped."""
    board = board_of(state)
    occ = state["occ"]
    mine = {board.province[p] for p, (s, _) in occ.items() if s == seat}
    free = [p for p in board.places if p not in occ]
    ok = [p for p in free if board.province[p] not in mine]
    return ok if ok else free


def legal(state: dict, seat: int) -> list[str]:
    if seat != state["active"]:
        return []
    if state["sel"] is None:
        return [f"place {n}" for n in state["unplaced"][seat]]
    return [f"to {p}" for p in legal_places(state, seat)] + ["cancel"]


def explain(state: dict, seat: int, move: str) -> str:
    words = move.split()
    if state["sel"] is None:
        if words[0] == "place" and len(words) == 2:
            return say(N_("you have no unplaced merchant number {num}"), num=lit(words[1]))
        return N_("choose a merchant to place first")
    if words[0] == "to" and len(words) == 2:
        p = words[1]
        board = board_of(state)
        if p not in board.info:
            return say(N_("there is no place called {place}"), place=lit(repr(p)))
        if p in state["occ"]:
            return say(N_("{place} is already occupied (one merchant per place, ZAN-6.2)"), place=place_msg(state, p))
        return say(N_("you already have a merchant in the {province} province; at set-up each colour may have only "
                      "one merchant per province (the sea counts as one)"), province=board.province[p])
    return say(N_("choose a free place for merchant {num}, or cancel"), num=state["sel"])


def apply(s: dict, seat: int, move: str) -> None:
    words = move.split()
    if words[0] == "place":
        s["sel"] = int(words[1])
        return
    if words[0] == "cancel":
        s["sel"] = None
        return
    # "to <place>"
    place, num = words[1], s["sel"]
    occ = dict(s["occ"])
    occ[place] = [seat, num]
    s["occ"] = occ
    set_seat_item(s, "unplaced", seat, [n for n in s["unplaced"][seat] if n != num])
    s["sel"] = None
    log(s, msg(N_("{player} placed merchant {num} on {place}"), player=P(seat), num=num,
               place=place_msg(s, place)), seat)
    order = s["order"]
    nxt = order[(order.index(seat) + 1) % len(order)]
    if any(s["unplaced"]):
        s["active"] = nxt
        return
    # ZAN-6.5 / ZAN-7.1: only now does everybody draw two cards
    s["active"] = None
    for p in order:
        draw(s, p, board_of(s).hand_size)
    s["phase"] = "window"
    s["window"] = [True] * s["players"]
    log(s, N_("all merchants are placed; everybody drew 2 cards and may now set one aside (sealed answers)"))
