"""Hansa moves in words (``label(view, move, names)``), from the seat's view only."""
from __future__ import annotations

from ..labelkit import words


def _cities(view) -> dict:
    return {c["id"]: c["name"] for c in view.get("cities", [])}


def _barrel(tile: str) -> str:
    colour, _, value = tile.partition("/")
    return f"the {colour} barrel ({value})" if value else f"the {colour} barrel"


def label(view: dict, move: str, names=None) -> str:
    cities = _cities(view)
    city = lambda c: cities.get(c, words(c))  # noqa: E731
    verb, _, rest = move.partition(" ")
    args = rest.split()
    here = city(view.get("ship") or "")
    if verb == "place" and args:
        return f"Put a stall in {city(args[0])}"
    if verb == "move" and args:
        return f"Sail the ship from {here} to {city(args[0])}"
    if verb == "buy" and args:
        return f"Buy {_barrel(args[0])} in {here}"
    if verb == "build" and args:
        return f"Build a stall in {here}, paying with {_barrel(args[0])}"
    if verb == "sell" and args:
        colour = args[0].split("/")[0]
        values = ", ".join(a.split("/")[1] for a in args if "/" in a)
        return f"Sell {len(args)} {colour} barrel{'s' if len(args) > 1 else ''} ({values}) in {here}"
    if verb == "discard" and args:
        return f"Give up {_barrel(args[0])}"
    if move == "fill":
        return "Refill the empty markets"
    if move == "no fill":
        return "Leave the markets as they are"
    if move == "end":
        return "End your turn"
    return words(move)
