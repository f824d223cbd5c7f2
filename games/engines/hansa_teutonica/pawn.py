"""The 2-player pawn (HT-13): setup placement (HT-13.2, HT-A-4), the free move over
0-2 borders before the first or after the last action (HT-13.3, HT-D-23, HT-C5), and the
paid move to any province for one action (HT-13.4)."""
from __future__ import annotations

from .board import side_of
from .state import log


def setup_options(s: dict) -> list[str]:
    return ["pawn to " + p for p in side_of(s).provinces]


def apply_setup(s: dict, seat: int, words: list[str]) -> None:
    s["pawn"] = words[2]
    log(s, seat, f"{{p{seat}}} places the pawn in province {words[2]}; {{p{1 - seat}}} starts")
    from .turn import start_turn
    start_turn(s, s["start"])


def free_targets(s: dict) -> list[str]:
    return side_of(s).reach2[s["pawn"]]


def options(s: dict, seat: int) -> list[str]:
    a = s["step"]["a"]
    if a == "pawn":
        tg = [p for p in side_of(s).provinces if p != s["pawn"]]
    else:
        tg = free_targets(s)
    return ["to " + p for p in tg] + ["cancel"]


def apply(s: dict, seat: int, words: list[str]) -> None:
    a = s["step"]["a"]
    s["step"] = None
    old, s["pawn"] = s["pawn"], words[1]
    if a == "pawn":
        s["used"] += 1
        log(s, seat, f"{{p{seat}}} moves the pawn from {old} to {words[1]} (1 action)")
        return
    s["free_used"] = True
    log(s, seat, f"{{p{seat}}} moves the pawn from {old} to {words[1]} (free move)")
    if a == "endpawn":
        from .turn import end_turn
        end_turn(s, seat)
