"""Final scoring (§13)."""
from __future__ import annotations

from ..i18n import N_
from .board import BOARD


def breakdown(state: dict) -> list[dict]:
    """HANSA-13.1: unsold tiles 1 each, sold tiles 1 + barrels, cities 2 (monopoly 4)."""
    n = state["players"]
    out = []
    for p in range(n):
        face_up = len(state["tiles"][p])
        sold = sum(1 + BOARD.tile_value(t) for t in state["sold"][p])
        cities = 0
        for counts in state["stalls"].values():
            if counts[p] > 0:
                others = sum(counts) - counts[p]
                cities += 4 if others == 0 else 2
        out.append({N_("face-up tiles"): face_up, N_("sold tiles"): sold, N_("cities"): cities})
    return out


def stalls_on_board(state: dict, seat: int) -> int:
    return sum(counts[seat] for counts in state["stalls"].values())


def result(state: dict):
    if state["phase"] != "over":
        return None
    parts = breakdown(state)
    scores = [sum(p.values()) for p in parts]                      # coins score nothing (D-12)
    n = state["players"]
    keys = [(scores[p], stalls_on_board(state, p)) for p in range(n)]   # HANSA-13.3 / D-24
    ranking = [1 + sum(1 for q in range(n) if keys[q] > keys[p]) for p in range(n)]  # HANSA-D-13
    return {"scores": scores, "ranking": ranking, "breakdown": parts,
            "stalls_on_board": [k[1] for k in keys]}
