"""Final scoring (HANSE-13.3) and the winner (HANSE-13.4, D-40)."""
from __future__ import annotations

from ..i18n import N_
from .board import BOARD


def breakdown(state: dict) -> list:
    fin = state["final"] or {}
    out = []
    for p in range(state["n"]):
        vals = [v for v in state["store"][p]["vals"] if v is not None]
        sp = state["special"][p]
        out.append({
            N_("storage"): sum(vals),
            N_("first full storage"): 5 if fin.get("f") == p else 0,
            N_("completing partner"): 3 if fin.get("partner") == p else 0,
            N_("unused privilege"): BOARD.privilege_points if sp["privilege"] else 0,
            N_("unused kaperbrief"): BOARD.kaperbrief_points if sp["kaperbrief"] else 0,
        })
    return out


def result(state: dict) -> dict | None:
    if not state["over"]:
        return None
    parts = breakdown(state)
    scores = [sum(b.values()) for b in parts]
    fin = state["final"] or {}

    def key(p):
        stones = sum(1 for v in state["store"][p]["vals"] if v is not None)
        return (scores[p], 1 if fin.get("f") == p else 0, stones)

    keys = [key(p) for p in range(state["n"])]
    ranking = [1 + sum(1 for k in keys if k > keys[p]) for p in range(state["n"])]
    return {"scores": scores, "ranking": ranking, "breakdown": parts}
