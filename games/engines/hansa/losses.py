"""Tile losses after a sale (HANSA-10.6b step 3, HANSA-D-10, HANSA-16.3, HANSA-C1)."""
from __future__ import annotations

from .board import BOARD
from ..i18n import N_, msg
from .state import P, tile_msg, find_tile, kind_text, log


def lowest_tile(tiles, colour: int):
    """The automatic rule: the tile of that colour with the lowest barrel value."""
    mine = [t for t in tiles if BOARD.tile_colour(t) == colour]
    return min(mine, key=lambda t: (BOARD.tile_value(t), t)) if mine else None


def lose_tile(state: dict, seat: int, tile: int, why: str = "") -> None:
    state["tiles"][seat].remove(tile)
    state["removed"].append(tile)
    log(state, seat, msg(N_("{player} loses {tile} (own choice).") if why else N_("{player} loses {tile}."),
                         player=P(seat), tile=tile_msg(tile)))


def inflict(state: dict, seller: int, colour: int) -> None:
    """Every other player with a face-up tile of ``colour`` loses exactly one of them."""
    n = state["players"]
    for k in range(1, n):
        p = (seller + k) % n
        held = [t for t in state["tiles"][p] if BOARD.tile_colour(t) == colour]
        if not held:
            continue
        if not state["ask"][p]:
            lose_tile(state, p, lowest_tile(held, colour))
            continue
        owe = state["owe"][p]
        key = str(colour)
        if len(held) > owe.get(key, 0):                 # HANSA-16.3: only if more held than owed
            owe[key] = owe.get(key, 0) + 1
            resolve_forced(state, p)


def resolve_forced(state: dict, seat: int) -> None:
    """Resolve obligations where there is no real choice (HANSA-16.3, HANSA-T-22)."""
    owe = state["owe"][seat]
    for key in sorted(owe, key=int):
        colour = int(key)
        while owe.get(key, 0) > 0:
            held = [t for t in state["tiles"][seat] if BOARD.tile_colour(t) == colour]
            values = {BOARD.tile_value(t) for t in held}
            if len(held) > owe[key] and len(values) > 1:
                break                                   # a real choice: the seat decides
            lose_tile(state, seat, lowest_tile(held, colour))
            owe[key] -= 1
        if owe.get(key) == 0:
            del owe[key]


def lose_options(state: dict, seat: int) -> list[tuple[int, int]]:
    """(colour, value) kinds the seat may choose to lose now."""
    out = []
    for key in sorted(state["owe"][seat], key=int):
        colour = int(key)
        out.extend(sorted({(colour, BOARD.tile_value(t)) for t in state["tiles"][seat]
                           if BOARD.tile_colour(t) == colour}))
    return out


def apply_lose(state: dict, seat: int, colour: int, value: int) -> None:
    key = str(colour)
    tile = find_tile(state["tiles"][seat], colour, value)
    lose_tile(state, seat, tile, " (own choice)")
    state["owe"][seat][key] -= 1
    if state["owe"][seat][key] == 0:
        del state["owe"][seat][key]
    resolve_forced(state, seat)


def default_lose(state: dict, seat: int) -> str | None:
    opts = lose_options(state, seat)
    if not opts:
        return None
    colour = opts[0][0]
    return "lose " + kind_text(colour, min(v for c, v in opts if c == colour))
