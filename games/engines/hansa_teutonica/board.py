"""Board data: load ``board.json`` (cities, kontor houses, routes, both sides) and
``layout.json`` (drawing coordinates, 2-player provinces), validate them and build
fast lookup tables (HT-BD-1 … HT-BD-10). The JSON files are data a club may correct."""
from __future__ import annotations

import json
import os
from collections import deque
from ..i18n import N_

HERE = os.path.dirname(os.path.abspath(__file__))

COLOURS = ["white", "orange", "pink", "black"]
RANK = {c: i + 1 for i, c in enumerate(COLOURS)}  # HT-4.3

ABILITIES = ["clavis", "actiones", "privilegium", "liber", "bursa"]
ABILITY_NAMES = {
    "clavis": N_("Clavis Urbis"),
    "actiones": N_("Actiones"),
    "privilegium": N_("Privilegium"),
    "liber": N_("Liber Sophiae"),
    "bursa": N_("Bursa"),
}
ALL = 99  # Bursa "C": all pieces
# HT-4.1 field values, leftmost first; the number of covering pieces is len - 1.
TRACKS = {
    "clavis": [1, 2, 2, 3, 4],
    "actiones": [2, 3, 3, 4, 4, 5],
    "privilegium": [1, 2, 3, 4],
    "liber": [2, 3, 4, 5],
    "bursa": [3, 5, 7, ALL],
}
_ABILITY_PREFIX = {
    "Clavis": "clavis",
    "Actiones": "actiones",
    "Privilegium": "privilegium",
    "Liber": "liber",
    "Bursa": "bursa",
}

MARKER_TYPES = ["extra", "swap", "plus3", "plus4", "upgrade", "remove"]
MARKER_NAMES = {
    "extra": N_("Extra Kontor"),
    "swap": N_("Swap Kontor"),
    "plus3": N_("+3 actions"),
    "plus4": N_("+4 actions"),
    "upgrade": N_("Upgrade ability"),
    "remove": N_("Remove 3"),
}
_MARKER_KEYS = {
    "additional_kontor": "extra",
    "swap_kontors": "swap",
    "plus_3_actions": "plus3",
    "plus_4_actions": "plus4",
    "develop_ability": "upgrade",
    "remove_3_opponent_tradesmen": "remove",
}
START_MARKERS = ["remove", "swap", "extra"]  # HT-5.2


class BoardError(ValueError):
    pass


def _check(cond, msg):
    if not cond:
        raise BoardError("hansa-teutonica board data: " + msg)


