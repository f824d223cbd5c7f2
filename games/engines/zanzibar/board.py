"""Board and card data of Zanzibar: loaded from ``board.json`` (data, not code) and
validated at load (ZAN-4, §19 loader rules, ZAN-C5).

Rules code never reads the JSON directly; it asks a :class:`Board`. Boards are kept in
a small registry keyed by name so tests can run the movement examples of the rulebook
on the spec's abstract fixture graphs (``register_board``); a game's state names its
board under ``"map"``.
"""
from __future__ import annotations

import json
import os
from collections import deque

from ..i18n import N_, lit, msg

LAND = ("north", "south", "east", "west", "central")
SEA = "sea"
PROVINCES = LAND + (SEA,)
SPICES = ("cinnamon", "ginger", "vanilla", "pepper", "clove")

# A place in words: its province and number (the board prints the notation, e.g. ``s6``, small
# under it), with its spice; one name per place in every text (docs/i18n.md).
PLACE_WORDS = {"north": N_("North {n}"), "south": N_("South {n}"), "east": N_("East {n}"), "west": N_("West {n}"),
               "central": N_("Centre {n}"), "sea": N_("Sea {n}")}


def place_msg(board: "Board", pid: str):
    """``s6`` as ``South 6 (pepper)``, ``z3`` as ``Sea 3``: a message (``games.engines.i18n``)."""
    prov = board.province.get(pid)
    if prov is None:
        return lit(pid)
    digits = "".join(ch for ch in pid if ch.isdigit())
    name = msg(PLACE_WORDS.get(prov, N_("Sea {n}")), n=int(digits) if digits else 0)
    if board.is_sea.get(pid):
        return name
    return msg(N_("{place} ({spice})"), place=name, spice=board.spice.get(pid) or N_("huts"))


AS_DRAWN = {"orange": "brown", "yellow": "olive"}

DATA_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "board.json")


class BoardError(ValueError):
    """The board data breaks an invariant the rules rely on."""


