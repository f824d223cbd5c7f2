"""Scenario builders for the Hansa Teutonica tests: start from setup, then set fields."""
from __future__ import annotations

import json

from games.engines.hansa_teutonica import ENGINE
from games.engines.hansa_teutonica.board import SIDES
from games.engines.hansa_teutonica.turn import start_turn

E = ENGINE
RED, BLUE, GREEN = 0, 1, 2


def new(players: int = 3, seed: int = 1, active: int = 0, empty: bool = True, options=None) -> dict:
    s = E.setup(players, seed, options or {})
    if players == 2:
        s = E.apply(s, s["placer"], "pawn to p01")
    start_turn(s, active)
    if empty:
        for r in s["spaces"]:
            s["spaces"][r] = [None] * len(s["spaces"][r])
        s["markers"] = {}
        for p in s["p"]:
            p["supply"] = [0, 0]
            p["stock"] = [0, 0]
    return s


def give(s: dict, seat: int, supply=None, stock=None) -> dict:
    if supply is not None:
        s["p"][seat]["supply"] = list(supply)
    if stock is not None:
        s["p"][seat]["stock"] = list(stock)
    return s


def put(s: dict, route: str, *pieces) -> dict:
    sp = s["spaces"][route]
    for i, p in enumerate(pieces):
        sp[i] = p
    return s


def fill(s: dict, route: str, piece: str) -> dict:
    s["spaces"][route] = [piece] * len(s["spaces"][route])
    return s


def kontor(s: dict, city: str, *seats) -> dict:
    hs = s["houses"][city]
    for i, seat in enumerate(seats):
        hs[i] = seat
    return s


def run(s: dict, seat: int, *moves, events: list | None = None) -> dict:
    """Apply ``moves`` of ``seat`` in turn; the events of each step are added to ``events``
    (a state holds only the events of the step that made it)."""
    for m in moves:
        s = E.apply(s, seat, m)
        if events is not None:
            events.extend(E.events(s))
    return s


def legal(s: dict, seat: int) -> list[str]:
    return E.legal_moves(s, seat)


def side(s: dict):
    return SIDES[s["side"]]


def frozen(s: dict) -> str:
    return json.dumps(s, sort_keys=True)
