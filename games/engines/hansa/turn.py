"""Turn flow: phase 1 income (§8), phase 2 warehouses (§9), phase 4 tax and toll (§11),
the next turn and the end of the game (§12)."""
from __future__ import annotations

from .board import BOARD
from ..i18n import N_, msg
from .state import P, tile_msg, city_name, last_seat, log, stack_total


def fill_available(state: dict) -> bool:
    """HANSA-9.1 / HANSA-D-07: an empty slot and at least one tile in the stacks."""
    return None in state["slots"] and stack_total(state) > 0


def fill_compulsory(state: dict) -> bool:
    """HANSA-9.2: every slot empty (and tiles left, HANSA-D-07)."""
    return all(t is None for t in state["slots"]) and stack_total(state) > 0


def do_fill(state: dict, seat: int) -> None:
    """HANSA-9.3..9.6 and the end trigger HANSA-9.9: pay 1, fill every empty slot in fill order."""
    state["coins"][seat] -= 1
    placed = []
    took_s5 = False
    stacks = state["_stacks"]
    last = len(stacks) - 1
    for i, t in enumerate(state["slots"]):
        if t is not None:
            continue
        k = next((k for k, s in enumerate(stacks) if s), None)
        if k is None:
            break                                   # HANSA-D-06: the rest stay empty
        tile = stacks[k].pop()
        if k == last:
            took_s5 = True
        state["slots"][i] = tile
        placed.append(msg(N_("{tile} to {city}"), tile=tile_msg(tile), city=city_name(BOARD.slot_city[i])))
    empty = state["slots"].count(None)
    if not empty:
        text = msg(N_("{player} pays 1 coin and fills the warehouses: {tiles}."), player=P(seat), tiles=placed)
    elif empty == 1:
        text = msg(N_("{player} pays 1 coin and fills the warehouses: {tiles}. The supply is used up; "
                      "1 warehouse stays empty."), player=P(seat), tiles=placed)
    else:
        text = msg(N_("{player} pays 1 coin and fills the warehouses: {tiles}. The supply is used up; "
                      "{n} warehouses stay empty."), player=P(seat), tiles=placed, n=empty)
    log(state, seat, text)
    if took_s5 and not state["end_triggered"]:     # HANSA-9.9 / HANSA-12.1: only once
        state["end_triggered"] = True
        state["trigger_seat"] = seat
        if seat == last_seat(state):
            log(state, None, N_("The last supply stack has been opened: this is the last turn of the game."))
        else:
            log(state, None, msg(N_("The last supply stack has been opened: the game ends after {player}'s turn."),
                                 player=P(last_seat(state))))


def begin_turn(state: dict, seat: int) -> None:
    """Start ``seat``'s turn; waits (phase 'start') while the seat owes a loss choice (HANSA-C1)."""
    state["active"] = seat
    state["acted"] = False
    state["sale"] = []
    if state["owe"][seat]:
        state["phase"] = "start"
        return
    state["turns"][seat] += 1
    state["coins"][seat] += BOARD.income                                   # HANSA-8.1
    log(state, seat, msg(N_("{player}'s turn: +{income} coins (income), now {coins}."), player=P(seat),
                         income=BOARD.income, coins=state["coins"][seat]))
    if fill_compulsory(state):                                             # HANSA-9.2
        log(state, seat, msg(N_("Every warehouse is empty, so {player} must fill."), player=P(seat)))
        do_fill(state, seat)
        state["phase"] = "actions"
    elif fill_available(state):
        state["phase"] = "fill"
    else:
        state["phase"] = "actions"


def end_actions(state: dict, seat: int) -> None:
    """`end`: phase 3 over; phase 4 trims coins automatically, tiles by choice (HANSA-11.1)."""
    state["acted"] = False
    state["sale"] = []
    excess = state["coins"][seat] - BOARD.coin_limit
    if excess > 0:
        state["coins"][seat] = BOARD.coin_limit
        log(state, seat, msg(N_("{player} ends the actions and pays {n} coins tax (keeps {keep}).") if excess > 1
                             else N_("{player} ends the actions and pays 1 coin tax (keeps {keep})."),
                             player=P(seat), n=excess, keep=BOARD.coin_limit))
    else:
        log(state, seat, msg(N_("{player} ends the actions."), player=P(seat)))
    if len(state["tiles"][seat]) > BOARD.tile_limit:
        state["phase"] = "discard"
    else:
        end_turn(state, seat)


def end_turn(state: dict, seat: int) -> None:
    """HANSA-11.5 / HANSA-12.2: next player, or the end after the last player in turn order."""
    if state["end_triggered"] and seat == last_seat(state):
        finish(state)
    else:
        begin_turn(state, (seat + 1) % state["players"])


def finish(state: dict) -> None:
    """Final scoring waits for open loss choices (HANSA-C1), then the game is over."""
    state["acted"] = False
    state["sale"] = []
    if any(state["owe"]):
        state["phase"] = "final"
        log(state, None, N_("The game is over once the open loss choices are made."))
    else:
        state["phase"] = "over"
        log(state, None, N_("The game is over."))
