"""Zanzibar moves in words (``label(view, move, names)``), from the seat's view only."""
from __future__ import annotations

from ..labelkit import words
from .board import get_board
from ..i18n import N_, render  # noqa: F401


def _place(view: dict, pid: str) -> str:
    info = get_board(view.get("map") or "zanzibar").info.get(pid)
    if not info:
        return words(pid)
    if info.get("sea"):
        return f"{pid} (sea)"
    return f"{pid} ({info['province']}, {info['spice']})"


def label(view: dict, move: str, names=None, _=render) -> str:
    w = move.split()
    verb, args = w[0], w[1:]
    fixed = {"cancel": "Cancel", "keep": "Keep your hand", "done": "End your turn", "stop": "Stop here"}
    if move in fixed:
        return fixed[move]
    if verb == "place" and args:
        return f"Choose your merchant of strength {args[0]} to place"
    if verb == "move" and args:
        return f"Move your merchant of strength {args[0]}"
    if verb == "to" and args:
        return f"Go to {_place(view, args[0])}"
    if verb == "push" and args:
        return f"Push the weaker merchant to {_place(view, args[0])}"
    if verb == "expel" and args:
        return f"Send the expelled merchant to {_place(view, args[0])}"
    if verb == "score" and args:
        return f"Score the {words(args[0]).lower()} card"
    if w[:2] == ["set", "aside"] and len(w) > 2:
        return f"Set the {words(w[2]).lower()} card aside"
    return words(move)