class Side:
    """One board side with everything the rules look up."""

    def __init__(self, key: str, data: dict, layout: dict, route_key: str, provinces: bool):
        self.key = key
        cities = data["cities"]
        name2key = {c["name"]: k for k, c in cities.items()}
        self.cities = sorted(cities)  # canonical order HT-BD-9
        self.city_name = {}
        self.houses = {}  # city -> [(shape 'square'|'round', colour, coin)]
        self.ability = {}  # city -> ability key
        self.coellen = None
        self.coellen_fields = []  # [(colour, points)]
        self.east_west = []
        for k in self.cities:
            c = cities[k]
            self.city_name[k] = c["name"].split(" (")[0]
            hs = []
            for o in sorted(c["offices"], key=lambda o: o["position"]):
                shape = "square" if o["shape"] == "square" else "round"
                _check(o["privilege"] in RANK, f"{k}: bad colour {o['privilege']}")
                hs.append((shape, o["privilege"], bool(o["prestige_coin"])))
            _check(1 <= len(hs) <= 4, f"{k} must have 1-4 houses")
            self.houses[k] = hs
            if c.get("ability_upgrade"):
                word = c["ability_upgrade"].split()[0]
                _check(word in _ABILITY_PREFIX, f"{k}: unknown ability {word}")
                self.ability[k] = _ABILITY_PREFIX[word]
            if c.get("special_prestige_fields"):
                self.coellen = k
                self.coellen_fields = [(f["privilege"], f["points"]) for f in c["special_prestige_fields"]]
            if c.get("east_west_terminus"):
                self.east_west.append(k)
        _check(sorted(self.ability.values()) == sorted(ABILITIES), "exactly 5 ability cities, one per ability")
        _check(self.coellen is not None and len(self.coellen_fields) == 4, "Coellen box with 4 fields")
        _check(len(self.east_west) == 2, "two East-West cities")
        # routes: ids and order from the layout (same ids as the provinces use)
        lay_routes = layout[route_key]
        found = {frozenset((name2key[r["a"]], name2key[r["b"]])): r for r in data["routes"]}
        _check(len(found) == len(lay_routes), f"{key}: route count differs between board and layout")
        self.routes = []
        self.ends = {}
        self.nspaces = {}
        self.tavern = set()
        self.route_provinces = {}
        for r in lay_routes:
            rid = _rid(r["a"], r["b"])
            src = found.get(frozenset((r["a"], r["b"])))
            _check(src is not None, f"{key}: route {rid} not in board data")
            _check(src["spaces"] == r["spaces"], f"{key}: route {rid} space count differs")
            _check(2 <= r["spaces"] <= 4, f"route {rid} must have 2-4 spaces")
            self.routes.append(rid)
            self.ends[rid] = (r["a"], r["b"])
            self.nspaces[rid] = r["spaces"]
            if src["start_tavern_bonus"]:
                self.tavern.add(rid)
            if provinces:
                self.route_provinces[rid] = tuple(r["provinces"])
                _check(1 <= len(set(r["provinces"])) <= 2, f"route {rid} must border 1 or 2 provinces")
        self.routes.sort()
        _check(len(self.tavern) == 3, "exactly 3 tavern routes")
        self.route_index = {r: i for i, r in enumerate(self.routes)}
        self.city_routes = {c: [] for c in self.cities}
        for r in self.routes:
            a, b = self.ends[r]
            self.city_routes[a].append(r)
            self.city_routes[b].append(r)
        self.coellen_route = None
        for r in self.routes:
            if self.coellen in self.ends[r] and "Warburg" in self.ends[r]:
                self.coellen_route = r
        _check(self.coellen_route is not None, "the Coellen-Warburg route must exist")
        # route distances (HT-3.8)
        self.dist = {}
        for r in self.routes:
            d = {r: 0}
            q = deque([r])
            while q:
                x = q.popleft()
                for c in self.ends[x]:
                    for y in self.city_routes[c]:
                        if y not in d:
                            d[y] = d[x] + 1
                            q.append(y)
            self.dist[r] = d
        a, b = self.east_west
        _check(any(b in self.ends[r] for r in self.routes) and _connected(self, a, b),
               "Arnheim and Stendal must be connected")
        # city neighbours
        self.neigh = {c: [] for c in self.cities}
        for r in self.routes:
            a, b = self.ends[r]
            self.neigh[a].append(b)
            self.neigh[b].append(a)
        self.xy = {c["id"]: (c["x"], c["y"]) for c in layout["cities"]}
        _check(all(c in self.xy for c in self.cities), "every city needs drawing coordinates")
        # 2-player provinces (HT-13.1, HT-C5)
        self.provinces = []
        self.reach2 = {}
        self.province_label = {}
        self.soldiers = []
        self.edges = []
        if provinces:
            tp = layout["two_player"]
            self.provinces = sorted(p["id"].lower() for p in tp["provinces"])
            self.province_label = {p["id"].lower(): tuple(p["label_point"]) for p in tp["provinces"]}
            self.reach2 = {k.lower(): [x.lower() for x in v] for k, v in tp["reachable_with_free_move"].items()}
            self.route_provinces = {r: tuple(p.lower() for p in ps) for r, ps in self.route_provinces.items()}
            self.soldiers = [(s["a"], s["b"]) for s in tp["soldiers"]]
            self.edges = [(e["city"], tuple(e["to"])) for e in tp["edge_segments"]]
            _check(len(self.soldiers) == 4, "4 soldiers")
            _check(set(self.reach2) == set(self.provinces), "free-move table must cover every province")
            self.province_routes = {p: [r for r in self.routes if p in self.route_provinces[r]]
                                    for p in self.provinces}


def _rid(a: str, b: str) -> str:
    return f"{a.lower()}-{b.lower()}"


def _connected(side, a, b):
    seen = {a}
    q = [a]
    while q:
        x = q.pop()
        for r in side.city_routes[x]:
            for y in side.ends[r]:
                if y not in seen:
                    seen.add(y)
                    q.append(y)
    return b in seen


def _load():
    with open(os.path.join(HERE, "board.json"), encoding="utf-8") as f:
        data = json.load(f)
    with open(os.path.join(HERE, "layout.json"), encoding="utf-8") as f:
        layout = json.load(f)
    sides = {
        "45": Side("45", data["board_4_5_players"], layout, "routes_4_5", False),
        "23": Side("23", data["board_2_3_players"], layout, "routes_2_3", True),
    }
    counts = data["bonus_markers"]["original_2009_edition"]["counts"]
    markers = {_MARKER_KEYS[k]: v for k, v in counts.items()}
    _check(sum(markers.values()) == 16, "16 bonus markers")
    supply = []
    for t in MARKER_TYPES:
        supply += [t] * markers[t]
    for t in START_MARKERS:
        supply.remove(t)
    _check(len(supply) == 13, "13 markers in the supply")
    by_pos = data["starting_supply"]["by_position"]
    start = [(p["supply_traders"], p["supply_merchants"], p["general_stock_traders"]) for p in by_pos]
    ew = data["east_west_connection"]["points_by_order"]
    return sides, markers, supply, start, ew, layout


SIDES, MARKER_COUNTS, SUPPLY_MARKERS, START_SUPPLY, EW_POINTS, LAYOUT = _load()


def side_of(state: dict) -> Side:
    return SIDES[state["side"]]


def route_name(side: Side, rid: str) -> str:
    """A route as the board names it: its two cities, ``Bremen–Osnabrück`` (never its id)."""
    ends = side.ends.get(rid)
    if not ends:
        return rid
    return "–".join(side.city_name.get(c, c) for c in ends)


# canonical route-id lookup (city keys may be given in either order)
def route_id(side: Side, a: str, b: str) -> str | None:
    for r in (_rid(a, b), _rid(b, a)):
        if r in side.ends:
            return r
    return None
