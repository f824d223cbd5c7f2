"""Views (§15): everything is public except the supply stacks' contents and order, and each
seat's own per-game settings (shown only to that seat)."""
from __future__ import annotations

from ..i18n import N_, msg, say
from .board import BOARD
from .moves import to_act
from .scoring import result
from .state import last_seat, sort_key


def _t(tile: int) -> str:
    return BOARD.tile_text(tile)


def _tiles(tiles) -> list[str]:
    return [_t(t) for t in sorted(tiles, key=sort_key)]


def prompt(state: dict, seat, acting: list[int]) -> str:
    if seat is None or seat not in acting:
        return ""
    if state["owe"][seat]:
        owed = [msg("{n} {colour}", n=n, colour=BOARD.colour_names[int(k)]) for k, n in sorted(state["owe"][seat].items())]
        return say(N_("Another player sold goods: choose which face-up tile to lose ({owed})."), owed=owed)
    phase = state["phase"]
    if phase == "place":
        return say(N_("Initial placement, round {round} of 3: choose a city for 2 stalls."), round=state["round"])
    if phase == "fill":
        return say(N_("Phase 2: fill the empty warehouses for 1 coin, or not?"))
    if phase == "discard":
        n = len(state["tiles"][seat]) - BOARD.tile_limit
        return say(N_("Tax and toll: discard {n} face-up tiles (keep {keep}).") if n > 1
                   else N_("Tax and toll: discard 1 face-up tile (keep {keep})."), n=n, keep=BOARD.tile_limit)
    if phase == "actions":
        city = BOARD.city_names[state["ship"]]
        if state["sale"]:
            return say(N_("Phase 3: you may add another colour to your sale in {city}, move the ship or end."), city=city)
        if state["acted"]:
            return say(N_("Phase 3: you acted in {city}; move the ship to act again, or end your actions."), city=city)
        return say(N_("Phase 3: the ship is in {city}. Buy, build, sell, move the ship, or end your actions."), city=city)
    return ""


def view(state: dict, seat) -> dict:
    acting = to_act(state)
    asked = prompt(state, seat, acting)
    n = state["players"]
    over = state["phase"] == "over"
    players = []
    for p in range(n):
        players.append({
            "seat": p,
            "colour": BOARD.player_colour_names[p],
            "coins": state["coins"][p],
            "tiles": _tiles(state["tiles"][p]),
            "sold": _tiles(state["sold"][p]),
            "sold_points": sum(1 + BOARD.tile_value(t) for t in state["sold"][p]),
            "supply": state["supply"][p],
            "stalls": {c: state["stalls"][c][p] for c in BOARD.city_ids if state["stalls"][c][p]},
            "stalls_on_board": sum(state["stalls"][c][p] for c in BOARD.city_ids),
            "owes": {BOARD.colour_names[int(k)]: v for k, v in sorted(state["owe"][p].items())},
            "turns": state["turns"][p],
        })
    cities = []
    for c in BOARD.city_ids:
        cities.append({
            "id": c,
            "name": BOARD.city_names[c],
            "fill_number": BOARD.fill_number[c],
            "slots": [None if state["slots"][i] is None else _t(state["slots"][i]) for i in BOARD.city_slots[c]],
            "stalls": list(state["stalls"][c]),
            "routes_to": list(BOARD.out[c]),
        })
    out = {
        "game": "hansa",
        "players": n,
        "you": seat,
        "to_act": acting,
        "prompt": str(asked),
        "prompt_msg": getattr(asked, "message", asked),
        "log": list(state["log"]),
        "over": over,
        "result": result(state) if over else None,
        "phase": state["phase"],
        "placement_round": state["round"] if state["phase"] == "place" else None,
        "active": state["active"],
        "start_player": state["start"],
        "last_player": last_seat(state),
        "ship": state["ship"],
        "acted_this_visit": state["acted"],
        "open_sale": [BOARD.colour_names[c] for c in state["sale"]],
        "end_triggered": state["end_triggered"],
        "trigger_seat": state["trigger_seat"],
        "colours": [BOARD.colour_names[c] for c in state["colours"]],
        "removed_colours": [BOARD.colour_names[c] for c in state["removed_colours"]],
        "stacks": [len(s) for s in state["_stacks"]],                 # counts only (HANSA-D-15)
        "cities": cities,
        "seats": players,
        "removed_tiles": _tiles(state["removed"]),
    }
    if seat is not None:
        out["settings"] = {"ask_losses": state["ask"][seat]}
    return out
