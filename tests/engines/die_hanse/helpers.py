"""Scenario helpers for the Die Hanse tests: start from ``setup`` and set fields."""
from __future__ import annotations

import pytest

from games.engines import IllegalMove, get_engine
from games.engines.die_hanse.board import BOARD
from games.engines.die_hanse.cards import card_text

E = get_engine("die-hanse")


def game(n: int = 4, seed: int = 1, offer=(), **options) -> dict:
    opts = dict(options)
    opts["seats"] = [{"offer_special_cards": s in offer} for s in range(n)]
    return E.setup(n, seed, opts)


def hx(label: str) -> str:
    return BOARD.by_label[label]


def put(state: dict, ship: int, label: str, direction: int = 0) -> None:
    state["ships"][ship]["at"] = hx(label)
    state["ships"][ship]["dir"] = direction


def clear_sea(state: dict) -> None:
    """Every ship back in Lübeck."""
    for s in range(state["n"]):
        put(state, s, "luebeck")


def wind(state: dict, north: int, baltic: int) -> None:
    cid = next(c for c in BOARD.card_order
               if BOARD.cards[c]["type"] == "wind" and BOARD.cards[c]["north"] == north
               and BOARD.cards[c]["baltic"] == baltic)
    state["wind"] = cid


def card_id(text: str) -> str:
    return next(c for c in BOARD.card_order if card_text(c) == text)


def hand(state: dict, seat: int, *texts: str) -> None:
    ids = []
    for t in texts:
        cid = next(c for c in BOARD.card_order if card_text(c) == t and c not in ids)
        ids.append(cid)
        if cid in state["_deck"]:
            state["_deck"].remove(cid)
    state["_hands"][seat] = ids


def cargo(state: dict, ship: int, stern=None, bow=None) -> None:
    if stern is not None:
        state["cargo"][ship][0] = [list(s) for s in stern]
    if bow is not None:
        state["cargo"][ship][1] = [list(s) for s in bow]


def storage(state: dict, seat: int, goods, vals=None) -> None:
    state["store"][seat]["goods"] = list(goods)
    state["store"][seat]["vals"] = list(vals) if vals is not None else [None] * 6


def turn_of(state: dict, seat: int, turn: int | None = None) -> None:
    state["turn"] = seat if turn is None else turn
    state["stack"] = [{"k": "turn", "seat": seat, "done": [], "stage": "move"}]


def play(state: dict, seat: int, *moves: str) -> dict:
    """Apply moves; a ship move first picks the ship (``sail <ship>``) when that step is pending."""
    for m in moves:
        w = m.split()
        if w[0] in ("sail", "stay") and m not in E.legal_moves(state, seat) \
                and "sail %s" % w[1] in E.legal_moves(state, seat):
            state = E.apply(state, seat, "sail %s" % w[1])
        state = E.apply(state, seat, m)
    return state


def ship_moves(state: dict, seat: int, ship: str) -> list:
    """The destination step of ``ship`` (without ``back``)."""
    legal = E.legal_moves(state, seat)
    if "sail %s" % ship in legal:
        legal = E.legal_moves(E.apply(state, seat, "sail %s" % ship), seat)
    return [m for m in legal if m != "back" and m.split()[1] == ship]


def sail(state: dict, seat: int, ship: str, label: str) -> dict:
    return play(state, seat, "sail %s %s" % (ship, label))


def sea_targets(state: dict, seat: int, ship: str) -> set:
    """Every field the ship may sail to now (harbours, canal, open water)."""
    return {m.split()[2] for m in ship_moves(state, seat, ship) if m.startswith("sail") and m.split()[2] != "toward"}


def finish_windows(state: dict) -> dict:
    """Everybody asked in open reaction windows passes."""
    while state["stack"] and state["stack"][-1]["k"] == "window":
        for seat in E.to_act(state):
            state = E.apply(state, seat, "pass")
    return state


def illegal(state: dict, seat: int, move: str) -> str:
    with pytest.raises(IllegalMove) as info:
        E.apply(state, seat, move)
    return str(info.value)


def top(state: dict) -> dict:
    return state["stack"][-1]


def enter(state: dict, seat: int, ship: int, harbour: str) -> dict:
    """Put ``ship`` next to ``harbour`` and let ``seat`` (whose turn it becomes) sail it in."""
    from games.engines.die_hanse.board import SHIP_NAMES
    hxid = BOARD.harbours[harbour]
    occ = {sh["at"] for sh in state["ships"]}
    nb = next(y for y in BOARD.nbrs[hxid] if BOARD.kind[y] in ("sea", "bay") and y not in occ)
    state["ships"][ship]["at"] = nb
    if not state["stack"] or state["stack"][-1]["k"] != "turn" or state["stack"][-1]["seat"] != seat:
        turn_of(state, seat)
    return play(state, seat, "sail %s %s" % (SHIP_NAMES[ship], harbour))


def keep_all(state: dict, seat: int) -> dict:
    """Resolve pending draws of ``seat`` keeping the highest value."""
    while state["stack"] and state["stack"][-1]["k"] == "harbour" and state["stack"][-1]["draw"] is not None:
        vals = state["stack"][-1]["draw"]["vals"]
        state = E.apply(state, seat, "keep %d" % max(vals))
    return state


def play_card(state: dict, seat: int, text: str) -> dict:
    """Let ``seat`` play a harbour card now (as via a special card), keeping the turn below."""
    if not any(BOARD.cards[c] and card_text(c) == text for c in state["_hands"][seat]):
        hand(state, seat, text, *[card_text(c) for c in state["_hands"][seat][:2]])
    state["stack"].append({"k": "cardplay", "seat": seat})
    return E.apply(state, seat, "play " + text)


def idle_turn(state: dict) -> dict:
    """The active player leaves both ships where they are (passing in the windows)."""
    t = state["turn"]
    while not state["over"] and state["turn"] == t:
        seat = E.to_act(state)[0]
        f = state["stack"][-1]
        if f["k"] == "fine":
            break
        if f["k"] == "window":
            state = E.apply(state, seat, "pass")
        else:
            state = E.apply(state, seat, E.default_move(state, seat))
    return state
