"""Die Hanse moves in words (``label(view, move, names)``), from the seat's view only."""
from __future__ import annotations

from ..labelkit import words
from .board import BOARD, GOOD_NAMES
from ..i18n import N_, render  # noqa: F401


def _good(g: str) -> str:
    return GOOD_NAMES.get(g, g)


def _place(token: str) -> str:
    return BOARD.harbour_name.get(token) or words(token)


def _goods(tokens: list[str]) -> str:
    """``1 salt fish 2 salt grain`` and the like: numbers and goods as words."""
    return " ".join(_good(t) if t in GOOD_NAMES else t for t in tokens)


def label(view: dict, move: str, names=None, _=render) -> str:
    w = move.split()
    verb, args = w[0], w[1:]
    fixed = {"back": "Go back a step", "pass": "Pass", "done": "Done", "refill": "Refill your hand",
             "trade": "Trade nothing", "discard": "Discard nothing"}
    if move in fixed:
        return fixed[move]
    if verb == "sail" and args:
        if len(args) == 3 and args[1] == "toward":
            return f"Sail the {args[0]} ship toward {_place(args[2])}"
        return f"Sail the {args[0]} ship" + (f" to field {' '.join(args[1:])}" if len(args) > 1 else "")
    if verb == "stay" and args:
        return f"Leave the {args[0]} ship where it is"
    if verb == "place" and len(args) == 2:
        return f"Put the {args[0]} ship on field {args[1]}"
    if verb == "declare" and args:
        what = {"both": "privilege and Kaperbrief", "kaperbrief": "Kaperbrief", "privilege": "privilege"}
        return f"Declare {what.get(args[0], args[0])}"
    if verb in ("privilege", "kaperbrief") and args:
        title = "Privilege" if verb == "privilege" else "Kaperbrief"
        if args[0] == "raid" and len(args) > 1:
            return f"{title}: raid from {words(args[1])} with the pirate"
        return f"{title}: " + {"card": "play a harbour card", "move": "move a ship",
                               "unblock": "lift the blockade"}.get(args[0], words(args[0]))
    if verb == "pirate" and args:
        return f"Move the pirate to field {args[0]}"
    if verb == "take" and args:
        pairs = [f"{args[i]} {_good(args[i + 1])}" for i in range(0, len(args) - 1, 2)]
        return "Take goods: " + ", ".join(pairs)
    if verb == "play" and args:
        card = " ".join(args)
        for c in view.get("hand") or []:
            if c.get("card") == card:
                return f"Play {c['title']}"
        return f"Play {_goods(args)}"
    if verb == "trade" and args:
        return "Trade " + _goods(args)
    if verb == "discard" and args:
        return f"Discard {_good(args[0])}"
    if verb == "keep" and args:
        return f"Keep {args[0]}"
    if verb == "unload" and args:
        return "Unload everything" if args[0] == "all" else f"Unload the {_good(args[0])}"
    return " ".join(_place(t) if t in BOARD.harbour_name else t for t in w).capitalize()
