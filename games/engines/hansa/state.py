"""State helpers: copying, logging, small queries shared by the phase modules.

State layout (JSON): see docs/hansa.md. Tiles are integers: ``colour * 13 + k`` where k 0-3 are
1-barrel tiles, 4-8 2-barrel and 9-12 3-barrel tiles (board.json's per-colour composition).
"""
from __future__ import annotations

from ..events import event
from ..i18n import N_, msg  # noqa: F401 (N_ re-exported for the phase modules)
from .board import BOARD

PLAY_PHASES = ("place", "fill", "actions", "discard")


def copy_state(s: dict) -> dict:
    """A deep copy of exactly the mutable parts, for ``apply``: the new state starts with an empty
    ``log``, which collects the events of this step only (the service stores them with the move)."""
    t = dict(s)
    t["coins"] = list(s["coins"])
    t["supply"] = list(s["supply"])
    t["tiles"] = [list(x) for x in s["tiles"]]
    t["sold"] = [list(x) for x in s["sold"]]
    t["stalls"] = {c: list(v) for c, v in s["stalls"].items()}
    t["owe"] = [dict(o) for o in s["owe"]]
    t["slots"] = list(s["slots"])
    t["_stacks"] = [list(x) for x in s["_stacks"]]
    t["removed"] = list(s["removed"])
    t["sale"] = list(s["sale"])
    t["turns"] = list(s["turns"])
    t["log"] = []  # a state carries only the events of the step that made it
    t["ask"] = list(s["ask"])
    return t


def log(state: dict, seat, text) -> None:
    """``text``: a constant ``N_`` text or a ``msg`` (docs/i18n.md)."""
    state["log"].append(event(state["n"], seat, text))


def P(seat) -> str:
    """The placeholder of a player's name in a log text (filled by the presentation layer)."""
    return "{p%d}" % seat


# A goods tile in words, one whole phrase per colour and count so that Dutch and German inflect
# the colour ("das rote Plättchen", "het rode fiche"; "kein rotes Plättchen", "geen rood fiche"):
# THE_TILE with the article (what a player buys, builds with, sells, discards, loses), A_TILE
# without it (after "no", "kein", "geen"). Keys: (colour name, one barrel?).
THE_TILE = {
    ("orange", True): N_("the orange tile with 1 barrel"), ("orange", False): N_("the orange tile with {n} barrels"),
    ("brown", True): N_("the brown tile with 1 barrel"), ("brown", False): N_("the brown tile with {n} barrels"),
    ("red", True): N_("the red tile with 1 barrel"), ("red", False): N_("the red tile with {n} barrels"),
    ("green", True): N_("the green tile with 1 barrel"), ("green", False): N_("the green tile with {n} barrels"),
    ("blue", True): N_("the blue tile with 1 barrel"), ("blue", False): N_("the blue tile with {n} barrels"),
    ("white", True): N_("the white tile with 1 barrel"), ("white", False): N_("the white tile with {n} barrels"),
}
A_TILE = {
    ("orange", True): N_("orange tile with 1 barrel"), ("orange", False): N_("orange tile with {n} barrels"),
    ("brown", True): N_("brown tile with 1 barrel"), ("brown", False): N_("brown tile with {n} barrels"),
    ("red", True): N_("red tile with 1 barrel"), ("red", False): N_("red tile with {n} barrels"),
    ("green", True): N_("green tile with 1 barrel"), ("green", False): N_("green tile with {n} barrels"),
    ("blue", True): N_("blue tile with 1 barrel"), ("blue", False): N_("blue tile with {n} barrels"),
    ("white", True): N_("white tile with 1 barrel"), ("white", False): N_("white tile with {n} barrels"),
}

TILES_OF = {  # several tiles of one colour (a sale)
    "orange": N_("{n} orange tiles"),
    "brown": N_("{n} brown tiles"),
    "red": N_("{n} red tiles"),
    "green": N_("{n} green tiles"),
    "blue": N_("{n} blue tiles"),
    "white": N_("{n} white tiles"),
}


def the_tile(colour: str, value: int) -> dict:
    """A goods tile with its article: "the red tile with 2 barrels" (colour name, barrels)."""
    return msg(THE_TILE[(colour, value == 1)], n=value)


def a_tile(colour: str, value: int) -> dict:
    """A goods tile without article: "red tile with 2 barrels" (after "no")."""
    return msg(A_TILE[(colour, value == 1)], n=value)


def tile_msg(tile: int) -> dict:
    """A goods tile in words with its article ("the red tile with 2 barrels"), never ``red/2``."""
    colour, k = divmod(tile, BOARD.tiles_per_colour)
    return the_tile(BOARD.colour_names[colour], BOARD.values_per_colour[k])


def tiles_msg(tiles) -> list:
    return [tile_msg(t) for t in tiles]


def city_name(cid: str) -> str:
    return BOARD.city_names[cid]


def last_seat(state: dict) -> int:
    """The last player in turn order: the seat just before the start player (HANSA-12.2)."""
    return (state["start"] - 1) % state["players"]


def majority_holder(state: dict, city: str):
    """The one seat with strictly more stalls in ``city`` than every other seat, or None."""
    counts = state["stalls"][city]
    top = max(counts)
    if top == 0 or counts.count(top) > 1:
        return None
    return counts.index(top)


def tiles_text(tiles) -> str:
    return ", ".join(BOARD.tile_text(t) for t in sorted(tiles, key=sort_key)) or "none"


def sort_key(tile: int):
    """Order tiles by colour index, then barrel value (then id, for determinism)."""
    return (BOARD.tile_colour(tile), BOARD.tile_value(tile), tile)


def find_tile(tiles, colour: int, value: int):
    """The lowest-id tile of that colour and value in ``tiles`` (tiles of one kind are identical)."""
    best = None
    for t in tiles:
        if BOARD.tile_colour(t) == colour and BOARD.tile_value(t) == value and (best is None or t < best):
            best = t
    return best


def distinct_kinds(tiles) -> list[tuple[int, int]]:
    """Sorted distinct (colour, value) kinds among ``tiles``."""
    return sorted({(BOARD.tile_colour(t), BOARD.tile_value(t)) for t in tiles})


def kind_text(colour: int, value: int) -> str:
    return f"{BOARD.colour_names[colour]}/{value}"


def kind_msg(colour: int, value: int) -> dict:
    """A kind of goods tile without article, for "there is no …", "you have no face-up …"."""
    return a_tile(BOARD.colour_names[colour], value)


def stack_total(state: dict) -> int:
    return sum(len(s) for s in state["_stacks"])
