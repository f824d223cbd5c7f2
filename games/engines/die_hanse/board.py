"""Board and card data of Die Hanse, loaded from ``board.json`` and validated at load.

The JSON is data (a club owning the printed board may correct it without touching code);
this module turns it into fast lookup tables. HANSE-BD-1 … BD-10, HANSE-CD-0 … CD-8.
"""
from __future__ import annotations

import json
import os
import unicodedata
from collections import deque

from ..i18n import N_, lit, msg

_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "board.json")

GOODS = ["salt", "fish", "grain", "ore", "fur", "cloth", "beer"]
GOOD_NAMES = {"salt": "salt", "fish": "stockfish", "grain": "grain", "ore": "ore", "fur": "fur",
              "cloth": "cloth", "beer": "beer"}
HARBOUR_ORDER = ["bergen", "bremen", "danzig", "london", "luebeck", "nowgorod", "stockholm"]
SHIP_NAMES = ["red", "blue", "green", "orange", "purple", "black"]
ISLANDS = ["gotland", "helgoland", "ruegen"]
# A ship as a sentence names it (adjective inflected by each language: "das rote Schiff",
# "het rode schip"); the bare colour stays a game term (docs/i18n.md).
THE_SHIP = {"red": N_("the red ship"), "blue": N_("the blue ship"), "green": N_("the green ship"),
            "orange": N_("the orange ship"), "purple": N_("the purple ship"), "black": N_("the black ship")}
# A ship by its colour on its own (the board's titles): "Rotes Schiff", "Rood schip".
A_SHIP = {"red": N_("Red ship"), "blue": N_("Blue ship"), "green": N_("Green ship"),
          "orange": N_("Orange ship"), "purple": N_("Purple ship"), "black": N_("Black ship")}
SEAS = {"north": N_("North Sea"), "baltic": N_("Baltic")}


def the_ship(name: str) -> str:
    return THE_SHIP.get(name, name)


class BoardError(ValueError):
    """The board data file is inconsistent."""


def ascii_fold(text: str) -> str:
    text = text.replace("ß", "ss")
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return text.lower()


