"""Hansa Teutonica moves in words (``label(view, move, names)``), from the seat's view only."""
from __future__ import annotations

from ..labelkit import words
from .board import ABILITY_NAMES, MARKER_NAMES
from ..i18n import N_, render  # noqa: F401

# Headings of the move-button groups where they differ from the web's defaults (by first word).
GROUPS = {"place": "Actions", "move": "Actions", "establish": "Actions"}


def _route(view, rid: str) -> str:
    for r in view.get("routes", []):
        if r["id"] == rid:
            return f"{r['a']}–{r['b']}"
    return "–".join(words(p) for p in rid.split("-"))


def _city(view, cid: str) -> str:
    for c in view.get("cities", []):
        if c["id"].lower() == cid.lower() or c["name"].lower() == cid.lower():
            return c["name"]
    return words(cid)


def _ability(a: str) -> str:
    name = ABILITY_NAMES.get(a, a)
    return name if isinstance(name, str) else words(a)


def _marker(m: str) -> str:
    name = MARKER_NAMES.get(m, m)
    return name if isinstance(name, str) else words(m)


def _piece(p: str) -> str:
    return {"trader": "a trader (cube)", "merchant": "a merchant (disc)", "displaced": "the displaced piece"}.get(p, p)


def _pay(args) -> str:
    t, m = (int(a[:-1]) for a in args)
    parts = [f"{t} trader{'s' if t != 1 else ''}" if t else "", f"{m} merchant{'s' if m != 1 else ''}" if m else ""]
    return " and ".join(p for p in parts if p) or "nothing"


def label(view: dict, move: str, names=None, _=render) -> str:
    w = move.split()
    verb, args = w[0], w[1:]
    fixed = {
        "assign": "Action: take pieces from your stock to your supply (Bursa)",
        "place": "Action: place a piece on a route",
        "displace": "Action: displace a rival's piece",
        "move": "Action: move your own pieces (Liber Sophiae)",
        "end": "End your turn",
        "cancel": "Cancel this action",
        "done": "Done",
        "nothing": "Take no reward",
        "elsewhere": "Choose another target route",
        "pawn": "Move the pawn",
    }
    if move in fixed:
        return fixed[move]
    if verb == "with" and args:
        text = f"Use {_piece(args[0])}"
        if len(args) >= 4 and args[1] == "pay":
            text += f", paying {_pay(args[2:4])} into your stock"
        return text
    if verb == "take" and len(args) == 2:
        return f"Take {_pay(args)} from your stock"
    if verb == "on" and args:
        return f"Place on {_route(view, args[0])}"
    if verb == "at" and args:
        return f"At {_route(view, args[0])}"
    if verb == "to" and args:
        return f"Move to {_route(view, args[0])}" if "-" in args[0] else f"Move the pawn to {words(args[0])}"
    if verb == "space" and args:
        return f"Space {args[0]}"
    if verb == "from" and len(args) == 2:
        return f"Bring {_piece(args[1])} from {_route(view, args[0])}"
    if verb == "swap" and len(args) == 2 and "-" in args[0]:
        return f"Swap your trader on {_route(view, args[0])} with your merchant on {_route(view, args[1])}"
    if verb == "establish" and args:
        text = f"Action: establish on {_route(view, args[0])}"
        if len(args) == 3 and args[1] == "via":
            text += f", moving the pawn to province {args[2].upper()}"
        return text
    if verb in ("kontor", "extra") and len(args) == 2:
        where = "an Extra Kontor beside" if verb == "extra" else "a Kontor in"
        return f"Build {where} {_city(view, args[0])} with {_piece(args[1])}"
    if verb == "develop" and args:
        return f"Develop {_ability(args[0])}"
    if verb == "coellen" and args:
        return f"Take the {args[0]} space in Coellen"
    if verb == "pick" and args:
        return f"Take {_piece(args[0])}"
    if verb == "lift" and len(args) == 2:
        return f"Lift {_piece(args[1])} off {_route(view, args[0])}"
    if verb == "free" and args:
        return f"Move the pawn free to {words(args[0])}" + (" and end the turn" if args[1:] == ["end"] else "")
    if verb == "use" and args:
        if args[0] == "upgrade" and len(args) > 1:
            return f"Use a bonus marker: upgrade {_ability(args[1])}"
        if args[0] == "swap" and len(args) == 3:
            return f"Use a bonus marker: swap houses {args[2]} and {int(args[2]) + 1} in {_city(view, args[1])}"
        return f"Use a bonus marker: {_marker(args[0])}"
    return words(move)
