"""Views (HT-6): everything a seat may know, built from scratch. Hidden: the bonus
supply's order and identities (HT-6.2.1) and drawn markers until the drawer's
placement step (HT-6.2.2, HT-D-2); revealed to all at the end (HT-D-3)."""
from __future__ import annotations

from .board import ABILITIES, MARKER_COUNTS, MARKER_NAMES, TRACKS, route_name, side_of
from .rules import controller, largest_network
from ..events import visible
from .state import KIND, full, level
from ..i18n import N_, lit, msg, say  # noqa: F401


def _piece(o):
    return None if o is None else {"seat": int(o[0]), "kind": KIND[o[1]]}


def prompt_for(s: dict, seat) -> str:
    ph = s["phase"]
    if ph == "over" or seat is None:
        return ""
    if ph == "pawn":
        return say(N_("Place the neutral pawn in a province.")) if seat == s["placer"] else ""
    if ph == "replace":
        rep = s["rep"]
        if seat != rep["v"]:
            return ""
        if rep["hold"] is not None:
            return say(N_("Choose the route for your {piece}."), piece=KIND[rep["hold"]])
        if not rep["main"]:
            return say(N_("Your {piece} on {route} was displaced: re-place it (and up to 1 extra piece).") if rep["max"] == 1
                       else N_("Your {piece} on {route} was displaced: re-place it (and up to {n} extra pieces)."),
                       piece=KIND[rep["k"]], route=lit(route_name(side_of(s), rep["r"])), n=rep["max"])
        more = rep["max"] - rep["done"]
        return say(N_("You may place 1 more extra piece, or say you are done.") if more == 1
                   else N_("You may place up to {n} more extra pieces, or say you are done."), n=more)
    if seat != s["active"]:
        return ""
    if ph == "markers":
        return say(N_("Place your drawn {marker} marker on a route."), marker=MARKER_NAMES[s["_drawn"][0]])
    st = s["step"]
    left = s["acts"] - s["used"]
    if st is None:
        return say(N_("Your turn: 1 action left. Choose an action, use a bonus marker, or end your turn.") if left == 1
                   else N_("Your turn: {n} actions left. Choose an action, use a bonus marker, or end your turn."), n=left)
    a = st["a"]
    if a == "move":
        return say(N_("Move your pieces (1 move left), or say you are done.") if st.get("left", 0) == 1
                   else N_("Move your pieces ({n} moves left), or say you are done."), n=st.get("left", 0))
    return say({
        "assign": N_("Choose which pieces to take from your stock."),
        "place": N_("Choose the piece and the route to place it on."),
        "displace": N_("Choose the piece to displace and how to pay."),
        "reward": N_("Choose your reward for the established route."),
        "pawn": N_("Choose the province for the pawn (1 action)."),
        "free": N_("Choose the province for the pawn (free move, up to 2 borders)."),
        "endpawn": N_("Choose the province for the pawn (free move), then your turn ends."),
        "remove": N_("Choose a piece of another player to remove, or say done."),
    }[a])


def _visible_log(s: dict, seat) -> list[dict]:
    return visible(s["log"], seat)


def build_view(s: dict, seat, to_act: list[int]) -> dict:
    side = side_of(s)
    over = s["phase"] == "over"
    routes = []
    for r in side.routes:
        a, b = side.ends[r]
        d = {"id": r, "a": a, "b": b, "name": route_name(side, r), "spaces": [_piece(o) for o in s["spaces"][r]],
             "marker": s["markers"].get(r), "tavern": r in side.tavern}
        if s["two"]:
            d["provinces"] = list(side.route_provinces[r])
        routes.append(d)
    cities = []
    for c in side.cities:
        hs = s["houses"][c]
        cities.append({
            "id": c, "name": side.city_name[c],
            "houses": [{"shape": sh, "colour": col, "coin": coin, "occupant": hs[i]}
                       for i, (sh, col, coin) in enumerate(side.houses[c])],
            "extras": list(s["extras"].get(c, [])),
            "ability": side.ability.get(c),
            "controller": controller(s, c),
            "completed": None not in hs,
        })
    desks = []
    for i, p in enumerate(s["p"]):
        desks.append({
            "seat": i,
            "pp": p["pp"],
            "stock": {"traders": p["stock"][0], "merchants": p["stock"][1]},
            "supply": {"traders": p["supply"][0], "merchants": p["supply"][1]},
            "abilities": {a: {"level": level(p, a), "developed": p["dev"][a],
                              "max": len(TRACKS[a]) - 1, "full": full(p, a)} for a in ABILITIES},
            "markers": [{"type": m[0], "used": m[1]} for m in p["markers"]],
            "drawn": p["drawn"],
            "largest_network": largest_network(s, i),
            "east_west": s["ew"].index(i) + 1 if i in s["ew"] else None,
        })
    public = {t: MARKER_COUNTS[t] for t in MARKER_COUNTS}
    for m in s["markers"].values():
        public[m] -= 1
    for p in s["p"]:
        for m in p["markers"]:
            public[m[0]] -= 1
    asked = prompt_for(s, seat)
    v = {
        "game": "hansa-teutonica",
        "players": s["np"],
        "you": seat,
        "to_act": list(to_act),
        "prompt": str(asked),
        "prompt_msg": getattr(asked, "message", asked),
        "log": _visible_log(s, seat),
        "over": over,
        "result": None,
        "side": "4-5" if s["side"] == "45" else "2-3",
        "phase": s["phase"],
        "start_player": s["start"],
        "active": s["active"],
        "actions": {"allowed": s["acts"], "used": s["used"], "left": max(0, s["acts"] - s["used"])},
        "step": (s["step"] or {}).get("a"),
        "routes": routes,
        "cities": cities,
        "coellen": [{"colour": c, "points": pts, "occupant": o}
                    for (c, pts), o in zip(side.coellen_fields, s["coellen"])],
        "desks": desks,
        "completed_cities": s["completed"],
        "east_west": list(s["ew"]),
        "bonus_supply": len(s["_supply"]),
        # HT-D-4: aggregate make-up of supply + drawn-unplaced markers, never their places
        "unrevealed_markers": {t: n for t, n in public.items() if n},
        "end_triggered": s["end"],
        "ended_by": list(s["ended_by"]),
        "your_drawn_markers": None,
        "replacement": None,
        "two_player": s["two"],
    }
    if s["two"]:
        v["pawn"] = s["pawn"]
        v["free_pawn_move_used"] = s["free_used"]
        v["provinces"] = [{"id": p, "routes": side.province_routes[p],
                           "label": list(side.province_label[p]),
                           "free_reach": side.reach2[p]} for p in side.provinces]
    if s["_drawn"]:
        if over:  # HT-D-3
            v["revealed_unplaced_markers"] = list(s["_drawn"])
        elif s["phase"] == "markers" and seat == s["active"]:  # HT-D-2
            v["your_drawn_markers"] = list(s["_drawn"])
    if s["rep"] is not None:
        rep = s["rep"]
        v["replacement"] = {"victim": rep["v"], "route": rep["r"], "kind": KIND[rep["k"]],
                            "displaced_placed": rep["main"], "extras_placed": rep["done"],
                            "extras_max": rep["max"],
                            "holding": KIND[rep["hold"]] if rep["hold"] else None}
    st = s["step"]
    if st is not None and seat == s["active"] and "r" in st:
        v["step_detail"] = {"route": st["r"]}
    if seat is not None:
        v["your_settings"] = {"auto_replace": s["auto"][seat]}  # own seat settings only
        if st is not None and seat == s["active"] and st["a"] == "move":
            v["moves_left"] = st["left"]
    return v
