"""Hansa moves in words (``label(view, move, names, _)``), from the seat's view only.

``_`` translates a text (the presentation layer passes the viewer's language; English without)."""
from __future__ import annotations

from ..i18n import N_, render
from ..labelkit import words
from .state import THE_TILE, TILES_OF


def _cities(view) -> dict:
    return {c["id"]: c["name"] for c in view.get("cities", [])}


def _barrel(tile: str, _) -> str:
    """A goods tile (``red/2``) in words with its article, inflected: "das rote Plättchen mit 2 Fässern"."""
    colour, _sep, value = tile.partition("/")
    try:
        return _(THE_TILE[(colour, int(value) == 1)]).format(n=value)
    except (KeyError, ValueError):
        return words(tile)


def label(view: dict, move: str, names=None, _=render) -> str:
    cities = _cities(view)
    city = lambda c: _(cities.get(c, words(c)))  # noqa: E731
    verb, _sep, rest = move.partition(" ")
    args = rest.split()
    here = city(view.get("ship") or "")
    if verb == "place" and args:
        return _("Put a stall in {city}").format(city=city(args[0]))
    if verb == "move" and args:
        return _("Sail the ship from {here} to {city}").format(here=here, city=city(args[0]))
    if verb == "buy" and args:
        return _("Buy {barrel} in {here}").format(barrel=_barrel(args[0], _), here=here)
    if verb == "build" and args:
        return _("Build a stall in {here}, paying with {barrel}").format(here=here, barrel=_barrel(args[0], _))
    if verb == "sell" and args:
        colour = args[0].split("/")[0]
        values = ", ".join(a.split("/")[1] for a in args if "/" in a)
        if len(args) > 1 and colour in TILES_OF:
            tiles = _(TILES_OF[colour]).format(n=len(args))
            return _("Sell {tiles} (barrels: {values}) in {here}").format(tiles=tiles, values=values, here=here)
        return _("Sell {tile} in {here}").format(tile=_barrel(args[0], _), here=here)
    if verb == "discard" and args:
        return _("Give up {barrel}").format(barrel=_barrel(args[0], _))
    if verb == "lose" and args:
        return _("Lose {barrel}").format(barrel=_barrel(args[0], _))
    if move == "fill":
        return _("Refill the empty markets")
    if move == "no fill":
        return _("Leave the markets as they are")
    if move == "end":
        return _("End your turn")
    return words(move)