class Board:
    def __init__(self, data: dict):
        self.data = data
        m = data["map"]
        self.hexes = {h["id"]: h for h in m["hexes"]}
        self.order = {h["id"]: i for i, h in enumerate(m["hexes"])}
        self.kind = {i: h["kind"] for i, h in self.hexes.items()}
        self.sea = {i: h.get("sea") for i, h in self.hexes.items()}
        self.nbrs = {i: tuple(h["neighbors"]) for i, h in self.hexes.items()}
        self.harbours = {k: v["hex"] for k, v in m["harbours"].items()}
        self.harbour_at = {v: k for k, v in self.harbours.items()}
        self.harbour_good = {k: v["good"] for k, v in m["harbours"].items()}
        self.harbour_sea = {k: v["sea"] for k, v in m["harbours"].items()}
        self.harbour_name = {k: v["name"] for k, v in m["harbours"].items()}
        self.canal = list(m["canal"]["fields"])
        ent = m["canal"]["entries"]
        self.canal_mouth = {self.canal[0]: ent["hamburg"]["sea_field"],
                            self.canal[-1]: ent["wismar"]["sea_field"]}
        self.mouth_canal = {v: k for k, v in self.canal_mouth.items()}
        self.sund = list(m["sund"]["hexes"])
        self.sund_set = frozenset(self.sund)
        self.bays = dict(m["storm_bays"])  # sea -> hex
        self.islands = {k: v["hex"] for k, v in m["islands"].items()}
        self.luebeck = self.harbours["luebeck"]
        g = data["goods"]
        self.home = dict(g["home_harbour"])
        self.tree = {k: list(v) for k, v in g["exchange_tree"].items()}
        self.stones = {k: {int(v): c for v, c in d.items()} for k, d in g["stones"].items()}
        cards = data["cards"]
        self.cards = {c["id"]: c for c in cards["harbour_cards"]}
        self.card_order = [c["id"] for c in cards["harbour_cards"]]
        self.storage = {s["id"]: list(s["goods"]) for s in data["storage_cards"]}
        self.storage_order = [s["id"] for s in data["storage_cards"]]
        self.privilege_points = cards["privileg"]["bonus_points"]
        self.kaperbrief_points = cards["kaperbrief"]["bonus_points"]
        # labels used in move text
        self.label = {}
        for i, h in self.hexes.items():
            if h["kind"] == "harbour":
                self.label[i] = h["harbour"]
            elif h["kind"] == "canal":
                self.label[i] = "canal%d" % (self.canal.index(i) + 1)
            else:
                self.label[i] = "%s%d" % (chr(97 + h["col"]), h["row"])
        self.by_label = {v: k for k, v in self.label.items()}
        if len(self.by_label) != len(self.label):
            raise BoardError("field labels are not unique")
        aliases = {}
        for i, h in self.hexes.items():
            aliases[i.lower()] = i
            if h.get("name"):
                aliases[ascii_fold(h["name"])] = i
        for k, v in self.harbours.items():
            aliases[ascii_fold(self.harbour_name[k])] = v
        aliases["lubeck"] = self.luebeck
        self.aliases = aliases
        # precomputed sets
        self.water = frozenset(i for i, k in self.kind.items() if k in ("sea", "bay", "harbour", "canal"))
        self.open_sea = frozenset(i for i, k in self.kind.items() if k in ("sea", "bay"))
        self.pirate_ok = frozenset(i for i, k in self.kind.items()
                                   if k in ("sea", "bay") or (k == "harbour" and i != self.luebeck))
        self.validate()
        # open-water sailing distance of every field to every harbour (for "sail … toward …")
        self.dist_to = {}
        for name, hx in self.harbours.items():
            d = {hx: 0}
            todo = deque([hx])
            while todo:
                x = todo.popleft()
                for y in self.nbrs[x]:
                    if y not in d and self.kind[y] in ("sea", "bay"):
                        d[y] = d[x] + 1
                        todo.append(y)
            self.dist_to[name] = d

    # ------------------------------------------------------------------
    def validate(self) -> None:
        def need(cond, msg):
            if not cond:
                raise BoardError(msg)

        need(set(self.harbours) == set(HARBOUR_ORDER), "the 7 harbours must be listed")
        for i, ns in self.nbrs.items():
            for j in ns:
                need(j in self.hexes, f"{i}: unknown neighbour {j}")
                if self.kind[i] != "island":  # islands list their first pirate steps one-way
                    need(i in self.nbrs[j], f"{i}-{j}: neighbours not symmetric")
        need(len(self.canal) == 4, "the canal has 4 fields")
        for c in self.canal:
            need(self.kind[c] == "canal", f"{c} is not a canal field")
        for c, mouth in self.canal_mouth.items():
            need(mouth in self.nbrs[c] and self.kind[mouth] == "sea", "canal mouth must be an adjacent sea field")
        need(len(self.sund) == 3 and all(self.kind[s] == "sea" for s in self.sund), "Sund = 3 sea hexes")
        for sea, b in self.bays.items():
            need(self.kind[b] == "bay" and self.sea[b] == sea, f"storm bay {b} must be a bay in the {sea}")
        for isl, h in self.islands.items():
            need(self.kind[h] == "island", f"{isl} must be an island hex")
        need(self.harbour_sea["luebeck"] == "baltic", "Lübeck is a Baltic harbour")
        for a in self.harbours.values():
            for b in self.harbours.values():
                need(a == b or b not in self.nbrs[a], "no two harbours are adjacent")
        # every harbour reachable from Lübeck (merchant fields)
        seen, todo = {self.luebeck}, deque([self.luebeck])
        while todo:
            x = todo.popleft()
            for y in self.nbrs[x]:
                if y in self.water and y not in seen:
                    seen.add(y)
                    todo.append(y)
        need(all(h in seen for h in self.harbours.values()), "every harbour reachable from Lübeck")
        counts = {}
        for c in self.cards.values():
            counts[c["type"]] = counts.get(c["type"], 0) + 1
        need(sum(counts.values()) == 50, "50 harbour cards")
        need(counts.get("wind") == 20 and counts.get("new_goods") == 12, "20 wind and 12 new goods cards")
        need(counts.get("blockade", 0) + counts.get("storm", 0) + counts.get("pirates", 0)
             + counts.get("hansetag", 0) == 18, "18 other harbour cards")
        need(len(self.storage) == 10 and all(len(g) == 6 for g in self.storage.values()), "10 storage cards of 6")
        need(sum(sum(v.values()) for v in self.stones.values()) == 144, "144 stones")
        for good, harbour in self.home.items():
            need(self.harbour_good[harbour] == good, f"home harbour of {good}")

    # ------------------------------------------------------------------
    def island_name(self, key: str) -> str:
        return self.data["map"]["islands"].get(key, {}).get("name", key)

    def field_words(self, hid: str):
        """A field as words for a log line or a label (a message parameter): a harbour or an
        island by the name the board prints (never ``luebeck``), a canal field by its number (never
        ``canal2``), open water by its sea and its grid square, the column letter and row number
        printed along the map's edges (``North Sea field h6``), as on a chess board."""
        kind = self.kind.get(hid)
        if kind == "harbour":
            return lit(self.harbour_name[self.harbour_at[hid]])
        if kind == "canal":
            return msg(N_("canal field {n}"), n=self.canal.index(hid) + 1)
        if kind == "island":
            return lit(self.hexes[hid].get("name") or hid)
        key = {"north": N_("North Sea field {square}"), "baltic": N_("Baltic field {square}")}
        return msg(key.get(self.sea.get(hid), N_("field {square}")), square=lit(self.label[hid]))

    def field(self, text: str) -> str | None:
        t = ascii_fold(text).strip()
        if t in self.by_label:
            return self.by_label[t]
        if t in self.aliases:
            return self.aliases[t]
        hits = {v for k, v in self.aliases.items() if k.startswith(t)} if len(t) >= 3 else set()
        if len(hits) == 1:
            return hits.pop()
        return None


def load_board(path: str = _PATH) -> Board:
    with open(path, encoding="utf-8") as f:
        return Board(json.load(f))


BOARD = load_board()
