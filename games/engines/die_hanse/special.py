"""Reaction windows with the Privilege card and the Kaperbrief (HANSE-10, override 1, C4, C5)."""
from __future__ import annotations

from .board import ISLANDS
from .cards import play_options, remove_blockade, start_pirates
from .state import P, has_special, log
from ..i18n import N_, lit, msg, say  # noqa: F401


# the special cards as a sentence names them: the card's title, and with its article (German
# "den Kaperbrief", "das Privileg"), one term per language (docs/i18n.md)
CARD_NAME = {"privilege": N_("Privilege"), "kaperbrief": N_("Kaperbrief")}
THE_CARD = {"privilege": N_("the Privilege"), "kaperbrief": N_("the Kaperbrief")}


def _both(cards: list):
    """One card, or two joined by the language's "and"."""
    return msg(N_("{a} and {b}"), a=cards[0], b=cards[1]) if len(cards) == 2 else cards


def open_window(state: dict, last: int, ship: int | None = None) -> dict:
    """Override 1: the last mover is always asked; others only if they opted in. ``ship``: the
    ship just moved (its field now), so the question can say which move it is about."""
    n = state["n"]
    asked = [s for s in range(n) if has_special(state, s) and (s == last or state["offer"][s])]
    frame = {"k": "window", "last": last, "stage": "ask", "asked": asked, "ans": {}, "queue": [],
             "extra": None}
    if ship is not None:
        frame["about"] = [ship, state["ships"][ship]["at"]]
    return frame


def waiting(frame: dict) -> list:
    if frame["stage"] == "ask":
        return [s for s in frame["asked"] if str(s) not in frame["ans"]]
    return [frame["queue"][0]] if frame["queue"] else []


def ask_moves(state: dict, seat: int) -> list:
    sp = state["special"][seat]
    out = ["pass"]
    if sp["privilege"]:
        out.append("declare privilege")
    if sp["kaperbrief"]:
        out.append("declare kaperbrief")
    if sp["privilege"] and sp["kaperbrief"]:
        out.append("declare both")
    return out


def resolve_moves(state: dict, frame: dict, seat: int, movable) -> list:
    out = []
    for card in frame["ans"][str(seat)]:
        if card == "privilege":
            if movable(state, seat):
                out.append("privilege move")
            if state["blockade"] is not None:
                out.append("privilege unblock")
            out.append("privilege card")
        else:
            out += ["kaperbrief raid %s" % i for i in ISLANDS]
            if state["blockade"] is not None:
                out.append("kaperbrief unblock")
            out.append("kaperbrief card")
    return out


def apply_ask(state: dict, frame: dict, seat: int, move: str) -> None:
    words = move.split()
    if words[0] == "timeout":
        state["timeouts"][seat] += 1
        if state["timeouts"][seat] >= 2 and state["offer"][seat]:
            state["offer"][seat] = False  # C5: the opt-in lapses
            log(state, seat, msg(N_("{player} will no longer be asked after other players' moves"), player=P(seat)), only=[seat])
        frame["ans"][str(seat)] = []
    else:
        state["timeouts"][seat] = 0
        if words[0] == "pass":
            frame["ans"][str(seat)] = []
        else:
            frame["ans"][str(seat)] = ["privilege", "kaperbrief"] if words[1] == "both" else [words[1]]
    if not waiting(frame):
        n = state["n"]
        order = [(frame["last"] + i) % n for i in range(n)]
        frame["queue"] = [s for s in order if frame["ans"].get(str(s))]
        frame["stage"] = "resolve"
        for s in frame["queue"]:
            log(state, s, msg(N_("{player} declares {cards}"), player=P(s), cards=_both([CARD_NAME.get(c, c) for c in frame["ans"][str(s)]])))


def apply_resolve(state: dict, frame: dict, seat: int, move: str) -> None:
    words = move.split()
    cards = frame["ans"][str(seat)]
    if words[0] == "timeout":
        log(state, seat, msg(N_("{player}'s declaration lapses; the card is kept"), player=P(seat)))  # C4
        cards.clear()
    else:
        card = words[0]
        cards.remove(card)
        state["special"][seat][card] = False
        opt = words[1]
        if opt == "unblock":
            log(state, seat, msg(N_("{player} uses {card}"), player=P(seat), card=THE_CARD.get(card, card)))
            remove_blockade(state, seat)
        elif opt == "card":
            log(state, seat, msg(N_("{player} uses {card} to play a harbour card"), player=P(seat), card=THE_CARD.get(card, card)))
            state["stack"].append({"k": "cardplay", "seat": seat})
        elif opt == "raid":
            log(state, seat, msg(N_("{player} uses the Kaperbrief for a pirate raid"), player=P(seat)))
            start_pirates(state, seat, words[2], 6, exact=False)
        elif opt == "move":
            log(state, seat, msg(N_("{player} uses the Privilege for an extra move"), player=P(seat)))
            state["stack"].append({"k": "xmove", "seat": seat})
    if not cards and frame["queue"] and frame["queue"][0] == seat:
        frame["queue"].pop(0)


def cardplay_moves(state: dict, seat: int) -> list:
    return play_options(state, seat)

