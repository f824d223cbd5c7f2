"""Zanzibar moves in words (``label(view, move, names)``), from the seat's view only."""
from __future__ import annotations

from ..labelkit import words
from .board import get_board, place_msg
from ..i18n import N_, render  # noqa: F401

# texts translated inside f-strings below (xgettext does not read f-strings)
_EXTRACTED = [N_("sea")]



def _place(view: dict, pid: str, _=render) -> str:
    board = get_board(view.get("map") or "zanzibar")
    if pid not in board.info:
        return words(pid)
    return _(place_msg(board, pid))


def _card(card: str, _) -> str:
    """A card's name: its translation, or in English its id in words (``spice-cinnamon`` -> ``spice cinnamon``)."""
    said = _(card)
    return words(card).lower() if said == card else said


def label(view: dict, move: str, names=None, _=render) -> str:
    w = move.split()
    verb, args = w[0], w[1:]
    fixed = {"cancel": N_("Cancel"), "keep": N_("Keep your hand"), "done": N_("End your turn"), "stop": N_("Stop here")}
    if move in fixed:
        return _(fixed[move])
    if verb == "place" and args:
        return _("Place your merchant {n}").format(n=args[0])
    if verb == "move" and args:
        return _("Move your merchant {n}").format(n=args[0])
    if verb == "to" and args:
        return _("Go to {place}").format(place=_place(view, args[0], _))
    if verb == "push" and args:
        return _("Push the weaker merchant to {place}").format(place=_place(view, args[0], _))
    if verb == "expel" and args:
        return _("Send the expelled merchant to {place}").format(place=_place(view, args[0], _))
    if verb == "score" and args:
        return _("Score the {card} card").format(card=_card(args[0], _))
    if w[:2] == ["set", "aside"] and len(w) > 2:
        return _("Set the {card} card aside").format(card=_card(w[2], _))
    return words(move)
