"""Bonus markers: using them on one's own turn (HT-9.5, HT-9.6, HT-D-15..17, HT-C1, HT-C2)
and placing drawn markers at the end of the turn (HT-9.4, HT-D-14, HT-14.3)."""
from __future__ import annotations

from .board import MARKER_NAMES, side_of
from .rules import develop, developable, marker_routes
from .state import P, KIND, R, log, mark_used, mutable, wspace
from ..i18n import N_, lit, msg, say  # noqa: F401


def _usable(p: dict, kind: str) -> int | None:
    for i, m in enumerate(p["markers"]):
        if m[0] == kind and not m[1] and not m[2]:
            return i
    return None


def swap_options(s: dict, seat: int) -> list[str]:
    """HT-9.6.2 + HT-C2: adjacent houses, different owners, one of them the user's."""
    out = []
    for c in side_of(s).cities:
        hs = s["houses"][c]
        for i in range(len(hs) - 1):
            a, b = hs[i], hs[i + 1]
            if a is not None and b is not None and a != b and seat in (a, b):
                out.append(f"use swap {c.lower()} {i + 1}")
    return out


def _opponent_pieces(s: dict, seat: int, route: str) -> list[int]:
    pre = str(seat)
    return [i for i, o in enumerate(s["spaces"][route]) if o is not None and o[0] != pre]


def remove_routes(s: dict, seat: int) -> list[str]:
    return [r for r in side_of(s).routes if _opponent_pieces(s, seat, r)]


def menu(s: dict, seat: int) -> list[str]:
    if s["end"]:
        return []  # HT-9.5: nothing after the end is triggered
    p = s["p"][seat]
    have = {m[0] for m in p["markers"] if not m[1] and not m[2]}
    out = []
    if "plus3" in have:
        out.append("use plus3")
    if "plus4" in have:
        out.append("use plus4")
    if "upgrade" in have:
        out += [f"use upgrade {a}" for a in developable(p)]
    if "swap" in have:
        out += swap_options(s, seat)
    if "remove" in have and any(_opponent_pieces(s, seat, r) for r in side_of(s).routes):
        out.append("use remove")
    return out


def use(s: dict, seat: int, words: list[str]) -> None:
    p = s["p"][seat]
    kind = words[1]
    if kind == "remove":
        s["step"] = {"a": "remove", "n": 0}
        return
    mark_used(p, _usable(p, kind))
    if kind in ("plus3", "plus4"):
        extra = 3 if kind == "plus3" else 4
        s["acts"] += extra  # HT-9.6.3
        log(s, seat, msg(N_("{player} uses {marker}: {n} more actions this turn"), player=P(seat), marker=MARKER_NAMES[kind], n=extra))
    elif kind == "upgrade":
        develop(s, seat, words[2], N_("Upgrade ability marker"))
    elif kind == "swap":
        c = [x for x in side_of(s).cities if x.lower() == words[2]][0]
        i = int(words[3]) - 1
        hs = mutable(s, "houses")[c]
        hs[i], hs[i + 1] = hs[i + 1], hs[i]
        log(s, seat, msg(N_("{player} uses Swap Kontor in {city}: houses {a} and {b} now hold {pa} and {pb}"),
                         player=P(seat), city=side_of(s).city_name[c], a=i + 1, b=i + 2, pa=P(hs[i]), pb=P(hs[i + 1])))


def remove_options(s: dict, seat: int) -> list[str]:
    st = s["step"]
    if "r" in st:
        return [f"space {i + 1}" for i in _opponent_pieces(s, seat, st["r"])] + ["cancel" if st["n"] == 0 else "done"]
    return ["at " + r for r in remove_routes(s, seat)] + ["cancel" if st["n"] == 0 else "done"]


def remove_apply(s: dict, seat: int, words: list[str]) -> None:
    st = s["step"]
    if words[0] == "done":
        s["step"] = None
        return
    if words[0] == "at":
        st["r"] = words[1]
        sp = s["spaces"][words[1]]
        idx = _opponent_pieces(s, seat, words[1])
        if len({sp[i] for i in idx}) > 1:
            return
        i = idx[0]
    else:
        i = int(words[1]) - 1
    route = st.pop("r")
    sp = wspace(s, route)
    o = sp[i]
    sp[i] = None
    owner = int(o[0])
    s["p"][owner]["supply"][0 if o[1] == "t" else 1] += 1  # HT-9.6.5
    if st["n"] == 0:
        p = s["p"][seat]
        mark_used(p, _usable(p, "remove"))
    st["n"] += 1
    log(s, seat, msg(N_("{player} removes a {piece} of {other} from {route} (Remove 3)"), player=P(seat), piece=KIND[o[1]],
                     other=P(owner), route=R(s, route)))
    if st["n"] >= 3 or not remove_routes(s, seat):
        s["step"] = None


# ---------------------------------------------------------------- end-of-turn placement
def placement_options(s: dict) -> list[str]:
    return ["on " + r for r in marker_routes(s)]


def settle_placement(s: dict) -> bool:
    """Return markers with no route at all to the bottom of the supply (HT-D-14).
    True when nothing is left to place."""
    while s["_drawn"] and not marker_routes(s):
        m = s["_drawn"].pop(0)
        s["_supply"].append(m)
        s["p"][s["active"]]["drawn"] -= 1
        log(s, s["active"], N_("Every route holds a marker: a drawn marker goes back under the supply"))
    return not s["_drawn"]


def place_marker(s: dict, seat: int, words: list[str]) -> None:
    m = s["_drawn"].pop(0)
    s["p"][seat]["drawn"] -= 1
    s["markers"][words[1]] = m
    log(s, seat, msg(N_("{player} places a {marker} marker on {route}"), player=P(seat), marker=MARKER_NAMES[m], route=R(s, words[1])))
