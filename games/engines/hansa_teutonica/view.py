"""Views (HT-6): everything a seat may know, built from scratch. Hidden: the bonus
supply's order and identities (HT-6.2.1) and drawn markers until the drawer's
placement step (HT-6.2.2, HT-D-2); revealed to all at the end (HT-D-3)."""
from __future__ import annotations

from .board import ABILITIES, MARKER_COUNTS, MARKER_NAMES, TRACKS, side_of
from .rules import controller, largest_network
from ..events import visible
from .state import KIND, full, level


def _piece(o):
    return None if o is None else {"seat": int(o[0]), "kind": KIND[o[1]]}


def prompt_for(s: dict, seat) -> str:
    ph = s["phase"]
    if ph == "over" or seat is None:
        return ""
    if ph == "pawn":
        return "Place the neutral pawn in a province." if seat == s["placer"] else ""
    if ph == "replace":
        rep = s["rep"]
        if seat != rep["v"]:
            return ""
        if rep["hold"] is not None:
            return f"Choose the route for your {KIND[rep['hold']]}."
        if not rep["main"]:
            return f"Your {KIND[rep['k']]} on {rep['r']} was displaced: re-place it (and up to {rep['max']} extra pieces)."
        return f"You may place up to {rep['max'] - rep['done']} more extra piece(s), or say done."
    if seat != s["active"]:
        return ""
    if ph == "markers":
        return f"Place your drawn {MARKER_NAMES[s['_drawn'][0]]} marker on a route."
    st = s["step"]
    left = s["acts"] - s["used"]
    if st is None:
        return f"Your turn: {left} action(s) left. Choose an action, use a marker, or end your turn."
    a = st["a"]
    return {
        "assign": "Choose which pieces to take from your stock.",
        "place": "Choose the piece and the route to place it on.",
        "displace": "Choose the piece to displace and how to pay.",
        "move": f"Move your pieces ({st.get('left', 0)} move(s) left), or say done.",
        "reward": "Choose your reward for the established route.",
        "pawn": "Choose the province for the pawn (1 action).",
        "free": "Choose the province for the pawn (free move, up to 2 borders).",
        "endpawn": "Choose the province for the pawn (free move), then your turn ends.",
        "remove": "Choose a piece of another player to remove, or say done.",
    }[a]


def _visible_log(s: dict, seat) -> list[dict]:
    return visible(s["log"], seat)


def build_view(s: dict, seat, to_act: list[int]) -> dict:
    side = side_of(s)
    over = s["phase"] == "over"
    routes = []
    for r in side.routes:
        a, b = side.ends[r]
        d = {"id": r, "a": a, "b": b, "spaces": [_piece(o) for o in s["spaces"][r]],
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
    v = {
        "game": "hansa-teutonica",
        "players": s["np"],
        "you": seat,
        "to_act": list(to_act),
        "prompt": prompt_for(s, seat),
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
