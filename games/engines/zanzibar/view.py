"""Per-seat views (ZAN-16): the public state, plus the seat's own hand (with the cards'
score tables and the current count), own set-aside cards and the (unordered) set of
cards still in its deck. Deck order is never shown (ZAN-16.1). Answers in the set-aside
window stay sealed until it closes (ZAN-C3). After the game everything is revealed
(ZAN-D-28)."""
from __future__ import annotations

from .assignment import count_for
from .scoring import result
from ..events import visible
from .state import board_of, place_msg, quota, scoring_limit
from ..i18n import N_, lit, say


def filtered_log(state: dict, seat) -> list[dict]:
    return visible(state["log"], seat)


def card_info(state: dict, seat: int, card: str) -> dict:
    board = board_of(state)
    c = board.cards[card]
    n = count_for(state, seat, card)
    return {"card": card, "kind": c["kind"], "table": list(c["table"]),
            "count_now": n, "points_now": board.card_points(card, n)}


def to_act(state: dict) -> list[int]:
    phase = state["phase"]
    if phase == "over":
        return []
    if phase == "window":
        return [s for s in range(state["players"]) if state["window"][s]]
    return [state["active"]]


def prompt(state: dict, seat, legal: list[str]) -> str:
    if seat is None or not legal:
        return ""
    phase = state["phase"]
    if phase == "place":
        if state["sel"] is None:
            return say(N_("Place a merchant: choose which one."))
        return say(N_("Choose a place for your merchant {num}."), num=state["sel"])
    if phase == "window":
        return say(N_("You have drawn your first cards: keep them or set one aside."))
    if phase == "move":
        if state["pending"] is not None:
            p = state["pending"]
            return say(N_("Choose where the pushed merchant from {place} goes.") if p["kind"] == "push"
                       else N_("Choose where the expelled merchant from {place} goes."), place=place_msg(state, p["at"]))
        if state["cur"] is not None:
            c = state["cur"]
            left = c["num"] - (len(c["path"]) - 1)
            return say(N_("Move your merchant {num} on from {place} (1 step left), or stop.") if left == 1
                       else N_("Move your merchant {num} on from {place} ({left} steps left), or stop."),
                       num=c["num"], place=place_msg(state, c["path"][-1]), left=left)
        n = 3 - len(state["moved"])
        return say(N_("Move 1 more merchant, or end your movement.") if n == 1
                   else N_("Move up to {n} more merchants, or end your movement."), n=n)
    if phase == "assign":
        return say(N_("Score or set aside your cards, then end your turn."))
    if phase == "a5":
        return say(N_("You have drawn: set a card aside (then draw again) or keep your hand."))
    return ""


def build(state: dict, seat, legal: list[str]) -> dict:
    board = board_of(state)
    n = state["players"]
    over = state["phase"] == "over"
    window = state["phase"] == "window"
    # ZAN-C3: answers in the set-aside window are sealed, so others see neither the
    # set-aside count nor the deck size (a replacement draw) until the window closes
    aside_counts, deck_counts = [], []
    for s in range(n):
        sealed = window and s != seat
        aside_counts.append(None if sealed else state["aside_n"][s])
        deck_counts.append(None if sealed else len(state["_deck"][s]))
    asked = prompt(state, seat, legal)
    v = {
        "game": "zanzibar",
        "players": n,
        "you": seat,
        "to_act": to_act(state),
        "prompt": str(asked),
        "prompt_msg": getattr(asked, "message", asked),
        "log": filtered_log(state, seat),
        "over": over,
        "result": result(state),
        "map": state["map"],
        "phase": state["phase"],
        "start": state["start"],
        "order": list(state["order"]),
        "active": state["active"],
        "colours": board.colours[:n],
        "merchants": sorted(({"seat": s, "num": num, "place": p} for p, (s, num) in state["occ"].items()),
                            key=lambda m: (m["seat"], m["num"])),
        "unplaced": [list(u) for u in state["unplaced"]],
        "selected": state["sel"],
        "scores": list(state["score"]),
        "scored": [[dict(e) for e in pile] for pile in state["scored"]],
        "hand_counts": [len(h) for h in state["_hand"]],
        "deck_counts": deck_counts,
        "aside_counts": aside_counts,
        "scoring_limit": scoring_limit(state),
        "quota": quota(state),
        "moved": list(state["moved"]),
        "moving": ({"num": state["cur"]["num"], "path": list(state["cur"]["path"])}
                   if state["cur"] is not None else None),
        "pending": (dict(state["pending"], options=list(state["pending"]["options"]),
                         piece=list(state["pending"]["piece"]))
                    if state["pending"] is not None else None),
        "finished": list(state["finished"]),
        "final_round": state["final_left"] is not None,
        "final_left": state["final_left"],
        "window_open": list(state["window"]) if window else [False] * n,
        "tables": {c: list(board.cards[c]["table"]) for c in board.card_order},
        "hand": None,
        "set_aside": None,
        "deck_cards": None,
        "revealed": None,
    }
    if seat is not None:
        v["hand"] = [card_info(state, seat, c) for c in state["_hand"][seat]]
        v["set_aside"] = list(state["_aside"][seat])
        v["deck_cards"] = sorted(state["_deck"][seat])  # contents known, order hidden
    if over:
        v["revealed"] = [{"hand": list(state["_hand"][s]), "deck": list(state["_deck"][s]),
                          "set_aside": list(state["_aside"][s])} for s in range(n)]
    return v
