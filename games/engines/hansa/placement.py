"""Initial stall placement (§6)."""
from __future__ import annotations

from ..base import IllegalMove
from .board import BOARD
from .state import city_name, last_seat, log
from .turn import begin_turn

STALLS_PER_PLACEMENT = 2
ROUNDS = 3


def place_options(state: dict, seat: int) -> list[str]:
    """HANSA-6.2 / 6.3: not Kopenhagen, not a city where the seat already has stalls."""
    return [c for c in BOARD.city_ids
            if c != BOARD.no_setup_city and state["stalls"][c][seat] == 0]


def check_place(state: dict, seat: int, city: str) -> None:
    if city == BOARD.no_setup_city:
        raise IllegalMove(f"no stall may be placed in {city_name(city)} during the initial placement")
    if state["stalls"][city][seat]:
        raise IllegalMove(f"you already have stalls in {city_name(city)}; choose a city where you have none")


def do_place(state: dict, seat: int, city: str) -> None:
    state["stalls"][city][seat] += STALLS_PER_PLACEMENT
    state["supply"][seat] -= STALLS_PER_PLACEMENT
    log(state, seat, "{p%d} places %d stalls in %s." % (seat, STALLS_PER_PLACEMENT, city_name(city)))
    if seat == last_seat(state):
        if state["round"] == ROUNDS:                          # HANSA-6.5
            log(state, None, "The initial placement is complete.")
            begin_turn(state, state["start"])
            return
        state["round"] += 1                                   # HANSA-D-05: same order every round
        log(state, None, "Initial placement, round %d." % state["round"])
    state["active"] = (seat + 1) % state["players"]


def default_place(state: dict, seat: int) -> str:
    """HANSA-16.2 #1: the legal city with the lowest fill number."""
    return "place " + place_options(state, seat)[0]
