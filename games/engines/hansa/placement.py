"""Initial stall placement (§6)."""
from __future__ import annotations

from ..base import IllegalMove
from .board import BOARD
from ..i18n import N_, msg, say
from .state import P, city_name, last_seat, log
from .turn import begin_turn

STALLS_PER_PLACEMENT = 2
ROUNDS = 3


def place_options(state: dict, seat: int) -> list[str]:
    """HANSA-6.2 / 6.3: not Kopenhagen, not a city where the seat already has stalls."""
    return [c for c in BOARD.city_ids
            if c != BOARD.no_setup_city and state["stalls"][c][seat] == 0]


def check_place(state: dict, seat: int, city: str) -> None:
    if city == BOARD.no_setup_city:
        raise IllegalMove(say(N_("no stall may be placed in {city} during the initial placement"), city=city_name(city)))
    if state["stalls"][city][seat]:
        raise IllegalMove(say(N_("you already have stalls in {city}; choose a city where you have none"),
                              city=city_name(city)))


def do_place(state: dict, seat: int, city: str) -> None:
    state["stalls"][city][seat] += STALLS_PER_PLACEMENT
    state["supply"][seat] -= STALLS_PER_PLACEMENT
    log(state, seat, msg(N_("{player} places {n} stalls in {city}."), player=P(seat), n=STALLS_PER_PLACEMENT,
                         city=city_name(city)))
    if seat == last_seat(state):
        if state["round"] == ROUNDS:                          # HANSA-6.5
            log(state, None, N_("The initial placement is complete."))
            begin_turn(state, state["start"])
            return
        state["round"] += 1                                   # HANSA-D-05: same order every round
        log(state, None, msg(N_("Initial placement, round {round}."), round=state["round"]))
    state["active"] = (seat + 1) % state["players"]


def default_place(state: dict, seat: int) -> str:
    """HANSA-16.2 #1: the legal city with the lowest fill number."""
    return "place " + place_options(state, seat)[0]
