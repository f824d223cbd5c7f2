"""The 2-player pawn (HT-13): setup placement (HT-13.2, HT-A-4), the free move over
0-2 borders before the first or after the last action (HT-13.3, HT-D-23, HT-C5), and the
paid move to any province for one action (HT-13.4).

After ``pawn`` the step offers ``to <province>`` (paid, 1 action), ``free <province>``
(free move before the first action) and ``free <province> end`` (free move after the
last action, which ends the turn: HT-C4)."""
from __future__ import annotations

from .board import side_of
from .state import P, log, province
from ..i18n import N_, lit, msg, say  # noqa: F401


def setup_options(s: dict) -> list[str]:
    return ["pawn to " + p for p in side_of(s).provinces]


def apply_setup(s: dict, seat: int, words: list[str]) -> None:
    s["pawn"] = words[2]
    log(s, seat, msg(N_("{player} places the pawn in {province}; {other} starts"), player=P(seat), province=province(words[2]),
                     other=P(1 - seat)))
    from .turn import start_turn
    start_turn(s, s["start"])


def free_targets(s: dict) -> list[str]:
    return side_of(s).reach2[s["pawn"]]


def options(s: dict, seat: int) -> list[str]:
    out = []
    if s["acts"] > s["used"]:
        out += ["to " + p for p in side_of(s).provinces if p != s["pawn"]]
    if not s["free_used"]:
        tail = "" if s["used"] == 0 else " end"
        out += [f"free {p}{tail}" for p in free_targets(s)]
    return out + ["cancel"]


def apply(s: dict, seat: int, words: list[str]) -> None:
    s["step"] = None
    old, s["pawn"] = s["pawn"], words[1]
    if words[0] == "to":
        s["used"] += 1
        log(s, seat, msg(N_("{player} moves the pawn from {frm} to {to} (1 action)"), player=P(seat), frm=province(old), to=province(words[1])))
        return
    s["free_used"] = True
    log(s, seat, msg(N_("{player} moves the pawn from {frm} to {to} (free move)"), player=P(seat), frm=province(old), to=province(words[1])))
    if len(words) == 3:
        from .turn import end_turn
        end_turn(s, seat)
