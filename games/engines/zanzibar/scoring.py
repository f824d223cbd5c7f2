"""Final result (ZAN-15): highest score wins; ties go to whoever finished first
(ZAN-15.2 / ZAN-D-19); tied players who finished rank ahead of tied players who did
not, in finishing order; tied non-finishers share the place (ZAN-D-20)."""
from __future__ import annotations

from .state import board_of


def ranking(state: dict) -> list[int]:
    n = state["players"]
    fin = {seat: i for i, seat in enumerate(state["finished"])}
    keys = [(-state["score"][s], fin.get(s, n + 1)) for s in range(n)]
    return [1 + sum(1 for k in keys if k < keys[s]) for s in range(n)]


def breakdown(state: dict, seat: int) -> dict:
    parts = {"start": board_of(state).start_score}
    for entry in state["scored"][seat]:
        parts[f"{entry['card']} ({entry['count']})"] = entry["points"]
    return parts


def result(state: dict) -> dict | None:
    if state["phase"] != "over":
        return None
    n = state["players"]
    return {
        "scores": list(state["score"]),
        "ranking": ranking(state),
        "breakdown": [breakdown(state, s) for s in range(n)],
        "finished": list(state["finished"]),
    }
