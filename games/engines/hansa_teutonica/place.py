"""Action 2: Place (HT-7.4): one piece from the personal supply onto an empty space."""
from __future__ import annotations

from .board import side_of
from .rules import allowed_route, place_on
from .state import P, KIND, KIND_BY_WORD, R, log
from ..i18n import N_, lit, msg, say  # noqa: F401


def targets(s: dict) -> list[str]:
    sp = s["spaces"]
    return [r for r in side_of(s).routes if None in sp[r] and allowed_route(s, r)]


def available(s: dict, seat: int) -> bool:
    sup = s["p"][seat]["supply"]
    if sup[0] + sup[1] == 0:
        return False
    sp = s["spaces"]
    return any(None in sp[r] and allowed_route(s, r) for r in side_of(s).routes)


def start(s: dict, seat: int) -> None:
    sup = s["p"][seat]["supply"]
    if sup[0] and sup[1]:
        s["step"] = {"a": "place"}
    else:
        s["step"] = {"a": "place", "k": "t" if sup[0] else "m"}


def options(s: dict, seat: int) -> list[str]:
    st = s["step"]
    if "k" not in st:
        return ["with trader", "with merchant", "cancel"]
    return ["on " + r for r in targets(s)] + ["cancel"]


def apply(s: dict, seat: int, words: list[str]) -> None:
    st = s["step"]
    if words[0] == "with":
        st["k"] = KIND_BY_WORD[words[1]]
        return
    route = words[1]
    k = st["k"]
    s["step"] = None
    p = s["p"][seat]
    p["supply"][0 if k == "t" else 1] -= 1
    i = place_on(s, route, f"{seat}{k}")
    s["used"] += 1
    log(s, seat, msg(N_("{player} places a {piece} on {route} (space {n})"), player=P(seat), piece=KIND[k], route=R(s, route), n=i + 1))
