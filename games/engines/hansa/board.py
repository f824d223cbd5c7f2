"""The Hansa board: loaded from ``board.json`` (data, not code) and validated at load.

A club owning the printed board can correct ``board.json`` without touching code; the
loader refuses data that contradicts the facts the rulebook states (HANSA-3.6, §18,
HANSA-C5).
"""
from __future__ import annotations

import json
import os
import unicodedata

BOARD_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "board.json")

# Facts the rulebook states (HANSA-3.6 / HANSA-C5), by city id.
RULEBOOK_CITIES = {"aalborg", "danzig", "kalmar", "kopenhagen", "lubeck", "reval", "riga", "stockholm",
                   "tonsberg"}
RULEBOOK_ROUTES = [("kopenhagen", "danzig"), ("kopenhagen", "lubeck"), ("kopenhagen", "tonsberg"),
                   ("aalborg", "kopenhagen"), ("kalmar", "kopenhagen"), ("tonsberg", "stockholm"),
                   ("stockholm", "reval"), ("lubeck", "aalborg")]


class BoardError(ValueError):
    """The board data contradicts the rules."""


def fold(text: str) -> str:
    """Lower-case ASCII form of a name: 'Tønsberg' -> 'tonsberg', 'Lübeck' -> 'lubeck'."""
    text = text.lower().replace("ø", "o").replace("æ", "ae").replace("ß", "ss").replace("å", "a")
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text if not unicodedata.combining(ch))


class Board:
    """Immutable, precomputed lookups over the board data."""

    def __init__(self, doc: dict):
        validate(doc)
        self.doc = doc
        cities = sorted(doc["cities"], key=lambda c: c["fill_order"])
        self.city_ids = [c["id"] for c in cities]                       # in fill order
        self.city_names = {c["id"]: c["name"] for c in cities}
        self.fill_number = {c["id"]: c["fill_order"] for c in cities}
        self.warehouses = {c["id"]: c["warehouses"] for c in cities}
        self.pos = {c["id"]: (float(c["x"]), float(c["y"])) for c in cities}
        # one entry per warehouse slot, in fill order (slot a before slot b of a city)
        self.slot_city = [cid for cid in self.city_ids for _ in range(self.warehouses[cid])]
        self.city_slots = {cid: [i for i, c in enumerate(self.slot_city) if c == cid] for cid in self.city_ids}
        self.routes = [(r["from"], r["to"]) for r in doc["routes"]]
        self.overland = {(r["from"], r["to"]) for r in doc["routes"] if r.get("overland")}
        self.out = {cid: sorted((b for a, b in self.routes if a == cid), key=self.fill_number.get)
                    for cid in self.city_ids}
        self.start_city = doc["start_city"]
        self.no_setup_city = doc["no_setup_city"]
        goods = doc["goods"]
        self.colour_names = list(goods["colours"])
        self.colour_css = dict(goods.get("colours_css", {}))
        self.colours_by_players = {int(k): v for k, v in goods["colours_by_player_count"].items()}
        tpc = goods["tiles_per_colour"]
        self.values_per_colour = [1] * tpc["barrels_1"] + [2] * tpc["barrels_2"] + [3] * tpc["barrels_3"]
        self.tiles_per_colour = len(self.values_per_colour)
        comp = doc["components"]
        self.stalls_per_player = comp["market_booths_per_player"]
        self.start_coins = comp["start_talers"]
        self.income = comp["income_per_turn"]
        self.coin_limit = comp["end_of_turn_limits"]["talers"]
        self.tile_limit = comp["end_of_turn_limits"]["open_tiles"]
        self.stack_count = goods["supply_stacks"]["count"]
        pcs = doc.get("player_colours") or []
        self.player_colour_names = [p["name"] for p in pcs] or ["grey", "olive", "lilac", "black"]
        self.player_colour_css = [p.get("css", "#444") for p in pcs] or ["#6e6e6e", "#c99a00", "#9b5fc0", "#1a1a1a"]
        self.curved = {tuple(x.split("->")) for pair in doc.get("drawing", {}).get("straight_line_crossings", [])
                       for x in pair}
        space = doc.get("drawing", {}).get("space", {})
        self.width = space.get("width", 1000)
        self.height = space.get("height", 700)
        # forgiving name lookup
        self.city_aliases = {}
        for cid in self.city_ids:
            for alias in {cid, fold(self.city_names[cid])}:
                self.city_aliases[alias] = cid
        self.city_aliases.setdefault("copenhagen", "kopenhagen")
        self.city_aliases.setdefault("kobenhavn", "kopenhagen")
        self.city_aliases.setdefault("gdansk", "danzig")
        self.city_aliases.setdefault("tallinn", "reval")

    def tile_colour(self, tile: int) -> int:
        return tile // self.tiles_per_colour

    def tile_value(self, tile: int) -> int:
        return self.values_per_colour[tile % self.tiles_per_colour]

    def tile_text(self, tile: int) -> str:
        colour, k = divmod(tile, self.tiles_per_colour)
        return f"{self.colour_names[colour]}/{self.values_per_colour[k]}"


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise BoardError("hansa board data: " + msg)