class Board:
    """Read-only view of one island: places, roads, provinces, spices and cards."""

    def __init__(self, doc: dict, *, name: str = "zanzibar", strict: bool = True):
        self.name = name
        self.doc = doc
        self.places: list[str] = [p["id"] for p in doc["places"]]
        self.info: dict[str, dict] = {p["id"]: p for p in doc["places"]}
        self.province: dict[str, str] = {p["id"]: p["province"] for p in doc["places"]}
        self.spice: dict[str, str | None] = {p["id"]: p.get("spice") for p in doc["places"]}
        self.is_sea: dict[str, bool] = {p["id"]: bool(p.get("sea")) for p in doc["places"]}
        adj: dict[str, list[str]] = {k: [] for k in self.places}
        for a, b in doc["roads"]:
            adj[a].append(b)
            adj[b].append(a)
        # neighbours in a fixed order (board order) so lists and defaults are stable
        order = {k: i for i, k in enumerate(self.places)}
        self.adj: dict[str, tuple[str, ...]] = {k: tuple(sorted(v, key=order.get)) for k, v in adj.items()}
        self.sorted_places: list[str] = sorted(self.places)
        self.cards: dict[str, dict] = {}
        self.card_order: list[str] = []
        for c in doc["cards"]:
            pts = c["points"]
            table = [int(pts[str(i)]) for i in range(len(pts))]
            self.cards[c["target"]] = {"kind": c["kind"], "target": c["target"], "table": table}
            self.card_order.append(c["target"])
        # which places count for each card (ZAN-11.2)
        self.targets: dict[str, frozenset] = {}
        for t, c in self.cards.items():
            if c["kind"] == "spice":
                self.targets[t] = frozenset(k for k in self.places if self.spice[k] == t)
            else:
                self.targets[t] = frozenset(k for k in self.places if self.province[k] == t)
        self.merchants = {int(k): list(v) for k, v in doc["merchants"]["by_player_count"].items()}
        self.scorings = {int(k): int(v) for k, v in doc["cards_scored_by_player_count"].items()}
        self.quota = {int(k): int(v) for k, v in doc["cards_discarded_without_scoring_by_player_count"].items()}
        self.start_score = int(doc.get("score_track_start", 10))
        self.hand_size = int(doc.get("hand_size", 2))
        # the seat colours as drawn (svg.SEAT_COLOURS): the data's orange and yellow must be darkened
        # for contrast and for deuteranopes, and are then brown and olive (colours.seen_colour)
        self.colours = [AS_DRAWN.get(c, c) for c in doc["player_colours"]]
        self.validate(strict)

    # ------------------------------------------------------------------ checks
    def validate(self, strict: bool) -> None:
        def need(cond, msg):
            if not cond:
                raise BoardError(f"{self.name}: {msg}")

        need(len(set(self.places)) == len(self.places), "duplicate place ids")
        for a, b in self.doc["roads"]:
            need(a in self.info and b in self.info and a != b, f"bad road {a}-{b}")
        need(len({frozenset(r) for r in self.doc["roads"]}) == len(self.doc["roads"]), "duplicate roads")
        for k in self.places:
            prov, spice = self.province[k], self.spice[k]
            need(prov in PROVINCES, f"{k}: unknown province {prov!r}")
            # ZAN-4.2: a village has one land province and at most one spice; sea fields are SEA
            need(self.is_sea[k] == (prov == SEA), f"{k}: sea flag must match the sea province")
            need(spice is None or spice in SPICES, f"{k}: unknown spice {spice!r}")
            if self.is_sea[k]:
                need(spice is None, f"sea field {k} carries a spice (ZAN-D-02)")  # ZAN-D-02
        for t, c in self.cards.items():
            need(c["kind"] in ("spice", "province"), f"card {t}: bad kind")
            need(t in (SPICES if c["kind"] == "spice" else LAND), f"card {t}: bad target (ZAN-D-03)")
            tab = c["table"]
            need(len(tab) >= 1 and all(isinstance(x, int) for x in tab), f"card {t}: bad table")
        need(len(self.cards) == 10, "there must be 10 assignment cards per colour (ZAN-2.4)")
        need(sorted(self.merchants) == [2, 3, 4, 5], "merchants for 2-5 players")
        for n in self.merchants:
            need(self.scorings[n] + self.quota[n] == len(self.cards), f"{n} players: scorings + set-asides != 10")
        # connected (ZAN-4.1 / §19)
        seen = {self.places[0]}
        todo = deque(seen)
        while todo:
            k = todo.popleft()
            for q in self.adj[k]:
                if q not in seen:
                    seen.add(q)
                    todo.append(q)
        need(len(seen) == len(self.places), "the road graph is not connected")
        if not strict:
            return
        by_prov = {p: [k for k in self.places if self.province[k] == p] for p in PROVINCES}
        for n, nums in self.merchants.items():
            # §19: more places than merchants, so an expel destination always exists
            need(len(self.places) > n * len(nums), f"{n} players: not more places than merchants")
            # ZAN-C5 (and §19): every province has at least as many places as there are players,
            # so initial placement can never get stuck (ZAN-D-05 never applies on this board)
            for p, ks in by_prov.items():
                need(len(ks) >= n, f"province {p} has fewer than {n} places")
            need(len(nums) <= len(PROVINCES), "more merchants than provinces")

    # ------------------------------------------------------------------ helpers
    def card_points(self, card: str, count: int) -> int:
        """ZAN-11.3 / ZAN-C1: the card's table; a count above the table uses its last entry."""
        table = self.cards[card]["table"]
        return table[min(count, len(table) - 1)]


_BOARDS: dict[str, Board] = {}


def load_standard() -> Board:
    with open(DATA_FILE, encoding="utf-8") as fh:
        doc = json.load(fh)
    return Board(doc, name="zanzibar", strict=True)


def get_board(name: str = "zanzibar") -> Board:
    board = _BOARDS.get(name)
    if board is None:
        if name != "zanzibar":
            raise KeyError(f"unknown Zanzibar board {name!r}")
        board = _BOARDS[name] = load_standard()
    return board


def register_board(name: str, places: list[dict], roads: list[list[str]]) -> Board:
    """Register a small board (for tests) that keeps the standard cards and parameters."""
    std = get_board("zanzibar").doc
    doc = dict(std)
    doc["places"] = [
        {"id": p["id"], "province": p.get("province", "north"), "spice": p.get("spice"),
         "sea": p.get("province") == SEA, "x": p.get("x", 0), "y": p.get("y", 0)}
        for p in places
    ]
    doc["roads"] = [list(r) for r in roads]
    board = Board(doc, name=name, strict=False)
    _BOARDS[name] = board
    return board
