"""Die Hanse moves in words (``label(view, move, names, _)``), from the seat's view only.

``_`` translates a text (the presentation layer passes the viewer's language; English without)."""
from __future__ import annotations

from ..i18n import N_, render
from ..labelkit import words
from .board import BOARD, GOOD_NAMES, ISLANDS, the_ship


def _good(g: str, _=render) -> str:
    return _(GOOD_NAMES.get(g, g))


def _place(token: str, _=render) -> str:
    """A harbour or an island by the name the board prints (``ruegen``: Rügen)."""
    if token in ISLANDS:
        return BOARD.island_name(token)
    return _(BOARD.harbour_name.get(token) or words(token))


def _field(token: str, _=render) -> str:
    """A field's label (``h6``, ``canal2``, ``luebeck``) in words (``BOARD.field_words``)."""
    hid = BOARD.by_label.get(token)
    return _(BOARD.field_words(hid)) if hid else _place(token, _)


def _goods(tokens: list[str], _=render) -> str:
    """``1 salt fish 2 salt grain`` and the like: numbers and goods as words."""
    return " ".join(_good(t, _) if t in GOOD_NAMES else t for t in tokens)


def label(view: dict, move: str, names=None, _=render) -> str:
    w = move.split()
    verb, args = w[0], w[1:]
    fixed = {"back": N_("Take back this choice"), "pass": N_("Pass"), "done": N_("Done"), "refill": N_("Refill your hand"),
             "trade": N_("Trade nothing"), "discard": N_("Discard nothing")}
    if move in fixed:
        return _(fixed[move])
    if verb == "sail" and args:
        if len(args) == 3 and args[1] == "toward":
            return _("Sail {ship} toward {place}").format(ship=_(the_ship(args[0])), place=_place(args[2], _))
        if len(args) > 1:
            return _("Sail {ship} to {field}").format(ship=_(the_ship(args[0])), field=_field(args[1], _))
        return _("Sail {ship}").format(ship=_(the_ship(args[0])))
    if verb == "stay" and args:
        return _("Leave {ship} where it is").format(ship=_(the_ship(args[0])))
    if verb == "place" and len(args) == 2:
        return _("Put {ship} on {field}").format(ship=_(the_ship(args[0])), field=_field(args[1], _))
    if verb == "declare" and args:
        what = {"both": N_("Privilege and Kaperbrief"), "kaperbrief": N_("Kaperbrief"), "privilege": N_("Privilege")}
        return _("Declare {card}").format(card=_(what.get(args[0], args[0])))
    if verb in ("privilege", "kaperbrief") and args:
        title = _("Privilege") if verb == "privilege" else _("Kaperbrief")
        if args[0] == "raid" and len(args) > 1:
            return _("{card}: raid from {island} with the pirate").format(card=title, island=BOARD.island_name(args[1]))
        what = {"card": N_("play a harbour card"), "move": N_("move a ship"), "unblock": N_("lift the blockade")}
        return f"{title}: " + (_(what[args[0]]) if args[0] in what else words(args[0]))
    if verb == "pirate" and args:
        if args[0] == "stay":
            return _("Leave the pirate where it is")
        return _("Move the pirate to {field}").format(field=_field(args[0], _))
    if verb == "take" and args:
        pairs = [f"{args[i]} {_good(args[i + 1], _)}" for i in range(0, len(args) - 1, 2)]
        return _("Take goods: {goods}").format(goods=", ".join(pairs))
    if verb == "play" and args:
        card = " ".join(args)
        for c in view.get("hand") or []:
            if c.get("card") == card:
                return _("Play {card}").format(card=_(c.get("title_msg") or c["title"]))
        return _("Play {card}").format(card=_goods(args, _))
    if verb == "trade" and args:
        if len(args) % 3 == 0 and all(n.isdigit() for n in args[0::3]):  # count, given, received (HANSE-8.5)
            parts = [_("{n} {good} for {other}").format(n=args[i], good=_good(args[i + 1], _), other=_good(args[i + 2], _))
                     for i in range(0, len(args), 3)]
            return _("Trade {goods}").format(goods=", ".join(parts))
        return _("Trade {goods}").format(goods=_goods(args, _))
    if verb == "discard" and args:
        return _("Discard {good}").format(good=_good(args[0], _))
    if verb == "keep" and args:
        return _("Keep {value}").format(value=args[0])
    if verb == "unload" and args:
        return _("Unload everything") if args[0] == "all" else _("Unload the {good}").format(good=_good(args[0], _))
    return " ".join(_place(t, _) if t in BOARD.harbour_name else t for t in w).capitalize()