def validate(doc: dict) -> None:
    """The loader validation of §18 and HANSA-C5 (plus the data's own consistency)."""
    cities = doc.get("cities", [])
    ids = [c.get("id") for c in cities]
    _check(len(cities) == 9, "there must be exactly 9 cities, found %d" % len(cities))  # HANSA-3.1
    _check(set(ids) == RULEBOOK_CITIES, "the cities must be the nine rulebook cities, got %s" % sorted(ids))
    fills = sorted(c.get("fill_order") for c in cities)
    _check(fills == list(range(1, 10)), "fill numbers must be a permutation of 1..9")  # HANSA-3.3
    fill = {c["id"]: c["fill_order"] for c in cities}
    _check(fill["tonsberg"] == 1 and fill["riga"] == 9, "Tønsberg must have fill number 1 and Riga 9")
    for c in cities:
        _check(c.get("warehouses") in (1, 2), "%s must have 1 or 2 warehouse slots" % c["id"])  # HANSA-3.2
    routes = [(r.get("from"), r.get("to")) for r in doc.get("routes", [])]
    _check(all(a in fill and b in fill and a != b for a, b in routes), "route endpoints must be distinct city ids")
    _check(len(set(routes)) == len(routes), "duplicate route")
    out = {c: {b for a, b in routes if a == c} for c in fill}
    inn = {c: {a for a, b in routes if b == c} for c in fill}
    _check(out["kopenhagen"] == {"danzig", "lubeck", "tonsberg"},
           "Kopenhagen's routes out must be exactly Danzig, Lübeck and Tønsberg")
    _check(inn["kopenhagen"] == {"aalborg", "kalmar"},  # HANSA-C5
           "Kopenhagen's routes in must be exactly Aalborg->Kopenhagen and Kalmar->Kopenhagen")
    for a, b in RULEBOOK_ROUTES:
        _check((a, b) in routes, "the rulebook route %s->%s is missing" % (a, b))
    for c in fill:
        _check(bool(out[c]), "%s has no route out (the ship could get stuck)" % c)
    for c in fill:  # recommended: strongly connected
        seen, todo = {c}, [c]
        while todo:
            for nxt in out[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        _check(len(seen) == 9, "not every city can be reached from %s" % c)
    _check(doc.get("start_city") == "kopenhagen", "the ship starts in Kopenhagen")
    _check(doc.get("no_setup_city") == "kopenhagen", "Kopenhagen is the city closed to the initial placement")
    seq = doc.get("warehouse_fill_sequence")
    if seq is not None:
        exp = [c["id"] for c in sorted(cities, key=lambda c: c["fill_order"]) for _ in range(c["warehouses"])]
        _check(seq == exp, "warehouse_fill_sequence is inconsistent with fill_order/warehouses")
    goods = doc.get("goods", {})
    tpc = goods.get("tiles_per_colour", {})
    _check((tpc.get("barrels_1"), tpc.get("barrels_2"), tpc.get("barrels_3")) == (4, 5, 4),
           "each colour has 4 tiles of 1 barrel, 5 of 2 and 4 of 3")  # HANSA-2.1
    _check(len(goods.get("colours", [])) == 6 and len(set(goods["colours"])) == 6, "6 distinct goods colours")
    _check(goods.get("colours_by_player_count") == {"2": 4, "3": 5, "4": 6}, "colours in play 4/5/6")
    _check(goods.get("supply_stacks", {}).get("count") == 5, "5 supply stacks")


def load(path: str = BOARD_PATH) -> Board:
    with open(path, encoding="utf-8") as fh:
        return Board(json.load(fh))


BOARD = load()
