"""Hansa Teutonica moves in words (``label(view, move, names, _)``), from the seat's view only.

``_`` translates a text (the presentation layer passes the viewer's language; English without)."""
from __future__ import annotations

from ..i18n import N_, render
from ..labelkit import words
from .board import ABILITY_NAMES, MARKER_NAMES
from .state import pieces, province

# Headings of the move-button groups where they differ from the web's defaults (by first word).
GROUPS = {"place": N_("Actions"), "move": N_("Actions"), "establish": N_("Actions")}


def _route(view, rid: str) -> str:
    for r in view.get("routes", []):
        if r["id"] == rid:
            return r.get("name") or f"{_city(view, r['a'])}–{_city(view, r['b'])}"
    return "–".join(_city(view, p) for p in rid.split("-"))


def _city(view, cid: str) -> str:
    for c in view.get("cities", []):
        if c["id"].lower() == cid.lower() or c["name"].lower() == cid.lower():
            return c["name"]
    return words(cid)


def _ability(a: str, _=render) -> str:
    name = ABILITY_NAMES.get(a, a)
    return _(name) if isinstance(name, str) else words(a)


def _marker(m: str, _=render) -> str:
    name = MARKER_NAMES.get(m, m)
    return _(name) if isinstance(name, str) else words(m)


def _piece(p: str, _=render) -> str:
    pieces = {"trader": N_("a trader (cube)"), "merchant": N_("a merchant (disc)"), "displaced": N_("the displaced piece")}
    return _(pieces[p]) if p in pieces else p


def _pay(args, _=render) -> str:
    t, m = (int(a[:-1]) for a in args)
    return _(pieces(t, m))


def label(view: dict, move: str, names=None, _=render) -> str:
    w = move.split()
    verb, args = w[0], w[1:]
    fixed = {
        "assign": N_("Action: take pieces from your stock to your supply (Bursa)"),
        "place": N_("Action: place a piece on a route"),
        "displace": N_("Action: displace a rival's piece"),
        "move": N_("Action: move your own pieces (Liber Sophiae)"),
        "end": N_("End your turn"),
        "cancel": N_("Take back this action"),
        "done": N_("Done"),
        "nothing": N_("Take no reward"),
        "elsewhere": N_("Choose another target route"),
        "pawn": N_("Move the pawn"),
    }
    if move in fixed:
        return _(fixed[move])
    if verb == "pawn" and len(args) == 2 and args[0] == "to":
        return _("Put the pawn in {province}").format(province=_(province(args[1])))
    if verb == "with" and args:
        if len(args) >= 4 and args[1] == "pay":
            return _("Use {piece}, paying {pay} into your stock").format(piece=_piece(args[0], _), pay=_pay(args[2:4], _))
        return _("Use {piece}").format(piece=_piece(args[0], _))
    if verb == "take" and len(args) == 2:
        return _("Take {pay} from your stock").format(pay=_pay(args, _))
    if verb == "on" and args:
        return _("Place on {route}").format(route=_route(view, args[0]))
    if verb == "at" and args:
        return _("At {route}").format(route=_route(view, args[0]))
    if verb == "to" and args:
        if "-" in args[0]:
            return _("Move to {route}").format(route=_route(view, args[0]))
        return _("Move the pawn to {province}").format(province=_(province(args[0])))
    if verb == "space" and args:
        return _("Space {n}").format(n=args[0])
    if verb == "from" and len(args) == 2:
        return _("Bring {piece} from {route}").format(piece=_piece(args[1], _), route=_route(view, args[0]))
    if verb == "swap" and len(args) == 2 and "-" in args[0]:
        return _("Swap your trader on {a} with your merchant on {b}").format(a=_route(view, args[0]),
                                                                              b=_route(view, args[1]))
    if verb == "establish" and args:
        if len(args) == 3 and args[1] == "via":
            return _("Action: establish on {route}, moving the pawn to {province}").format(
                route=_route(view, args[0]), province=_(province(args[2])))
        return _("Action: establish on {route}").format(route=_route(view, args[0]))
    if verb in ("kontor", "extra") and len(args) == 2:
        if verb == "extra":
            return _("Build an Extra Kontor beside {city} with {piece}").format(city=_city(view, args[0]),
                                                                                piece=_piece(args[1], _))
        return _("Build a Kontor in {city} with {piece}").format(city=_city(view, args[0]), piece=_piece(args[1], _))
    if verb == "develop" and args:
        return _("Develop {ability}").format(ability=_ability(args[0], _))
    if verb == "coellen" and args:
        return _("Take the {field} space in Coellen").format(field=_(args[0]))
    if verb == "pick" and args:
        return _("Take {piece}").format(piece=_piece(args[0], _))
    if verb == "lift" and len(args) == 2:
        return _("Lift {piece} off {route}").format(piece=_piece(args[1], _), route=_route(view, args[0]))
    if verb == "free" and args:
        if args[1:] == ["end"]:
            return _("Move the pawn free to {province} and end the turn").format(province=_(province(args[0])))
        return _("Move the pawn free to {province}").format(province=_(province(args[0])))
    if verb == "use" and args:
        if args[0] == "upgrade" and len(args) > 1:
            return _("Use a bonus marker: upgrade {ability}").format(ability=_ability(args[1], _))
        if args[0] == "swap" and len(args) == 3:
            return _("Use a bonus marker: swap houses {a} and {b} in {city}").format(
                a=args[2], b=int(args[2]) + 1, city=_city(view, args[1]))
        return _("Use a bonus marker: {marker}").format(marker=_marker(args[0], _))
    return words(move)
