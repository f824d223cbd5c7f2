"""Action 5: Establish a route (HT-8): (a) control PP, (b) bonus marker and replacement
draw, (c) one reward: Kontor, develop, Coellen, extra Kontor (marker) or nothing."""
from __future__ import annotations

from .board import MARKER_NAMES, RANK, side_of
from .rules import (allowed_route, check_east_west, controller, develop, gain_pp,
                    trigger_end, CITIES_TO_END)
from .state import P, KIND, KIND_BY_WORD, R, full, level, log, mark_used, mutable, wspace
from ..i18n import N_, lit, msg, say  # noqa: F401


def routes(s: dict, seat: int, anywhere: bool = False) -> list[str]:
    """HT-8.1: every space holds one of the player's own pieces (HT-13.5: and, in the
    2-player game, the route borders the pawn's province unless ``anywhere``)."""
    pre = str(seat)
    out = []
    spaces = s["spaces"]
    for r in side_of(s).routes:
        sp = spaces[r]
        o = sp[0]
        if o is None or o[0] != pre:
            continue
        if all(o is not None and o[0] == pre for o in sp) and (anywhere or allowed_route(s, r)):
            out.append(r)
    return out


def via_pawn(s: dict, seat: int) -> list[str]:
    """2-player shortcut: a paid pawn move (HT-13.4) and Establish as one command,
    for own complete routes away from the pawn (needs 2 actions)."""
    if not s["two"] or s["acts"] - s["used"] < 2:
        return []
    side = side_of(s)
    out = []
    for r in routes(s, seat, anywhere=True):
        if not allowed_route(s, r):
            out += [f"establish {r} via {p}" for p in side.route_provinces[r] if p != s["pawn"]]
    return out


def start(s: dict, seat: int, route: str) -> None:
    side = side_of(s)
    s["used"] += 1
    log(s, seat, msg(N_("{player} establishes {route}"), player=P(seat), route=R(s, route)))
    # (a) HT-8.3
    for c in side.ends[route]:
        ctl = controller(s, c)
        if ctl is not None:
            gain_pp(s, ctl, 1, msg(N_("controls {city}"), city=side.city_name[c]))
    # (b) HT-8.4
    m = s["markers"].pop(route, None)
    if m is not None:
        p = s["p"][seat]
        p["markers"] = p["markers"] + [[m, False, True]]
        log(s, seat, msg(N_("{player} claims the {marker} marker"), player=P(seat), marker=MARKER_NAMES[m]))
        if s["_supply"]:
            s["_drawn"].append(s["_supply"].pop(0))
            p["drawn"] += 1
            log(s, seat, msg(N_("{player} draws a replacement marker face down"), player=P(seat)))
        else:  # HT-C6
            trigger_end(s, msg(N_("the bonus-marker supply is empty")))
    s["step"] = {"a": "reward", "r": route}
    opts = options(s, seat)
    if opts == ["nothing"]:
        finish(s, seat, route, None)


def _has(sp: list, seat: int, k: str) -> bool:
    return f"{seat}{k}" in sp


def usable_extra(p: dict) -> int | None:
    for i, m in enumerate(p["markers"]):
        if m[0] == "extra" and not m[1] and not m[2]:
            return i
    return None


def options(s: dict, seat: int) -> list[str]:
    side = side_of(s)
    route = s["step"]["r"]
    sp = s["spaces"][route]
    p = s["p"][seat]
    kinds = [k for k in ("t", "m") if _has(sp, seat, k)]
    priv = level(p, "privilegium")
    out = []
    extra = usable_extra(p) is not None
    for c in side.ends[route]:
        hs = s["houses"][c]
        if None in hs:
            i = hs.index(None)
            shape, colour, _coin = side.houses[c][i]
            if priv >= RANK[colour]:  # HT-4.3
                for k in kinds:
                    if shape == "round" and k == "t":
                        continue
                    out.append(f"kontor {c.lower()} {KIND[k]}")
        if extra and any(o is not None for o in hs):  # HT-9.6.1
            out += [f"extra {c.lower()} {KIND[k]}" for k in kinds]
    devs = []
    for c in side.ends[route]:
        a = side.ability.get(c)
        if a and not full(p, a) and a not in devs:
            devs.append(a)
            out.append(f"develop {a}")
    if route == side.coellen_route and _has(sp, seat, "m"):
        for i, (colour, _pts) in enumerate(side.coellen_fields):
            if s["coellen"][i] is None and priv >= RANK[colour]:
                out.append(f"coellen {colour}")
    out.append("nothing")  # HT-D-11
    return out


def apply(s: dict, seat: int, words: list[str]) -> None:
    route = s["step"]["r"]
    finish(s, seat, route, words)


def _city(s: dict, word: str) -> str:
    for c in side_of(s).cities:
        if c.lower() == word:
            return c
    raise KeyError(word)


def finish(s: dict, seat: int, route: str, words) -> None:
    side = side_of(s)
    p = s["p"][seat]
    sp = wspace(s, route)
    s["step"] = None
    w = words[0] if words else "nothing"
    if w in ("kontor", "extra"):
        c = _city(s, words[1])
        k = KIND_BY_WORD[words[2]]
        sp[sp.index(f"{seat}{k}")] = None
        if w == "kontor":
            hs = mutable(s, "houses")[c]
            i = hs.index(None)
            hs[i] = seat
            log(s, seat, msg(N_("{player} founds a Kontor in {city} (house {n})"), player=P(seat), city=side.city_name[c], n=i + 1))
            if side.houses[c][i][2]:  # HT-8.6.1
                gain_pp(s, seat, 1, msg(N_("gold coin")))
            if None not in hs:  # HT-8.6.2
                s["completed"] += 1
                log(s, None, msg(N_("{city} is completed ({n} of {total})"), city=side.city_name[c], n=s["completed"], total=CITIES_TO_END))
                if s["completed"] >= CITIES_TO_END and not s["end"]:
                    trigger_end(s, msg(N_("{n} cities are completed"), n=CITIES_TO_END))
        else:
            mark_used(p, usable_extra(p))
            mutable(s, "extras").setdefault(c, []).append(seat)
            log(s, seat, msg(N_("{player} uses Extra Kontor: a Kontor left of the houses in {city}"), player=P(seat), city=side.city_name[c]))
        check_east_west(s, seat)  # HT-8.6.3
    elif w == "develop":
        back = [0, 0]
        for i, o in enumerate(sp):
            back[0 if o[1] == "t" else 1] += 1
            sp[i] = None
        p["stock"][0] += back[0]
        p["stock"][1] += back[1]
        develop(s, seat, words[1], msg(N_("established {route}"), route=R(s, route)))
    elif w == "coellen":
        i = [c for c, _ in side.coellen_fields].index(words[1])
        sp[sp.index(f"{seat}m")] = None
        mutable(s, "coellen")[i] = seat
        log(s, seat, msg(N_("{player} puts a merchant on the {field} Coellen field ({pp} PP at the end)"), player=P(seat),
                         field=words[1], pp=side.coellen_fields[i][1]))
    # HT-8.5 / HT-8.9: the rest of the route goes to stock
    for i, o in enumerate(sp):
        if o is not None:
            p["stock"][0 if o[1] == "t" else 1] += 1
            sp[i] = None
    if any(m[2] for m in p["markers"]):  # usable from the end of the claiming action (HT-9.5)
        p["markers"] = [[m[0], m[1], False] for m in p["markers"]]
    if s["end"]:
        from .turn import game_over
        game_over(s)
